import {
  type Address,
  decodeAbiParameters,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToBigInt,
  keccak256,
  numberToHex,
  pad,
} from "viem";
import { aerodromePoolAddress, sortTokens, uniswapV2PairAddress } from "../../base/poolAddress";
import type { DexDeployments } from "../../base/poolCandidates";
import type { PinnedRead, PinnedReader, PinnedReadResult } from "../chain/createPinnedReader";
import type { SimulationPool } from "./TradeSimulationResponse";

export type QuoteAsset = { symbol: "USDC" | "WETH"; address: Address; decimals: number };

/**
 * Storage slots probed for a quote token's `mapping(address => uint256)` of balances (Solidity layout):
 * Base's USDC keeps balances at 9 and WETH at 3; the devnet's fixtures at 8 and 0.
 */
export const balanceSlotsProbed = 10;

/** What the pools' batch found: the token, its V2-style pools with reserves, WETH's USD price, the balance slots. */
export type SimulationPools = {
  token: { isContract: boolean; symbol: string | null; decimals: number | null };
  pools: Omit<SimulationPool, "belowDepthFloor">[];
  /** USDC base units per whole WETH, from the deepest WETH/USDC pool; null without one. */
  wethPriceUsdc: bigint | null;
  balanceSlots: Partial<Record<QuoteAsset["symbol"], number>>;
  /** A read failed (not reverted): the state cannot be read at evidence grade. */
  readFailed: boolean;
};

type Candidate = { dex: SimulationPool["dex"]; address: Address; token: Address; quote: QuoteAsset };

const reservesAbi = [
  { type: "function", name: "getReserves", stateMutability: "view", inputs: [], outputs: [{ type: "uint256" }, { type: "uint256" }] },
] as const;
/** A value no real balance holds: the slot whose override balanceOf answers with it is the balance mapping's. */
const probeBalance = 0x5151_5151_5151_5151_5151n;

/** The storage key of `holder` in a Solidity `mapping(address => ...)` at `slot`. */
export function mappingKey(holder: Address, slot: number): Hex {
  return keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [holder, BigInt(slot)]));
}

/**
 * One JSON-RPC batch at the pinned block: the token's code, symbol and decimals; the reserves of every
 * Uniswap V2 pair and Aerodrome pool its address derives to against USDC and WETH (and of WETH/USDC, for
 * WETH's price); and, for each quote token, balanceOf(holder) under an override of each candidate balance
 * slot, which finds the slot to fund the synthetic trader by.
 */
export async function readSimulationPools(
  reader: PinnedReader,
  p: { dexes: DexDeployments; token: Address; quotes: readonly [QuoteAsset, QuoteAsset]; holder: Address },
): Promise<SimulationPools> {
  const [usdc, weth] = p.quotes;
  const candidates = [...p.quotes.flatMap((quote) => candidatesOf(p.dexes, p.token, quote)), ...candidatesOf(p.dexes, weth.address, usdc)];
  const call = (to: Address, data: Hex): Extract<PinnedRead, { kind: "call" }> => ({ kind: "call", to, data });
  const slotProbes = p.quotes.flatMap((quote) => balanceSlotProbes(quote.address, p.holder));
  const results = await reader.read([
    { kind: "code", address: p.token },
    call(p.token, encodeFunctionData({ abi: erc20Abi, functionName: "symbol" })),
    call(p.token, encodeFunctionData({ abi: erc20Abi, functionName: "decimals" })),
    ...candidates.map((c) => call(c.address, encodeFunctionData({ abi: reservesAbi, functionName: "getReserves" }))),
    ...slotProbes,
  ]);
  const [code, symbol, decimals, ...rest] = results;
  const reserves = rest.slice(0, candidates.length);
  const probes = rest.slice(candidates.length);
  const existing = candidates.flatMap((c, i) => {
    const r = reservesOf(reserves[i]);
    if (!r) return [];
    const [token0] = sortTokens(c.token, c.quote.address);
    const [tokenReserve, quoteReserve] = token0 === c.token ? r : [r[1], r[0]];
    return tokenReserve > 0n && quoteReserve > 0n ? [{ ...c, tokenReserve, quoteReserve }] : [];
  });
  const wethPools = existing.filter((c) => c.token === weth.address && c.dex !== "aerodrome-stable");
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
    const slot = probes
      .slice(q * balanceSlotsProbed, (q + 1) * balanceSlotsProbed)
      .findIndex((r) => r?.ok && r.value.length === 66 && hexToBigInt(r.value) === probeBalance);
    if (slot >= 0) balanceSlots[quote.symbol] = slot;
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
    readFailed: results.some((r) => !r.ok && !r.reverted),
  };
}

const probesByQuoteAndHolder = new Map<string, PinnedRead[]>();

/**
 * balanceOf(holder) on `quote` under an override of each candidate slot (the same reads on every request:
 * kept, as their keys cost a keccak each).
 */
function balanceSlotProbes(quote: Address, holder: Address): PinnedRead[] {
  const key = `${quote}:${holder}`;
  let probes = probesByQuoteAndHolder.get(key);
  if (!probes) {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [holder] });
    probes = Array.from({ length: balanceSlotsProbed }, (_, slot) => ({
      kind: "call" as const,
      to: quote,
      data,
      stateOverride: { [quote]: { stateDiff: { [mappingKey(holder, slot)]: pad(numberToHex(probeBalance)) } } },
    }));
    probesByQuoteAndHolder.set(key, probes);
  }
  return probes;
}

/** The Uniswap V2 pair and the Aerodrome volatile and stable pools `token` derives to against `quote`. */
function candidatesOf(dexes: DexDeployments, token: Address, quote: QuoteAsset): Candidate[] {
  const pair = { tokenA: token, tokenB: quote.address };
  return [
    { dex: "uniswap-v2", address: uniswapV2PairAddress({ ...dexes.uniswapV2, ...pair }), token, quote },
    { dex: "aerodrome-volatile", address: aerodromePoolAddress({ ...dexes.aerodrome, ...pair, stable: false }), token, quote },
    { dex: "aerodrome-stable", address: aerodromePoolAddress({ ...dexes.aerodrome, ...pair, stable: true }), token, quote },
  ];
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
