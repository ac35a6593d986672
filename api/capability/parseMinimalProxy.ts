import { type Address, getAddress } from "viem";

const head = [0x36, 0x3d, 0x3d, 0x37, 0x3d, 0x3d, 0x3d, 0x36, 0x3d];
const middle = [0x5a, 0xf4, 0x3d, 0x82, 0x80, 0x3e, 0x90, 0x3d, 0x91];
const tail = [0x57, 0xfd, 0x5b, 0xf3];

/**
 * The implementation an EIP-1167 minimal proxy forwards to, or null. Any PUSH width of the address
 * (PUSH1..PUSH20, as vanity addresses with leading zero bytes produce) is accepted, and bytes after
 * the 1167 body (immutable args of Solady-style clones) are allowed.
 */
export function parseMinimalProxy(code: Uint8Array): { implementation: Address; appendedBytes: number } | null {
  if (!startsWith(code, head, 0)) return null;
  const push = code[head.length];
  if (push === undefined || push < 0x60 || push > 0x73) return null;
  const width = push - 0x5f;
  const addressStart = head.length + 1;
  let at = addressStart + width;
  if (!startsWith(code, middle, at)) return null;
  at += middle.length;
  if (code[at] !== 0x60) return null; // PUSH1 <jumpdest>
  at += 2;
  if (!startsWith(code, tail, at)) return null;
  const bodyLength = at + tail.length;
  let hex = "";
  for (let i = 0; i < 20 - width; i++) hex += "00";
  for (let i = addressStart; i < addressStart + width; i++) hex += (code[i] as number).toString(16).padStart(2, "0");
  return { implementation: getAddress(`0x${hex}`), appendedBytes: code.length - bodyLength };
}

function startsWith(code: Uint8Array, pattern: readonly number[], at: number): boolean {
  if (code.length < at + pattern.length) return false;
  for (let i = 0; i < pattern.length; i++) if (code[at + i] !== pattern[i]) return false;
  return true;
}
