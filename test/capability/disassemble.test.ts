import { describe, expect, it } from "vitest";
import { decodeBytecode } from "../../api/capability/decodeBytecode";
import { disassemble } from "../../api/capability/disassemble";
import { knownProxySlots } from "../../api/capability/knownProxySlots";
import { asm, concatHex } from "./asm";

const bytes = (hex: string) => {
  const decoded = decodeBytecode(hex);
  if (!decoded.ok) throw new Error(decoded.reason);
  return decoded.bytes;
};
const trailerWithTraps = `0xa264697066735822${"f4ff".repeat(17)}64736f6c63430008230033`;
const implementationSlot = knownProxySlots[0].slot;

describe("disassemble", () => {
  it("default: counts instructions, marks JUMPDESTs, skips PUSH immediates", () => {
    const d = disassemble(bytes(asm("PUSH1 :end", "JUMP", "end:", "DELEGATECALL", "STOP")));
    expect(d.instructionCount).toBe(5);
    expect([...d.jumpdests]).toEqual([0, 0, 0, 1, 0, 0]);
    expect(d.opcodeCounts[0xf4]).toBe(1);
    expect(d.trackedOpcodePcs[0xf4]).toEqual([4]);
    expect(d.executableEnd).toBe(6);
    expect(d.truncatedPush).toBe(false);
  });

  it("behavior: 0xf4/0xff/0xf2/0xf0/0xf5 and 0x5b inside PUSH data are not instructions", () => {
    const d = disassemble(
      bytes(asm("PUSH32 0xf4ff00f2f5f0f4ff00f2f5f45bf4ff00f2f5f4ff00f2f5f4ff00f2f5f4ff5bff", "POP", "PUSH2 0xf4ff", "STOP")),
    );
    for (const op of [0xf4, 0xff, 0xf2, 0xf0, 0xf5, 0x5b]) expect(d.opcodeCounts[op]).toBe(0);
    expect(d.jumpdests.includes(1)).toBe(false);
    expect(d.instructionCount).toBe(4);
  });

  it("behavior: the metadata trailer is left out, even when it holds 0xf4/0xff", () => {
    const d = disassemble(bytes(concatHex(asm("PUSH0", "DUP1", "REVERT", "INVALID"), trailerWithTraps)));
    expect(d.metadataTrailerBytes).toBe(53);
    expect(d.scanEnd).toBe(4);
    expect([d.opcodeCounts[0xf4], d.dataOpcodeCounts[0xf4]]).toEqual([0, 0]);
    expect([d.opcodeCounts[0xff], d.dataOpcodeCounts[0xff]]).toEqual([0, 0]);
  });

  it("behavior: a PUSH cut short by the end of the code is flagged, not read past", () => {
    const d = disassemble(bytes(asm("PUSH1 0x01", "PUSH4 0xf4f4!")));
    expect(d.truncatedPush).toBe(true);
    expect(d.instructionCount).toBe(2);
    expect(d.opcodeCounts[0xf4]).toBe(0);
  });

  it("behavior: empty code", () => {
    const d = disassemble(new Uint8Array(0));
    expect(d).toMatchObject({ scanEnd: 0, executableEnd: 0, instructionCount: 0, metadataTrailerBytes: 0, truncatedPush: false });
  });

  it("behavior: bytes after a halt that no jump names form the data section, counted apart", () => {
    const code = asm("PUSH1 0x00", "DUP1", "REVERT", "INVALID", "raw 0x60f4ff5b00f5");
    const d = disassemble(bytes(code));
    expect(d.executableEnd).toBe(4);
    expect(d.opcodeCounts[0xf4]).toBe(0);
    expect(d.dataOpcodeCounts[0xf4]).toBe(0); // 0xf4 is PUSH1 data of 0x60 here
    expect(d.dataOpcodeCounts[0xff]).toBe(1);
    expect(d.dataOpcodeCounts[0xf5]).toBe(1);
  });

  it("behavior: code after a halt stays executable while an earlier PUSH names a JUMPDEST beyond it", () => {
    const d = disassemble(bytes(asm("PUSH1 :later", "JUMP", "INVALID", "later:", "DELEGATECALL", "STOP")));
    expect(d.executableEnd).toBe(d.scanEnd);
    expect(d.opcodeCounts[0xf4]).toBe(1);
    // the same bytes with no PUSH naming the JUMPDEST: nothing can reach it
    const unreachable = disassemble(bytes(asm("PUSH0", "DUP1", "REVERT", "INVALID", "later:", "DELEGATECALL", "STOP")));
    expect(unreachable.executableEnd).toBe(3);
    expect(unreachable.opcodeCounts[0xf4]).toBe(0);
    expect(unreachable.dataOpcodeCounts[0xf4]).toBe(1);
  });

  it("behavior: a PUSH32 of a proxy slot followed by SSTORE is a write", () => {
    const d = disassemble(bytes(asm("CALLER", `PUSH32 ${implementationSlot}`, "SSTORE", "STOP")));
    expect(d.proxySlotReferences).toEqual([
      { slot: "EIP1967_IMPLEMENTATION", via: "PUSH32", pc: 1, dataOffset: null, sstorePc: 34, straightLine: true, inDataSection: false },
    ]);
  });

  it("behavior: a proxy slot that is only read is no write", () => {
    const d = disassemble(bytes(asm(`PUSH32 ${implementationSlot}`, "SLOAD", "POP", "STOP")));
    expect(d.proxySlotReferences[0]?.sstorePc).toBeNull();
  });

  it("behavior: solc's constant-copy routine reading a slot from the data section", () => {
    const code = asm(
      "CALLER",
      "PUSH1 0x20",
      "PUSH2 :constant",
      "PUSH0",
      "CODECOPY",
      "PUSH0",
      "MLOAD",
      "SSTORE",
      "STOP",
      "INVALID",
      "constant:",
    );
    // the label put a JUMPDEST byte at the constant's offset: replace it with the slot itself
    const hex = `${code.slice(0, -2)}${implementationSlot.slice(2)}`;
    const d = disassemble(bytes(hex));
    expect(d.proxySlotReferences).toMatchObject([{ slot: "EIP1967_IMPLEMENTATION", via: "CODECOPY", dataOffset: 13, sstorePc: 10 }]);
  });
});
