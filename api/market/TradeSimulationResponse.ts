import { z } from "zod";
import { ObservationEvidence } from "../chain/ObservationBlock";
import { AddressParam, WireAddress } from "../http/params";

/** What the simulation route takes: the token, in the path. */
export const TradeSimulationRequest = z.strictObject({ address: AddressParam });
export type TradeSimulationRequest = z.infer<typeof TradeSimulationRequest>;

const units = z.string().regex(/^\d+$/).describe("base units, decimal");

/** A pool the token trades in against USDC or WETH, found by address derivation at the pinned block. */
export const SimulationPool = z.strictObject({
  address: WireAddress,
  dex: z.enum(["uniswap-v2", "aerodrome-volatile", "aerodrome-stable", "uniswap-v3", "slipstream", "uniswap-v4"]),
  /** A Uniswap V4 pool (whose `address` is the PoolManager's): its id and its hookless key's fee and tick spacing; null for the others. */
  uniswapV4: z.strictObject({ id: z.string().regex(/^0x[0-9a-f]{64}$/), fee: z.int(), tickSpacing: z.int() }).nullable(),
  quote: z.strictObject({ symbol: z.enum(["USDC", "WETH"]), address: WireAddress, decimals: z.int() }),
  /** A concentrated pool's (Uniswap V3 and V4, Slipstream): the virtual reserves of its in-range liquidity L at √P (token0 L/√P, token1 L·√P). */
  tokenReserve: units,
  quoteReserve: units,
  quoteReserveUsd: z.number().nonnegative(),
  /**
   * Quote-asset USD a buy moving the price up 2% takes (constant product: reserve × (√1.02 − 1)); for a
   * concentrated pool, as if its in-range liquidity spanned those 2%.
   */
  depthUsd: z.number().nonnegative(),
  /** Below MARKET_MIN_POOL_DEPTH_USD: still traded through (thin pools are where traps live), flagged. */
  belowDepthFloor: z.boolean(),
});
export type SimulationPool = z.infer<typeof SimulationPool>;

/** A revert's data, decoded where it is Error(string) or Panic(uint256), else its selector. */
export const DecodedRevert = z.strictObject({
  data: z.string(),
  kind: z.enum(["ERROR_STRING", "PANIC", "CUSTOM_ERROR", "EMPTY"]),
  message: z.string().nullable(),
  panicCode: z.int().nullable(),
  selector: z.string().nullable(),
});
export type DecodedRevert = z.infer<typeof DecodedRevert>;

/**
 * One observed step. Buy: `sent` quote asset, `quoted` tokens the pool's own quote gives for it, `received`
 * tokens the trader got. Transfer: `sent` tokens, `received` by the peer. Sell: `sent` tokens, `arrived` at
 * the pool, `quoted` quote asset the pool quotes for everything sent, `received` quote asset paid.
 */
export const TradeFigure = z.strictObject({
  step: z.enum(["BUY_SMALL", "TRANSFER", "SELL_SMALL", "BUY_LARGE", "SELL_LARGE"]),
  outcome: z.enum(["SUCCEEDED", "REVERTED", "NOT_ATTEMPTED"]),
  pool: WireAddress,
  blockNumber: z.int().nonnegative(),
  sent: units,
  arrived: units,
  quoted: units,
  received: units,
  /** Buy: tokens received below the pool's quote; transfer: received below sent; sell: quote asset below the pool's quote. Negative: more. */
  costBps: z.int().nullable(),
  /** Sells: tokens that arrived at the pool below those sent (the token's own take, without the curve's effect). */
  tokenShortfallBps: z.int().nullable(),
  gasUsed: z.int().nonnegative(),
  revert: DecodedRevert.nullable(),
});
export type TradeFigure = z.infer<typeof TradeFigure>;

/** Where the larger trade reverted and the small one succeeded: the ladder's largest amount that succeeded. */
export const TradeLimit = z.strictObject({
  side: z.enum(["BUY", "SELL"]),
  /** Tokens leaving the pool (buy) or sent to it (sell), in base units, whole tokens. */
  largestSucceeded: units,
  smallestFailed: units,
  probes: z.int().nonnegative(),
  ladderBound: z.int().positive(),
  /** One whole token: the ladder's step. Exact when smallestFailed − largestSucceeded equals it. */
  resolution: units,
});
export type TradeLimit = z.infer<typeof TradeLimit>;

export const TradeSimulationResponse = z.strictObject({
  status: z.literal("SUCCESS"),
  operation: z.literal("TOKEN_TRADE_SIMULATION"),
  token: z.strictObject({
    address: WireAddress,
    isContract: z.boolean(),
    symbol: z.string().nullable(),
    decimals: z.int().nullable(),
  }),
  /** The deepest pool, traded through; null when the simulation was not made (UNVERIFIED). */
  pool: SimulationPool.nullable(),
  poolsConsidered: z.array(SimulationPool),
  amounts: z.strictObject({ smallUsd: z.number(), largeUsd: z.number(), smallIn: units, largeIn: units }).nullable(),
  figures: z.array(TradeFigure),
  tradeLimits: z.array(TradeLimit),
  gas: z.strictObject({ callGasLimit: z.int(), stepGasLimit: z.int(), ladderBound: z.int() }),
  /** How the synthetic trader was funded: the quote token's balance slot found by probing and overridden. */
  funding: z.strictObject({ quoteToken: WireAddress, balanceSlot: z.int() }).nullable(),
  ...ObservationEvidence,
  limitations: z.array(z.string()),
  conclusion: z.null(),
});
export type TradeSimulationResponse = z.infer<typeof TradeSimulationResponse>;
