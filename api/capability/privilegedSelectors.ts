import type { CapabilityConfidence, CapabilityType } from "./Dissection";

/** One selector that marks a privileged capability when the dispatcher answers it. */
export type PrivilegedSelector = {
  selectorHex: `0x${string}`;
  signature: string;
  type: CapabilityType;
  /**
   * HIGH: a standard's admin function (ERC-173, ERC-1822, EIP-2535, OpenZeppelin AccessControl);
   * MEDIUM: a widespread convention; LOW: a generic or non-privileged-by-default name.
   */
  confidence: CapabilityConfidence;
};

/**
 * The published table of privileged selectors, literal hex so it greps and loads fast
 * (`test/capability/privilegedSelectors.test.ts` recomputes every one from its signature).
 * A match says the dispatcher answers that selector, never who may call it.
 */
export const privilegedSelectors = [
  // mint and minter configuration
  { selectorHex: "0x40c10f19", signature: "mint(address,uint256)", type: "MINT_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xa0712d68", signature: "mint(uint256)", type: "MINT_SELECTOR", confidence: "LOW" },
  { selectorHex: "0x6a627842", signature: "mint(address)", type: "MINT_SELECTOR", confidence: "LOW" },
  { selectorHex: "0x449a52f8", signature: "mintTo(address,uint256)", type: "MINT_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xcc872b66", signature: "issue(uint256)", type: "MINT_SELECTOR", confidence: "LOW" },
  { selectorHex: "0x4e44d956", signature: "configureMinter(address,uint256)", type: "MINT_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x983b2d56", signature: "addMinter(address)", type: "MINT_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xfca3b5aa", signature: "setMinter(address)", type: "MINT_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xcf456ae7", signature: "setMinter(address,bool)", type: "MINT_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x3092afd5", signature: "removeMinter(address)", type: "MINT_SELECTOR", confidence: "LOW" },
  // burn from another holder
  { selectorHex: "0x9dc29fac", signature: "burn(address,uint256)", type: "BURN_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x79cc6790", signature: "burnFrom(address,uint256)", type: "BURN_SELECTOR", confidence: "LOW" },
  { selectorHex: "0xf3bdc228", signature: "destroyBlackFunds(address)", type: "BURN_SELECTOR", confidence: "MEDIUM" },
  // pause
  { selectorHex: "0x8456cb59", signature: "pause()", type: "PAUSE_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x3f4ba83a", signature: "unpause()", type: "PAUSE_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x16c38b3c", signature: "setPaused(bool)", type: "PAUSE_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xc4ae3168", signature: "togglePause()", type: "PAUSE_SELECTOR", confidence: "LOW" },
  // blacklist and freeze
  { selectorHex: "0xf9f92be4", signature: "blacklist(address)", type: "BLACKLIST_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x1a895266", signature: "unBlacklist(address)", type: "BLACKLIST_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x0ecb93c0", signature: "addBlackList(address)", type: "BLACKLIST_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xe4997dc5", signature: "removeBlackList(address)", type: "BLACKLIST_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x44337ea1", signature: "addToBlacklist(address)", type: "BLACKLIST_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x537df3b6", signature: "removeFromBlacklist(address)", type: "BLACKLIST_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x153b0d1e", signature: "setBlacklist(address,bool)", type: "BLACKLIST_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x8d1fdf2f", signature: "freeze(address)", type: "BLACKLIST_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x45c8b1a6", signature: "unfreeze(address)", type: "BLACKLIST_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xe724529c", signature: "freezeAccount(address,bool)", type: "BLACKLIST_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xad38bf22", signature: "updateBlacklister(address)", type: "BLACKLIST_SELECTOR", confidence: "LOW" },
  // ownership and admin
  { selectorHex: "0xf2fde38b", signature: "transferOwnership(address)", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0x715018a6", signature: "renounceOwnership()", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0x79ba5097", signature: "acceptOwnership()", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0x8f283970", signature: "changeAdmin(address)", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0x13af4035", signature: "setOwner(address)", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xa6f9dae1", signature: "changeOwner(address)", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x634e93da", signature: "beginDefaultAdminTransfer(address)", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0xcefc1429", signature: "acceptDefaultAdminTransfer()", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0x0d582f13", signature: "addOwnerWithThreshold(address,uint256)", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "LOW" },
  { selectorHex: "0xf8dc5dd9", signature: "removeOwner(address,address,uint256)", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "LOW" },
  { selectorHex: "0xe318b52b", signature: "swapOwner(address,address,address)", type: "OWNERSHIP_CHANGE_SELECTOR", confidence: "LOW" },
  // roles (AccessControl, AccessManager)
  { selectorHex: "0x2f2ff15d", signature: "grantRole(bytes32,address)", type: "ROLE_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0xd547741f", signature: "revokeRole(bytes32,address)", type: "ROLE_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0x36568abe", signature: "renounceRole(bytes32,address)", type: "ROLE_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0x25c471a0", signature: "grantRole(uint64,address,uint32)", type: "ROLE_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0xb7d2b162", signature: "revokeRole(uint64,address)", type: "ROLE_CHANGE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0xfe0776f5", signature: "renounceRole(uint64,address)", type: "ROLE_CHANGE_SELECTOR", confidence: "HIGH" },
  // upgrades
  { selectorHex: "0x3659cfe6", signature: "upgradeTo(address)", type: "UPGRADE_SELECTOR", confidence: "HIGH" },
  { selectorHex: "0x4f1ef286", signature: "upgradeToAndCall(address,bytes)", type: "UPGRADE_SELECTOR", confidence: "HIGH" },
  {
    selectorHex: "0x1f931c1c",
    signature: "diamondCut((address,uint8,bytes4[])[],address,bytes)",
    type: "UPGRADE_SELECTOR",
    confidence: "HIGH",
  },
  { selectorHex: "0xd784d426", signature: "setImplementation(address)", type: "UPGRADE_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x17a68dd8", signature: "changeImplementation(address)", type: "UPGRADE_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x99a88ec4", signature: "upgrade(address,address)", type: "UPGRADE_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x9623609d", signature: "upgradeAndCall(address,address,bytes)", type: "UPGRADE_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x7de7edef", signature: "changeMasterCopy(address)", type: "UPGRADE_SELECTOR", confidence: "MEDIUM" },
  // fees
  { selectorHex: "0x69fe0e2d", signature: "setFee(uint256)", type: "FEE_SETTER_SELECTOR", confidence: "LOW" },
  { selectorHex: "0x0b78f9c0", signature: "setFees(uint256,uint256)", type: "FEE_SETTER_SELECTOR", confidence: "LOW" },
  { selectorHex: "0xc4081a4c", signature: "setTaxFee(uint256)", type: "FEE_SETTER_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x061c82d0", signature: "setTaxFeePercent(uint256)", type: "FEE_SETTER_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x8ee88c53", signature: "setLiquidityFeePercent(uint256)", type: "FEE_SETTER_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x0cc835a3", signature: "setBuyFee(uint256)", type: "FEE_SETTER_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x8b4cee08", signature: "setSellFee(uint256)", type: "FEE_SETTER_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x6db79437", signature: "updateFees(uint256,uint256)", type: "FEE_SETTER_SELECTOR", confidence: "LOW" },
  { selectorHex: "0xf46901ed", signature: "setFeeTo(address)", type: "FEE_SETTER_SELECTOR", confidence: "LOW" },
  { selectorHex: "0x8206a4d1", signature: "setFeeProtocol(uint8,uint8)", type: "FEE_SETTER_SELECTOR", confidence: "LOW" },
  // transfer limits
  { selectorHex: "0xec28438a", signature: "setMaxTxAmount(uint256)", type: "LIMIT_SETTER_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xd543dbeb", signature: "setMaxTxPercent(uint256)", type: "LIMIT_SETTER_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xea1644d5", signature: "setMaxWalletSize(uint256)", type: "LIMIT_SETTER_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x5d0044ca", signature: "setMaxWallet(uint256)", type: "LIMIT_SETTER_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0x27a14fc2", signature: "setMaxWalletAmount(uint256)", type: "LIMIT_SETTER_SELECTOR", confidence: "MEDIUM" },
  { selectorHex: "0xc4590d3f", signature: "setLimits(uint256,uint256)", type: "LIMIT_SETTER_SELECTOR", confidence: "LOW" },
  { selectorHex: "0x751039fc", signature: "removeLimits()", type: "LIMIT_SETTER_SELECTOR", confidence: "LOW" },
] as const satisfies readonly PrivilegedSelector[];
