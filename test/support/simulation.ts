import type { RpcProvider } from "../../api/chain/providers";
import type { QuoteAsset } from "../../api/market/readSimulationPools";
import type { SimulateTradeDeps } from "../../api/market/simulateTrade";
import type { Manifest } from "../../devnet/manifest";

/** The trade simulation's dependencies over a devnet (or a fork of it) read through `providers`. */
export function simulationDeps(manifest: Manifest, providers: readonly RpcProvider[]): SimulateTradeDeps {
  const quote = (symbol: QuoteAsset["symbol"]): QuoteAsset => {
    const token = manifest.tokens[symbol];
    if (!token) throw new Error(`the manifest has no ${symbol}`);
    return { symbol, address: token.address, decimals: token.decimals };
  };
  return {
    providers,
    chainId: manifest.chainId,
    dexes: manifest.dexes,
    quotes: [quote("USDC"), quote("WETH")],
    minPoolDepthUsd: 50_000,
    gas: { callGas: 30_000_000, stepGas: 2_000_000 },
  };
}
