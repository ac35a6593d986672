/**
 * Per-opcode facts for the scans, as flat typed arrays indexed by the opcode byte (Prague/Osaka set):
 * `stackIn`/`stackOut` are the words popped and pushed (-1 for an undefined opcode), `halts` marks
 * instructions after which control never falls through (STOP, JUMP, RETURN, REVERT, INVALID,
 * SELFDESTRUCT and undefined opcodes).
 */
export const opcodeTable = buildOpcodeTable();

export type OpcodeTable = {
  stackIn: Int8Array;
  stackOut: Int8Array;
  halts: Uint8Array;
};

function buildOpcodeTable(): OpcodeTable {
  const stackIn = new Int8Array(256).fill(-1);
  const stackOut = new Int8Array(256).fill(-1);
  const set = (op: number, inputs: number, outputs: number) => {
    stackIn[op] = inputs;
    stackOut[op] = outputs;
  };
  // 0x00s: stop and arithmetic
  set(0x00, 0, 0);
  for (const op of [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b]) set(op, 2, 1);
  set(0x08, 3, 1);
  set(0x09, 3, 1);
  // 0x10s: comparison and bitwise
  for (const op of [0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d]) set(op, 2, 1);
  set(0x15, 1, 1); // ISZERO
  set(0x19, 1, 1); // NOT
  set(0x1e, 1, 1); // CLZ
  set(0x20, 2, 1); // KECCAK256
  // 0x30s: environment
  for (const op of [0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x3d]) set(op, 0, 1);
  for (const op of [0x31, 0x35, 0x3b, 0x3f]) set(op, 1, 1);
  for (const op of [0x37, 0x39, 0x3e]) set(op, 3, 0);
  set(0x3c, 4, 0); // EXTCODECOPY
  // 0x40s: block
  set(0x40, 1, 1); // BLOCKHASH
  for (const op of [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x4a]) set(op, 0, 1);
  set(0x49, 1, 1); // BLOBHASH
  // 0x50s: stack, memory, storage, flow
  set(0x50, 1, 0); // POP
  set(0x51, 1, 1); // MLOAD
  set(0x52, 2, 0); // MSTORE
  set(0x53, 2, 0); // MSTORE8
  set(0x54, 1, 1); // SLOAD
  set(0x55, 2, 0); // SSTORE
  set(0x56, 1, 0); // JUMP
  set(0x57, 2, 0); // JUMPI
  set(0x58, 0, 1); // PC
  set(0x59, 0, 1); // MSIZE
  set(0x5a, 0, 1); // GAS
  set(0x5b, 0, 0); // JUMPDEST
  set(0x5c, 1, 1); // TLOAD
  set(0x5d, 2, 0); // TSTORE
  set(0x5e, 3, 0); // MCOPY
  set(0x5f, 0, 1); // PUSH0
  for (let op = 0x60; op <= 0x7f; op++) set(op, 0, 1); // PUSH1..PUSH32
  for (let n = 1; n <= 16; n++) set(0x7f + n, n, n + 1); // DUP1..DUP16
  for (let n = 1; n <= 16; n++) set(0x8f + n, n + 1, n + 1); // SWAP1..SWAP16
  for (let n = 0; n <= 4; n++) set(0xa0 + n, n + 2, 0); // LOG0..LOG4
  // 0xf0s: system
  set(0xf0, 3, 1); // CREATE
  set(0xf1, 7, 1); // CALL
  set(0xf2, 7, 1); // CALLCODE
  set(0xf3, 2, 0); // RETURN
  set(0xf4, 6, 1); // DELEGATECALL
  set(0xf5, 4, 1); // CREATE2
  set(0xfa, 6, 1); // STATICCALL
  set(0xfd, 2, 0); // REVERT
  set(0xfe, 0, 0); // INVALID
  set(0xff, 1, 0); // SELFDESTRUCT

  const halts = new Uint8Array(256);
  for (let op = 0; op < 256; op++) if (stackIn[op] === -1) halts[op] = 1;
  for (const op of [0x00, 0x56, 0xf3, 0xfd, 0xfe, 0xff]) halts[op] = 1;
  return { stackIn, stackOut, halts };
}
