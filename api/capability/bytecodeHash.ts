import { hash } from "node:crypto";
import { bytecodeBytes } from "./bytecodeBytes";

/** A bytecode hash on the wire: `sha256:` and 64 lowercase hex digits. */
export type BytecodeHash = `sha256:${string}`;

/**
 * `sha256:<hex64>` of runtime bytes (as fetched, metadata trailer included).
 *
 * @example
 * bytecodeHash("0x") // "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
 */
export function bytecodeHash(code: Uint8Array | string): BytecodeHash {
  return `sha256:${hash("sha256", bytecodeBytes(code), "hex")}`;
}
