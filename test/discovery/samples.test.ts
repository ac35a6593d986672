import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import type { IndexDb } from "../../api/index/indexDb";
import { routeList } from "../../api/routes/routeList";
import { sampleRoutes } from "../../api/samples/buildSamples";
import { SampleEnvelope, SampleIndex } from "../../api/samples/SampleEnvelope";
import { readFrozenCapture } from "../../api/samples/sampleCatalogue";
import { sampleNames } from "../../api/samples/sampleNames";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";

const pglite = new PGlite();
afterAll(() => pglite.close());
// x402 configured (the default test deps): the samples must still never ask for payment.
const routeOf = sampleRoutes(routeList);
const app = createApp(testAppParameters(testManifest(), drizzle(pglite) as unknown as IndexDb));

describe("GET /v1/samples and GET /v1/sample", () => {
  test("default: the index lists every sample with an absolute URL that answers its envelope", async () => {
    const res = await app.request("/v1/samples");
    expect(res.status).toBe(200);
    const index = SampleIndex.parse(await res.json());
    expect(index.samples.map((s) => s.name)).toEqual([...sampleNames]);
    for (const { name, url } of index.samples) {
      const { pathname, search } = new URL(url);
      const sample = await app.request(`${pathname}${search}`);
      expect(sample.status, name).toBe(200);
      const envelope = SampleEnvelope.parse(await sample.json());
      expect(envelope).toMatchObject({ status: "SAMPLE", sample: true, network: "eip155:8453" });
    }
  });

  test("behavior: a payable route's sample carries its x402 price in USDC; the preflight's is metered, not x402", async () => {
    for (const name of sampleNames) {
      const envelope = (await (await app.request(`/v1/sample?name=${name}`)).json()) as SampleEnvelope;
      const route = routeOf[name];
      if (name === "transaction-preflight") {
        expect(envelope).toMatchObject({ priceUsd: null, currency: null, access: "API_KEY_OR_GATEWAY_METERED_NOT_X402" });
      } else {
        expect(envelope, name).toMatchObject({ priceUsd: route.x402PriceUsd, currency: "USDC", access: "API_KEY_OR_X402" });
      }
      expect(envelope.paidRoute.startsWith(route.name.split("{")[0] as string), name).toBe(true);
    }
  });

  test("behavior: each frozen answer still validates against its route's current response schema", () => {
    for (const name of sampleNames) {
      const schema = routeOf[name].responses[200]?.schema;
      expect(schema, name).toBeDefined();
      const capture = readFrozenCapture(name);
      const parsed = schema?.safeParse(capture.response);
      expect(parsed?.success, `${name}: ${JSON.stringify(parsed?.error?.issues.slice(0, 3))}`).toBe(true);
    }
  });

  test("behavior: the preflight sample is a real Diamond observation (the spec's observed values)", () => {
    const { response } = readFrozenCapture("transaction-preflight");
    expect(response).toMatchObject({
      status: "SUCCESS",
      operation: "TRANSACTION_PREFLIGHT_OBSERVATION",
      evidenceStatus: "VERIFIED",
      capabilityEvidence: { executionRole: "SELECTED_DIAMOND_FACET" },
      notASafetyGuarantee: true,
    });
  });

  test("error: an unknown name is 404 UNKNOWN_SAMPLE with the list; a missing name is 400", async () => {
    const unknown = await app.request("/v1/sample?name=gas");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "UNKNOWN_SAMPLE", supported: [...sampleNames] });
    const proto = await app.request("/v1/sample?name=__proto__");
    expect(proto.status).toBe(404);
    const missing = await app.request("/v1/sample");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: "INVALID_PARAMETER" });
  });
});
