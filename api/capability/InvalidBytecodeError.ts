import type { DecodeBytecodeFailure } from "./decodeBytecode";

/**
 * Raised when a string handed to the dissection is not `0x`-prefixed, even-length hex. eth_getCode never
 * returns such a thing, so this marks a caller bug rather than a property of a contract.
 */
export class InvalidBytecodeError extends Error {
  override name = "InvalidBytecodeError";
  readonly code = "INVALID_BYTECODE";
  constructor(readonly reason: DecodeBytecodeFailure) {
    super(`bytecode is not valid hex (${reason})`);
  }
}
