import {
  type Address,
  decodeAbiParameters,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToBigInt,
  keccak256,
  multicall3Abi,
  numberToHex,
  pad,
} from "viem";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import { UniswapV4PoolManagerAbi } from "../../abis/UniswapV4PoolManagerAbi";
import { baseMulticall3 } from "../../base/baseChain";
import { sortTokens } from "../../base/poolAddress";
import { type DexDeployments, derivePairCandidates } from "../../base/poolCandidates";
import { uniswapV4PoolSlots } from "../../base/uniswapV4";
import type { PinnedRead, PinnedReader, PinnedReadResult } from "../chain/createPinnedReader";
import type { SimulationPool } from "./TradeSimulationResponse";

export type QuoteAsset = { symbol: "USDC" | "WETH"; address: Address; decimals: number };

/**
 * Storage slots probed for a quote token's `mapping(address => uint256)` of balances (Solidity layout):
 * Base's USDC keeps balances at 9 and WETH at 3; the devnet's fixtures at 8 and 0.
 */
export const balanceSlotsProbed = 10;

/** What the pools' batch found: the token, its pools with (for concentrated pools, virtual) reserves, WETH's USD price, the balance slots. */
export type SimulationPools = {
  token: { isContract: boolean; symbol: string | null; decimals: number | null };
  pools: Omit<SimulationPool, "belowDepthFloor">[];
  /** USDC base units per whole WETH, from the deepest WETH/USDC pool; null without one. */
  wethPriceUsdc: bigint | null;
  balanceSlots: Partial<Record<QuoteAsset["symbol"], number>>;
  /** A read failed (not reverted): the state cannot be read at evidence grade. */
  readFailed: boolean;
};

/** A derived pool; a Uniswap V4 pool's `address` is the PoolManager's, its key's fee and tick spacing in `v4`. */
type Candidate = {
  dex: SimulationPool["dex"];
  address: Address;
  token: Address;
  quote: QuoteAsset;
  v4?: NonNullable<SimulationPool["uniswapV4"]>;
};

const reservesAbi = [
  { type: "function", name: "getReserves", stateMutability: "view", inputs: [], outputs: [{ type: "uint256" }, { type: "uint256" }] },
] as const;
const slot0Data = encodeFunctionData({ abi: UniswapV3PoolAbi, functionName: "slot0" });
const liquidityData = encodeFunctionData({ abi: UniswapV3PoolAbi, functionName: "liquidity" });
const mask = (bits: bigint) => (1n << bits) - 1n;
const q96 = 2n ** 96n;
/** A value no real balance holds: slot i's override holds it plus i, and balanceOf answers the one it read. */
const probeBalance = 0x5151_5151_5151_5151_5151n;

/** The storage key of `holder` in a Solidity `mapping(address => ...)` at `slot`. */
export function mappingKey(holder: Address, slot: number): Hex {
  return keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [holder, BigInt(slot)]));
}

/**
 * One JSON-RPC batch at the pinned block: the token's code, symbol and decimals; the reserves of every
 * Uniswap V2 pair and Aerodrome pool its address derives to against USDC and WETH (and of WETH/USDC, for
 * WETH's price); one Multicall3 aggregate3 of every Uniswap V3, Slipstream and V4 candidate's price and
 * in-range liquidity; and, for each quote token, one balanceOf(holder) under an override of every candidate
 * balance slot, which finds the slot to fund the synthetic trader by.
 */
export async function readSimulationPools(
  reader: PinnedReader,
  p: { dexes: DexDeployments; token: Address; quotes: readonly [QuoteAsset, QuoteAsset]; holder: Address },
): Promise<SimulationPools> {
  const [usdc, weth] = p.quotes;
  const derived = p.quotes.flatMap((quote) => candidatesOf(p.dexes, p.token, quote));
  const candidates = [...derived.filter((c) => !isConcentrated(c)), ...wethPriceCandidates(p.dexes, p.quotes)];
  const concentrated = derived.filter(isConcentrated);
  const call = (to: Address, data: Hex): Extract<PinnedRead, { kind: "call" }> => ({ kind: "call", to, data });
  const slotProbes = p.quotes.map((quote) => balanceSlotProbe(quote.address, p.holder));
  const results = await reader.read([
    { kind: "code", address: p.token },
    call(p.token, encodeFunctionData({ abi: erc20Abi, functionName: "symbol" })),
    call(p.token, encodeFunctionData({ abi: erc20Abi, functionName: "decimals" })),
    ...candidates.map((c) => call(c.address, encodeFunctionData({ abi: reservesAbi, functionName: "getReserves" }))),
    call(baseMulticall3, concentratedStateCall(concentrated)),
    ...slotProbes,
  ]);
  const [code, symbol, decimals, ...rest] = results;
  const reserves = [...rest.slice(0, candidates.length), ...concentratedReserves(concentrated, rest[candidates.length])];
  const probes = rest.slice(candidates.length + 1);
  const existing = [...candidates, ...concentrated].flatMap((c, i) => {
    const r = reservesOf(reserves[i]);
    if (!r) return [];
    const [token0] = sortTokens(c.token, c.quote.address);
    const [tokenReserve, quoteReserve] = token0 === c.token ? r : [r[1], r[0]];
    return tokenReserve > 0n && quoteReserve > 0n ? [{ ...c, tokenReserve, quoteReserve }] : [];
  });
  const wethPools = existing.filter((c) => c.token === weth.address && c.quote.address === usdc.address && pricesWeth(c));
  const wethDeepest = wethPools.sort((a, b) => Number(b.quoteReserve - a.quoteReserve))[0];
  const wethPriceRaw = wethDeepest ? (wethDeepest.quoteReserve * 10n ** BigInt(weth.decimals)) / wethDeepest.tokenReserve : 0n;
  // A pool holding less than one USDC unit per WETH prices nothing: no WETH-quoted pool is used then.
  const wethPriceUsdc = wethPriceRaw > 0n ? wethPriceRaw : null;
  const usdOf = (quote: QuoteAsset, amount: bigint) =>
    quote.symbol === "USDC"
      ? Number(amount) / 10 ** quote.decimals
      : wethPriceUsdc === null
        ? 0
        : Number((amount * wethPriceUsdc) / 10n ** 18n) / 10 ** usdc.decimals;
  const pools = existing
    .filter((c) => c.token === p.token)
    .map((c) => {
      const quoteReserveUsd = usdOf(c.quote, c.quoteReserve);
      return {
        address: c.address,
        dex: c.dex,
        uniswapV4: c.v4 ?? null,
        quote: c.quote,
        tokenReserve: c.tokenReserve.toString(),
        quoteReserve: c.quoteReserve.toString(),
        quoteReserveUsd,
        depthUsd: quoteReserveUsd * (Math.sqrt(1.02) - 1),
      };
    })
    .sort((a, b) => b.depthUsd - a.depthUsd);
  const balanceSlots: SimulationPools["balanceSlots"] = {};
  p.quotes.forEach((quote, q) => {
    const probe = probes[q];
    const slot = probe?.ok && probe.value.length === 66 ? hexToBigInt(probe.value) - probeBalance : -1n;
    if (slot >= 0n && slot < BigInt(balanceSlotsProbed)) balanceSlots[quote.symbol] = Number(slot);
  });
  return {
    token: {
      isContract: code?.ok === true && code.value !== "0x",
      symbol: symbol?.ok ? decodeString(symbol.value) : null,
      decimals: decimals?.ok && decimals.value.length === 66 ? Number(hexToBigInt(decimals.value)) : null,
    },
    pools,
    wethPriceUsdc,
    balanceSlots,
    readFailed: [...results, ...reserves].some((r) => r !== undefined && !r.ok && !r.reverted),
  };
}

const probeByQuoteAndHolder = new Map<string, PinnedRead>();

/**
 * balanceOf(holder) on `quote` under one override of every candidate slot, slot i holding probeBalance + i:
 * the answer names the slot balanceOf read. The same read on every request: kept, as its keys cost a keccak each.
 */
function balanceSlotProbe(quote: Address, holder: Address): PinnedRead {
  const key = `${quote}:${holder}`;
  let probe = probeByQuoteAndHolder.get(key);
  if (!probe) {
    const stateDiff = Object.fromEntries(
      Array.from({ length: balanceSlotsProbed }, (_, slot) => [mappingKey(holder, slot), pad(numberToHex(probeBalance + BigInt(slot)))]),
    );
    probe = {
      kind: "call",
      to: quote,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [holder] }),
      stateOverride: { [quote]: { stateDiff } },
    };
    probeByQuoteAndHolder.set(key, probe);
  }
  return probe;
}

/**
 * Every pool `token` derives to against `quote`, as the indexer derives its candidates (base/poolCandidates.ts):
 * Uniswap V2, Uniswap V3 at each fee tier, Aerodrome volatile and stable, each Slipstream factory's tick
 * spacings, and Uniswap V4's hookless pools of the standard fee and tick-spacing pairs (ERC-20 currencies
 * only: native ETH is not simulated).
 */
function candidatesOf(dexes: DexDeployments, token: Address, quote: QuoteAsset): Candidate[] {
  const pair = { symbol: "", token, quote: quote.symbol, against: quote.address };
  return derivePairCandidates(dexes, pair).map((c): Candidate => {
    if (c.dex === "uniswap-v4") {
      return { dex: c.dex, address: c.factory, token, quote, v4: { id: c.id, fee: c.fee, tickSpacing: c.tickSpacing } };
    }
    const dex = c.dex === "aerodrome" ? (c.stable ? "aerodrome-stable" : "aerodrome-volatile") : c.dex;
    return { dex, address: c.address, token, quote };
  });
}

const isConcentrated = (c: Candidate) => c.dex === "uniswap-v3" || c.dex === "slipstream" || c.dex === "uniswap-v4";

/** The pools WETH's price rests on: those whose reserves are their depth and price (constant product). */
const pricesWeth = (c: Candidate) => c.dex === "uniswap-v2" || c.dex === "aerodrome-volatile";

const wethPriceCandidatesByDexes = new WeakMap<DexDeployments, Map<string, Candidate[]>>();

/**
 * The WETH/USDC pools WETH's price rests on here: those whose reserves are their depth (Uniswap V2, Aerodrome
 * volatile). The same on every request, so derived once per deployment and pair of quote tokens.
 */
function wethPriceCandidates(dexes: DexDeployments, [usdc, weth]: readonly [QuoteAsset, QuoteAsset]): Candidate[] {
  let byQuotes = wethPriceCandidatesByDexes.get(dexes);
  if (!byQuotes) {
    byQuotes = new Map();
    wethPriceCandidatesByDexes.set(dexes, byQuotes);
  }
  const key = `${weth.address}/${usdc.address}`;
  let found = byQuotes.get(key);
  if (!found) {
    found = candidatesOf(dexes, weth.address, usdc).filter(pricesWeth);
    byQuotes.set(key, found);
  }
  return found;
}

/**
 * One Multicall3 call reading every concentrated candidate's price and in-range liquidity: slot0() and
 * liquidity() of a V3-style pool (a pool without code answers empty), the PoolManager's extsload of a V4
 * pool's two slots (an uninitialized pool's are zero).
 */
function concentratedStateCall(candidates: readonly Candidate[]): Hex {
  const extsload = (slot: Hex) => encodeFunctionData({ abi: UniswapV4PoolManagerAbi, functionName: "extsload", args: [slot] });
  const calls = candidates.flatMap((c) => {
    const slots = c.v4 ? uniswapV4PoolSlots(c.v4.id as Hex) : null;
    return [
      { target: c.address, allowFailure: true, callData: slots ? extsload(slots.slot0) : slot0Data },
      { target: c.address, allowFailure: true, callData: slots ? extsload(slots.liquidity) : liquidityData },
    ];
  });
  return encodeFunctionData({ abi: multicall3Abi, functionName: "aggregate3", args: [calls] });
}

/**
 * Each concentrated candidate's in-range liquidity as the reserves of a constant-product pool of the same
 * liquidity at the same price (token0 L/√P, token1 L·√P), as a getReserves answer would carry them; a
 * failed multicall fails every candidate's read.
 */
function concentratedReserves(candidates: readonly Candidate[], result: PinnedReadResult | undefined): (PinnedReadResult | undefined)[] {
  // A reverted aggregate3 (allowFailure never reverts it) is a failed read too, not an absence of pools.
  if (!result?.ok) return candidates.map(() => (result?.reverted ? { ok: false, error: "aggregate3 reverted", reverted: false } : result));
  let answers: readonly { success: boolean; returnData: Hex }[];
  try {
    answers = decodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", data: result.value });
  } catch {
    return candidates.map(() => ({ ok: false, error: "malformed aggregate3 answer", reverted: false }));
  }
  return candidates.map((_, i) => {
    const [slot0, liquidity] = [answers[2 * i], answers[2 * i + 1]];
    // A call to an address without code succeeds with no data (no pool there); code that refuses the read is
    // not a pool answering, and the state cannot be read at evidence grade.
    if (!slot0?.success || !liquidity?.success) return { ok: false, error: "a pool's state read reverted", reverted: false };
    if (slot0.returnData.length < 66 || liquidity.returnData.length < 66) return { ok: true, value: "0x" };
    // The first word: V3's sqrtPriceX96 and liquidity, or V4's packed slots (the price in the low 160 bits,
    // the liquidity in the low 128).
    const sqrtPriceX96 = hexToBigInt(`0x${slot0.returnData.slice(2, 66)}`) & mask(160n);
    const active = hexToBigInt(`0x${liquidity.returnData.slice(2, 66)}`) & mask(128n);
    if (sqrtPriceX96 === 0n) return { ok: true, value: "0x" };
    const reserve0 = (active * q96) / sqrtPriceX96;
    const reserve1 = (active * sqrtPriceX96) / q96;
    return { ok: true, value: encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [reserve0, reserve1]) };
  });
}

/** (reserve0, reserve1) of a getReserves answer; undefined where no pool answered (no code: empty return). */
function reservesOf(result: PinnedReadResult | undefined): [bigint, bigint] | undefined {
  if (!result?.ok || result.value.length < 2 + 64 * 2) return undefined;
  const [r0, r1] = decodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], result.value);
  return [r0, r1];
}

function decodeString(value: Hex): string | null {
  try {
    return decodeAbiParameters([{ type: "string" }], value)[0].slice(0, 64);
  } catch {
    return null;
  }
}
