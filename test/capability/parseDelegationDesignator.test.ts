import { describe, expect, it } from "vitest";
import { parseDelegationDesignator } from "../../api/capability/parseDelegationDesignator";

const target = "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B";
const designator = `0xef0100${target.slice(2).toLowerCase()}`;

describe("parseDelegationDesignator", () => {
  it("default: the checksummed target of 0xef0100 || address", () => {
    expect(parseDelegationDesignator(designator)).toBe(target);
  });

  it("args: bytes and upper-case hex", () => {
    expect(parseDelegationDesignator(Buffer.from(designator.slice(2), "hex"))).toBe(target);
    expect(parseDelegationDesignator(`0x${designator.slice(2).toUpperCase()}`)).toBe(target);
  });

  it("behavior: null for contracts, empty code, other prefixes and other lengths", () => {
    expect(parseDelegationDesignator("0x6080604052")).toBeNull();
    expect(parseDelegationDesignator("0x")).toBeNull();
    expect(parseDelegationDesignator(undefined)).toBeNull();
    expect(parseDelegationDesignator(`0xef0000${target.slice(2)}`)).toBeNull();
    expect(parseDelegationDesignator(`${designator}00`)).toBeNull();
    expect(parseDelegationDesignator(designator.slice(0, -2))).toBeNull();
    expect(parseDelegationDesignator(new Uint8Array(23))).toBeNull();
  });
});
