import { describe, expect, test } from "vitest";
import { parseDelegationDesignator } from "../../api/capability/parseDelegationDesignator";
import { testClient, testManifest } from "../support/devnet";

const manifest = testManifest();
const client = testClient(manifest);

describe("the devnet manifest", () => {
  test("default: every fixture it names has code at its address (or a 7702 designator on an account)", async () => {
    const named = {
      ...manifest.contracts,
      ...Object.fromEntries(Object.entries(manifest.tokens).map(([symbol, t]) => [symbol, t.address])),
      ...Object.fromEntries(manifest.pools.map((p) => [p.name, p.address])),
      ...Object.fromEntries(Object.entries(manifest.factories).map(([name, a]) => [`factory:${name}`, a])),
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

  test("behavior: several tokens have five or more pools, every pool kind is present", () => {
    const poolsOf = (symbol: string) =>
      manifest.pools.filter((p) => [p.token0, p.token1].includes(manifest.tokens[symbol]?.address ?? "0x")).length;
    for (const symbol of ["USDC", "WETH", "cbBTC"]) expect(poolsOf(symbol), symbol).toBeGreaterThanOrEqual(5);
    expect(new Set(manifest.pools.map((p) => p.kind))).toEqual(
      new Set(["uniswap-v2", "uniswap-v3", "aerodrome-volatile", "aerodrome-stable"]),
    );
  });
});
