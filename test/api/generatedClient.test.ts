import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import type { IndexDb } from "../../api/index/indexDb";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";

const pglite = new PGlite();
const app = createApp(testAppParameters(testManifest(), drizzle(pglite) as unknown as IndexDb));

/** A caller of the two enum routes, written against the types generated from the served document. */
const caller = `
import createClient from "openapi-fetch";
import type { paths } from "./schema";

export async function callBoth(fetch: (request: Request) => Promise<Response>) {
  const client = createClient<paths>({ baseUrl: "http://service.test", fetch });
  const sample = await client.GET("/v1/sample", { params: { query: { name: "token-price" } } });
  const price = await client.GET("/v1/token/price/{symbol}", { params: { path: { symbol: "WETH" } } });
  return {
    sample: { status: sample.response.status, paidRoute: sample.data?.paidRoute },
    price: { status: price.response.status, error: price.error?.error, challenge: price.response.headers.has("payment-required") },
  };
}
`;

/** The same calls with values outside the enums: the generated types must refuse both. */
const outsideTheEnums = `
import createClient from "openapi-fetch";
import type { paths } from "./schema";

const client = createClient<paths>({ baseUrl: "http://service.test" });
export const sample = client.GET("/v1/sample", { params: { query: { name: "gas_fees" } } });
export const price = client.GET("/v1/token/price/{symbol}", { params: { path: { symbol: "DOGE" } } });
`;

let dir: string;

beforeAll(async () => {
  // Outside the repository (the project's tsc never sees it), resolving packages through the repository's node_modules.
  dir = mkdtempSync(join(tmpdir(), "generated-client-"));
  symlinkSync(resolve("node_modules"), join(dir, "node_modules"), "dir");
  const document = (await (await app.request("/v1/openapi.json")).json()) as OpenAPI3;
  writeFileSync(join(dir, "schema.d.ts"), astToString(await openapiTS(document)));
  writeFileSync(join(dir, "caller.ts"), caller);
  writeFileSync(join(dir, "outsideTheEnums.ts"), outsideTheEnums);
});
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await pglite.close();
});

/** Type errors of each file, as `tsc --strict` reports them. */
function typeErrors(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(
    files.map((f) => join(dir, f)),
    {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: [],
    },
  );
  const errors = new Map(files.map((f) => [f, [] as string[]]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file ? diagnostic.file.fileName.slice(dir.length + 1) : "(global)";
    const list = errors.get(file) ?? [];
    list.push(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    errors.set(file, list);
  }
  return errors;
}

describe("a client generated from GET /v1/openapi.json (openapi-typescript + openapi-fetch)", () => {
  test("behavior: it compiles with the enums as types, and refuses a symbol or a sample name outside them", () => {
    const errors = typeErrors(["caller.ts", "outsideTheEnums.ts"]);
    expect(errors.get("caller.ts")).toEqual([]);
    expect(errors.get("(global)")).toBeUndefined();
    const refused = errors.get("outsideTheEnums.ts") ?? [];
    expect(refused).toHaveLength(2);
    expect(refused.find((m) => m.includes('"gas_fees"'))).toMatch(/not assignable to type '"gas-fees" \| "dex-metrics" \|/);
    expect(refused.find((m) => m.includes('"DOGE"'))).toMatch(/not assignable to type '"USDC" \| "WETH" \|/);
  });

  test("behavior: it calls both routes: the sample answers 200, the token price its typed 402 with the x402 challenge", async () => {
    const { callBoth } = (await import(join(dir, "caller.ts"))) as {
      callBoth: (fetch: (request: Request) => Promise<Response>) => Promise<unknown>;
    };
    expect(await callBoth(async (request) => app.request(request))).toEqual({
      sample: { status: 200, paidRoute: expect.stringContaining("/v1/token/price/") },
      price: { status: 402, error: "PAYMENT_REQUIRED", challenge: true },
    });
  });
});
