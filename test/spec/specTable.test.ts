import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import type { IndexDb } from "../../api/index/indexDb";
import { testAppDeps } from "../support/app";
import { testManifest } from "../support/devnet";
import { pendingSpecRoutes, specRoutes } from "./specRoutes";

const pglite = new PGlite();
afterAll(() => pglite.close());
const app = createApp(testAppDeps(testManifest(), drizzle(pglite) as unknown as IndexDb));

/**
 * Statuses we answer beyond the spec's list, each with why (the README's API reference names them):
 * every route refuses a credential in its URL (401), every JSON body has a size cap (413), every
 * unauthenticated route is limited per client address (429).
 */
const additions: Record<string, { status: number; why: string }[]> = {
  "GET /v1/status": [{ status: 401, why: "a credential in the query string" }],
  "GET /v1/plans": [
    { status: 401, why: "a credential in the query string" },
    { status: 429, why: "limited per client address" },
  ],
  "GET /v1/demo/audit/{address}": [
    { status: 401, why: "a credential in the query string" },
    { status: 429, why: "limited per client address" },
  ],
  "GET /v1/operator/gateway-proxy-digest": [{ status: 429, why: "limited per client address, and failed tokens per address" }],
  "POST /v1/subscribe/free/challenge": [
    { status: 401, why: "a credential in the query string" },
    { status: 413, why: "body cap" },
  ],
  "POST /v1/subscribe/free/claim": [{ status: 413, why: "body cap" }],
  "POST /v1/subscribe/intents": [{ status: 413, why: "body cap" }],
  "POST /v1/subscribe/crypto": [
    { status: 401, why: "a credential in the query string" },
    { status: 413, why: "body cap" },
  ],
  "POST /v1/transaction/preflight": [{ status: 413, why: "body cap" }],
  "POST /v1/keys/revoke": [{ status: 413, why: "body cap" }],
  "POST /v1/keys/recovery/challenge": [
    { status: 401, why: "a credential in the query string" },
    { status: 413, why: "body cap" },
  ],
  "POST /v1/keys/recovery/claim": [{ status: 413, why: "body cap" }],
};

/** Statuses the spec lists that we do not answer, each with the decision behind it. */
const omissions: Record<string, { status: number; why: string }[]> = {
  "GET /v1/keys/self": [{ status: 402, why: "an expired key may describe itself (KeySelf status EXPIRED); the route costs no credit" }],
  "POST /v1/keys/revoke": [{ status: 402, why: "an expired key may revoke itself; the route costs no credit" }],
};

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
