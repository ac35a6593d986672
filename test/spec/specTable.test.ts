import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import type { IndexDb } from "../../api/index/indexDb";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";
import { pendingSpecRoutes, specRoutes } from "./specRoutes";
import { additions, omissions } from "./specTableDecisions";

const pglite = new PGlite();
afterAll(() => pglite.close());
const app = createApp(testAppParameters(testManifest(), drizzle(pglite) as unknown as IndexDb));

type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

describe("the spec's endpoint table against the OpenAPI document", () => {
  test("behavior: each built route lists exactly the spec's statuses, plus the documented additions, less the documented omissions", async () => {
    const doc = (await (await app.request("/v1/openapi.json")).json()) as Document;
    const pending = new Set<string>(pendingSpecRoutes.map((r) => r.route));
    let listed = 0;
    let documented = 0;
    for (const { route, statuses } of specRoutes) {
      if (pending.has(route)) continue;
      const [method, path] = route.split(" ") as [string, string];
      const responses = doc.paths[path]?.[method.toLowerCase()]?.responses;
      expect(responses, route).toBeDefined();
      const expected = new Set<number>(statuses);
      for (const a of additions[route] ?? []) expected.add(a.status);
      for (const o of omissions[route] ?? []) expected.delete(o.status);
      expect(new Set(Object.keys(responses ?? {}).map(Number)), route).toEqual(expected);
      listed += statuses.length;
      documented += statuses.filter((s) => !(omissions[route] ?? []).some((o) => o.status === s)).length;
    }
    console.info(`[spec table] statuses the spec lists for built routes: ${listed}; documented: ${documented}`);
  });

  test("behavior: every addition and omission names a route of the spec", () => {
    const routes = new Set<string>(specRoutes.map((r) => r.route));
    for (const route of [...Object.keys(additions), ...Object.keys(omissions)]) expect(routes.has(route), route).toBe(true);
  });
});
