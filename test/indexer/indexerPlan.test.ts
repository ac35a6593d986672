import { createPublicClient, http, type Transport } from "viem";
import { describe, expect, inject, test } from "vitest";
import { ConfigError, loadConfig } from "../../api/config";
import { baseWeth } from "../../base/baseChain";
import { baseDexDeployments, basePoolCandidates } from "../../base/baseDexDeployments";
import { derivePoolCandidates } from "../../base/poolCandidates";
import { baseUniswapV4PoolManager, uniswapV4PoolId } from "../../base/uniswapV4";
import { indexerPlan } from "../../src/config/indexerPlan";
import { indexerRpc } from "../../src/config/indexerRpc";
import { addressesOf, derivedPools } from "../../src/config/plannedPools";
import { testManifest } from "../support/devnet";
import { startRpcProxy } from "../support/rpcProxy";

const manifest = testManifest();
const devnetEnv = { DEVNET_MANIFEST: inject("manifestPath") };
const mainnetEnv = { BASE_RPC_PRIMARY_URL: "https://node.example", API_KEY_PEPPER: "p".repeat(32) };

describe("indexerPlan", () => {
  test("default: on the devnet, the manifest's tokens and payout, the pools derived from its DEX deployments, read from the seeded block", () => {
    const plan = indexerPlan(loadConfig(devnetEnv));
    expect(plan.tokens.map((t) => [t.symbol, t.address, t.decimals])).toEqual(
      Object.values(manifest.tokens).map((t) => [t.symbol, t.address, t.decimals]),
    );
    expect(plan.tokens.find((t) => t.symbol === "USDC")?.whaleThreshold).toBe(1_000_000n * 10n ** 6n);
    expect(plan.payoutAddress).toBe(manifest.payoutAddress);
    expect([plan.weth, plan.poolManager]).toEqual([manifest.tokens.WETH?.address, manifest.contracts.poolManager]);
    expect(plan.pools.discovery).toEqual({ contracts: "derived", v4: "derived" });
    // Every candidate once (a pool of two par stables is derived for each), the seeded pools among them.
    const candidates = derivePoolCandidates(manifest.dexes, Object.values(manifest.tokens));
    const distinct = new Set(candidates.map((c) => ("address" in c ? c.address : c.id).toLowerCase()));
    expect(plan.pools.contracts.length + plan.pools.v4.length).toBe(distinct.size);
    const planned = new Set([...plan.pools.contracts.map((p) => p.address), ...plan.pools.v4.map((p) => p.id)]);
    for (const p of manifest.pools) expect(planned, p.name).toContain(p.address);
    expect(planned).toContain(manifest.v4Pools.find((p) => p.name === "uniswap-v4:ETH/USDC:500")?.id);
    expect(plan.startBlocks).toEqual({ pools: manifest.seededAtBlock, transfers: manifest.seededAtBlock + 1, payments: 0 });
    expect([plan.volumeWindowSeconds, plan.maxTicksPerPool]).toEqual([86_400, 10_000]);
  });

  test("default: on mainnet, Base's tokens, every candidate derived from Base's DEX deployments, start blocks left to the head unless pinned", () => {
    const plan = indexerPlan(loadConfig({ ...mainnetEnv, PAYOUT_ADDRESS: manifest.payoutAddress }));
    expect(plan.tokens.map((t) => t.symbol)).toEqual(["USDC", "WETH", "USDT", "DAI", "AERO", "EURC", "cbBTC", "VIRTUAL", "DEGEN", "TOSHI"]);
    expect([plan.weth, plan.poolManager]).toEqual([baseWeth, baseUniswapV4PoolManager]);
    expect(plan.pools.discovery).toEqual({ contracts: "derived", v4: "derived" });
    const distinct = new Set(basePoolCandidates().map((c) => ("address" in c ? c.address : c.id).toLowerCase()));
    expect(plan.pools.contracts.length + plan.pools.v4.length).toBe(distinct.size);
    // Within the default bounds: 1,500 pools, 1,000 in one log filter (V3 and Slipstream pools share one).
    expect(distinct.size).toBeLessThanOrEqual(1_500);
    expect(addressesOf(plan.pools, "UniswapV3Pool").length).toBeLessThanOrEqual(1_000);
    // Base's deep WETH/USDC pools, V4's native ETH/USDC among them; each derived candidate keeps its factory.
    const weth = plan.pools.contracts.find((p) => p.address === "0xd0b53D9277642d899DF5C87A3966A349A798F224");
    expect(weth).toMatchObject({ kind: "uniswap-v3", factories: [baseDexDeployments.uniswapV3.factory], derived: { fee: 500 } });
    expect(plan.pools.contracts.map((p) => p.address)).toContain("0xb2cc224c1c9feE385f8ad6a55b4d94E92359DC59");
    const ethUsdc = plan.pools.v4.find((p) => p.id === "0x96d4b53a38337a5733179751781178a2613306063c511b78cd02684739288c0a");
    expect(ethUsdc && uniswapV4PoolId(ethUsdc.key)).toBe(ethUsdc?.id);
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

  test("error: more planned pools than INDEXER_MAX_CANDIDATES, or more in one log filter than INDEXER_MAX_ADDRESSES_PER_LOG_FILTER, stop the process", () => {
    const base = { ...mainnetEnv, PAYOUT_ADDRESS: manifest.payoutAddress };
    expect(() => indexerPlan(loadConfig({ ...base, INDEXER_MAX_CANDIDATES: "100" }))).toThrow(
      /INDEXER_MAX_CANDIDATES: \d+ pools are planned, more than the 100 allowed/,
    );
    expect(() => indexerPlan(loadConfig({ ...base, INDEXER_MAX_ADDRESSES_PER_LOG_FILTER: "100" }))).toThrow(
      /INDEXER_MAX_ADDRESSES_PER_LOG_FILTER: a log filter would list \d+ pools, more than the 100 allowed/,
    );
    expect(() => indexerPlan(loadConfig({ ...devnetEnv, INDEXER_MAX_ADDRESSES_PER_LOG_FILTER: "100" }))).toThrow(ConfigError);
    expect(() => loadConfig({ ...devnetEnv, INDEXER_MAX_TICKS_PER_POOL: "0" })).toThrow(ConfigError);
  });

  test("args: INDEXER_TOKENS, INDEXER_WHALE_THRESHOLDS and INDEXER_POOLS replace or add entries; V4 pools stay derived", () => {
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
    // Each family falls back to the derivation on its own: INDEXER_POOLS leaves the V4 candidates derived (NEW's too).
    const derived = derivedPools(manifest.dexes, plan.tokens);
    expect(plan.pools).toEqual({
      discovery: { contracts: "list", v4: "derived" },
      contracts: [
        { kind: "slipstream", address: "0x00000000000000000000000000000000000000AA", factories: [manifest.dexes.slipstream[0]?.factory] },
      ],
      v4: derived.v4,
    });
    expect(plan.startBlocks.pools).toBe(manifest.seededAtBlock);
  });

  test("args: a curated Slipstream pool may be named by any of the chain's CL factories (Base has several)", () => {
    const plan = indexerPlan(
      loadConfig({
        ...mainnetEnv,
        PAYOUT_ADDRESS: manifest.payoutAddress,
        INDEXER_POOLS: "slipstream:0x4e962BB3889Bf030368F56810A9c96B83CB3E778",
      }),
    );
    expect(baseDexDeployments.slipstream.length).toBeGreaterThan(1);
    expect(plan.pools.contracts[0]?.factories).toEqual(baseDexDeployments.slipstream.map((cl) => cl.factory));
  });

  test("args: INDEXER_V4_POOLS alone curates the V4 pools, each entry a pool id and the key it hashes from; the others stay derived", () => {
    const [ethUsdc] = manifest.v4Pools;
    if (!ethUsdc) throw new Error("no V4 pool in the manifest");
    const { currency0, currency1, fee, tickSpacing, hooks } = ethUsdc.key;
    const plan = indexerPlan(
      loadConfig({
        ...devnetEnv,
        INDEXER_V4_POOLS: `${ethUsdc.id.toUpperCase().replace("0X", "0x")}:${currency0}:${currency1.toLowerCase()}:${fee}:${tickSpacing}:${hooks}`,
      }),
    );
    const derived = indexerPlan(loadConfig(devnetEnv)).pools;
    expect(plan.pools).toEqual({
      discovery: { contracts: "derived", v4: "list" },
      contracts: derived.contracts,
      v4: [{ id: ethUsdc.id, key: ethUsdc.key }],
    });
    expect(plan.startBlocks.pools).toBe(manifest.seededAtBlock);
  });

  test("error: a malformed entry, a token without a threshold, two tokens at one address, mainnet without a payout address, a pool listed twice", () => {
    expect(() => loadConfig({ ...devnetEnv, INDEXER_POOLS: "sushiswap:0x00000000000000000000000000000000000000aa" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...devnetEnv, INDEXER_POOLS: "uniswap-v4:0x00000000000000000000000000000000000000aa" })).toThrow(
      /INDEXER_V4_POOLS/,
    );
    expect(() => loadConfig({ ...devnetEnv, INDEXER_TOKENS: "USDC:0x1234:6" })).toThrow(/INDEXER_TOKENS/);
    // A V4 key that does not hash to its id (another fee), and an entry short of a field.
    const [{ id, key }] = manifest.v4Pools as [(typeof manifest.v4Pools)[number]];
    const entry = (fee: number) => `${id}:${key.currency0}:${key.currency1}:${fee}:${key.tickSpacing}`;
    expect(() => loadConfig({ ...devnetEnv, INDEXER_V4_POOLS: `${entry(key.fee + 1)}:${key.hooks}` })).toThrow(
      /INDEXER_V4_POOLS.*does not hash to the pool id/s,
    );
    expect(() => loadConfig({ ...devnetEnv, INDEXER_V4_POOLS: entry(key.fee) })).toThrow(/INDEXER_V4_POOLS.*0xPOOLID:0xCURRENCY0/s);
    expect(() => indexerPlan(loadConfig({ ...devnetEnv, INDEXER_TOKENS: "NEW:0x00000000000000000000000000000000000000aa:8" }))).toThrow(
      /no whale threshold for NEW/,
    );
    expect(() => indexerPlan(loadConfig({ ...devnetEnv, INDEXER_TOKENS: `DAI:${manifest.tokens.USDC?.address}:18` }))).toThrow(
      /share an address/,
    );
    expect(() => indexerPlan(loadConfig(mainnetEnv))).toThrow(/PAYOUT_ADDRESS is required/);
    // One pool listed twice, in another case and under another kind: one row per pool, so named at start.
    const pair = "0x00000000000000000000000000000000000000aA";
    expect(() =>
      indexerPlan(loadConfig({ ...devnetEnv, INDEXER_POOLS: `uniswap-v2:${pair},aerodrome-volatile:${pair.toLowerCase()}` })),
    ).toThrow(/0x00000000000000000000000000000000000000aa is listed twice/);
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
