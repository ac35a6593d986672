// PLACEHOLDER: replaced by the capability-fixtures work.
import type { Address, Hex } from "viem";
import type { SeedContext } from "../client";

export async function seedCapabilityFixtures(
  _ctx: SeedContext,
  _opts: { delegator: { address: Address; privateKey: Hex } },
): Promise<{ contracts: Record<string, Address> }> {
  return { contracts: {} };
}
