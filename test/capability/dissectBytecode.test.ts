import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bytecodeHash } from "../../api/capability/bytecodeHash";
import { Dissection } from "../../api/capability/Dissection";
import { dissectBytecode, dissectionDisclaimer } from "../../api/capability/dissectBytecode";
import { InvalidBytecodeError } from "../../api/capability/InvalidBytecodeError";
import { asm, concatHex } from "./asm";

const trailer = "0xa26469706673582212201d830a0b321476b4b0af8b56a12d3c8e48912cf4acf7e23c74080c8b447a2a1d64736f6c63430008230033";

/** A token dispatcher answering mint(address,uint256), transfer(address,uint256) and pause(). */
const token = concatHex(
  asm(
    "PUSH1 0x80",
    "PUSH1 0x40",
    "MSTORE",
    "PUSH1 0x04",
    "CALLDATASIZE",
    "LT",
    "PUSH2 :fallback",
    "JUMPI",
    "PUSH0",
    "CALLDATALOAD",
    "PUSH1 0xe0",
    "SHR",
    "DUP1",
    "PUSH4 0x40c10f19",
    "EQ",
    "PUSH2 :mint",
    "JUMPI",
    "DUP1",
    "PUSH4 0x8456cb59",
    "EQ",
    "PUSH2 :pause",
    "JUMPI",
    "DUP1",
    "PUSH4 0xa9059cbb",
    "EQ",
    "PUSH2 :transfer",
    "JUMPI",
    "fallback:",
    "PUSH0",
    "DUP1",
    "REVERT",
    "mint:",
    "STOP",
    "pause:",
    "STOP",
    "transfer:",
    "PUSH4 0x3659cfe6",
    "PUSH0",
    "MSTORE",
    "STOP", // upgradeTo selector as data of a call: not a capability
    "INVALID",
  ),
  trailer,
);

describe("dissectBytecode", () => {
  it("default: selector capabilities with dispatcher evidence, in the spec's shape", () => {
    const d = dissectBytecode(token);
    expect(Dissection.parse(d)).toEqual(d);
    expect(d).toMatchObject({
      isValidContract: true,
      bytecodeSizeBytes: (token.length - 2) / 2,
      selectors: ["0x40c10f19", "0x8456cb59", "0xa9059cbb"],
      detectedCapabilities: ["MINT_SELECTOR", "PAUSE_SELECTOR"],
      opcodeCounts: { DELEGATECALL: 0, SELFDESTRUCT: 0, CALLCODE: 0, CREATE: 0, CREATE2: 0 },
      metadata: { disclaimer: dissectionDisclaimer, codeKind: "CONTRACT", delegatedTo: null, metadataTrailerBytes: 53 },
    });
    expect(d.capabilities).toEqual([
      {
        type: "MINT_SELECTOR",
        confidence: "MEDIUM",
        reachability: "NOT_ESTABLISHED",
        selectorHex: "0x40c10f19",
        evidence: "PUSH4 0x40c10f19 in dispatcher: mint(address,uint256)",
      },
      {
        type: "PAUSE_SELECTOR",
        confidence: "MEDIUM",
        reachability: "NOT_ESTABLISHED",
        selectorHex: "0x8456cb59",
        evidence: "PUSH4 0x8456cb59 in dispatcher: pause()",
      },
    ]);
  });

  it("behavior: opcode capabilities carry pcs and counts, no selector", () => {
    const d = dissectBytecode(asm("PUSH0", "DUP1", "DUP1", "DUP1", "DUP1", "GAS", "DELEGATECALL", "CALLER", "SELFDESTRUCT"));
    expect(d.capabilities).toEqual([
      {
        type: "DELEGATECALL_OPCODE",
        confidence: "HIGH",
        reachability: "NOT_ESTABLISHED",
        selectorHex: null,
        evidence: "DELEGATECALL opcode at pc 0x6 (1 occurrence)",
      },
      {
        type: "SELFDESTRUCT_OPCODE",
        confidence: "HIGH",
        reachability: "NOT_ESTABLISHED",
        selectorHex: null,
        evidence: "SELFDESTRUCT opcode at pc 0x8 (1 occurrence)",
      },
    ]);
    expect(d.opcodeCounts).toMatchObject({ DELEGATECALL: 1, SELFDESTRUCT: 1 });
  });

  it("behavior: a proxy-slot write names the slot and both pcs", () => {
    const slot = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";
    const d = dissectBytecode(asm("CALLER", `PUSH32 ${slot}`, "SSTORE", "STOP"));
    expect(d.capabilities).toEqual([
      {
        type: "PROXY_SLOT_WRITE",
        confidence: "HIGH",
        reachability: "NOT_ESTABLISHED",
        selectorHex: null,
        evidence: `PUSH32 EIP1967_IMPLEMENTATION slot ${slot} at pc 0x1 then SSTORE at pc 0x22 (1 write)`,
      },
    ]);
  });

  it("behavior: empty code is no contract", () => {
    const d = dissectBytecode("0x");
    expect(Dissection.parse(d)).toEqual(d);
    expect(d).toMatchObject({
      isValidContract: false,
      bytecodeSizeBytes: 0,
      targetBytecodeHash: "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      capabilities: [],
      selectors: [],
      metadata: { codeKind: "EMPTY", delegatedTo: null },
    });
  });

  it("behavior: an EIP-7702 designator is no contract to dissect; its target is reported", () => {
    const d = dissectBytecode("0xef010063c0c19a282a1b52b07dd5a65b58948a07dae32b");
    expect(Dissection.parse(d)).toEqual(d);
    expect(d).toMatchObject({
      isValidContract: false,
      bytecodeSizeBytes: 23,
      capabilities: [],
      detectedCapabilities: [],
      metadata: { codeKind: "EIP7702_DELEGATION", delegatedTo: "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B" },
    });
  });

  it("behavior: the hash is sha256 of the runtime bytes as given (trailer included)", () => {
    const expected = createHash("sha256")
      .update(Buffer.from(token.slice(2), "hex"))
      .digest("hex");
    expect(dissectBytecode(token).targetBytecodeHash).toBe(`sha256:${expected}`);
    expect(bytecodeHash(token)).toBe(`sha256:${expected}`);
    expect(bytecodeHash(Buffer.from(token.slice(2), "hex"))).toBe(`sha256:${expected}`);
  });

  it("args: bytes and upper-case hex give the same dissection", () => {
    const fromBytes = dissectBytecode(new Uint8Array(Buffer.from(token.slice(2), "hex")));
    expect(fromBytes).toEqual(dissectBytecode(token));
    expect(dissectBytecode(`0x${token.slice(2).toUpperCase()}`)).toEqual(dissectBytecode(token));
  });

  it("error: odd-length, non-hex and unprefixed strings are refused", () => {
    expect(() => dissectBytecode("0x600")).toThrowError(InvalidBytecodeError);
    expect(() => dissectBytecode("0x60zz")).toThrowError(expect.objectContaining({ code: "INVALID_BYTECODE", reason: "invalid_hex" }));
    expect(() => dissectBytecode("6000")).toThrowError(expect.objectContaining({ reason: "missing_0x_prefix" }));
    expect(() => bytecodeHash("0x6")).toThrowError(expect.objectContaining({ reason: "odd_length" }));
  });
});
