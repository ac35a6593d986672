import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import type { IndexDb } from "../../api/index/indexDb";
import { documentedRoutes } from "../../api/openapi/document";
import { testAppDeps } from "../support/app";
import { testManifest } from "../support/devnet";

const pglite = new PGlite();
afterAll(() => pglite.close());
const app = createApp(testAppDeps(testManifest(), drizzle(pglite) as unknown as IndexDb));

describe("GET /v1/openapi.json", () => {
  test("default: OpenAPI 3.1.0 of API version 2.2.0, with JSON schemas for the records", async () => {
    const res = await app.request("/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("2.2.0");
    expect(doc.paths["/v1/audit/{address}"]?.get?.responses["200"]?.content).toBeDefined();
  });

  test("behavior: the document and the app describe exactly the same routes", () => {
    const served = app.routes.filter((r) => r.method !== "ALL" && r.path !== "*" && r.path !== "/*").map((r) => `${r.method} ${r.path}`);
    const documented = documentedRoutes().map((r) => `${r.method} ${r.path}`);
    expect(new Set(served)).toEqual(new Set(documented));
  });
});
