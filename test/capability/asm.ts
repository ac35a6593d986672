import type { Hex } from "viem";

const mnemonics: Record<string, number> = {
  STOP: 0x00,
  ADD: 0x01,
  MUL: 0x02,
  SUB: 0x03,
  DIV: 0x04,
  MOD: 0x06,
  EXP: 0x0a,
  LT: 0x10,
  GT: 0x11,
  SLT: 0x12,
  SGT: 0x13,
  EQ: 0x14,
  ISZERO: 0x15,
  AND: 0x16,
  OR: 0x17,
  XOR: 0x18,
  NOT: 0x19,
  SHL: 0x1b,
  SHR: 0x1c,
  KECCAK256: 0x20,
  ADDRESS: 0x30,
  CALLER: 0x33,
  CALLVALUE: 0x34,
  CALLDATALOAD: 0x35,
  CALLDATASIZE: 0x36,
  CALLDATACOPY: 0x37,
  CODECOPY: 0x39,
  RETURNDATASIZE: 0x3d,
  RETURNDATACOPY: 0x3e,
  POP: 0x50,
  MLOAD: 0x51,
  MSTORE: 0x52,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMP: 0x56,
  JUMPI: 0x57,
  GAS: 0x5a,
  JUMPDEST: 0x5b,
  PUSH0: 0x5f,
  CREATE: 0xf0,
  CALL: 0xf1,
  CALLCODE: 0xf2,
  RETURN: 0xf3,
  DELEGATECALL: 0xf4,
  CREATE2: 0xf5,
  STATICCALL: 0xfa,
  REVERT: 0xfd,
  INVALID: 0xfe,
  SELFDESTRUCT: 0xff,
};
for (let n = 1; n <= 32; n++) mnemonics[`PUSH${n}`] = 0x5f + n;
for (let n = 1; n <= 16; n++) mnemonics[`DUP${n}`] = 0x7f + n;
for (let n = 1; n <= 16; n++) mnemonics[`SWAP${n}`] = 0x8f + n;

/**
 * A tiny assembler for hand-built test bytecode. Each line is `MNEMONIC`, `PUSHn 0x…` (value
 * left-padded to n bytes, or cut short on purpose with `!`: `PUSH2 0x01!` emits one byte), `PUSHn :label`,
 * `label:` (a JUMPDEST at that point) or `raw 0x…` (bytes as they are).
 *
 * @example
 * asm("PUSH1 :end", "JUMP", "end:", "STOP") // "0x6003565b00"
 */
export function asm(...lines: string[]): Hex {
  const labels = new Map<string, number>();
  const emit = (resolve: boolean): number[] => {
    const out: number[] = [];
    for (const line of lines) {
      const [word, arg] = line.trim().split(/\s+/) as [string, string | undefined];
      if (word.endsWith(":")) {
        labels.set(word.slice(0, -1), out.length);
        out.push(0x5b);
        continue;
      }
      if (word === "raw") {
        out.push(...hexBytes(arg ?? "0x"));
        continue;
      }
      const op = mnemonics[word];
      if (op === undefined) throw new Error(`unknown mnemonic ${word}`);
      out.push(op);
      if (op < 0x60 || op > 0x7f) continue;
      const width = op - 0x5f;
      if (arg === undefined) throw new Error(`${word} needs a value`);
      if (arg.startsWith(":")) {
        const at = resolve ? labels.get(arg.slice(1)) : 0;
        if (at === undefined) throw new Error(`unknown label ${arg}`);
        for (let i = width - 1; i >= 0; i--) out.push(Math.floor(at / 256 ** i) % 256);
      } else if (arg.endsWith("!")) {
        out.push(...hexBytes(arg.slice(0, -1)));
      } else {
        const bytes = hexBytes(arg);
        if (bytes.length > width) throw new Error(`${arg} does not fit ${word}`);
        out.push(...new Array(width - bytes.length).fill(0), ...bytes);
      }
    }
    return out;
  };
  emit(false);
  return `0x${Buffer.from(emit(true)).toString("hex")}`;
}

/** Concatenation of hex strings (`0x` prefixes dropped after the first). */
export function concatHex(...parts: string[]): Hex {
  return `0x${parts.map((p) => p.replace(/^0x/, "")).join("")}`;
}

function hexBytes(hex: string): number[] {
  const digits = hex.replace(/^0x/, "");
  return [...Buffer.from(digits.length % 2 ? `0${digits}` : digits, "hex")];
}
