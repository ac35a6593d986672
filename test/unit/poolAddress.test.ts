import { type Address, getAddress, type Hex, zeroAddress } from "viem";
import { describe, expect, test } from "vitest";
import { marketSymbols, parStableSymbols } from "../../api/market/marketSymbols";
import { baseTokens } from "../../base/baseChain";
import { baseDexDeployments, basePoolCandidates } from "../../base/baseDexDeployments";
import {
  aerodromePoolAddress,
  erc1167InitCodeHash,
  slipstreamPoolAddress,
  uniswapV2PairAddress,
  uniswapV3PoolAddress,
} from "../../base/poolAddress";
import { type DexKind, pricingQuotes } from "../../base/poolCandidates";
import { uniswapV4PoolId } from "../../base/uniswapV4";

const { USDC, WETH, USDT, AERO, EURC, cbBTC, VIRTUAL, DEGEN, TOSHI } = Object.fromEntries(
  Object.values(baseTokens).map((t) => [t.symbol, t.address]),
) as Record<keyof typeof baseTokens, Address>;
/** Tokens that are not tracked but stand in published pools. */
const USDbC: Address = "0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA";
const cbETH: Address = "0x2Ae3F1Ec7F1F5012CFEab0185bfc7aa3cf0DEc22";
const wstETH: Address = "0xc1CBa3fCea344f92D9239c08C0568f6F2F0ee452";
const NVDAc: Address = "0xb20000000000000000000078ee7ce2fE4908108C";

const [slipstream0, slipstream1, slipstream3] = baseDexDeployments.slipstream;

/** Published Base pools, each with where it is published (repository and path), as the derivation must give them. */
const published: { dex: DexKind; name: string; source: string; derived: () => Address | Hex; address: string }[] = [
  ...(
    [
      ["WETH/USDC", WETH, USDC, "0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C", "public code: UNISWAP_USDC_WETH_POOL[base.id], V2_USDC_POOL"],
      ["WETH/DEGEN", WETH, DEGEN, "0x7C327d692B72f60b28AecEDbcC1BA784712fE7b2", "degenbot tests/uniswap/test_uniswap_trackers.py"],
      ["WETH/VIRTUAL", WETH, VIRTUAL, "0xE31c372a7Af875b3B5E0F3713B17ef51556da667", "public code: univ2_weth_virtual_pool"],
      ["WETH/USDbC", WETH, USDbC, "0xe902EF54E437967c8b37D30E80ff887955c90DB6", "two public Base V2 pool lists"],
      ["USDC/USDbC", USDC, USDbC, "0xC5ACcD3e4f6dF1912498775807e0972B3ec43F29", "a public Base V2 pool list"],
    ] as const
  ).map(([pair, tokenA, tokenB, address, source]) => ({
    dex: "uniswap-v2" as const,
    name: `Uniswap V2 ${pair}`,
    source,
    address,
    derived: () => uniswapV2PairAddress({ ...baseDexDeployments.uniswapV2, tokenA, tokenB }),
  })),
  ...(
    [
      ["WETH/USDC", WETH, USDC, 500, "0xd0b53D9277642d899DF5C87A3966A349A798F224", "btr-supply/contracts evm/utils/meta/Base.sol"],
      ["WETH/USDC", WETH, USDC, 3000, "0x6c561B446416E1A00E8E93E221854d6eA4171372", "public Base pool tables"],
      ["USDC/cbBTC", USDC, cbBTC, 500, "0xfBB6Eed8e7aa03B138556eeDaF5D271A5E1e43ef", "btr-supply/contracts evm/utils/meta/Base.sol"],
      ["WETH/cbBTC", WETH, cbBTC, 500, "0x7AeA2E8A3843516afa07293a10Ac8E49906dabD1", "btr-supply/contracts evm/utils/meta/Base.sol"],
      ["WETH/cbBTC", WETH, cbBTC, 3000, "0x8c7080564B5A792A33Ef2FD473fbA6364d5495e5", "public Base pool tables"],
      ["DEGEN/WETH", DEGEN, WETH, 3000, "0xc9034c3E7F58003E6ae0C8438e7c8f4598d5ACAA", "degenbot tests/uniswap/test_uniswap_trackers.py"],
      ["TOSHI/WETH", TOSHI, WETH, 10000, "0x4b0Aaf3EBb163dd45F663b38b6d93f6093EBC2d3", "public Base pool tables (WETH/TOSHI 1.0%)"],
      ["AERO/WETH", AERO, WETH, 3000, "0x3d5D143381916280ff91407FeBEB52f2b60f33Cf", "public code: POOL_AERO_WETH_30BP"],
      ["AERO/USDC", AERO, USDC, 500, "0xE5B5f522E98B5a2baAe212d4dA66b865B781DB97", "public code: POOL_AERO_USDC_5BP"],
      ["cbETH/WETH", cbETH, WETH, 500, "0x10648BA41B8565907Cfa1496765fA4D95390aa0d", "public Base pool tables"],
      ["WETH/USDbC", WETH, USDbC, 500, "0x4C36388bE6F416A29C8d8Eee81C771cE6bE14B18", "public Base pool tables"],
    ] as const
  ).map(([pair, tokenA, tokenB, fee, address, source]) => ({
    dex: "uniswap-v3" as const,
    name: `Uniswap V3 ${pair} ${fee}`,
    source,
    address,
    derived: () => uniswapV3PoolAddress({ ...baseDexDeployments.uniswapV3, tokenA, tokenB, fee }),
  })),
  ...(
    [
      ["ETH/USDC", zeroAddress, USDC, 500, 10, zeroAddress, "0x96d4b53a38337a5733179751781178a2613306063c511b78cd02684739288c0a"],
      ["USDC/USDT", USDC, USDT, 7, 1, zeroAddress, "0xf13203ddbf2c9816a79b656a1a952521702715d92fea465b84ae2ed6e94a7f22"],
      ["USDC/USDT", USDC, USDT, 20, 1, zeroAddress, "0xd3020570106c58635ff7f549659c4c310409c9a5d698cb826842bc8a39e3ce81"],
      ["USDC/cbBTC", USDC, cbBTC, 500, 10, zeroAddress, "0x12d76c5c8ec8edffd3c143995b0aa43fe44a6d71eb9113796272909e54b8e078"],
      ["USDC/cbBTC", USDC, cbBTC, 3000, 60, zeroAddress, "0x179492f1f9c7b2e2518a01eda215baab8adf0b02dd3a90fe68059c0cac5686f5"],
      ["ETH/USDC", zeroAddress, USDC, 3000, 60, zeroAddress, "0xe070797535b13431808f8fc81fdbe7b41362960ed0b55bc2b6117c49c51b7eb9"],
      [
        "ETH/USDC (hooked)",
        zeroAddress,
        USDC,
        90,
        2,
        "0x4440854b2d02c57a0dc5c58b7a884562d875c0c4",
        "0xaf15cd1f9c3874bbcfddfc2b544544612c9de8c8bae28ba21c129c6b286c1e19",
      ],
    ] as const
  ).map(([pair, a, b, fee, tickSpacing, hooks, id]) => ({
    dex: "uniswap-v4" as const,
    name: `Uniswap V4 ${pair} ${fee}/${tickSpacing}`,
    source: "VeloraDEX/paraswap-dex-lib src/dex/uniswap-v4/config.ts (UniswapV4PoolsList, Base)",
    address: id,
    derived: () => {
      const [currency0, currency1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
      return uniswapV4PoolId({ currency0, currency1, fee, tickSpacing, hooks: getAddress(hooks) });
    },
  })),
  ...(
    [
      ["WETH/USDC", WETH, USDC, false, "0xcDAC0d6c6C59727a65F871236188350531885C43"],
      ["USDC/AERO", USDC, AERO, false, "0x6cDcb1C4A4D1C3C6d054b27AC5B77e89eAFb971d"],
      ["USDC/USDbC", USDC, USDbC, true, "0x27a8Afa3Bd49406e48a074350fB7b2020c43B2bD"],
      ["WETH/AERO", WETH, AERO, false, "0x7f670f78B17dEC44d5Ef68a48740b6f8849cc2e6"],
      ["VIRTUAL/WETH", VIRTUAL, WETH, false, "0x21594b992F68495dD28d605834b58889d0a727c7"],
      ["WETH/DEGEN", WETH, DEGEN, false, "0x2C4909355b0C036840819484c3A882A95659aBf3"],
      ["EURC/USDC", EURC, USDC, false, "0xFDF5139b38525627B47538536042A7c8d2686BD9"],
      ["WETH/wstETH", WETH, wstETH, false, "0xA6385c73961dd9C58db2EF0c4EB98cE4B60651e8"],
      ["VIRTUAL/cbBTC", VIRTUAL, cbBTC, false, "0xb909F567c5c2Bb1A4271349708CC4637D7318b4A"],
    ] as const
  ).map(([pair, tokenA, tokenB, stable, address]) => ({
    dex: "aerodrome" as const,
    name: `Aerodrome ${stable ? "sAMM" : "vAMM"} ${pair}`,
    source: "arcadia-finance/accounts-v2 script/utils/constants/Base.sol (AerodromePools)",
    address,
    derived: () => aerodromePoolAddress({ ...baseDexDeployments.aerodrome, tokenA, tokenB, stable }),
  })),
  ...(
    [
      [
        slipstream0,
        "WETH/USDC",
        WETH,
        USDC,
        100,
        "0xb2cc224c1c9feE385f8ad6a55b4d94E92359DC59",
        "btr-supply/contracts evm/utils/meta/Base.sol",
      ],
      [
        slipstream0,
        "USDC/cbBTC",
        USDC,
        cbBTC,
        100,
        "0x4e962BB3889Bf030368F56810A9c96B83CB3E778",
        "btr-supply/contracts evm/utils/meta/Base.sol",
      ],
      [
        slipstream0,
        "WETH/cbBTC",
        WETH,
        cbBTC,
        100,
        "0x70aCDF2Ad0bf2402C957154f944c19Ef4e1cbAE1",
        "btr-supply/contracts evm/utils/meta/Base.sol",
      ],
      [
        slipstream0,
        "WETH/AERO",
        WETH,
        AERO,
        200,
        "0x82321f3BEB69f503380D6B233857d5C43562e2D0",
        "degenbot tests/aerodrome (clone address parity)",
      ],
      [
        slipstream0,
        "cbETH/WETH",
        cbETH,
        WETH,
        1,
        "0x47cA96Ea59C13F72745928887f84C9F52C3D7348",
        "degenbot tests/aerodrome (v3 on-chain parity)",
      ],
      [
        slipstream0,
        "EURC/USDC",
        EURC,
        USDC,
        50,
        "0xE846373C1a92B167b4E9cd5d8E4d6B1Db9E90EC7",
        "public Aerodrome pool tables (CL50-EURC/USDC)",
      ],
      [slipstream0, "WETH/USDT", WETH, USDT, 100, "0x9785eF59E2b499fB741674ecf6fAF912Df7b3C1b", "public Aerodrome pool tables"],
      [
        slipstream1,
        "WETH/USDC",
        WETH,
        USDC,
        50,
        "0xc758d81B9b81A6FCDAd075bD471874A2c46B54e0",
        "public code: UNREGISTERED_AERODROME_CL_POOL (gauge-caps factory, WETH/USDC ts=50)",
      ],
      [
        slipstream3,
        "WETH/USDC",
        WETH,
        USDC,
        50,
        "0x3FE04A59Ebd38cF06080a6F60a98D124eb59392A",
        "the same public code (Gauges V3 factory, WETH/USDC ts=50)",
      ],
      [
        slipstream3,
        "USDC/NVDAc",
        USDC,
        NVDAc,
        10,
        "0x853f5f1b92b16714fe6cda67caad0856b83c7ab9",
        "a public note on a Gauges V3 pool (tokens, tick spacing, factory, implementation)",
      ],
    ] as const
  ).map(([factory, pair, tokenA, tokenB, tickSpacing, address, source]) => ({
    dex: "slipstream" as const,
    name: `Slipstream ${pair} ${tickSpacing} (${factory.factory.slice(0, 8)})`,
    source,
    address,
    derived: () => slipstreamPoolAddress({ ...factory, tokenA, tokenB, tickSpacing }),
  })),
];

describe("pool addresses derived from Base's public constants", () => {
  test.each(published)("default: $name is the published $address", ({ derived, address }) => {
    expect(derived().toLowerCase()).toBe(address.toLowerCase());
  });

  test("default: at least 20 published pools, at least four on each of the five DEX kinds", () => {
    expect(published.length).toBeGreaterThanOrEqual(20);
    const perKind = new Map<DexKind, number>();
    for (const { dex } of published) perKind.set(dex, (perKind.get(dex) ?? 0) + 1);
    expect([...perKind.keys()].sort()).toEqual(["aerodrome", "slipstream", "uniswap-v2", "uniswap-v3", "uniswap-v4"]);
    for (const [dex, count] of perKind) expect(count, dex).toBeGreaterThanOrEqual(4);
  });

  test("default: the Slipstream clone hashes of the first two factories are the init code hashes 0x-settler publishes", () => {
    expect(erc1167InitCodeHash(slipstream0.implementation)).toBe("0xffb9af9ea6d9e39da47392ecc7055277b9915b8bfc9f83f105821b7791a6ae30");
    expect(erc1167InitCodeHash(slipstream1.implementation)).toBe("0xe524afc4d53c767ee9df4e3b4e1937f621368ef156aeffac97f1518b2b556f9d");
  });
});

describe("the mainnet plan (npm run -s pools:mainnet)", () => {
  const candidates = basePoolCandidates();
  const key = (c: (typeof candidates)[number]) => ("address" in c ? c.address : c.id).toLowerCase();

  test.each([...marketSymbols])("default: %s has candidates on at least three DEX kinds", (symbol) => {
    const kinds = new Set(candidates.filter((c) => c.symbol === symbol).map((c) => c.dex));
    expect(kinds.size).toBeGreaterThanOrEqual(3);
  });

  test("default: every published pool of two tracked tokens is among the candidates", () => {
    const keys = new Set(candidates.map(key));
    const tracked = new Set(Object.values(baseTokens).map((t) => t.address.toLowerCase()));
    const ofTrackedPairs = [
      "0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C",
      "0xd0b53D9277642d899DF5C87A3966A349A798F224",
      "0x7AeA2E8A3843516afa07293a10Ac8E49906dabD1",
      "0x4b0Aaf3EBb163dd45F663b38b6d93f6093EBC2d3",
      "0x96d4b53a38337a5733179751781178a2613306063c511b78cd02684739288c0a",
      "0x179492f1f9c7b2e2518a01eda215baab8adf0b02dd3a90fe68059c0cac5686f5",
      "0xcDAC0d6c6C59727a65F871236188350531885C43",
      "0xFDF5139b38525627B47538536042A7c8d2686BD9",
      "0xb2cc224c1c9feE385f8ad6a55b4d94E92359DC59",
      "0x3FE04A59Ebd38cF06080a6F60a98D124eb59392A",
    ];
    expect(tracked.size).toBe(10);
    for (const address of ofTrackedPairs) expect(keys, address).toContain(address.toLowerCase());
  });

  test("default: candidates are derived against the quotes the price route takes at par", () => {
    expect([...pricingQuotes.parStables]).toEqual([...parStableSymbols]);
  });

  test("default: each candidate's tokens are the pair it prices, in pool order", () => {
    for (const c of candidates) expect(BigInt(c.token0) < BigInt(c.token1), JSON.stringify(c)).toBe(true);
  });
});
