import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AuditResponse } from "../../api/capability/AuditResponse";
import type { ContractAnalysis } from "../../api/capability/analyseContract";
import { type AuditContractParameters, auditContract } from "../../api/capability/auditContract";
import { createObservationCache } from "../../api/capability/createObservationCache";
import { devnetProvider, testClient, testManifest } from "../support/devnet";
import { pinnedBlock } from "../support/observationBlock";
import { type RpcProxy, startRpcProxy } from "../support/rpcProxy";

const address: Address = "0x00000000000000000000000000000000000C0DE1";
const block = (n: number, providerName = "devnet") => pinnedBlock(n, { providerName });

/** An analysis whose dissected code totals `bytes`, with `failedReads` failed reads. */
function analysis(bytes = 100, failedReads = 0): ContractAnalysis {
  return {
    resolution: {} as ContractAnalysis["resolution"],
    dissected: [
      { address, role: "SURFACE_TARGET", dissection: { bytecodeSizeBytes: bytes } as ContractAnalysis["dissected"][number]["dissection"] },
    ],
    reads: {
      pinnedBlockTag: "0x1",
      stateBearingCallCount: 1,
      failedReadCount: failedReads,
      failures: [],
      calls: [],
      roundTrips: 1,
      observationReused: false,
    },
  };
}

/** An analyse function that counts its runs. */
function counted(make: () => ContractAnalysis | Promise<ContractAnalysis> = () => analysis()) {
  const runs = { count: 0 };
  const analyse = async () => {
    runs.count += 1;
    return make();
  };
  return { runs, analyse };
}

describe("createObservationCache", () => {
  test("default: the same address at the same block hash is analysed once and then reused", async () => {
    const cache = createObservationCache();
    const { runs, analyse } = counted();
    const first = await cache.observe({ block: block(1), address }, analyse);
    const second = await cache.observe({ block: block(1), address: address.toLowerCase() as Address }, analyse);
    expect(runs.count).toBe(1);
    expect([first.reused, second.reused]).toEqual([false, true]);
    expect(second.analysis).toBe(first.analysis);
  });

  test("behavior: concurrent requests share the analysis in flight", async () => {
    const cache = createObservationCache();
    const { runs, analyse } = counted();
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.observe({ block: block(1), address }, analyse)));
    expect(runs.count).toBe(1);
    expect(answers.filter((a) => a.reused)).toHaveLength(9);
  });

  test("behavior: another block hash, provider or selector is another observation", async () => {
    const cache = createObservationCache();
    const { runs, analyse } = counted();
    await cache.observe({ block: block(1), address }, analyse);
    await cache.observe({ block: block(2), address }, analyse);
    await cache.observe({ block: block(1, "other"), address }, analyse);
    await cache.observe({ block: block(1), address, selector: "0x40c10f19" as Hex }, analyse);
    expect(runs.count).toBe(4);
  });

  test("behavior: at most maxEntries are kept, the least recently used going first", async () => {
    const cache = createObservationCache({ maxEntries: 2 });
    const { runs, analyse } = counted();
    await cache.observe({ block: block(1), address }, analyse);
    await cache.observe({ block: block(2), address }, analyse);
    await cache.observe({ block: block(1), address }, analyse); // block 1 is now the most recent
    await cache.observe({ block: block(3), address }, analyse); // evicts block 2
    expect(cache.size()).toBe(2);
    await cache.observe({ block: block(1), address }, analyse);
    expect(runs.count).toBe(3);
    await cache.observe({ block: block(2), address }, analyse);
    expect(runs.count).toBe(4);
  });

  test("behavior: the dissected bytes kept are bounded too", async () => {
    const cache = createObservationCache({ maxEntries: 100, maxDissectedBytes: 1000 });
    const { analyse } = counted(() => analysis(400));
    for (let n = 1; n <= 10; n++) await cache.observe({ block: block(n), address }, analyse);
    await Promise.resolve();
    expect(cache.size()).toBe(2);
  });

  test("error: an analysis with failed reads, or one that throws, is not kept", async () => {
    const cache = createObservationCache();
    const failing = counted(() => analysis(100, 1));
    await cache.observe({ block: block(1), address }, failing.analyse);
    await cache.observe({ block: block(1), address }, failing.analyse);
    expect(failing.runs.count).toBe(2);

    const throwing = counted(() => Promise.reject(new Error("boom")));
    await expect(cache.observe({ block: block(2), address }, throwing.analyse)).rejects.toThrow("boom");
    await expect(cache.observe({ block: block(2), address }, throwing.analyse)).rejects.toThrow("boom");
    expect(throwing.runs.count).toBe(2);
    expect(cache.size()).toBe(0);
  });
});

const manifest = testManifest();
const client = testClient(manifest, 16);
const named = (name: string): Address => {
  const address = manifest.contracts[name];
  if (!address) throw new Error(`no fixture ${name}`);
  return address;
};

/** The methods that read state at the pinned block (pinning itself reads blocks only). */
const stateBearing = ["eth_getCode", "eth_getStorageAt", "eth_call"];

describe("observation cache, measured through a real RPC proxy process", () => {
  let proxy: RpcProxy;
  let deps: AuditContractParameters;
  beforeAll(async () => {
    proxy = await startRpcProxy(manifest.rpcUrl);
    deps = { providers: [devnetProvider(proxy.url, "proxied-devnet")], chainId: 8453 };
  });
  afterAll(() => proxy.stop());

  /** State-bearing requests the proxy forwarded while `run` ran. */
  async function stateReadsDuring<T>(run: () => Promise<T>): Promise<{ value: T; reads: number }> {
    const before = await proxy.counts();
    const value = await run();
    const after = await proxy.counts();
    return { value, reads: stateBearing.reduce((n, m) => n + (after[m] ?? 0) - (before[m] ?? 0), 0) };
  }
  async function audit(observationCache: AuditContractParameters["observationCache"], name: string) {
    const result = await auditContract({ ...deps, observationCache }, named(name));
    if (!result.ok) throw new Error(result.message);
    return AuditResponse.parse(result.value);
  }
  /** Holds the proxy's head at the chain's current block, so that every audit pins the same one. */
  const holdCurrentHead = async () => proxy.holdHead(Number(await client.getBlockNumber({ cacheTime: 0 })));

  test("default: a second audit of the same address at the same block makes no state-bearing read", async () => {
    await holdCurrentHead();
    const cache = createObservationCache();
    const first = await stateReadsDuring(() => audit(cache, "diamond"));
    const second = await stateReadsDuring(() => audit(cache, "diamond"));
    expect(first.reads).toBe(first.value.rpcObservation.stateBearingCallCount);
    expect(first.reads).toBeGreaterThan(0);
    expect(second.reads).toBe(0);
    expect(second.value.observationBlock.blockHash).toBe(first.value.observationBlock.blockHash);
    expect([first.value.rpcObservation.observationReused, second.value.rpcObservation.observationReused]).toEqual([false, true]);
    // The same observation, with the reads that made it.
    expect(second.value.resolution).toEqual(first.value.resolution);
    expect(second.value.dissections).toEqual(first.value.dissections);
    expect(second.value.rpcObservation.calls).toEqual(first.value.rpcObservation.calls);
  });

  test("behavior: concurrent audits of one address at one block do the work once", async () => {
    await holdCurrentHead();
    const cache = createObservationCache();
    const { value: audits, reads } = await stateReadsDuring(() =>
      Promise.all(Array.from({ length: 8 }, () => audit(cache, "fanoutDiamond"))),
    );
    expect(reads).toBe(audits[0]?.rpcObservation.stateBearingCallCount);
    expect(audits.filter((a) => !a.rpcObservation.observationReused)).toHaveLength(1);
  });

  test("behavior: a new block gives a new observation, read at that block", async () => {
    await holdCurrentHead();
    const cache = createObservationCache();
    const before = await audit(cache, "transparentProxy");
    await client.mine({ blocks: 1 });
    await holdCurrentHead();
    const { value: after, reads } = await stateReadsDuring(() => audit(cache, "transparentProxy"));
    expect(after.observationBlock.blockHash).not.toBe(before.observationBlock.blockHash);
    expect(after.rpcObservation.observationReused).toBe(false);
    expect(reads).toBe(after.rpcObservation.stateBearingCallCount);
    expect(after.rpcObservation.calls.every((c) => c.blockTag === after.observationBlock.blockTag)).toBe(true);
  });

  test("behavior: the cache stays within its bound", async () => {
    await holdCurrentHead();
    const cache = createObservationCache({ maxEntries: 3 });
    for (const name of ["diamond", "transparentProxy", "uupsProxy", "beaconProxy", "clone"]) await audit(cache, name);
    expect(cache.size()).toBe(3);
    const { reads } = await stateReadsDuring(() => audit(cache, "diamond"));
    expect(reads).toBeGreaterThan(0);
  });
});
