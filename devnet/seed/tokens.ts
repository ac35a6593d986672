// PLACEHOLDER: replaced by the market-fixtures work.
import type { Address } from "viem";
import type { SeedContext } from "../client";
import type { ManifestToken } from "../manifest";

export async function seedTokens(
  _ctx: SeedContext,
  _opts: { fund: Address[] },
): Promise<{ tokens: Record<string, ManifestToken>; contracts: Record<string, Address> }> {
  return { tokens: {}, contracts: {} };
}
