import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import type { RpcProvider } from "../../api/chain/providers";
import type { CheckStatusParameters } from "../../api/health/checkStatus";
import { StatusReport } from "../../api/health/StatusReport";
import type { IndexDb } from "../../api/index/indexDb";
import { type AppStore, createAppStore } from "../../api/store/createAppStore";
import { createInProcessFacilitator } from "../../api/x402/createInProcessFacilitator";
import { createRemoteFacilitator } from "../../api/x402/createRemoteFacilitator";
import { baseNetwork } from "../../base/baseChain";
import { freePort } from "../../devnet/anvil";
import { chainHead } from "../../ponder.schema";
import { testAppStore } from "../support/access";
import { testAppParameters } from "../support/app";
import { devnetProvider, publicDevnetProvider, testClient, testManifest } from "../support/devnet";
import { startRpcProxy } from "../support/rpcProxy";
import { testFacilitator } from "../support/x402";

const manifest = testManifest();
let pglite: PGlite;
let indexDb: IndexDb;

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec(
    "CREATE TABLE chain_head (chain_id integer PRIMARY KEY, number numeric(78) NOT NULL, hash text NOT NULL, timestamp numeric(78) NOT NULL)",
  );
  indexDb = drizzle(pglite) as unknown as IndexDb;
  // Migrated before any check: PGlite's start runs on this thread for seconds on a loaded machine, and a
  // provider probe timed alongside it would time out (seen beside a CPU burner).
  await testAppStore().ready;
});
afterAll(() => pglite.close());

/** The app whose status reads `db`, `providers` (the devnet as a trusted primary when a URL is given) and `appStore`. */
const statusApp = (
  db: IndexDb,
  providers: string | RpcProvider[],
  appStore: AppStore = testAppStore(),
  extra: Partial<CheckStatusParameters> = {},
) =>
  createApp(
    testAppParameters(manifest, db, {
      status: {
        indexDb: db,
        appStore,
        payoutAddress: manifest.payoutAddress,
        providers: typeof providers === "string" ? [devnetProvider(providers)] : providers,
        chainId: 8453,
        source: "devnet",
        maxIndexLagBlocks: 5,
        x402Facilitator: null,
        ...extra,
      },
    }),
  );

/** An app store that cannot answer: opened, then closed. */
async function closedAppStore(): Promise<AppStore> {
  const store = createAppStore({ kind: "pglite", directory: "memory://" });
  await store.ready;
  await store.close();
  return store;
}

describe("GET /v1/status", () => {
  test("default: a fresh index and a live provider are OPERATIONAL with the index's head", async () => {
    const block = await testClient(manifest).getBlock();
    await drizzle(pglite)
      .insert(chainHead)
      .values({ chainId: 8453, number: block.number, hash: block.hash, timestamp: block.timestamp })
      .onConflictDoUpdate({
        target: chainHead.chainId,
        set: { number: block.number, hash: block.hash, timestamp: block.timestamp },
      });
    // The chain read through a head held at the indexed block: other test files mine meanwhile, and a
    // slow machine could otherwise see the index fall behind by more than the bound before the check.
    const provider = await startRpcProxy(manifest.rpcUrl);
    let res: Response;
    try {
      await provider.holdHead(Number(block.number));
      const x402Facilitator = testFacilitator(manifest, undefined, [provider.url]);
      res = await statusApp(indexDb, provider.url, testAppStore(), { x402Facilitator }).request("/v1/status");
    } finally {
      await provider.stop();
    }
    expect(res.status).toBe(200);
    const body = StatusReport.parse(await res.json());
    expect(body.status, JSON.stringify(body)).toBe("OPERATIONAL");
    expect(body.index.headBlock).toBe(Number(block.number));
    expect(body.index.headBlockHash).toBe(block.hash);
    expect(body.rpc.providers[0]).toMatchObject({ name: "devnet", available: true });
    expect(body.verdictQuality).toBe("EVIDENCE_GRADE");
    expect(body.persistence.appStore.available).toBe(true);
    expect(body.paymentSettlement).toMatchObject({
      payoutAddress: manifest.payoutAddress,
      subscriptionPayments: "AVAILABLE",
      confirmationsRequired: 3,
      x402: "AVAILABLE",
      x402Facilitator: "IN_PROCESS",
      x402Reason: null,
    });
  });

  test("behavior: x402 is reported as it stands: not configured, an unfunded gas key, an unreachable chain or facilitator, a store down", async () => {
    const x402Of = async (
      x402Facilitator: CheckStatusParameters["x402Facilitator"],
      providers: string | RpcProvider[] = manifest.rpcUrl,
      store = testAppStore(),
    ) => {
      const body = StatusReport.parse(await (await statusApp(indexDb, providers, store, { x402Facilitator }).request("/v1/status")).json());
      return { ...body.paymentSettlement, status: body.status };
    };
    expect(await x402Of(null)).toMatchObject({ x402: "NOT_CONFIGURED", x402Facilitator: null, x402Reason: null });
    const unfunded = testFacilitator(manifest, generatePrivateKey());
    expect(await x402Of(unfunded)).toMatchObject({ x402: "UNAVAILABLE", x402Reason: "GAS_KEY_UNFUNDED", status: "DEGRADED" });
    const deadUrl = `http://127.0.0.1:${await freePort()}`;
    const cutOff = createInProcessFacilitator({
      privateKey: manifest.accounts.facilitator.privateKey,
      rpcUrls: [deadUrl],
      network: baseNetwork,
    });
    expect(await x402Of(cutOff)).toMatchObject({ x402: "UNAVAILABLE", x402Reason: "RPC_UNREACHABLE" });
    // The facilitator settles through the providers: a lone public one is not evidence grade.
    const lonePublic = [publicDevnetProvider(manifest.rpcUrl, "public-1")];
    expect(await x402Of(testFacilitator(manifest), lonePublic)).toMatchObject({
      x402: "UNAVAILABLE",
      x402Reason: "CHAIN_NOT_EVIDENCE_GRADE",
    });
    expect(await x402Of(testFacilitator(manifest), manifest.rpcUrl, await closedAppStore())).toMatchObject({
      x402: "UNAVAILABLE",
      x402Reason: "APP_STORE_UNAVAILABLE",
    });
    const remote = createRemoteFacilitator({ url: deadUrl, network: baseNetwork });
    expect(await x402Of(remote)).toMatchObject({ x402: "UNAVAILABLE", x402Facilitator: "REMOTE", x402Reason: "FACILITATOR_UNREACHABLE" });
  });

  test("behavior: an unreachable app store is DEGRADED, and subscription payments UNAVAILABLE", async () => {
    const res = await statusApp(indexDb, manifest.rpcUrl, await closedAppStore()).request("/v1/status");
    expect(res.status).toBe(200);
    const body = StatusReport.parse(await res.json());
    expect(body.status).toBe("DEGRADED");
    expect(body.persistence.appStore).toMatchObject({ available: false, error: "app store unreachable" });
    expect(body.paymentSettlement.subscriptionPayments).toBe("UNAVAILABLE");
  });

  test("behavior: an index far behind the chain is DEGRADED and stale", async () => {
    await drizzle(pglite).update(chainHead).set({ number: 0n });
    const client = testClient(manifest);
    const head = await client.getBlockNumber();
    if (head < 6n) await client.mine({ blocks: 6 });
    const body = (await (await statusApp(indexDb, manifest.rpcUrl).request("/v1/status")).json()) as StatusReport;
    expect(body.index.stale).toBe(true);
    expect(body.status).toBe("DEGRADED");
  });

  test("error: persistence and RPC both unreachable is 503 UNAVAILABLE with the same body shape", async () => {
    const closed = new PGlite();
    await closed.close();
    const deadUrl = `http://127.0.0.1:${await freePort()}`;
    const res = await statusApp(drizzle(closed) as unknown as IndexDb, deadUrl, await closedAppStore()).request("/v1/status");
    expect(res.status).toBe(503);
    const body = StatusReport.parse(await res.json());
    expect(body.status).toBe("UNAVAILABLE");
    expect(body.rpc.available).toBe(false);
    expect(body.persistence.indexStore.available).toBe(false);
    expect(body.verdictQuality).toBe("UNVERIFIED");
  });

  test("behavior: 50 concurrent calls probe each provider once; a second later the probes run again", async () => {
    const proxies = [await startRpcProxy(manifest.rpcUrl), await startRpcProxy(manifest.rpcUrl)];
    try {
      // The clock moves only when the test says so: the cache's second is never raced against a busy machine.
      let now = new Date();
      const [primary, publicOne] = proxies.map((p) => p.url);
      const app = statusApp(
        indexDb,
        [devnetProvider(primary as string, "primary:127.0.0.1"), publicDevnetProvider(publicOne as string, "public-1:127.0.0.1")],
        testAppStore(),
        { now: () => now },
      );
      const statuses = await Promise.all(Array.from({ length: 50 }, () => app.request("/v1/status")));
      expect(statuses.every((r) => r.status === 200)).toBe(true);
      const bodies = (await Promise.all(statuses.map((r) => r.json()))) as StatusReport[];
      expect(bodies.every((b) => b.rpc.providers.every((p) => p.available))).toBe(true);
      expect(await Promise.all(proxies.map((p) => p.requests()))).toEqual([1, 1]);
      now = new Date(now.getTime() + 999);
      await app.request("/v1/status");
      expect(await Promise.all(proxies.map((p) => p.requests()))).toEqual([1, 1]);
      now = new Date(now.getTime() + 2);
      await Promise.all(Array.from({ length: 10 }, () => app.request("/v1/status")));
      expect(await Promise.all(proxies.map((p) => p.requests()))).toEqual([2, 2]);
    } finally {
      await Promise.all(proxies.map((p) => p.stop()));
    }
  });

  test("behavior: the status judges RPC trust by the pinning rule: one public provider, or two that disagree, is UNVERIFIED", async () => {
    const proxies = [await startRpcProxy(manifest.rpcUrl), await startRpcProxy(manifest.rpcUrl)];
    try {
      const ask = async (providers: RpcProvider[]) =>
        StatusReport.parse(await (await statusApp(indexDb, providers).request("/v1/status")).json());
      const publicOnes = proxies.map((p, i) => publicDevnetProvider(p.url, `public-${i}`));
      const one = await ask(publicOnes.slice(0, 1));
      expect(one.rpc).toMatchObject({ available: true, trustLevel: "UNVERIFIED", reason: "NO_PUBLIC_QUORUM" });
      expect(one.verdictQuality).toBe("UNVERIFIED");
      expect(one.status).toBe("DEGRADED");
      expect((await ask(publicOnes)).rpc).toMatchObject({ trustLevel: "PUBLIC_QUORUM", reason: null });
      await proxies[1]?.setMode("alter-hash");
      const split = await ask(publicOnes);
      expect(split.rpc).toMatchObject({ trustLevel: "UNVERIFIED", reason: "PROVIDERS_DISAGREE_ON_BLOCK_HASH" });
      expect(split.verdictQuality).toBe("UNVERIFIED");
    } finally {
      await Promise.all(proxies.map((p) => p.stop()));
    }
  });

  test("behavior: RPC down but the index readable is DEGRADED (200)", async () => {
    const deadUrl = `http://127.0.0.1:${await freePort()}`;
    const res = await statusApp(indexDb, deadUrl).request("/v1/status");
    expect(res.status).toBe(200);
    expect(((await res.json()) as StatusReport).status).toBe("DEGRADED");
  });
});
