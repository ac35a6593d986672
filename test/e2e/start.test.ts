import { createPublicClient, http } from "viem";
import { afterAll, describe, expect, test } from "vitest";
import { SlipstreamPoolAbi } from "../../abis/SlipstreamPoolAbi";
import { UniswapV2PairAbi } from "../../abis/UniswapV2PairAbi";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import type { StatusReport } from "../../api/health/StatusReport";
import { readManifest } from "../../devnet/manifest";
import { listeningAddresses } from "../support/listeningAddresses";
import { createThrowawayDatabase, testBackends } from "../support/postgres";
import { type RunningService, startService, waitForJson } from "../support/startService";

type Backend = { name: string; env: () => Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> };

const backends: Backend[] = testBackends().map((name) =>
  name === "pglite"
    ? // Seeds as a user's first start does; the Postgres half (and the run's other services) load the saved seeding.
      { name: "PGlite", env: async () => ({ env: { DEVNET_SEEDED_STATE: "" }, cleanup: async () => {} }) }
    : {
        name: "Postgres",
        env: async () => {
          const db = await createThrowawayDatabase(process.env.DATABASE_URL as string);
          return { env: { DATABASE_URL: db.url }, cleanup: db.drop };
        },
      },
);

/** Only a start that hangs fails on time: devnet, seeding, Ponder and the first backfill take 80 s quiet, more when the machine is busy. */
const startHangMs = 360_000;

describe.each(backends)("npm start on the embedded devnet ($name)", ({ env }) => {
  let service: RunningService | undefined;
  let cleanup = async () => {};
  afterAll(async () => {
    await service?.stop();
    await cleanup();
  });

  test(
    "behavior: /v1/status answers 200 with an indexed head, the index follows the moving chain",
    async () => {
      const backend = await env();
      cleanup = backend.cleanup;
      service = await startService(backend.env);
      const ready = await waitForJson<StatusReport>(
        `${service.baseUrl}/v1/status`,
        (status, body) => status === 200 && body.index?.headBlock !== null,
        startHangMs,
        service,
      ).catch((err) => {
        throw new Error(`${err}\n--- service output ---\n${service?.output().slice(-4000)}`);
      });
      // The time is a figure, not a bound (quiet: about 80 s; a loaded machine doubles it).
      console.info(`[start] /v1/status ready with an indexed head ${(ready.elapsedMs / 1000).toFixed(1)} s after npm start`);
      expect(ready.body.chain).toEqual({ chainId: 8453, network: "eip155:8453", source: "devnet" });
      expect(ready.body.rpc.trustLevel).toBe("TRUSTED_PRIMARY");
      expect(ready.body.persistence.indexStore.available).toBe(true);

      // Timed blocks: the indexed head moves on by itself.
      const first = ready.body.index.headBlock ?? 0;
      // On a busy machine a probe can miss for a moment (a provider read timing out): wait for the settled state.
      const later = await waitForJson<StatusReport>(
        `${service.baseUrl}/v1/status`,
        // A health sample is taken at start, and one a minute: on a loaded machine the first may fail (its
        // store not open yet) and the history's first sample is the next one.
        (_, body) =>
          (body.index?.headBlock ?? 0) >= first + 2 &&
          body.status === "OPERATIONAL" &&
          (body.history?.series.find((s) => s.series === "legacyCore")?.windows[0]?.samples ?? 0) >= 1,
        150_000,
      ).catch(async (err) => {
        throw new Error(`${err}\n--- last status ---\n${await (await fetch(`${service?.baseUrl}/v1/status`)).text()}`);
      });
      expect(later.body.index.lagBlocks).toBeLessThanOrEqual(later.body.index.maxLagBlocks);
      expect(later.body.status).toBe("OPERATIONAL");
      // The server samples its health from the start: the history holds its samples, and no figure yet.
      const core = later.body.history?.series.find((s) => s.series === "legacyCore");
      expect(core?.windows[0]).toMatchObject({ window: "24h", status: "INSUFFICIENT_SAMPLES" });
      expect(core?.windows[0]?.samples).toBeGreaterThanOrEqual(1);

      // Moving markets: the traffic generator swaps, so pool prices change on their own.
      const manifest = readManifest(service.manifestPath);
      const client = createPublicClient({ transport: http(manifest.rpcUrl) });
      const prices = () =>
        Promise.all(
          manifest.pools.map(async (pool) =>
            pool.kind === "uniswap-v3" || pool.kind === "slipstream"
              ? String(
                  (
                    await client.readContract({
                      address: pool.address,
                      abi: pool.kind === "slipstream" ? SlipstreamPoolAbi : UniswapV3PoolAbi,
                      functionName: "slot0",
                    })
                  )[0],
                )
              : String((await client.readContract({ address: pool.address, abi: UniswapV2PairAbi, functionName: "getReserves" }))[0]),
          ),
        );
      const before = await prices();
      await new Promise((r) => setTimeout(r, 6_000));
      const after = await prices();
      expect(after.filter((p, i) => p !== before[i]).length).toBeGreaterThan(0);
    },
    startHangMs + 90_000,
  );

  test("behavior: the public port answers /v1 and the probes; Ponder's own routes are ours 404 there, its server is on 127.0.0.1 only", async () => {
    if (!service) throw new Error("the service did not start");
    const { baseUrl, indexerPort } = service;
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "UP" });
    const ready = await waitForJson(`${baseUrl}/ready`, (status) => status === 200, 60_000, service);
    expect(ready.body).toEqual({ status: "READY" });

    for (const path of ["/metrics", "/status", "/client", "/v1/no-such-route"]) {
      const res = await fetch(`${baseUrl}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(await res.json(), path).toEqual({ error: "NOT_FOUND", message: `no route GET ${path}` });
    }

    // Ponder's server: its own routes, for operators on this machine only.
    expect((await fetch(`http://127.0.0.1:${indexerPort}/ready`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${indexerPort}/metrics`)).status).toBe(200);
    const bound = listeningAddresses(indexerPort);
    if (bound) expect(bound).toEqual(["127.0.0.1"]);
  });

  test("behavior: Ctrl-C stops it and frees both ports", async () => {
    if (!service) throw new Error("the service did not start");
    const { baseUrl, indexerPort } = service;
    expect(await service.stop()).toBe(0);
    service = undefined;
    await expect(fetch(`${baseUrl}/v1/status`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${indexerPort}/status`)).rejects.toThrow();
    const bound = listeningAddresses(indexerPort);
    if (bound) expect(bound).toEqual([]);
  });
});

// On PGlite (startService's default) in either run: where TEST_BACKENDS leaves PGlite out it ran already.
describe.skipIf(!testBackends().includes("pglite"))("npm start on the embedded devnet, on a HOST beyond loopback", () => {
  test("error: it refuses to start (non-zero exit) and says why and how to allow it", async () => {
    const service = await startService({ HOST: "0.0.0.0" });
    try {
      const deadline = Date.now() + 60_000;
      while (service.exitCode() === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(service.exitCode()).not.toBe(0);
      expect(service.exitCode()).not.toBeNull();
      expect(service.output()).toMatch(/HOST: the devnet .* listens on loopback only, not 0\.0\.0\.0/);
      expect(service.output()).toMatch(/valid on Base/);
      expect(service.output()).toMatch(/DEVNET_ALLOW_PUBLIC_HOST=true/);
    } finally {
      await service.stop();
    }
  }, 90_000);

  test("behavior: with DEVNET_ALLOW_PUBLIC_HOST=true it starts on 0.0.0.0 (asked over loopback only)", async () => {
    const service = await startService({ HOST: "0.0.0.0", DEVNET_ALLOW_PUBLIC_HOST: "true", DEVNET_TRAFFIC: "false" });
    try {
      const health = await waitForJson(`${service.baseUrl}/health`, (status) => status === 200, 120_000, service);
      expect(health.body).toEqual({ status: "UP" });
      const bound = listeningAddresses(Number(new URL(service.baseUrl).port));
      if (bound) expect(bound).toEqual(["0.0.0.0"]);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 200_000);
});
