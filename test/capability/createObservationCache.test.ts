import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { ContractAnalysis } from "../../api/capability/analyseContract";
import { createObservationCache } from "../../api/capability/createObservationCache";
import { pinnedBlock } from "../support/observationBlock";

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
  it("default: the same address at the same block hash is analysed once and then reused", async () => {
    const cache = createObservationCache();
    const { runs, analyse } = counted();
    const first = await cache.observe({ block: block(1), address }, analyse);
    const second = await cache.observe({ block: block(1), address: address.toLowerCase() as Address }, analyse);
    expect(runs.count).toBe(1);
    expect([first.reused, second.reused]).toEqual([false, true]);
    expect(second.analysis).toBe(first.analysis);
  });

  it("behavior: concurrent requests share the analysis in flight", async () => {
    const cache = createObservationCache();
    const { runs, analyse } = counted();
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.observe({ block: block(1), address }, analyse)));
    expect(runs.count).toBe(1);
    expect(answers.filter((a) => a.reused)).toHaveLength(9);
  });

  it("behavior: another block hash, provider or selector is another observation", async () => {
    const cache = createObservationCache();
    const { runs, analyse } = counted();
    await cache.observe({ block: block(1), address }, analyse);
    await cache.observe({ block: block(2), address }, analyse);
    await cache.observe({ block: block(1, "other"), address }, analyse);
    await cache.observe({ block: block(1), address, selector: "0x40c10f19" as Hex }, analyse);
    expect(runs.count).toBe(4);
  });

  it("behavior: at most maxEntries are kept, the least recently used going first", async () => {
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

  it("behavior: the dissected bytes kept are bounded too", async () => {
    const cache = createObservationCache({ maxEntries: 100, maxDissectedBytes: 1000 });
    const { analyse } = counted(() => analysis(400));
    for (let n = 1; n <= 10; n++) await cache.observe({ block: block(n), address }, analyse);
    await Promise.resolve();
    expect(cache.size()).toBe(2);
  });

  it("error: an analysis with failed reads, or one that throws, is not kept", async () => {
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
