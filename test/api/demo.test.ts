import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import { demoSamples } from "../../api/capability/demoSamples";
import type { IndexDb } from "../../api/index/indexDb";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";

const manifest = testManifest();
const pglite = new PGlite();
afterAll(() => pglite.close());
const app = createApp(testAppParameters(manifest, drizzle(pglite) as unknown as IndexDb));

describe("GET /v1/demo/audit/{address}", () => {
  test("default: a published sample gets the full audit evidence, with provenance headers", async () => {
    const res = await app.request(`/v1/demo/audit/${manifest.contracts.diamond}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-rpc-provider")).toBe("devnet");
    expect(res.headers.get("x-service-trust-level")).toBe("TRUSTED_PRIMARY");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "SUCCESS", notASafetyGuarantee: true, demo: { allowlisted: true } });
    expect(typeof body.capabilityScore).toBe("number");
    expect(body.resolution).toMatchObject({ proxyType: "EIP2535_DIAMOND" });
  });

  test("behavior: any other contract gets a preview with indicators and an upgrade prompt, no score", async () => {
    const res = await app.request(`/v1/demo/audit/${manifest.contracts.diamondMintFacet}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: "PREVIEW",
      notASafetyGuarantee: true,
      indicators: { mintSelector: true },
      upgrade: { x402PriceUsd: 0.02 },
    });
    expect(body).not.toHaveProperty("capabilityScore");
    expect(body).not.toHaveProperty("capabilities");
  });

  test("behavior: the preview lists the demo allowlist, and a listed sample is then answered in full", async () => {
    const res = await app.request(`/v1/demo/audit/${manifest.contracts.diamondMintFacet}`);
    const { demo } = (await res.json()) as { demo: { allowlisted: boolean; samples: { name: string; address: string }[] } };
    expect(demo).toEqual({ allowlisted: false, samples: demoSamples(undefined, manifest) });
    expect(demo.samples.map((s) => s.name)).toContain("plainToken");
    const listed = demo.samples.find((s) => s.name === "plainToken");
    const full = (await (await app.request(`/v1/demo/audit/${listed?.address}`)).json()) as Record<string, unknown>;
    expect(full).toMatchObject({ status: "SUCCESS", demo: { allowlisted: true, samples: demo.samples } });
    expect(typeof full.capabilityScore).toBe("number");
  });

  test("behavior: lowercase and checksummed addresses are the same sample", async () => {
    const res = await app.request(`/v1/demo/audit/${manifest.contracts.diamond?.toLowerCase()}`);
    expect(((await res.json()) as { demo?: unknown }).demo).toBeDefined();
  });

  test("error: a malformed or wrongly checksummed address is 400 INVALID_ADDRESS", async () => {
    for (const bad of ["0x1234", "not-an-address", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02914".replace("fCD", "FCD")]) {
      const res = await app.request(`/v1/demo/audit/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toMatchObject({ error: "INVALID_ADDRESS" });
    }
  });

  test("error: every provider down is 503 DATA_SOURCE_UNAVAILABLE", async () => {
    const down = [{ name: "devnet", url: "http://127.0.0.1:9", trusted: true }];
    const offline = createApp(
      testAppParameters(manifest, drizzle(pglite) as unknown as IndexDb, { capability: { providers: down, chainId: 8453, samples: [] } }),
    );
    const res = await offline.request(`/v1/demo/audit/${manifest.contracts.diamond}`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: "DATA_SOURCE_UNAVAILABLE" });
  });
});
