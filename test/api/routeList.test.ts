import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { errorCodes } from "../../api/errors";
import { routeList, routes } from "../../api/routes/routeList";
import { type PayableRoute, payableRoute } from "../../api/routes/servedRoute";
import { readFrozenCapture } from "../../api/samples/sampleCatalogue";
import { bazaarExample, exampleOf } from "../../api/x402/bazaar/bazaarExample";

const apiDir = resolve(import.meta.dirname, "..", "..", "api");
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });

describe("the route list", () => {
  test("behavior: every route's path literal stands in exactly one source file under api/ (its module)", () => {
    const files = sources(apiDir).map((path) => ({ path: relative(apiDir, path), text: readFileSync(path, "utf8") }));
    for (const route of routeList) {
      // The path as written, in Hono's `:param` form, and its static part before a parameter.
      // The root path "/" is the start of every path literal: only longer forms say anything.
      const forms = [route.path, route.path.replace(/\{(\w+)\}/g, ":$1"), route.path.split("{")[0] as string].filter((f) => f.length > 1);
      if (forms.length === 0) continue;
      const holders = files.filter((f) => forms.some((form) => f.text.includes(`"${form}`) || f.text.includes(`\`${form}`)));
      expect(holders, route.name).toHaveLength(1);
      expect(holders[0]?.path, route.name).toMatch(/^routes\/|^mcp\/mcpRoutes\.ts$/);
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
    // A batch of pool reads and an eth_call of up to SIMULATION_CALL_GAS: two credits, or 0.01 USDC per call.
    expect([routes.tokenSimulation.name, routes.tokenSimulation.credits, routes.tokenSimulation.x402PriceUsd]).toEqual([
      "GET /v1/token/simulation/{address}",
      2,
      0.01,
    ]);
    expect(new Set(routeList.map((r) => r.name)).size).toBe(routeList.length);
    for (const route of routeList) {
      if (route.access === "apiKeyOrX402") expect(route.x402PriceUsd, route.name).toBeGreaterThan(0);
      else expect(route.x402PriceUsd, route.name).toBeUndefined();
    }
  });
});

describe("a payable route's module", () => {
  // The spec's six tools leave out the legacy URL of the coverage index: svc_audit_contract answers it.
  const withoutTool = ["GET /v1/security/score/{address}"];

  test("behavior: every payable route carries its handler, its MCP tool, its capture and the discovery example made from it", () => {
    const payable = routeList.filter((route) => route.access === "apiKeyOrX402");
    expect(payable.map((route) => route.name)).toEqual(expect.arrayContaining(["GET /v1/audit/{address}", "GET /v1/gas/fees"]));
    for (const route of payable) {
      const served = route as Partial<PayableRoute>;
      expect(served.handler, route.name).toBeTypeOf("function");
      if (withoutTool.includes(route.name)) expect(served.tool, route.name).toBeNull();
      else expect(served.tool?.name, route.name).toMatch(/^svc_/);
      expect(served.capture, route.name).toBeTypeOf("string");
      const capture = readFrozenCapture(served.capture as NonNullable<typeof served.capture>);
      expect(exampleOf(route), route.name).toEqual(bazaarExample(route, capture));
      const parsed = route.responses[200]?.schema?.safeParse(capture.response);
      expect(parsed?.success, `${route.name}: ${JSON.stringify(parsed?.error?.issues.slice(0, 3))}`).toBe(true);
    }
  });

  test("error: a route without a discovery example is refused by name, never served without one", () => {
    const { example: _, ...bare } = routes.audit;
    expect(() => exampleOf(bare)).toThrow(/GET \/v1\/audit\/\{address\} carries no x402 discovery example/);
  });

  test("error: a payable route whose capture is missing stops the start", () => {
    const missing = "no-such-capture" as PayableRoute["capture"];
    expect(() => payableRoute(routes.audit, { handler: routes.audit.handler, tool: null, capture: missing })).toThrow(/no-such-capture/);
  });

  test("error: a capture of another route's call is refused (the start stops)", () => {
    expect(() => bazaarExample(routes.audit, readFrozenCapture("gas-fees"))).toThrow(/not a call of GET \/v1\/audit/);
  });

  test("default: the example is the captured call's parameters and its answer with every list cut to one entry", () => {
    const { pathParams, output } = exampleOf(routes.audit);
    expect(pathParams).toEqual({ address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" });
    const answer = output as { notASafetyGuarantee: boolean; capabilities: unknown[]; limitations?: unknown };
    expect(answer.notASafetyGuarantee).toBe(true);
    expect(answer.capabilities).toHaveLength(1);
    expect(exampleOf(routes.gasFees).pathParams).toBeUndefined();
    expect(exampleOf(routes.tokenPrice).pathParams).toEqual({ symbol: "WETH" });
    // The trade simulation's example is a devnet fixture's answer: figures of a token taxing buys 3% and sells 7%.
    const simulation = exampleOf(routes.tokenSimulation).output as { figures: { step: string; costBps: number }[]; conclusion: null };
    expect([simulation.figures, simulation.conclusion]).toEqual([[expect.objectContaining({ step: "BUY_SMALL", costBps: 300 })], null]);
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
