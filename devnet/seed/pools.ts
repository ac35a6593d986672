// PLACEHOLDER: replaced by the market-fixtures work.
import { type Address, zeroAddress } from "viem";
import type { SeedContext } from "../client";
import type { Manifest, ManifestToken } from "../manifest";

export async function seedPools(
  _ctx: SeedContext,
  _tokens: Record<string, ManifestToken>,
): Promise<{ factories: Manifest["factories"]; pools: Manifest["pools"]; contracts: Record<string, Address> }> {
  return { factories: { uniswapV2: zeroAddress, uniswapV3: zeroAddress, aerodrome: zeroAddress }, pools: [], contracts: {} };
}
