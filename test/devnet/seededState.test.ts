import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, http, type PublicClient } from "viem";
import { afterAll, describe, expect, inject, test } from "vitest";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import { readSeededState } from "../../devnet/seededState";
import { type Devnet, startDevnet } from "../../devnet/startDevnet";
import { testManifest } from "../support/devnet";

describe("a devnet started from the run's saved seeding (DEVNET_SEEDED_STATE)", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-seeded-state-"));
  let devnet: Devnet | undefined;
  afterAll(async () => {
    await devnet?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("behavior: holds the saved seeding's chain (blocks, logs, code, the states the indexer reads) and its manifest at its own node", async () => {
    const saved = readSeededState(inject("seededStatePath"));
    devnet = await startDevnet({
      port: 0,
      blockTime: 0,
      traffic: false,
      seededState: inject("seededStatePath"),
      manifestPath: join(dir, "m.json"),
    });
    expect(devnet.manifest).toEqual({ ...saved.manifest, rpcUrl: devnet.manifest.rpcUrl });
    expect(devnet.manifest.rpcUrl).not.toBe(saved.manifest.rpcUrl);
    // The seeding is deterministic: the saved one deployed what the run's shared devnet holds, where it holds it.
    const shared = testManifest();
    expect({ ...devnet.manifest, rpcUrl: "" }).toEqual({ ...shared, rpcUrl: "" });

    const clientOf = (url: string): PublicClient => createPublicClient({ transport: http(url) });
    const at = BigInt(shared.seededAtBlock);
    const pool = shared.pools.find((p) => p.kind === "uniswap-v3");
    if (!pool) throw new Error("the seeded devnet has no Uniswap V3 pool");
    const read = async (client: PublicClient) => ({
      logs: (await client.getLogs({ fromBlock: 0n, toBlock: at })).map(
        (log) => `${log.blockNumber}:${log.logIndex}:${log.address}:${log.data}`,
      ),
      code: await client.getCode({ address: pool.address, blockNumber: at }),
      // The indexer plans its pools as of the block before the seeded one.
      slot0Before: await client.readContract({ address: pool.address, abi: UniswapV3PoolAbi, functionName: "slot0", blockNumber: at - 1n }),
    });
    const [want, got] = await Promise.all([read(clientOf(shared.rpcUrl)), read(clientOf(devnet.manifest.rpcUrl))]);
    expect(want.logs.length).toBeGreaterThan(100);
    expect(want.code?.length).toBeGreaterThan(1000);
    expect(got).toEqual(want);
  });
});
