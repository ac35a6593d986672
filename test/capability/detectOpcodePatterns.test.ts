import { describe, expect, it } from "vitest";
import { decodeBytecode } from "../../api/capability/decodeBytecode";
import { detectOpcodePatterns } from "../../api/capability/detectOpcodePatterns";
import { knownProxySlots } from "../../api/capability/knownProxySlots";
import { asm, concatHex } from "./asm";

const patterns = (hex: string) => {
  const decoded = decodeBytecode(hex);
  if (!decoded.ok) throw new Error(decoded.reason);
  return detectOpcodePatterns(decoded.bytes);
};
const slot = (name: string) => knownProxySlots.find((s) => s.name === name)?.slot as string;

describe("detectOpcodePatterns", () => {
  it("default: each tracked opcode with its count and pcs", () => {
    const found = patterns(asm("DELEGATECALL", "DELEGATECALL", "CALLCODE", "CREATE", "CREATE2", "SELFDESTRUCT"));
    expect(found.map((p) => (p.type === "PROXY_SLOT_WRITE" ? p.type : [p.type, p.count, p.pcs]))).toEqual([
      ["DELEGATECALL_OPCODE", 2, [0, 1]],
      ["SELFDESTRUCT_OPCODE", 1, [5]],
      ["CALLCODE_OPCODE", 1, [2]],
      ["CREATE_OPCODE", 1, [3]],
      ["CREATE2_OPCODE", 1, [4]],
    ]);
    expect(found.every((p) => p.confidence === "HIGH")).toBe(true);
  });

  it("behavior: nothing in PUSH data (CapPushDataTrap) nor in the metadata trailer", () => {
    const trap = asm("PUSH32 0xf4ff00f2f5f4ff00f2f5f4ff00f2f5f4ff00f2f5f4ff00f2f5f4ff00f2f5f4ff", "PUSH0", "MSTORE", "STOP");
    const trailer = `0xa264697066735822${"f4ff".repeat(17)}64736f6c63430008230033`;
    expect(patterns(concatHex(trap, "0xfe", trailer))).toEqual([]);
  });

  it("behavior: bytes of the data section (a deployed child's creation code) are not capabilities", () => {
    const factory = asm(
      "PUSH0",
      "DUP1",
      "DUP1",
      "CREATE2",
      "STOP",
      "INVALID",
      "raw 0x363d3d373d3d3d363d73",
      `raw 0x${"be".repeat(20)}`,
      "raw 0x5af43d82803e903d91602b57fd5bf3",
    );
    const found = patterns(factory);
    expect(found.map((p) => p.type)).toEqual(["CREATE2_OPCODE"]);
  });

  it("behavior: EIP-1167 clone runtime with appended immutable args: one DELEGATECALL", () => {
    const clone = `0x363d3d373d3d3d363d73${"be".repeat(20)}5af43d82803e903d91602b57fd5bf3`;
    const found = patterns(concatHex(clone, "0xf4fff4ff"));
    expect(found).toMatchObject([{ type: "DELEGATECALL_OPCODE", count: 1, pcs: [31], dataSectionCount: 2 }]);
  });

  it("behavior: proxy-slot writes by PUSH32 + SSTORE; HIGH straight, MEDIUM across a jump destination", () => {
    const found = patterns(
      asm(
        "CALLER",
        `PUSH32 ${slot("EIP1967_IMPLEMENTATION")}`,
        "SSTORE",
        "CALLER",
        `PUSH32 ${slot("EIP1967_ADMIN")}`,
        "PUSH1 :next",
        "JUMP",
        "next:",
        "SSTORE",
        "CALLER",
        `PUSH32 ${slot("EIP1967_BEACON")}`,
        "SLOAD",
        "STOP",
      ),
    );
    expect(found).toMatchObject([
      { type: "PROXY_SLOT_WRITE", slot: "EIP1967_IMPLEMENTATION", confidence: "HIGH", via: "PUSH32", pc: 1, sstorePc: 34 },
      { type: "PROXY_SLOT_WRITE", slot: "EIP1967_ADMIN", confidence: "MEDIUM", via: "PUSH32" },
    ]);
  });

  it("behavior: an SSTORE too far after the slot push is not linked to it", () => {
    const filler = Array.from({ length: 30 }, () => "CALLER");
    expect(patterns(asm(`PUSH32 ${slot("ZEPPELINOS_IMPLEMENTATION")}`, ...filler, "SSTORE", "STOP"))).toEqual([]);
  });
});
