import { declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { z } from "zod";
import type { PaidRoute } from "../PaidRoute";
import { exampleOf } from "./bazaarExample";

/** The route's path as x402's bazaar writes a template: `:address` for each `{address}`. */
export function routeTemplate(route: Pick<PaidRoute, "path">): string {
  return route.path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ":$1");
}

/** The route's path with its example parameters filled in (an audit of USDC): what discovery shows as an example call. */
export function examplePath(route: Pick<PaidRoute, "name" | "path">): string {
  const params = exampleOf(route).pathParams ?? {};
  return route.path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => params[name] ?? `:${name}`);
}

/** JSON Schema of the route's path parameters (its schema in the route list), or undefined when it takes none. */
export function pathParamsSchema(route: Pick<PaidRoute, "request">): Record<string, unknown> | undefined {
  const params = route.request?.params;
  if (!params) return undefined;
  const { $schema: _, ...schema } = z.toJSONSchema(params as z.ZodType, { io: "input", unrepresentable: "any" });
  return schema;
}

/**
 * The bazaar discovery declaration of a payable route, from its definition: no query or body input,
 * its path parameters' schema and an example of them, and its captured answer, abridged, as the output
 * example. The server's bazaar extension adds the method, the template and the actual parameters.
 */
export function bazaarDeclaration(route: PaidRoute): Record<string, unknown> {
  const example = exampleOf(route);
  const schema = pathParamsSchema(route);
  return declareDiscoveryExtension({
    input: {},
    inputSchema: { properties: {}, additionalProperties: false },
    ...(schema && example.pathParams ? { pathParams: example.pathParams, pathParamsSchema: schema } : {}),
    output: { example: example.output },
  });
}
