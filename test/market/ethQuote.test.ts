import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { UniswapV2PairAbi } from "../../abis/UniswapV2PairAbi";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import type { IndexDb } from "../../api/index/indexDb";
import { createEthQuote } from "../../api/market/createEthQuote";
import { chainHead, pool } from "../../ponder.schema";
import { testClient, testManifest } from "../support/devnet";

const manifest = testManifest();
const client = testClient(manifest);
const tokenAddress = (symbol: string) => {
  const address = manifest.tokens[symbol]?.address;
  if (!address) throw new Error(`no ${symbol} in the manifest`);
  return address;
};
const weth = tokenAddress("WETH");
const usdc = tokenAddress("USDC");
const pglite = new PGlite();
const db = drizzle(pglite);
let headTimestamp = 0;
/** What the quote must equal, computed here with floats from the chain's own reads. */
let expectedUsdPerEth = 0;

beforeAll(async () => {
  await pglite.exec(`
    CREATE TABLE chain_head (chain_id integer PRIMARY KEY, number numeric(78) NOT NULL, hash text NOT NULL, timestamp numeric(78) NOT NULL);
    CREATE TABLE pool (chain_id integer NOT NULL, address text NOT NULL, kind text NOT NULL, factory text NOT NULL, token0 text NOT NULL,
      token1 text NOT NULL, fee integer, tick_spacing integer, hooks text, reserve0 numeric(78), reserve1 numeric(78), sqrt_price_x_96 numeric(78), liquidity numeric(78),
      tick integer, block_number numeric(78) NOT NULL, volume0 numeric(78) NOT NULL, volume1 numeric(78) NOT NULL,
      volume_since numeric(78) NOT NULL, PRIMARY KEY (chain_id, address));`);
  const block = await client.getBlock();
  headTimestamp = Number(block.timestamp);
  await db.insert(chainHead).values({ chainId: 8453, number: block.number, hash: block.hash, timestamp: block.timestamp });
  // The WETH/USDC pools as the indexer holds them: their state read from the chain at one block.
  const pairs = manifest.pools.filter((p) => new Set([p.token0, p.token1]).has(weth) && new Set([p.token0, p.token1]).has(usdc));
  expect(pairs.length).toBeGreaterThanOrEqual(4);
  const quotes: { usdPerEth: number; depthUsdc: number }[] = [];
  for (const p of pairs) {
    const wethFirst = p.token0 === weth;
    const row = {
      chainId: 8453,
      address: p.address.toLowerCase() as `0x${string}`,
      kind: p.kind,
      factory: p.factory,
      token0: p.token0.toLowerCase() as `0x${string}`,
      token1: p.token1.toLowerCase() as `0x${string}`,
      fee: p.fee ?? null,
      tick: null,
      blockNumber: block.number,
      volume0: 0n,
      volume1: 0n,
      volumeSince: 0n,
    };
    if (p.kind === "uniswap-v3") {
      const [sqrtPriceX96] = await client.readContract({
        address: p.address,
        abi: UniswapV3PoolAbi,
        functionName: "slot0",
        blockNumber: block.number,
      });
      const liquidity = await client.readContract({
        address: p.address,
        abi: UniswapV3PoolAbi,
        functionName: "liquidity",
        blockNumber: block.number,
      });
      await db.insert(pool).values({ ...row, reserve0: null, reserve1: null, sqrtPriceX96, liquidity });
      const raw = (Number(sqrtPriceX96) / 2 ** 96) ** 2; // token1 base units per token0 base unit
      const usdcPerWei = wethFirst ? raw : 1 / raw;
      const virtual1 = (Number(liquidity) * Number(sqrtPriceX96)) / 2 ** 96;
      const virtual0 = (Number(liquidity) * 2 ** 96) / Number(sqrtPriceX96);
      quotes.push({ usdPerEth: usdcPerWei * 1e12, depthUsdc: (wethFirst ? virtual1 : virtual0) / 1e6 });
    } else {
      const [r0, r1] = await client.readContract({
        address: p.address,
        abi: UniswapV2PairAbi,
        functionName: "getReserves",
        blockNumber: block.number,
      });
      await db.insert(pool).values({ ...row, reserve0: r0, reserve1: r1, sqrtPriceX96: null, liquidity: null });
      const usdcPerWei = wethFirst ? Number(r1) / Number(r0) : Number(r0) / Number(r1);
      quotes.push({ usdPerEth: usdcPerWei * 1e12, depthUsdc: Number(wethFirst ? r1 : r0) / 1e6 });
    }
  }
  const deepest = quotes
    .sort((a, b) => b.depthUsdc - a.depthUsdc)
    .slice(0, 5)
    .map((q) => q.usdPerEth)
    .sort((a, b) => a - b);
  const mid = Math.floor(deepest.length / 2);
  expectedUsdPerEth = deepest.length % 2 ? (deepest[mid] ?? 0) : ((deepest[mid - 1] ?? 0) + (deepest[mid] ?? 0)) / 2;
});
afterAll(() => pglite.close());

const quoteAt = (nowSeconds: number, minDepthUsdc = 50_000n * 10n ** 6n) =>
  createEthQuote({
    indexDb: db as unknown as IndexDb,
    chainId: 8453,
    weth,
    usdc,
    minDepthUsdc,
    maxAgeSeconds: 60,
    now: () => new Date(nowSeconds * 1000),
  });

describe("createEthQuote", () => {
  test("default: wei per dollar is the median WETH/USDC price of the deepest indexed pools", async () => {
    const quote = await quoteAt(headTimestamp + 5).weiPerUsd();
    expect(quote).not.toBeNull();
    const usdPerEth = 1e18 / Number(quote?.wei);
    expect(Math.abs(usdPerEth - expectedUsdPerEth) / expectedUsdPerEth).toBeLessThan(1e-9);
    expect(usdPerEth).toBeGreaterThan(1000); // the devnet seeds WETH near 3,000 USDC
    expect(quote?.source).toMatch(/^median of \d deepest indexed WETH\/USDC pools at block \d+$/);
  });

  test("error: a stale index gives no quote, never an old price", async () => {
    expect(await quoteAt(headTimestamp + 61).weiPerUsd()).toBeNull();
  });

  test("error: when no pool is deep enough there is no quote", async () => {
    expect(await quoteAt(headTimestamp, 10n ** 30n).weiPerUsd()).toBeNull();
  });
});
