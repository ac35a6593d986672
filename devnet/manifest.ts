import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { getAddress } from "viem";
import { z } from "zod";
import type { DexDeployments } from "../base/poolCandidates";

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((a) => getAddress(a));
const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/) as unknown as z.ZodType<`0x${string}`>;
const hash = z.string().regex(/^0x[0-9a-f]{64}$/) as unknown as z.ZodType<`0x${string}`>;

export const TestAccount = z.object({ address, privateKey });
export type TestAccount = z.infer<typeof TestAccount>;

export const ManifestToken = z.object({
  symbol: z.string(),
  address,
  decimals: z.number().int().min(0).max(36),
});
export type ManifestToken = z.infer<typeof ManifestToken>;

export const PoolKind = z.enum(["uniswap-v2", "uniswap-v3", "slipstream", "aerodrome-volatile", "aerodrome-stable"]);
export type PoolKind = z.infer<typeof PoolKind>;

export const ManifestPool = z.object({
  name: z.string(),
  kind: PoolKind,
  address,
  factory: address,
  token0: address,
  token1: address,
  /** Uniswap V3-style fee in hundredths of a bip (a Slipstream pool's is its tick spacing's); absent on V2-style pools. */
  fee: z.number().int().optional(),
  /** Uniswap V3-style tick spacing (what names a Slipstream pool); absent on V2-style pools. */
  tickSpacing: z.number().int().optional(),
});
export type ManifestPool = z.infer<typeof ManifestPool>;

/**
 * A Uniswap V4 pool: it lives in the PoolManager, keyed by its id (what the index stores as the pool's
 * address). Currency address(0) is native ETH.
 */
export const ManifestV4Pool = z.object({
  name: z.string(),
  kind: z.literal("uniswap-v4"),
  /** keccak256(abi.encode(key)). */
  id: hash,
  poolManager: address,
  key: z.object({
    currency0: address,
    currency1: address,
    /** Hundredths of a bip. */
    fee: z.number().int(),
    tickSpacing: z.number().int(),
    /** Its low 14 bits are the hook's permissions; the devnet's PoolManager stores it and never calls it. */
    hooks: address,
  }),
});
export type ManifestV4Pool = z.infer<typeof ManifestV4Pool>;

/**
 * Where the devnet's DEXes are and how their pools' addresses derive, as base/baseDexDeployments.ts has
 * Base's: the fixtures' own init code hashes and clone implementations stand in for Base's.
 */
export const ManifestDexes: z.ZodType<DexDeployments> = z.object({
  uniswapV2: z.object({ factory: address, initCodeHash: hash }),
  uniswapV3: z.object({ factory: address, initCodeHash: hash, fees: z.array(z.number().int()) }),
  uniswapV4: z.object({
    poolManager: address,
    feeTickSpacings: z.array(z.object({ fee: z.number().int(), tickSpacing: z.number().int() })),
  }),
  aerodrome: z.object({ factory: address, implementation: address }),
  slipstream: z.array(z.object({ factory: address, implementation: address, tickSpacings: z.array(z.number().int()) })),
});

/** A trade simulation fixture token: its traps (SimFixtureToken's parameters) and its pools. */
export const SimulationFixture = z.object({
  name: z.string(),
  address,
  decimals: z.number().int(),
  treasury: address,
  traps: z.object({
    buyFeeBps: z.number().int(),
    sellFeeBps: z.number().int(),
    transferFeeBps: z.number().int(),
    rebaseBps: z.number().int(),
    /** Base units, decimal; "0" for none. */
    maxTxAmount: z.string().regex(/^\d+$/),
    sellsRestricted: z.boolean(),
  }),
  /** A Uniswap V4 pool's address is the PoolManager's. */
  pools: z.array(
    z.object({ kind: z.enum(["uniswap-v2", "aerodrome-volatile", "uniswap-v3", "slipstream", "uniswap-v4"]), address, quote: z.string() }),
  ),
});
export type SimulationFixture = z.infer<typeof SimulationFixture>;

/** Everything a test or tool needs to find on the devnet; nothing else hard-codes devnet addresses. */
export const Manifest = z.object({
  chainId: z.number().int(),
  rpcUrl: z.string().url(),
  /** Block at which the seeded state is complete. */
  seededAtBlock: z.number().int().nonnegative(),
  accounts: z.object({
    deployer: TestAccount,
    traffic: TestAccount,
    /** Funded wallets for tests to sign with (USDC, WETH, every tracked token, ETH). */
    users: z.array(TestAccount),
    /** Pays the gas of x402 settlements: the in-process facilitator's key unless X402_FACILITATOR_PRIVATE_KEY is set. */
    facilitator: TestAccount,
  }),
  payoutAddress: address,
  tokens: z.record(z.string(), ManifestToken),
  dexes: ManifestDexes,
  pools: z.array(ManifestPool),
  /** Uniswap V4 pools in the PoolManager (at Base's address): of tracked tokens, one with swap hooks, one of untracked tokens. */
  v4Pools: z.array(ManifestV4Pool),
  /** The trade simulation's fixture tokens (devnet/seed/simulationTokens.ts). */
  simulationTokens: z.array(SimulationFixture),
  /** Every other deployed fixture by a stable name (proxies, Diamond, facets, Multicall3, ...). */
  contracts: z.record(z.string(), address),
  /** Runtime code hashes the API checks at start: x402's batch-settlement escrow (offered only where its code is found). */
  codeHashes: z.object({ x402BatchSettlement: hash }),
});
export type Manifest = z.infer<typeof Manifest>;

export const defaultManifestPath = fileURLToPath(new URL("../.devnet/manifest.json", import.meta.url));

export function writeManifest(manifest: Manifest, path = defaultManifestPath): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readManifest(path = process.env.DEVNET_MANIFEST ?? defaultManifestPath): Manifest {
  return Manifest.parse(JSON.parse(readFileSync(path, "utf8")));
}
