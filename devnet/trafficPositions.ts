import { type Address, keccak256, parseAbi, stringToHex, zeroAddress } from "viem";
import { UniswapV4PoolManagerAbi } from "../abis/UniswapV4PoolManagerAbi";
import { decodeUniswapV4Slot0, uniswapV4PoolSlots } from "../base/uniswapV4";
import type { DevnetClient } from "./client";
import type { ManifestPool, ManifestToken, ManifestV4Pool } from "./manifest";
import { approxSqrtRatioAtTick, approxTickAt, liquidityForUsd } from "./seed/poolMath";
import { rangeHolding } from "./seed/positions";
import { unitsForUsd } from "./seed/prices";
import { devnetSwapRouterAbi } from "./swapRouterAbi";
import type { TrafficCall } from "./trafficSender";

/** A pool whose ticks the traffic moves through: a V3 pool or a V4 pool, with its tick spacing. */
export type ConcentratedPool = { pool: ManifestPool | ManifestV4Pool; tickSpacing: number };

/** The position's worth, and the most a crossing swap may spend (it stops at its price limit first). */
const positionUsd = 10_000;
const crossingMaxUsd = 200_000;
const gas = 900_000n;
/** V4 positions are the router's in the PoolManager's books; this salt (with the trader) names the traffic's. */
const salt = keccak256(stringToHex("devnet traffic position"));
const v3BurnAbi = parseAbi(["function burn(int24 tickLower, int24 tickUpper, uint128 amount) returns (uint256, uint256)"]);
/** slot0's first word, in Uniswap V3 and Slipstream pools alike (their tuples differ after the tick). */
const sqrtPriceAbi = parseAbi(["function slot0() view returns (uint160 sqrtPriceX96)"]);

type Open = {
  target: ConcentratedPool;
  tickLower: number;
  tickUpper: number;
  liquidity: bigint;
  /** The price before the crossing swap, which the next swap returns to. */
  sqrtPriceBefore?: bigint;
};

/**
 * Liquidity churn and tick crossings for the traffic generator, one step per call, in a cycle of four:
 * open a small position a few tick spacings around a random pool's price, swap the price just past its
 * nearer edge, swap it back (crossing that tick again), close the position. The price ends where it was,
 * and every cycle emits Mint/Burn (V3) or ModifyLiquidity (V4) and two swaps that cross an initialized tick.
 */
export function createPositionCycle(
  client: DevnetClient,
  {
    pools,
    router,
    trader,
    tokenOf,
  }: { pools: ConcentratedPool[]; router: Address; trader: Address; tokenOf: (a: Address) => ManifestToken },
) {
  if (pools.length === 0) throw new Error("the position cycle needs a concentrated pool");
  let step = 0;
  let open: Open | undefined;

  const tokensOf = ({ pool }: ConcentratedPool): [ManifestToken, ManifestToken] =>
    pool.kind === "uniswap-v4" ? [tokenOf(pool.key.currency0), tokenOf(pool.key.currency1)] : [tokenOf(pool.token0), tokenOf(pool.token1)];

  async function sqrtPriceOf({ pool }: ConcentratedPool): Promise<bigint> {
    if (pool.kind === "uniswap-v4") {
      const word = await client.readContract({
        address: pool.poolManager,
        abi: UniswapV4PoolManagerAbi,
        functionName: "extsload",
        args: [uniswapV4PoolSlots(pool.id).slot0],
      });
      return decodeUniswapV4Slot0(word).sqrtPriceX96;
    }
    return client.readContract({ address: pool.address, abi: sqrtPriceAbi, functionName: "slot0" });
  }

  /** A call of the router: V3 positions and swaps take the pool's address, V4 ones its key. */
  function routerCall(label: string, functionName: string, args: readonly unknown[], value?: bigint): TrafficCall {
    return { label, address: router, abi: devnetSwapRouterAbi, functionName, args, gas, ...(value ? { value } : {}) };
  }

  async function opening(): Promise<TrafficCall> {
    const target = pools[Math.floor(Math.random() * pools.length)] as ConcentratedPool;
    const { pool, tickSpacing } = target;
    const sqrtPriceX96 = await sqrtPriceOf(target);
    const tick = approxTickAt(sqrtPriceX96);
    const range = rangeHolding(tick, tick - 2 * tickSpacing, tick + 2 * tickSpacing, tickSpacing);
    const tokens = tokensOf(target);
    const liquidity = liquidityForUsd(sqrtPriceX96, range, tokens, positionUsd);
    open = { target, ...range, liquidity };
    const label = `position on ${pool.name}`;
    if (pool.kind === "uniswap-v4") {
      const value = tokens[0].address === zeroAddress ? unitsForUsd(tokens[0], positionUsd) : undefined;
      return routerCall(label, "mintV4", [pool.key, range.tickLower, range.tickUpper, liquidity, salt], value);
    }
    return routerCall(label, "mintV3", [pool.address, range.tickLower, range.tickUpper, liquidity, trader]);
  }

  /** An exact-input swap of at most crossingMaxUsd that stops at `limit`. */
  function swapTo(position: Open, sqrtPriceX96: bigint, limit: bigint, label: string): TrafficCall {
    const zeroForOne = limit < sqrtPriceX96;
    const tokenIn = tokensOf(position.target)[zeroForOne ? 0 : 1];
    const amount = unitsForUsd(tokenIn, crossingMaxUsd);
    const { pool } = position.target;
    if (pool.kind === "uniswap-v4") {
      const value = tokenIn.address === zeroAddress ? amount : undefined;
      return routerCall(label, "swapV4Exact", [pool.key, zeroForOne, true, amount, limit, trader], value);
    }
    return routerCall(label, "swapV3Exact", [pool.address, zeroForOne, true, amount, limit, trader]);
  }

  /** Just past the position's edge nearer the price: one tick beyond it, far more than float error. */
  async function crossing(position: Open): Promise<TrafficCall> {
    const sqrtPriceX96 = await sqrtPriceOf(position.target);
    position.sqrtPriceBefore = sqrtPriceX96;
    const tick = approxTickAt(sqrtPriceX96);
    const edge = Math.abs(position.tickUpper - tick) <= Math.abs(tick - position.tickLower) ? position.tickUpper : position.tickLower;
    const limit = approxSqrtRatioAtTick(sqrtPriceX96 > approxSqrtRatioAtTick(edge) ? edge - 1 : edge + 1);
    return swapTo(position, sqrtPriceX96, limit, `tick crossing on ${position.target.pool.name}`);
  }

  /** Back to the price before the crossing (across the edge again); nothing when the price is already there. */
  async function returning(position: Open): Promise<TrafficCall | undefined> {
    const sqrtPriceX96 = await sqrtPriceOf(position.target);
    const before = position.sqrtPriceBefore;
    if (before === undefined || before === sqrtPriceX96) return undefined;
    return swapTo(position, sqrtPriceX96, before, `tick crossing back on ${position.target.pool.name}`);
  }

  function closing(position: Open): TrafficCall {
    const { pool } = position.target;
    const label = `closing position on ${pool.name}`;
    if (pool.kind === "uniswap-v4")
      return routerCall(label, "burnV4", [pool.key, position.tickLower, position.tickUpper, position.liquidity, salt]);
    return {
      label,
      address: pool.address,
      abi: v3BurnAbi,
      functionName: "burn",
      args: [position.tickLower, position.tickUpper, position.liquidity],
      gas,
    };
  }

  return {
    /** The cycle's next call, if it has one. */
    async next(): Promise<TrafficCall | undefined> {
      const phase = step++ % 4;
      if (phase === 0 || !open) {
        step = 1;
        return opening();
      }
      if (phase === 1) return crossing(open);
      if (phase === 2) return returning(open);
      const position = open;
      open = undefined;
      return closing(position);
    },
  };
}
