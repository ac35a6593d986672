import { baseTokens } from "./baseChain";
import { type DexDeployments, derivePoolCandidates, type PoolCandidate } from "./poolCandidates";
import { baseUniswapV4PoolManager } from "./uniswapV4";

/**
 * Base's DEX deployments: each constant with two public sources, and reproduced against published pools in
 * test/unit/poolAddress.test.ts.
 */
export const baseDexDeployments = {
  uniswapV2: {
    // BowTiedDevil/degenbot src/degenbot/registry/deployments.json (chain 8453);
    // tradingstrategy-ai/web3-ethereum-defi eth_defi/uniswap_v2/constants.py ("base").
    factory: "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6",
    initCodeHash: "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f",
  },
  uniswapV3: {
    // 0xProject/0x-settler src/core/univ3forks/UniswapV3.sol; BowTiedDevil/degenbot deployments.json.
    factory: "0x33128a8fC17869897dcE68Ed026d694621f6FDfD",
    initCodeHash: "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54",
    fees: [100, 500, 3000, 10000],
  },
  uniswapV4: {
    // VeloraDEX/paraswap-dex-lib src/dex/uniswap-v4/config.ts (Base); arcadia-finance/asset-managers
    // script/utils/constants/Base.sol. The fee and tick-spacing pairs are V4's standard tiers (V3's).
    poolManager: baseUniswapV4PoolManager,
    feeTickSpacings: [
      { fee: 100, tickSpacing: 1 },
      { fee: 500, tickSpacing: 10 },
      { fee: 3000, tickSpacing: 60 },
      { fee: 10000, tickSpacing: 200 },
    ],
  },
  aerodrome: {
    // BowTiedDevil/degenbot deployments.json and tests/aerodrome/test_aerodrome_pools.py;
    // aerodrome-finance/slipstream script/constants/Base.json (the v2 PoolFactory).
    factory: "0x420DD381b31aEf6683db6B902084cB0FFECe40Da",
    implementation: "0xA4e46b4f701c62e14DF11B48dCe76A7d793CD6d7",
  },
  // Base has four CL factories. A fourth, 0x9592CD9B267748cbfBDe90Ac9F7DF3c437A6d51B, is left out: no public
  // source names its pool implementation, so its pools cannot be derived.
  slipstream: [
    {
      // The first: aerodrome-finance/slipstream README and script/constants/output/DeployCL-Base.json;
      // arcadia-finance/asset-managers script/utils/constants/Base.sol. Its clone hash 0xffb9af9e…ae30 is
      // 0x-settler's (src/core/univ3forks/AerodromeSlipstream.sol). Tick spacings: its constructor's.
      factory: "0x5e7BB104d84c7CB9B682AaC2F3d509f5F406809A",
      implementation: "0xeC8E5342B19977B4eF8892e02D8DAEcfa1315831",
      tickSpacings: [1, 50, 100, 200, 2000],
    },
    {
      // Gauge caps: aerodrome-finance/slipstream script/constants/output/DeployCL-Base-Gauge-Caps.json;
      // WayfinderFoundation/wayfinder-paths-sdk wayfinder_paths/core/constants/aerodrome_slipstream_contracts.py.
      // Its clone hash 0xe524afc4…6f9d is 0x-settler's. Tick spacings 10 and 500 were enabled later.
      factory: "0xaDe65c38CD4849aDBA595a4323a8C7DdfE89716a",
      implementation: "0x942e97a4c6FdC38B4CD1c0298D37d81fDD8E5A16",
      tickSpacings: [1, 10, 50, 100, 200, 500, 2000],
    },
    {
      // Gauges V3 (current): aerodrome-finance/slipstream README, "Gauges V3 Deployment";
      // WayfinderFoundation/wayfinder-paths-sdk aerodrome_slipstream_contracts.py.
      factory: "0xf8f2eB4940CFE7d13603DDDD87f123820Fc061Ef",
      implementation: "0xc770898522D2A9c8Da7A10D63989b6b58305B665",
      tickSpacings: [1, 10, 50, 100, 200, 500, 2000],
    },
  ],
} as const satisfies DexDeployments;

/**
 * The mainnet plan: every candidate pool of every tracked token against its quotes on every DEX Base has.
 * ETH is priced from WETH's pools (native ETH counts as WETH in V4), so its entries repeat WETH's.
 */
export function basePoolCandidates(): PoolCandidate[] {
  const candidates = derivePoolCandidates(baseDexDeployments, Object.values(baseTokens));
  const eth = candidates.filter((c) => c.symbol === baseTokens.WETH.symbol).map((c) => ({ ...c, symbol: "ETH" }));
  return [...candidates, ...eth];
}
