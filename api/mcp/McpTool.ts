import type { z } from "zod";
import type { Result } from "../errors";
import type { RouteDefinition } from "../routes/defineRoute";
import type { RouteParameters } from "../routes/RouteParameters";

/**
 * An MCP tool as its route's module declares it: its name, what it does, its zod input and output
 * schemas, the service it calls (the route's own, from the same dependencies) and a short text of the
 * answer. The route gives it its access, credits and x402 price, and its REST path.
 */
export type RouteTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> = {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  serve(deps: RouteParameters): (input: z.output<I>) => Promise<Result<z.output<O>>>;
  summarize(value: z.output<O>): string;
};

/** A tool as the MCP server registers it: its route's, its service bound to the app's dependencies. */
export type McpTool = Omit<RouteTool, "serve"> & {
  route: RouteDefinition;
  /** The REST path of the same call (an x402 challenge names it as the resource, as the REST route's does). */
  path(input: unknown): string;
  serve(input: unknown): Promise<Result<unknown>>;
};

/** Checks a tool's service against its schemas, then keeps it as any route's tool. */
export const routeTool = <I extends z.ZodObject, O extends z.ZodType>(tool: RouteTool<I, O>) => tool as unknown as RouteTool;
