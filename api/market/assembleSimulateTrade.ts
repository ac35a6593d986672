import { baseTokens } from "../../base/baseChain";
import type { DexDeployments } from "../../base/poolCandidates";
import type { RpcProvider } from "../chain/providers";
import type { Config } from "../config";
import type { SimulateTradeParameters } from "./simulateTrade";

export type AssembleSimulateTradeParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  /** base/baseDexDeployments.ts on Base; the devnet manifest's `dexes` on the devnet. */
  dexes: DexDeployments;
  market: Pick<Config["market"], "minPoolDepthUsd" | "simulation">;
};

/**
 * The trade simulation's dependencies as the server runs them (and bench:simulation and the tests): USDC and
 * WETH at their Base addresses (the devnet's too).
 */
export function assembleSimulateTrade({ providers, chainId, dexes, market }: AssembleSimulateTradeParameters): SimulateTradeParameters {
  return {
    providers,
    chainId,
    dexes,
    quotes: [
      { symbol: "USDC", address: baseTokens.USDC.address, decimals: baseTokens.USDC.decimals },
      { symbol: "WETH", address: baseTokens.WETH.address, decimals: baseTokens.WETH.decimals },
    ],
    minPoolDepthUsd: market.minPoolDepthUsd,
    gas: market.simulation,
  };
}
