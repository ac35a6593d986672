import type { Context } from "ponder:registry";
import { Erc20Abi } from "../abis/Erc20Abi";
import type { TokenSpec } from "./config/indexerEnv";
import { isContractRefusal } from "./isContractRefusal";

export type TokenCheck = { decimals: number | null; reason: string | null };

/** Reads a tracked token's decimals and symbol on chain; `reason` says why it is refused, null when it matches. */
export async function checkToken(client: Context["client"], token: TokenSpec): Promise<TokenCheck> {
  // Decimals and symbol do not change: read once at the head, and an empty answer is final (no retries).
  const contract = { abi: Erc20Abi, address: token.address, cache: "immutable", retryEmptyResponse: false } as const;
  try {
    const decimals = await client.readContract({ ...contract, functionName: "decimals" });
    const symbol = await client.readContract({ ...contract, functionName: "symbol" });
    if (decimals !== token.decimals) return { decimals, reason: `decimals() is ${decimals} on chain, configured ${token.decimals}` };
    if (symbol !== token.symbol) return { decimals, reason: `symbol() is ${JSON.stringify(symbol)} on chain, configured ${token.symbol}` };
    return { decimals, reason: null };
  } catch (error) {
    if (!isContractRefusal(error)) throw error;
    return { decimals: null, reason: `no ERC-20 answers at ${token.address}: ${(error as Error).message.split("\n")[0]}` };
  }
}
