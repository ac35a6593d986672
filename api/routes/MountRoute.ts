import type { RouteHandler } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AccessEnv } from "../access/AccessControlParameters";
import type { RouteDefinition } from "./defineRoute";

/** Registers a route of the list with its handler; the middleware comes from the definition. */
export type MountRoute = <R extends RouteDefinition>(route: R, handler: RouteHandler<R["openapi"], AccessEnv>) => void;

/** The middleware a route's definition asks for, in order, before its own schemas and handler run. */
export type AccessChain = (route: RouteDefinition) => MiddlewareHandler<AccessEnv>[];
