import { PGlite } from "@electric-sql/pglite";
import { erc20Abi, maxUint256 } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AerodromePoolAbi } from "../../abis/AerodromePoolAbi";
import { probeProvider } from "../../api/chain/probeProvider";
import { quoteTokenPrice } from "../../api/market/quoteTokenPrice";
import { createReadMarket, marketRules } from "../../api/market/readMarket";
import type { TokenPriceResponse } from "../../api/market/TokenPriceResponse";
import { type Anvil, startAnvil } from "../../devnet/anvil";
import type { Manifest } from "../../devnet/manifest";
import { devnetSwapRouterAbi } from "../../devnet/swapRouterAbi";
import { devnetProvider, testClient, testManifest } from "../support/devnet";
import { seedMarketIndex } from "../support/marketIndex";

// A private fork of the seeded devnet: the push below must not move prices the other files read.
const shared = testManifest();
let fork: Anvil;
let manifest: Manifest;

beforeAll(async () => {
  fork = await startAnvil({ fork: { rpcUrl: shared.rpcUrl, blockNumber: shared.seededAtBlock } });
  manifest = { ...shared, rpcUrl: fork.rpcUrl };
});
afterAll(() => fork?.stop());

/** The price answer over an index of the fork's constant-product pools, read now. */
async function priceNow(symbol: string): Promise<TokenPriceResponse> {
  const { indexDb } = await seedMarketIndex(new PGlite(), manifest);
  const readMarket = createReadMarket({
    indexDb,
    chainId: 8453,
    providers: [devnetProvider(fork.rpcUrl, "fork")],
    readHead: probeProvider,
    maxIndexLagBlocks: 10,
    // Below the default minimum depth, so the devnet's thinner constant-product pools count too.
    rules: marketRules(10_000, 86_400),
  });
  const answer = await quoteTokenPrice(readMarket, symbol);
  if (!answer.ok) throw new Error(`${symbol}: ${answer.code} ${answer.message}`);
  return answer.value;
}

const priceOf = (pool: TokenPriceResponse["pools"][number]) => Number(pool.priceUsd);

describe("one pool cannot move a price resting on three or more (a fork of the devnet)", () => {
  test("behavior: a 20% push of cbBTC's deepest pool moves its median no further than the next pool's price, and the spread shows it", async () => {
    const before = await priceNow("cbBTC");
    expect(before.poolCount).toBeGreaterThanOrEqual(3);
    expect(before.poolCount).toBe(before.pools.length);
    expect(before.fewerThanThreePools).toBe(false);
    const deepest = before.pools[0];
    if (!deepest) throw new Error("cbBTC has no pool");
    expect(deepest.dex).toBe("aerodrome-volatile");
    expect(deepest.pairedWith).toBe("USDC");

    // Buy cbBTC with USDC: a constant-product price rises by 20% when the USDC side grows by sqrt(1.2).
    const client = testClient(manifest);
    const usdc = manifest.tokens.USDC?.address;
    const router = manifest.contracts.swapRouter;
    if (!usdc || !router) throw new Error("the manifest lacks USDC or the swap router");
    const pool = deepest.address as `0x${string}`;
    const [reserve0, reserve1] = await client.readContract({ address: pool, abi: AerodromePoolAbi, functionName: "getReserves" });
    const token0 = await client.readContract({ address: pool, abi: AerodromePoolAbi, functionName: "token0" });
    const usdcReserve = token0.toLowerCase() === usdc.toLowerCase() ? reserve0 : reserve1;
    const amountIn = (usdcReserve * 1_0955n) / 1_0000n - usdcReserve + usdcReserve / 100n;
    await client.waitForTransactionReceipt({
      hash: await client.writeContract({ address: usdc, abi: erc20Abi, functionName: "approve", args: [router, maxUint256] }),
    });
    const swap = await client.writeContract({
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "swapAerodrome",
      args: [pool, usdc, amountIn, 0n, client.account.address],
    });
    expect((await client.waitForTransactionReceipt({ hash: swap })).status).toBe("success");

    const after = await priceNow("cbBTC");
    const pushed = after.pools.find((p) => p.address === deepest.address);
    if (!pushed) throw new Error("the pushed pool left the median's set");
    expect(priceOf(pushed) / priceOf(deepest)).toBeGreaterThan(1.19);
    // The others did not move; the median stays within their range, so within the next pool's price.
    const others = before.pools.filter((p) => p.address !== deepest.address).map(priceOf);
    const next = Math.max(...others);
    expect(Number(after.priceUsd)).toBeGreaterThanOrEqual(Math.min(...others));
    expect(Number(after.priceUsd)).toBeLessThanOrEqual(next);
    expect(Math.abs(Number(after.priceUsd) - Number(before.priceUsd))).toBeLessThanOrEqual(
      Math.abs(next - Number(before.priceUsd)) + 1e-9 * next,
    );
    expect(after.spread.maxUsd).toBe(pushed.priceUsd);
    expect(Number(after.spread.bps)).toBeGreaterThan(1_500);
  });

  test("behavior: a symbol priced from two pools says so", async () => {
    const aero = await priceNow("AERO");
    expect(aero.poolCount).toBe(2);
    expect(aero.fewerThanThreePools).toBe(true);
  });
});
