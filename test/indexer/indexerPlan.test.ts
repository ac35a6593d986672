import { createPublicClient, http, type Transport } from "viem";
import { describe, expect, inject, test } from "vitest";
import { ConfigError, loadConfig } from "../../api/config";
import { baseDexFactories, baseWeth } from "../../base/baseChain";
import { baseUniswapV4PoolManager, uniswapV4PoolId } from "../../base/uniswapV4";
import { baseCuratedPools, baseCuratedV4Pools } from "../../src/config/baseMainnet";
import type { CuratedV4Pool } from "../../src/config/indexerEnv";
import { indexerPlan } from "../../src/config/indexerPlan";
import { indexerRpc } from "../../src/config/indexerRpc";
import { testManifest } from "../support/devnet";
import { startRpcProxy } from "../support/rpcProxy";

const manifest = testManifest();
const devnetEnv = { DEVNET_MANIFEST: inject("manifestPath") };
const mainnetEnv = { BASE_RPC_PRIMARY_URL: "https://node.example", API_KEY_PEPPER: "p".repeat(32) };

describe("indexerPlan", () => {
  test("default: on the devnet, the manifest's tokens, factories and payout, factory discovery, transfers after seeding", () => {
    const plan = indexerPlan(loadConfig(devnetEnv));
    expect(plan.tokens.map((t) => [t.symbol, t.address, t.decimals])).toEqual(
      Object.values(manifest.tokens).map((t) => [t.symbol, t.address, t.decimals]),
    );
    expect(plan.tokens.find((t) => t.symbol === "USDC")?.whaleThreshold).toBe(1_000_000n * 10n ** 6n);
    expect(plan.payoutAddress).toBe(manifest.payoutAddress);
    expect(plan.pools).toEqual({ discovery: "factory" });
    expect([plan.weth, plan.poolManager]).toEqual([manifest.tokens.WETH?.address, manifest.contracts.poolManager]);
    expect(plan.startBlocks).toEqual({ pools: 0, transfers: manifest.seededAtBlock + 1, payments: 0 });
    expect(plan.volumeWindowSeconds).toBe(86_400);
  });

  test("default: on mainnet, Base's tokens and factories, the curated pools, start blocks left to the head unless pinned", () => {
    const plan = indexerPlan(loadConfig({ ...mainnetEnv, PAYOUT_ADDRESS: manifest.payoutAddress }));
    expect(plan.tokens.map((t) => t.symbol)).toEqual(["USDC", "WETH", "USDT", "DAI", "AERO", "EURC", "cbBTC", "VIRTUAL", "DEGEN", "TOSHI"]);
    expect(plan.factories).toEqual(baseDexFactories);
    expect([plan.weth, plan.poolManager]).toEqual([baseWeth, baseUniswapV4PoolManager]);
    expect(plan.pools).toEqual({ discovery: "list", curated: baseCuratedPools, curatedV4: baseCuratedV4Pools });
    // The default V4 pool's id is its key's hash (Base's native ETH/USDC 0.05% pool without hooks).
    for (const p of baseCuratedV4Pools) expect(uniswapV4PoolId(p.key)).toBe(p.id);
    expect(plan.startBlocks).toEqual({ pools: undefined, transfers: undefined, payments: undefined });
    const pinned = indexerPlan(
      loadConfig({
        ...mainnetEnv,
        PAYOUT_ADDRESS: manifest.payoutAddress,
        INDEXER_START_BLOCK: "30000000",
        PAYMENTS_START_BLOCK: "29000000",
      }),
    );
    expect(pinned.startBlocks).toEqual({ pools: 30_000_000, transfers: 30_000_000, payments: 29_000_000 });
  });

  test("args: INDEXER_TOKENS, INDEXER_WHALE_THRESHOLDS and INDEXER_POOLS replace or add entries", () => {
    const other = "0x00000000000000000000000000000000000000aa";
    const plan = indexerPlan(
      loadConfig({
        ...devnetEnv,
        INDEXER_TOKENS: `USDT:${manifest.tokens.USDT?.address.toLowerCase()}:18, NEW:${other}:8`,
        INDEXER_WHALE_THRESHOLDS: "NEW=0.5,WETH=1",
        INDEXER_POOLS: `slipstream:${other}`,
      }),
    );
    expect(plan.tokens.find((t) => t.symbol === "USDT")).toMatchObject({
      address: manifest.tokens.USDT?.address,
      decimals: 18,
      whaleThreshold: 10n ** 24n,
    });
    expect(plan.tokens.find((t) => t.symbol === "NEW")).toMatchObject({
      address: "0x00000000000000000000000000000000000000AA",
      whaleThreshold: 50_000_000n,
    });
    expect(plan.tokens.find((t) => t.symbol === "WETH")?.whaleThreshold).toBe(10n ** 18n);
    expect(plan.pools).toEqual({
      discovery: "list",
      curated: [{ kind: "slipstream", address: "0x00000000000000000000000000000000000000AA" }],
      curatedV4: [],
    });
    expect(plan.startBlocks.pools).toBe(manifest.seededAtBlock);
  });

  test("args: INDEXER_V4_POOLS alone runs the curated mode on the devnet, each entry a pool id and the key it hashes from", () => {
    const [ethUsdc] = manifest.v4Pools;
    if (!ethUsdc) throw new Error("no V4 pool in the manifest");
    const { currency0, currency1, fee, tickSpacing, hooks } = ethUsdc.key;
    const plan = indexerPlan(
      loadConfig({
        ...devnetEnv,
        INDEXER_V4_POOLS: `${ethUsdc.id.toUpperCase().replace("0X", "0x")}:${currency0}:${currency1.toLowerCase()}:${fee}:${tickSpacing}:${hooks}`,
      }),
    );
    expect(plan.pools).toEqual({ discovery: "list", curated: [], curatedV4: [{ id: ethUsdc.id, key: ethUsdc.key }] });
    expect(plan.startBlocks.pools).toBe(manifest.seededAtBlock);
  });

  test("error: a malformed entry, a token without a threshold, two tokens at one address, mainnet without a payout address", () => {
    expect(() => loadConfig({ ...devnetEnv, INDEXER_POOLS: "sushiswap:0x00000000000000000000000000000000000000aa" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...devnetEnv, INDEXER_TOKENS: "USDC:0x1234:6" })).toThrow(/INDEXER_TOKENS/);
    // A V4 key that does not hash to its id (fee 3000 instead of 500), and an entry short of a field.
    const [{ id, key }] = baseCuratedV4Pools as [CuratedV4Pool];
    const entry = (fee: number) => `${id}:${key.currency0}:${key.currency1}:${fee}:${key.tickSpacing}`;
    expect(() => loadConfig({ ...devnetEnv, INDEXER_V4_POOLS: `${entry(3000)}:${key.hooks}` })).toThrow(
      /INDEXER_V4_POOLS.*does not hash to the pool id/s,
    );
    expect(() => loadConfig({ ...devnetEnv, INDEXER_V4_POOLS: entry(500) })).toThrow(/INDEXER_V4_POOLS.*0xPOOLID:0xCURRENCY0/s);
    expect(() => indexerPlan(loadConfig({ ...devnetEnv, INDEXER_TOKENS: "NEW:0x00000000000000000000000000000000000000aa:8" }))).toThrow(
      /no whale threshold for NEW/,
    );
    expect(() => indexerPlan(loadConfig({ ...devnetEnv, INDEXER_TOKENS: `DAI:${manifest.tokens.USDC?.address}:18` }))).toThrow(
      /share an address/,
    );
    expect(() => indexerPlan(loadConfig(mainnetEnv))).toThrow(/PAYOUT_ADDRESS is required/);
  });
});

describe("indexerRpc", () => {
  test("behavior: with a trusted primary the indexer reads the primary alone, and a public provider only when the primary fails", async () => {
    const [primary, publicOne] = [await startRpcProxy(manifest.rpcUrl), await startRpcProxy(manifest.rpcUrl, "alter-hash")];
    try {
      const chain = loadConfig({ ...mainnetEnv, BASE_RPC_PRIMARY_URL: primary.url, BASE_RPC_URLS: publicOne.url }).chain;
      const transport = indexerRpc(chain);
      expect(typeof transport).toBe("function");
      const client = createPublicClient({ transport: transport as Transport });
      const truth = await createPublicClient({ transport: http(manifest.rpcUrl) }).getBlock({ blockNumber: 1n });
      // The public provider lies about hashes: while the primary answers, the indexer never sees it.
      for (let n = 0; n < 5; n++) expect((await client.getBlock({ blockNumber: 1n })).hash).toBe(truth.hash);
      await primary.setMode("down");
      expect((await client.getBlock({ blockNumber: 1n })).hash).not.toBe(truth.hash);
      // Without a primary, Ponder spreads over the public URLs itself.
      expect(indexerRpc(loadConfig({ ...mainnetEnv, BASE_RPC_PRIMARY_URL: undefined, BASE_RPC_URLS: publicOne.url }).chain)).toEqual([
        publicOne.url,
      ]);
    } finally {
      await Promise.all([primary.stop(), publicOne.stop()]);
    }
  });
});
