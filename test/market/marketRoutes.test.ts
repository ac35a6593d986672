import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { type Address, encodeFunctionData, erc20Abi, parseAbi, parseAbiItem, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { AerodromePoolAbi } from "../../abis/AerodromePoolAbi";
import { SlipstreamPoolAbi } from "../../abis/SlipstreamPoolAbi";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import { createApp } from "../../api/app";
import { loadConfig } from "../../api/config";
import type { IndexDb } from "../../api/index/indexDb";
import { DexMetricsResponse } from "../../api/market/DexMetricsResponse";
import { marketSymbols } from "../../api/market/marketSymbols";
import { isqrt } from "../../api/market/ratio";
import { TokenPriceResponse } from "../../api/market/TokenPriceResponse";
import { WhaleSignalsResponse } from "../../api/market/WhaleSignalsResponse";
import { decodeUniswapV4Slot0, uniswapV4PoolSlots } from "../../base/uniswapV4";
import { createDevnetClient } from "../../devnet/client";
import { devnetSwapRouterAbi } from "../../devnet/swapRouterAbi";
import { indexerPlan } from "../../src/config/indexerPlan";
import { testAppParameters, testMarketParameters } from "../support/app";
import { devnetProvider, testClient, testManifest } from "../support/devnet";
import { constantProductPools } from "../support/marketIndex";
import { type RunningIndexer, startIndexer, waitFor } from "../support/startIndexer";

// The index is read live by the in-process API while Ponder writes it: that needs Postgres (PGlite allows
// one process at a time). `.ci/run` sets DATABASE_URL.
const databaseUrl = process.env.DATABASE_URL;
const manifest = testManifest();
const client = testClient(manifest);
const maxIndexLagBlocks = 3;
const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
const extsloadAbi = parseAbi(["function extsload(bytes32 slot) view returns (bytes32)"]);

describe.runIf(databaseUrl)("market routes over the live index (Postgres)", () => {
  let indexer: RunningIndexer | undefined;
  let indexUrl: string | undefined;
  /** Drops the throwaway database the first run made (a restart reuses it). */
  let dropIndex = async () => {};
  let pool: pg.Pool;
  let app: ReturnType<typeof createApp>;
  const keys: string[] = [];
  let calls = 0;
  /** A GET with a free key (10 calls a day each): the next key before one is spent. */
  const get = (path: string) => app.request(path, { headers: { "x-api-key": keys[Math.floor(calls++ / 9)] ?? "" } });

  /** Starts Ponder on the test devnet: a throwaway database the first time, the same one on a restart. */
  const startIndexing = async () => {
    indexer = indexUrl
      ? await startIndexer({ manifestPath: inject("manifestPath"), databaseUrl: indexUrl, reuseDatabase: true })
      : await startIndexer({ manifestPath: inject("manifestPath"), databaseUrl });
    return indexer;
  };
  const indexedHead = async () => {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    await waitFor(
      "the index to reach the chain head",
      () => indexer?.indexedBlock() ?? Promise.resolve(null),
      (n) => n !== null && n >= Number(head),
      // The start reads every existing pool's ticks: at load 24 on 2 cores that alone took over 90 s.
      300_000,
      indexer,
    );
    return head;
  };

  beforeAll(async () => {
    await startIndexing();
    if (indexer?.backend.kind !== "postgres") throw new Error("expected a Postgres indexer");
    indexUrl = indexer.backend.url;
    dropIndex = indexer.cleanup;
    pool = new pg.Pool({ connectionString: indexUrl, max: 4, options: `-c search_path=${indexer.schema}` });
    pool.on("error", () => {});
    const indexDb = drizzle(pool) as unknown as IndexDb;
    const providers = [devnetProvider(manifest.rpcUrl)];
    app = createApp({
      ...testAppParameters(manifest, indexDb),
      market: testMarketParameters(providers, indexDb, manifest.dexes, maxIndexLagBlocks),
    });
    for (let i = 0; i < 7; i++) keys.push(await freeKey(app, generatePrivateKey()));
    await indexedHead();
  }, 420_000);

  afterAll(async () => {
    await pool?.end();
    await indexer?.stop();
    await dropIndex();
  });

  test("behavior: every tracked symbol has a price, case-insensitively, that the chain's own reads reproduce", async () => {
    const head = await indexedHead();
    const answers = new Map<string, TokenPriceResponse>();
    for (const symbol of marketSymbols) {
      const res = await get(`/v1/token/price/${symbol === "cbBTC" ? "CBbtc" : symbol.toLowerCase()}`);
      expect(res.status, symbol).toBe(200);
      expect(res.headers.get("x-service-trust-level")).toBe("TRUSTED_PRIMARY");
      const body = TokenPriceResponse.parse(await res.json());
      expect(body.symbol).toBe(symbol);
      // Other test files mine too: the index may have moved past `head`, never stale past the bound.
      expect(body.provenance).toMatchObject({ source: "INDEX" });
      expect(body.provenance.index?.headBlock).toBeGreaterThanOrEqual(Number(head));
      expect(body.provenance.index?.lagBlocks).toBeLessThanOrEqual(maxIndexLagBlocks);
      answers.set(symbol, body);
    }
    const wethUsd = Number(answers.get("WETH")?.priceUsd);
    expect(answers.get("ETH")?.priceUsd).toBe(answers.get("WETH")?.priceUsd);
    for (const [symbol, body] of answers) {
      // Each pool's price, recomputed from its state on chain at the index head.
      const recomputed: number[] = [];
      for (const p of body.pools) {
        const quoteUsd = p.route === "VIA_WETH" ? wethUsd : 1;
        const at = BigInt(body.provenance.index?.headBlock ?? 0);
        const usd = (await poolPrice(p.address, body.token.address as Address, at)) * quoteUsd;
        expect(relative(Number(p.priceUsd), usd), `${symbol} ${p.address}`).toBeLessThan(1e-9);
        recomputed.push(usd);
      }
      recomputed.sort((a, b) => a - b);
      const mid = Math.floor(recomputed.length / 2);
      const median =
        recomputed.length % 2 ? (recomputed[mid] as number) : ((recomputed[mid - 1] as number) + (recomputed[mid] as number)) / 2;
      expect(relative(Number(body.priceUsd), median), symbol).toBeLessThan(1e-9);
      // The devnet is seeded like Base and indexed by derivation, as Base is: every price rests on three pools or more.
      expect(body.pools.length, symbol).toBeGreaterThanOrEqual(3);
      expect(body.pools.length).toBeLessThanOrEqual(5);
      expect([body.poolCount, body.fewerThanThreePools], symbol).toEqual([body.pools.length, false]);
      // Deepest first, at least the minimum depth, and nothing deeper was left out for depth.
      const depths = body.pools.map((p) => Number(p.depthUsd));
      expect([...depths].sort((a, b) => b - a)).toEqual(depths);
      expect(depths.every((d) => d >= 50_000)).toBe(true);
      for (const e of body.excluded.filter((x) => x.reason === "NOT_AMONG_DEEPEST")) {
        expect(Number(e.depthUsd)).toBeLessThanOrEqual(Math.min(...depths));
      }
      const spread = (recomputed[recomputed.length - 1] as number) - (recomputed[0] as number);
      expect(Math.abs(Number(body.spread.bps) - (spread / median) * 10_000)).toBeLessThan(1e-3);
    }
  });

  test("behavior: a Uniswap V3 pool's ±2% depth equals what swaps simulated on the devnet move", async () => {
    await indexedHead();
    const body = TokenPriceResponse.parse(await (await get("/v1/token/price/WETH")).json());
    // The block the answer reflects: the simulated swaps run there.
    const head = BigInt(body.provenance.index?.headBlock ?? 0);
    const v3 = body.pools.find((p) => p.dex === "uniswap-v3");
    if (!v3) throw new Error("no Uniswap V3 pool among WETH's deepest");
    const address = v3.address as Address;
    const [sqrtPriceX96] = await client.readContract({ address, abi: UniswapV3PoolAbi, functionName: "slot0", blockNumber: head });
    const fee = Number(v3.fee ?? 0);
    const token0 = (await client.readContract({ address, abi: UniswapV3PoolAbi, functionName: "token0" })).toLowerCase();
    /** The input (fee apart) that moves the price to `limit`: an exact-input swap far larger than needed, stopped there. */
    const swapTo = async (zeroForOne: boolean, limit: bigint) => {
      const { result } = await client.simulateContract({
        address: manifest.contracts.swapRouter as Address,
        abi: devnetSwapRouterAbi,
        functionName: "swapV3Exact",
        args: [address, zeroForOne, true, 10n ** 36n, limit, manifest.accounts.deployer.address],
        account: manifest.accounts.deployer.address,
        blockNumber: head,
      });
      const paid = zeroForOne ? result[0] : result[1];
      return Number(paid) * (1 - fee / 1e6);
    };
    const token1In = await swapTo(false, isqrt((sqrtPriceX96 * sqrtPriceX96 * 10_200n) / 10_000n));
    const token0In = await swapTo(true, isqrt((sqrtPriceX96 * sqrtPriceX96 * 9_800n) / 10_000n));
    const [wethIn, usdcIn] = token0 === body.token.address ? [token0In, token1In] : [token1In, token0In];
    const usdc = manifest.tokens.USDC?.decimals ?? 6;
    const expected = (wethIn / 1e18) * Number(v3.priceUsd) + usdcIn / 10 ** usdc;
    expect(relative(Number(v3.depthUsd), expected)).toBeLessThan(1e-4);
  });

  test("behavior: a thin pool with a wild price is listed as excluded and moves no price", async () => {
    const before = TokenPriceResponse.parse(await (await get("/v1/token/price/WETH")).json());
    // users[3] signs on this devnet in this file only: a new 1% WETH/USDC pool at ten times the price, with dust.
    const signer = createDevnetClient(manifest.rpcUrl, manifest.accounts.users[3]?.privateKey as `0x${string}`);
    const [weth, usdc] = [manifest.tokens.WETH?.address as Address, manifest.tokens.USDC?.address as Address];
    const send = async (request: Parameters<typeof signer.writeContract>[0]) =>
      client.waitForTransactionReceipt({ hash: await signer.writeContract(request) });
    const factoryAbi = parseAbi([
      "function createPool(address,address,uint24) returns (address)",
      "function getPool(address,address,uint24) view returns (address)",
    ]);
    await send({ address: manifest.dexes.uniswapV3.factory, abi: factoryAbi, functionName: "createPool", args: [weth, usdc, 10_000] });
    const thin = await client.readContract({
      address: manifest.dexes.uniswapV3.factory,
      abi: factoryAbi,
      functionName: "getPool",
      args: [weth, usdc, 10_000],
    });
    const wethFirst = BigInt(weth) < BigInt(usdc);
    // 30,000 USDC per WETH, in base units of token1 per token0.
    const price = wethFirst ? { num: 30_000n * 10n ** 6n, den: 10n ** 18n } : { num: 10n ** 18n, den: 30_000n * 10n ** 6n };
    const sqrtPriceX96 = isqrt((price.num << 192n) / price.den);
    await send({ address: thin, abi: parseAbi(["function initialize(uint160)"]), functionName: "initialize", args: [sqrtPriceX96] });
    for (const token of [weth, usdc]) {
      await send({ address: token, abi: erc20Abi, functionName: "approve", args: [manifest.contracts.swapRouter as Address, 2n ** 255n] });
    }
    const tick = Math.floor(Math.log(Number(price.num) / Number(price.den)) / Math.log(1.0001) / 200) * 200;
    await send({
      address: manifest.contracts.swapRouter as Address,
      abi: devnetSwapRouterAbi,
      functionName: "mintV3",
      args: [thin, tick - 2_000, tick + 2_000, 10n ** 12n, signer.account.address],
    });
    await indexedHead();
    const after = TokenPriceResponse.parse(await (await get("/v1/token/price/WETH")).json());
    const listed = after.excluded.find((e) => e.address === thin.toLowerCase());
    expect(listed).toMatchObject({ reason: "BELOW_MIN_DEPTH", dex: "uniswap-v3" });
    expect(Number(listed?.priceUsd)).toBeGreaterThan(9 * Number(after.priceUsd));
    expect(after.pools.map((p) => p.address)).not.toContain(thin.toLowerCase());
    expect(after.excludedCount).toBe(before.excludedCount + 1);
  });

  test("behavior: DEX metrics sum exactly the covered pools and name the tokens and DEXes", async () => {
    const res = await get("/v1/dex/metrics");
    expect(res.status).toBe(200);
    const body = DexMetricsResponse.parse(await res.json());
    expect(body.coverage.scope).toBe("TRACKED_POOLS");
    expect(body.totals.pools).toBe(body.coverage.pools);
    expect(body.byDex.reduce((n, d) => n + d.pools, 0)).toBe(body.totals.pools);
    const sum = (f: "reserveUsd" | "depthUsd" | "volumeUsd") => body.byDex.reduce((n, d) => n + Number(d[f]), 0);
    for (const f of ["reserveUsd", "depthUsd", "volumeUsd"] as const) {
      expect(Math.abs(sum(f) - Number(body.totals[f]))).toBeLessThanOrEqual(Number(body.totals[f]) * 1e-12 + 1e-5);
    }
    expect(body.coverage.dexes).toEqual(body.byDex.map((d) => d.dex));
    expect(body.coverage.tokens.map((t) => t.symbol).sort()).toEqual(Object.keys(manifest.tokens).sort());
    // Constant-product reserves at the head, valued at the covered prices, are part of the total.
    const prices = new Map(body.coverage.tokens.map((t) => [t.address, Number(t.priceUsd)]));
    const head = BigInt(body.provenance.index?.headBlock ?? 0);
    let constantProductUsd = 0;
    for (const p of constantProductPools(manifest)) {
      const [r0, r1] = await client.readContract({
        address: p.address,
        abi: AerodromePoolAbi,
        functionName: "getReserves",
        blockNumber: head,
      });
      const decimals = (a: string) =>
        Object.values(manifest.tokens).find((t) => t.address.toLowerCase() === a.toLowerCase())?.decimals ?? 18;
      constantProductUsd +=
        (Number(r0) / 10 ** decimals(p.token0)) * (prices.get(p.token0.toLowerCase()) ?? 0) +
        (Number(r1) / 10 ** decimals(p.token1)) * (prices.get(p.token1.toLowerCase()) ?? 0);
    }
    const nonV3 = body.byDex
      .filter((d) => !["uniswap-v3", "uniswap-v4", "slipstream"].includes(d.dex))
      .reduce((n, d) => n + Number(d.reserveUsd), 0);
    expect(relative(nonV3, constantProductUsd)).toBeLessThan(1e-9);
  });

  test("behavior: DEX metrics cover the price route's pools, the verified candidates, with figures the chain reproduces", async () => {
    const body = DexMetricsResponse.parse(await (await get("/v1/dex/metrics")).json());
    const { coverage } = body;
    const head = BigInt(body.provenance.index?.headBlock ?? 0);
    expect(coverage.poolSet).toBe("VERIFIED_CANDIDATES");
    expect(coverage.summedPools).toHaveLength(coverage.pools);
    const excluded = Object.values(coverage.excluded).reduce((n, c) => n + c, 0);
    expect(coverage.candidates.indexed).toBe(coverage.pools + excluded);
    // The planned candidates (the devnet's derivation), by the chain's own word at the answer's block: those
    // with a pool there are indexed, every other one is watched; none is refused.
    const plan = indexerPlan(loadConfig({ DEVNET_MANIFEST: inject("manifestPath") }));
    let existing = 0;
    for (const p of plan.pools.contracts) if (await client.getCode({ address: p.address, blockNumber: head })) existing++;
    for (const p of plan.pools.v4) {
      const slot0 = await client.readContract({
        address: manifest.contracts.poolManager as Address,
        abi: extsloadAbi,
        functionName: "extsload",
        args: [uniswapV4PoolSlots(p.id).slot0],
        blockNumber: head,
      });
      if (decodeUniswapV4Slot0(slot0).sqrtPriceX96 !== 0n) existing++;
    }
    expect(coverage.candidates).toEqual({
      indexed: existing,
      watched: plan.pools.contracts.length + plan.pools.v4.length - existing,
      refused: 0,
    });
    // Every pool a price rests on is summed here.
    for (const symbol of ["USDC", "WETH", "cbBTC", "AERO", "DEGEN"]) {
      const price = TokenPriceResponse.parse(await (await get(`/v1/token/price/${symbol}`)).json());
      for (const p of price.pools) expect(coverage.summedPools, `${symbol}: ${p.address}`).toContain(p.address);
    }
  });

  test("behavior: whale signals are exactly the chain's transfers at or above the thresholds in the window", async () => {
    // users[3] signs on this devnet in this file only; the receiver is nobody's, so no other file's balances move.
    const sender = createDevnetClient(manifest.rpcUrl, manifest.accounts.users[3]?.privateKey as `0x${string}`);
    const usdc = manifest.tokens.USDC?.address as Address;
    const to = privateKeyToAccount(generatePrivateKey()).address;
    for (const units of [2_000_000n, 999_999n]) {
      const hash = await sender.writeContract({ address: usdc, abi: erc20Abi, functionName: "transfer", args: [to, units * 10n ** 6n] });
      await client.waitForTransactionReceipt({ hash });
    }
    const head = await indexedHead();
    const res = await get("/v1/whales/signals");
    expect(res.status).toBe(200);
    const body = WhaleSignalsResponse.parse(await res.json());
    expect(body.window.toBlock).toBeGreaterThanOrEqual(Number(head));
    expect(body.window.toBlock).toBe(body.provenance.index?.headBlock);
    const thresholds = new Map(body.thresholds.map((t) => [t.address, BigInt(t.minAmountBaseUnits)]));
    const logs = await client.getLogs({
      address: [...thresholds.keys()] as Address[],
      event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
      fromBlock: BigInt(Math.max(body.window.fromBlock, manifest.seededAtBlock + 1)),
      toBlock: BigInt(body.window.toBlock),
    });
    const expected = logs
      .filter((l) => (l.args.value ?? 0n) >= (thresholds.get(l.address.toLowerCase()) ?? 0n))
      .sort((a, b) => Number(b.blockNumber - a.blockNumber) || (b.logIndex ?? 0) - (a.logIndex ?? 0))
      .slice(0, 50)
      .map((l) => `${l.transactionHash}:${l.logIndex}`);
    expect(body.signals.map((s) => `${s.txHash}:${s.logIndex}`)).toEqual(expected);
    const big = body.signals.find((s) => s.amountBaseUnits === String(2_000_000n * 10n ** 6n));
    expect(big?.valuation.status).toBe("PRICED");
    if (big?.valuation.status === "PRICED")
      expect(relative(Number(big.valueUsd), 2_000_000 * Number(big.valuation.priceUsd))).toBeLessThan(1e-12);
    expect(body.signals.some((s) => s.amountBaseUnits === String(999_999n * 10n ** 6n))).toBe(false);
  });

  test("behavior: the index routes' key-paid answers carry X-Credits-Remaining (test/access/creditsHeader.test.ts has the others)", async () => {
    for (const path of ["/v1/dex/metrics", "/v1/token/price/weth", "/v1/whales/signals"]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-credits-remaining"), path).toMatch(/^\d+$/);
    }
  });

  test("error: unknown symbols are 404 with the supported list, absurd ones 400; unknown query parameters are ignored; no key is 402", async () => {
    const unknown = await get("/v1/token/price/PEPE");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "UNKNOWN_SYMBOL", supported: [...marketSymbols] });
    const long = await get(`/v1/token/price/${"X".repeat(40)}`);
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: string }).error).toBe("INVALID_PARAMETER");
    expect((await get("/v1/dex/metrics?foo=1")).status).toBe(200);
    expect((await app.request("/v1/token/price/WETH")).status).toBe(402);
  });

  test("error: an index that falls behind is refused with 503 until it catches up, without restarting the API", async () => {
    await indexedHead();
    await indexer?.stop();
    await client.request({ method: "anvil_mine" as never, params: [`0x${(maxIndexLagBlocks + 2).toString(16)}`] as never });
    const stale = await get("/v1/token/price/WETH");
    expect(stale.status).toBe(503);
    const body = (await stale.json()) as { message: string };
    expect(body).toMatchObject({ error: "DATA_SOURCE_UNAVAILABLE", retryable: true });
    expect(body.message).toMatch(/behind the chain head/);
    await startIndexing();
    await indexedHead();
    const back = await get("/v1/token/price/WETH");
    expect(back.status, await back.clone().text()).toBe(200);
  }, 240_000);
});

/** A real free key for a fresh wallet: challenge, personal_sign, claim. */
async function freeKey(app: ReturnType<typeof createApp>, privateKey: `0x${string}`): Promise<string> {
  const user = privateKeyToAccount(privateKey);
  const post = (path: string, body: unknown) =>
    app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const challenge = (await (await post("/v1/subscribe/free/challenge", { userWallet: user.address })).json()) as {
    intent: { intentId: string; messageToSign: string };
  };
  const signature = await user.signMessage({ message: challenge.intent.messageToSign });
  const claim = await post("/v1/subscribe/free/claim", { intentId: challenge.intent.intentId, signature });
  return ((await claim.json()) as { apiKey: string }).apiKey;
}

/** The price of `token` in the pool's other token (whole units), from the pool's state on chain at `block`. */
async function poolPrice(pool: string, token: Address, block: bigint): Promise<number> {
  const decimals = (a: string) => Object.values(manifest.tokens).find((t) => t.address.toLowerCase() === a.toLowerCase())?.decimals ?? 18;
  const v4 = manifest.v4Pools.find((p) => p.id.toLowerCase() === pool.toLowerCase());
  if (v4) {
    // The PoolManager's own storage, as V4's StateLibrary reads it; native ETH is WETH.
    const slot0 = await client.request({
      method: "eth_call" as never,
      params: [
        {
          to: v4.poolManager,
          data: encodeFunctionData({ abi: extsloadAbi, functionName: "extsload", args: [uniswapV4PoolSlots(v4.id).slot0] }),
        },
        `0x${block.toString(16)}`,
      ] as never,
    });
    const { sqrtPriceX96 } = decodeUniswapV4Slot0(slot0 as `0x${string}`);
    const weth = manifest.tokens.WETH?.address as Address;
    const [c0, c1] = [v4.key.currency0, v4.key.currency1].map((c) => (c === zeroAddress ? weth : c));
    const price1Per0 = (Number(sqrtPriceX96) / 2 ** 96) ** 2 * 10 ** (decimals(c0 as string) - decimals(c1 as string));
    return (c0 as string).toLowerCase() === token.toLowerCase() ? price1Per0 : 1 / price1Per0;
  }
  const entry = manifest.pools.find((p) => p.address.toLowerCase() === pool.toLowerCase());
  if (!entry) throw new Error(`pool ${pool} is not in the manifest`);
  const [d0, d1] = [decimals(entry.token0), decimals(entry.token1)];
  let price1Per0: number;
  if (entry.kind === "uniswap-v3" || entry.kind === "slipstream") {
    const [sqrtPriceX96] = await client.readContract({
      address: entry.address,
      abi: entry.kind === "slipstream" ? SlipstreamPoolAbi : UniswapV3PoolAbi,
      functionName: "slot0",
      blockNumber: block,
    });
    price1Per0 = (Number(sqrtPriceX96) / 2 ** 96) ** 2 * 10 ** (d0 - d1);
  } else {
    const [r0, r1] = await client.readContract({
      address: entry.address,
      abi: AerodromePoolAbi,
      functionName: "getReserves",
      blockNumber: block,
    });
    const x = Number(r0) / 10 ** d0;
    const y = Number(r1) / 10 ** d1;
    price1Per0 = entry.kind === "aerodrome-stable" ? (3 * x * x * y + y ** 3) / (x ** 3 + 3 * x * y * y) : y / x;
  }
  return entry.token0.toLowerCase() === token.toLowerCase() ? price1Per0 : 1 / price1Per0;
}
