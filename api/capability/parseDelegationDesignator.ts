import { type Address, getAddress } from "viem";

/**
 * The delegation target of an EIP-7702 account, whose code is exactly `0xef0100 || address` (23 bytes),
 * or null for any other code. Such code is a pointer, not a contract to dissect.
 *
 * @example
 * parseDelegationDesignator(await client.getCode({ address })) // "0x63c0…" or null
 */
export function parseDelegationDesignator(code: Uint8Array | string | undefined): Address | null {
  if (code === undefined) return null;
  if (typeof code === "string") {
    if (code.length !== 48) return null;
    const lower = code.toLowerCase();
    if (!lower.startsWith("0xef0100") || !/^0xef0100[0-9a-f]{40}$/.test(lower)) return null;
    return getAddress(`0x${lower.slice(8)}`);
  }
  if (code.length !== 23 || code[0] !== 0xef || code[1] !== 0x01 || code[2] !== 0x00) return null;
  let hex = "0x";
  for (let i = 3; i < 23; i++) hex += (code[i] as number).toString(16).padStart(2, "0");
  return getAddress(hex);
}
