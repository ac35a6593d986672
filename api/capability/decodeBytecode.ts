import { Buffer } from "node:buffer";

/** Why a hex string is not bytecode. */
export type DecodeBytecodeFailure = "missing_0x_prefix" | "odd_length" | "invalid_hex";

export type DecodeBytecodeReturnType = { ok: true; bytes: Uint8Array } | { ok: false; reason: DecodeBytecodeFailure };

/**
 * Decodes `0x`-prefixed hex into bytes once (native decoder, no per-byte work in JS).
 * Odd lengths and non-hex digits are refused, never truncated.
 */
export function decodeBytecode(hex: string): DecodeBytecodeReturnType {
  if (hex.length < 2 || hex[0] !== "0" || (hex[1] !== "x" && hex[1] !== "X")) {
    return { ok: false, reason: "missing_0x_prefix" };
  }
  if (hex.length % 2 !== 0) return { ok: false, reason: "odd_length" };
  const bytes = Buffer.from(hex.slice(2), "hex");
  // Buffer.from stops at the first pair that is not hex: a short result means a bad digit.
  if (bytes.length * 2 !== hex.length - 2) return { ok: false, reason: "invalid_hex" };
  return { ok: true, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
}
