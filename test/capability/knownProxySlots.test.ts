import { keccak256, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { knownProxySlots } from "../../api/capability/knownProxySlots";

const minusOne = (label: string) => toHex(BigInt(keccak256(toHex(label))) - 1n, { size: 32 });

describe("knownProxySlots", () => {
  it("default: every slot is the EIPs' constant", () => {
    const expected: Record<string, string> = {
      EIP1967_IMPLEMENTATION: minusOne("eip1967.proxy.implementation"),
      EIP1967_BEACON: minusOne("eip1967.proxy.beacon"),
      EIP1967_ADMIN: minusOne("eip1967.proxy.admin"),
      EIP1822_PROXIABLE: keccak256(toHex("PROXIABLE")),
      ZEPPELINOS_IMPLEMENTATION: keccak256(toHex("org.zeppelinos.proxy.implementation")),
      ZEPPELINOS_ADMIN: keccak256(toHex("org.zeppelinos.proxy.admin")),
    };
    expect(Object.fromEntries(knownProxySlots.map((s) => [s.name, s.slot]))).toEqual(expected);
  });
});
