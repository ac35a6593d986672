import { decodeBytecode } from "./decodeBytecode";
import { InvalidBytecodeError } from "./InvalidBytecodeError";

/** Runtime code as bytes: a Uint8Array as it is, a hex string decoded once (InvalidBytecodeError when it is not hex). */
export function bytecodeBytes(code: Uint8Array | string): Uint8Array {
  if (typeof code !== "string") return code;
  const decoded = decodeBytecode(code);
  if (!decoded.ok) throw new InvalidBytecodeError(decoded.reason);
  return decoded.bytes;
}
