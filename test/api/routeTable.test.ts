import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { errorCodes } from "../../api/errors";
import { routeList, routes } from "../../api/routes/routeTable";

const apiDir = resolve(import.meta.dirname, "..", "..", "api");
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });

describe("the route table", () => {
  test("behavior: every route's path literal stands in exactly one source file under api/ (the table)", () => {
    const files = sources(apiDir).map((path) => ({ path: relative(apiDir, path), text: readFileSync(path, "utf8") }));
    for (const route of routeList) {
      // The path as written, in Hono's `:param` form, and its static part before a parameter.
      // The root path "/" is the start of every path literal: only longer forms say anything.
      const forms = [route.path, route.path.replace(/\{(\w+)\}/g, ":$1"), route.path.split("{")[0] as string].filter((f) => f.length > 1);
      if (forms.length === 0) continue;
      const holders = files.filter((f) => forms.some((form) => f.text.includes(`"${form}`) || f.text.includes(`\`${form}`)));
      expect(
        holders.map((f) => f.path),
        route.name,
      ).toEqual(["routes/routeTable.ts"]);
    }
  });

  test("behavior: every route's path and query schemas parse synchronously (validateParameters uses safeParse; an async one would answer 500)", () => {
    for (const route of routeList) {
      const request = route.openapi.request as { params?: z.ZodObject; query?: z.ZodObject };
      for (const schema of [request.params, request.query]) {
        if (!schema) continue;
        // Every declared parameter present, so each field's checks and the object's own refinements run.
        const filled = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, "1"]));
        for (const value of [{}, filled]) expect(() => schema.safeParse(value), route.name).not.toThrow();
      }
    }
  });

  test("behavior: a route that stores an intent or checks a credential lists the 429s of its abuse limits", () => {
    const credentialRefusals: string[] = ["INVALID_API_KEY", "INVALID_GATEWAY_CREDENTIAL", "OPERATOR_UNAUTHORIZED"];
    const storing = routeList.filter((r) => r.createsIntent).map((r) => r.name);
    expect(storing.sort()).toEqual(["POST /v1/keys/recovery/challenge", "POST /v1/subscribe/free/challenge", "POST /v1/subscribe/intents"]);
    for (const route of routeList) {
      if (route.createsIntent)
        expect(route.errors, route.name).toEqual(expect.arrayContaining(["INTENT_RATE_LIMITED", "TOO_MANY_OPEN_INTENTS"]));
      if (route.errors.some((code) => credentialRefusals.includes(code))) {
        expect(route.errors, route.name).toContain("TOO_MANY_FAILED_AUTHENTICATIONS");
      }
    }
  });

  test("default: names, prices and credits as the spec gives them", () => {
    expect(routes.audit.name).toBe("GET /v1/audit/{address}");
    expect(routes.audit.x402PriceUsd).toBe(0.02);
    expect(routes.score.x402PriceUsd).toBe(0.02);
    expect(routes.preflight.credits).toBe(1);
    expect(new Set(routeList.map((r) => r.name)).size).toBe(routeList.length);
    for (const route of routeList) {
      if (route.access === "apiKeyOrX402") expect(route.x402PriceUsd, route.name).toBeGreaterThan(0);
      else expect(route.x402PriceUsd, route.name).toBeUndefined();
    }
  });
});

describe("the published error table (docs/api.md)", () => {
  test("behavior: every error code stands in the row of its status, and no row names a code that does not exist", () => {
    const doc = readFileSync(resolve(apiDir, "..", "docs", "api.md"), "utf8");
    const rows = new Map(
      [...doc.matchAll(/^\| (\d{3}) \| (.*) \|$/gm)].map((m) => [
        Number(m[1]),
        new Set([...(m[2] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((c) => c[1])),
      ]),
    );
    for (const [code, spec] of Object.entries(errorCodes)) {
      expect(rows.get(spec.status)?.has(code), `${code} in the ${spec.status} row`).toBe(true);
    }
    const known = new Set(Object.keys(errorCodes));
    for (const [status, codes] of rows) for (const code of codes) expect(known.has(code as string), `${status}: ${code}`).toBe(true);
  });
});
