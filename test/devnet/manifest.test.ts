import { BATCH_SETTLEMENT_ADDRESS, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
import { type Address, type Hex, parseAbi, zeroAddress } from "viem";
import { describe, expect, test } from "vitest";
import { UniswapV4PoolManagerAbi } from "../../abis/UniswapV4PoolManagerAbi";
import { parseDelegationDesignator } from "../../api/capability/parseDelegationDesignator";
import { marketSymbols, pricedSymbolOf } from "../../api/market/marketSymbols";
import { derivePoolCandidates, type PoolCandidate, pricingPairs, pricingQuotes } from "../../base/poolCandidates";
import { decodeUniswapV4Slot0, uniswapV4PoolSlots } from "../../base/uniswapV4";
import type { ManifestPool } from "../../devnet/manifest";
import { testClient, testManifest } from "../support/devnet";

const manifest = testManifest();
const client = testClient(manifest);

/** The seeded pool as a derived candidate would name it: its DEX and what tells its pools apart. */
function asCandidate(p: ManifestPool) {
  switch (p.kind) {
    case "uniswap-v2":
      return { dex: "uniswap-v2" };
    case "uniswap-v3":
      return { dex: "uniswap-v3", fee: p.fee };
    case "slipstream":
      return { dex: "slipstream", tickSpacing: p.tickSpacing };
    default:
      return { dex: "aerodrome", stable: p.kind === "aerodrome-stable" };
  }
}

describe("the devnet manifest", () => {
  test("default: every fixture it names has code at its address (or a 7702 designator on an account)", async () => {
    const { dexes } = manifest;
    const named = {
      ...manifest.contracts,
      ...Object.fromEntries(Object.entries(manifest.tokens).map(([symbol, t]) => [symbol, t.address])),
      ...Object.fromEntries(manifest.pools.map((p) => [p.name, p.address])),
      "dex:uniswapV2": dexes.uniswapV2.factory,
      "dex:uniswapV3": dexes.uniswapV3.factory,
      "dex:aerodrome": dexes.aerodrome.factory,
      "dex:aerodromeImplementation": dexes.aerodrome.implementation,
      ...Object.fromEntries(
        dexes.slipstream.flatMap((cl, i) => [
          [`dex:slipstream${i}`, cl.factory],
          [`dex:slipstreamImplementation${i}`, cl.implementation],
        ]),
      ),
    };
    expect(Object.keys(named).length).toBeGreaterThan(60);
    for (const [name, address] of Object.entries(named)) {
      const code = (await client.getCode({ address })) ?? "0x";
      expect(code.length, `${name} at ${address}`).toBeGreaterThan(2);
      if (name.startsWith("delegatedAccount")) expect(parseDelegationDesignator(code), name).not.toBeNull();
    }
  });

  test("behavior: tracked tokens sit at Base's real addresses", () => {
    expect(manifest.tokens.USDC?.address).toBe("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
    expect(manifest.tokens.WETH?.address).toBe("0x4200000000000000000000000000000000000006");
    expect(manifest.contracts.multicall3).toBe("0xcA11bde05977b3631167028862bE2a173976CA11");
  });

  test("behavior: x402's batch-settlement escrow and its ERC-3009 deposit collector sit where @x402/evm names them, the collector bound to the escrow", async () => {
    expect(manifest.contracts.x402BatchSettlement).toBe(BATCH_SETTLEMENT_ADDRESS);
    expect(manifest.contracts.erc3009DepositCollector).toBe(ERC3009_DEPOSIT_COLLECTOR_ADDRESS);
    const escrow = await client.readContract({
      address: ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
      abi: parseAbi(["function x402BatchSettlement() view returns (address)"]),
      functionName: "x402BatchSettlement",
    });
    expect(escrow).toBe(BATCH_SETTLEMENT_ADDRESS);
  });

  test("behavior: several tokens have five or more pools, every pool kind is present", () => {
    const poolsOf = (symbol: string) =>
      manifest.pools.filter((p) => [p.token0, p.token1].includes(manifest.tokens[symbol]?.address ?? "0x")).length;
    for (const symbol of ["USDC", "WETH", "cbBTC"]) expect(poolsOf(symbol), symbol).toBeGreaterThanOrEqual(5);
    expect(new Set(manifest.pools.map((p) => p.kind))).toEqual(
      new Set(["uniswap-v2", "uniswap-v3", "slipstream", "aerodrome-volatile", "aerodrome-stable"]),
    );
  });

  test("behavior: like Base's market, every symbol is priced by at least three seeded pools on at least two DEX kinds", () => {
    const tokens = Object.values(manifest.tokens);
    const wethAddress = manifest.tokens.WETH?.address;
    // Native ETH in a V4 pool counts as WETH; hooked V4 pools do not price.
    const markets = [
      ...manifest.pools.map((p) => ({ dex: asCandidate(p).dex, tokens: [p.token0, p.token1] })),
      ...manifest.v4Pools
        .filter((p) => p.key.hooks === zeroAddress)
        .map((p) => ({ dex: "uniswap-v4", tokens: [p.key.currency0, p.key.currency1].map((c) => (c === zeroAddress ? wethAddress : c)) })),
    ];
    const pairs = pricingPairs(tokens, pricingQuotes);
    for (const symbol of marketSymbols) {
      const priced = pairs.filter((pair) => pair.symbol === pricedSymbolOf(symbol));
      const pools = markets.filter((m) => priced.some((pair) => m.tokens.includes(pair.token) && m.tokens.includes(pair.against)));
      expect(pools.length, symbol).toBeGreaterThanOrEqual(3);
      expect(new Set(pools.map((p) => p.dex)).size, symbol).toBeGreaterThanOrEqual(2);
    }
  });

  test("behavior: pools derive from the manifest's DEX deployments as on Base: each seeded pool and V4 id is a candidate, and no other candidate existed once seeded", async () => {
    const candidates = derivePoolCandidates(manifest.dexes, Object.values(manifest.tokens));
    const at = BigInt(manifest.seededAtBlock);
    const byAddress = new Map<string, PoolCandidate>();
    for (const c of candidates) if (c.dex !== "uniswap-v4") byAddress.set(c.address, c);
    for (const p of manifest.pools) {
      const candidate = byAddress.get(p.address);
      expect(candidate, p.name).toMatchObject({ ...asCandidate(p), token0: p.token0, token1: p.token1, factory: p.factory });
    }
    const deployed = [];
    for (const address of byAddress.keys()) {
      if (((await client.getCode({ address: address as Address, blockNumber: at })) ?? "0x") !== "0x") deployed.push(address);
    }
    expect(deployed.sort()).toEqual(manifest.pools.map((p) => p.address).sort());

    // V4: every hookless pool of tracked tokens is a candidate, and is the only initialized one.
    const ids = [...new Set(candidates.flatMap((c) => (c.dex === "uniswap-v4" ? [c.id] : [])))];
    const slot0s = (await client.readContract({
      address: manifest.dexes.uniswapV4.poolManager,
      abi: UniswapV4PoolManagerAbi,
      functionName: "extsload",
      args: [ids.map((id) => uniswapV4PoolSlots(id).slot0)],
      blockNumber: at,
    })) as readonly Hex[];
    const initialized = ids.filter((_, i) => decodeUniswapV4Slot0(slot0s[i] ?? "0x0").sqrtPriceX96 !== 0n);
    const tracked = new Set([zeroAddress, ...Object.values(manifest.tokens).map((t) => t.address)]);
    const hooklessTracked = manifest.v4Pools.filter(
      (p) => p.key.hooks === zeroAddress && tracked.has(p.key.currency0) && tracked.has(p.key.currency1),
    );
    expect(hooklessTracked.length).toBeGreaterThanOrEqual(2);
    expect(initialized.sort()).toEqual(hooklessTracked.map((p) => p.id).sort());
  });
});
