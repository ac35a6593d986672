import { describe, expect, it } from "vitest";
import { decodeBytecode } from "../../api/capability/decodeBytecode";
import { disassemble } from "../../api/capability/disassemble";
import { extractSelectors } from "../../api/capability/extractSelectors";
import { asm } from "./asm";

const selectors = (hex: string, options?: { includeInlineChecks?: boolean }) => {
  const decoded = decodeBytecode(hex);
  if (!decoded.ok) throw new Error(decoded.reason);
  return extractSelectors(decoded.bytes, options);
};

/** solc's prologue: memory pointer, then calldatasize() < 4 goes to the fallback. */
const prologue = ["PUSH1 0x80", "PUSH1 0x40", "MSTORE", "PUSH1 0x04", "CALLDATASIZE", "LT", "PUSH2 :fallback", "JUMPI"];
const selector = ["PUSH0", "CALLDATALOAD", "PUSH1 0xe0", "SHR"];
const fallback = ["fallback:", "PUSH0", "DUP1", "REVERT"];
/** A function body full of constants that are not selectors of this dispatcher. */
const body = (name: string) => [
  `${name}:`,
  "PUSH4 0x150b7a02", // ERC-721 receiver magic value compared with a return value
  "PUSH0",
  "MLOAD",
  "EQ",
  "PUSH4 0xffffffff", // a mask
  "AND",
  "PUSH4 0xa9059cbb", // selector of a call this contract makes
  "PUSH0",
  "MSTORE",
  "STOP",
];

describe("extractSelectors", () => {
  it("default: solc's linear EQ-JUMPI dispatcher; constants in bodies are not selectors", () => {
    const code = asm(
      ...prologue,
      ...selector,
      "DUP1",
      "PUSH4 0x40c10f19",
      "EQ",
      "PUSH2 :mint",
      "JUMPI",
      "DUP1",
      "PUSH4 0x70a08231",
      "EQ",
      "PUSH2 :balanceOf",
      "JUMPI",
      ...fallback,
      ...body("mint"),
      ...body("balanceOf"),
    );
    expect(selectors(code)).toEqual(["0x40c10f19", "0x70a08231"]);
  });

  it("behavior: binary-search dispatch split by GT", () => {
    const code = asm(
      ...prologue,
      ...selector,
      "DUP1",
      "PUSH4 0x70a08231",
      "GT",
      "PUSH2 :high",
      "JUMPI",
      "DUP1",
      "PUSH4 0x095ea7b3",
      "EQ",
      "PUSH2 :a",
      "JUMPI",
      "DUP1",
      "PUSH4 0x18160ddd",
      "EQ",
      "PUSH2 :b",
      "JUMPI",
      "PUSH2 :fallback",
      "JUMP",
      "high:",
      "DUP1",
      "PUSH4 0xa9059cbb",
      "EQ",
      "PUSH2 :c",
      "JUMPI",
      "DUP1",
      "PUSH4 0xdd62ed3e",
      "EQ",
      "PUSH2 :d",
      "JUMPI",
      ...fallback,
      ...body("a"),
      ...body("b"),
      ...body("c"),
      ...body("d"),
    );
    expect(selectors(code)).toEqual(["0x095ea7b3", "0x18160ddd", "0xa9059cbb", "0xdd62ed3e"]);
  });

  it("behavior: via-IR's last case, SUB then JUMPI away, falling into the body", () => {
    const code = asm(
      "PUSH1 0x80",
      "PUSH1 0x40",
      "MSTORE",
      "PUSH1 0x04",
      "CALLDATASIZE",
      "LT",
      "ISZERO",
      "PUSH2 :dispatch",
      "JUMPI",
      ...fallback,
      "dispatch:",
      ...selector,
      "DUP1",
      "PUSH4 0x8da5cb5b",
      "EQ",
      "PUSH2 :owner",
      "JUMPI",
      "PUSH4 0xd4b83992",
      "SUB",
      "PUSH2 :fallback",
      "JUMPI",
      "CALLVALUE",
      "STOP",
      ...body("owner"),
    );
    expect(selectors(code)).toEqual(["0x8da5cb5b", "0xd4b83992"]);
  });

  it("behavior: old solc's DIV by 2^224 and AND 0xffffffff, and 2^224 built with EXP", () => {
    const div = asm(
      ...prologue,
      "PUSH4 0xffffffff",
      `PUSH29 0x01${"00".repeat(28)}`,
      "PUSH1 0x00",
      "CALLDATALOAD",
      "DIV",
      "AND",
      "DUP1",
      "PUSH4 0x06fdde03",
      "EQ",
      "PUSH2 :name",
      "JUMPI",
      ...fallback,
      ...body("name"),
    );
    expect(selectors(div)).toEqual(["0x06fdde03"]);
    const exp = asm(
      ...prologue,
      "PUSH1 0xe0",
      "PUSH1 0x02",
      "EXP",
      "PUSH1 0x00",
      "CALLDATALOAD",
      "DIV",
      "DUP1",
      "PUSH4 0x06fdde03",
      "EQ",
      "PUSH2 :name",
      "JUMPI",
      ...fallback,
      ...body("name"),
    );
    expect(selectors(exp)).toEqual(["0x06fdde03"]);
  });

  it("behavior: selectors with leading zero bytes (short PUSH) and selector 0 (ISZERO)", () => {
    const code = asm(
      ...prologue,
      ...selector,
      "DUP1",
      "ISZERO",
      "PUSH2 :zero",
      "JUMPI",
      "DUP1",
      "PUSH3 0x00abcd",
      "EQ",
      "PUSH2 :short",
      "JUMPI",
      ...fallback,
      ...body("zero"),
      ...body("short"),
    );
    expect(selectors(code)).toEqual(["0x00000000", "0x0000abcd"]);
  });

  it("behavior: a Vyper-style XOR chain (jump to the next test when different)", () => {
    const code = asm(
      ...prologue,
      ...selector,
      "PUSH4 0x06fdde03",
      "DUP2",
      "XOR",
      "PUSH2 :next",
      "JUMPI",
      "STOP",
      "next:",
      "PUSH4 0x95d89b41",
      "DUP2",
      "XOR",
      "PUSH2 :fallback",
      "JUMPI",
      "STOP",
      ...fallback,
    );
    expect(selectors(code)).toEqual(["0x06fdde03", "0x95d89b41"]);
  });

  it("behavior: a lone inline check in guardless fallback code is no dispatcher function", () => {
    // CapSafeProxy: if eq(shr(224, calldataload(0)), 0xa619486e) { return masterCopy } else delegate
    const code = asm(
      "PUSH0",
      "SLOAD",
      ...selector,
      "PUSH4 0xa619486e",
      "EQ",
      "ISZERO",
      "PUSH2 :delegate",
      "JUMPI",
      "PUSH0",
      "MSTORE",
      "PUSH1 0x20",
      "PUSH0",
      "RETURN",
      "delegate:",
      "CALLDATASIZE",
      "PUSH0",
      "DUP1",
      "CALLDATACOPY",
      "PUSH0",
      "DUP1",
      "CALLDATASIZE",
      "PUSH0",
      "DUP5",
      "GAS",
      "DELEGATECALL",
      "STOP",
    );
    expect(selectors(code)).toEqual([]);
    expect(selectors(code, { includeInlineChecks: true })).toEqual(["0xa619486e"]);
  });

  it("behavior: a guardless hand-written dispatcher with several selectors is still one", () => {
    const code = asm(
      ...selector,
      "DUP1",
      "PUSH4 0x06fdde03",
      "EQ",
      "PUSH2 :a",
      "JUMPI",
      "DUP1",
      "PUSH4 0x95d89b41",
      "EQ",
      "PUSH2 :b",
      "JUMPI",
      ...fallback,
      ...body("a"),
      ...body("b"),
    );
    expect(selectors(code)).toEqual(["0x06fdde03", "0x95d89b41"]);
  });

  it("behavior: full-word compares of calldataload(0) (Safe 1.4.1 proxy) are not selectors", () => {
    const code = asm(
      "PUSH0",
      "CALLDATALOAD",
      `PUSH32 0xa619486e${"00".repeat(28)}`,
      "EQ",
      "PUSH2 :master",
      "JUMPI",
      "STOP",
      "master:",
      "STOP",
    );
    expect(selectors(code)).toEqual([]);
  });

  it("args: a Disassembly gives the same result as bytes", () => {
    const code = asm(...prologue, ...selector, "DUP1", "PUSH4 0x40c10f19", "EQ", "PUSH2 :mint", "JUMPI", ...fallback, ...body("mint"));
    const decoded = decodeBytecode(code);
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(extractSelectors(disassemble(decoded.bytes))).toEqual(extractSelectors(decoded.bytes));
  });

  it("behavior: no selectors in empty code, in a loop, or in code with a truncated PUSH", () => {
    expect(selectors("0x")).toEqual([]);
    expect(selectors(asm("loop:", "PUSH1 :loop", "JUMP"))).toEqual([]);
    expect(selectors(asm(...selector, "PUSH4 0x40c1!"))).toEqual([]);
  });
});
