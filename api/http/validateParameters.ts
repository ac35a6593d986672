import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { AccessEnv } from "../access/AccessControlParameters";
import { validationHook } from "./validationHook";

/** A route's path and query parameter schemas. */
export type ParameterSchemas = { params?: z.ZodType; query?: z.ZodType };

/**
 * Validates a route's path and query parameters with its own schemas, in one middleware, synchronously;
 * a refusal is `validationHook`'s 400. It stands in for zod-openapi's validators of the two (which
 * parse asynchronously, and first read the request's Content-Type, building its WHATWG `Headers`),
 * so a metered GET is validated without either cost (docs/operations.md#the-market-route). The handler
 * reads the result with `c.req.valid("param")` and `c.req.valid("query")` as before. The schemas must
 * parse synchronously (no async refinement or transform: zod throws on one, a 500), as every one in the
 * route list does (test/api/routeList.test.ts).
 */
export function validateParameters({ params, query }: ParameterSchemas): MiddlewareHandler<AccessEnv> {
  return function validateParameters(c, next) {
    if (params) c.req.addValidatedData("param", parsed(c, params, "param", c.req.param()));
    if (query) c.req.addValidatedData("query", parsed(c, query, "query", queryValues(c.req.queries())));
    return next();
  };
}

/** `value` as `schema` parses it, or the 400 `validationHook` throws for it. */
function parsed(c: Context<AccessEnv>, schema: z.ZodType, target: "param" | "query", value: unknown): object {
  const result = schema.safeParse(value);
  if (result.success) return result.data as object;
  validationHook({ ...result, target, data: value } as Parameters<typeof validationHook>[0], c);
  throw result.error;
}

/** Each query parameter's value, or its values when it is repeated (what Hono's validator passes). */
function queryValues(queries: Record<string, string[]>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(queries).map(([name, values]) => [name, values.length === 1 ? (values[0] as string) : values]));
}
