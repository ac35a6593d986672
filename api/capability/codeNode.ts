import type { Address } from "viem";
import { bytecodeHash } from "./bytecodeHash";
import type { CodeNode } from "./Resolution";

/** The node of `address` with its runtime code at the pinned block; null bytes: the code could not be read. */
export function codeNode(address: Address, bytes: Uint8Array | null): CodeNode {
  if (bytes === null) return { address, bytecodeAvailable: false, bytecodeSizeBytes: 0, runtimeBytecodeHash: null };
  return {
    address,
    bytecodeAvailable: bytes.length > 0,
    bytecodeSizeBytes: bytes.length,
    runtimeBytecodeHash: bytes.length > 0 ? bytecodeHash(bytes) : null,
  };
}
