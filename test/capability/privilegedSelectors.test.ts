import { toFunctionSelector } from "viem";
import { describe, expect, it } from "vitest";
import { CapabilityType } from "../../api/capability/Dissection";
import { privilegedSelectors } from "../../api/capability/privilegedSelectors";

describe("privilegedSelectors", () => {
  it("default: every literal selector is the one of its signature", () => {
    for (const entry of privilegedSelectors) {
      expect(entry.selectorHex, entry.signature).toBe(toFunctionSelector(`function ${entry.signature}`));
    }
  });

  it("behavior: selectors are unique, lowercase, and typed with selector capability types", () => {
    const selectors = privilegedSelectors.map((e) => e.selectorHex);
    expect(new Set(selectors).size).toBe(selectors.length);
    for (const entry of privilegedSelectors) {
      expect(entry.selectorHex).toMatch(/^0x[0-9a-f]{8}$/);
      expect(CapabilityType.parse(entry.type)).toMatch(/_SELECTOR$/);
    }
  });

  it("behavior: every selector capability type has at least one entry", () => {
    const selectorTypes = CapabilityType.options.filter((t) => t.endsWith("_SELECTOR"));
    expect(new Set(privilegedSelectors.map((e) => e.type))).toEqual(new Set(selectorTypes));
  });

  it("behavior: the standard names are in the table", () => {
    const signatures = new Set<string>(privilegedSelectors.map((e) => e.signature));
    for (const signature of [
      "mint(address,uint256)",
      "burn(address,uint256)",
      "pause()",
      "unpause()",
      "blacklist(address)",
      "unBlacklist(address)",
      "freeze(address)",
      "transferOwnership(address)",
      "renounceOwnership()",
      "acceptOwnership()",
      "changeAdmin(address)",
      "grantRole(bytes32,address)",
      "revokeRole(bytes32,address)",
      "renounceRole(bytes32,address)",
      "upgradeTo(address)",
      "upgradeToAndCall(address,bytes)",
      "diamondCut((address,uint8,bytes4[])[],address,bytes)",
      "setImplementation(address)",
      "changeImplementation(address)",
      "setFee(uint256)",
      "setTaxFee(uint256)",
      "setMaxTxAmount(uint256)",
      "setMaxWalletSize(uint256)",
      "configureMinter(address,uint256)",
      "addMinter(address)",
      "setMinter(address)",
    ]) {
      expect(signatures.has(signature), signature).toBe(true);
    }
  });
});
