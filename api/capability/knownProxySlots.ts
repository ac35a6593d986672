/**
 * Storage slots that proxy standards reserve for the implementation, beacon or admin address. A PUSH32 of
 * one of them followed by SSTORE is a write of the proxy's pointer (PROXY_SLOT_WRITE).
 * Values are the EIPs' constants; `test/capability/knownProxySlots.test.ts` recomputes them.
 */
export const knownProxySlots = [
  {
    name: "EIP1967_IMPLEMENTATION",
    slot: "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc",
    preimage: 'keccak256("eip1967.proxy.implementation") - 1',
  },
  {
    name: "EIP1967_BEACON",
    slot: "0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50",
    preimage: 'keccak256("eip1967.proxy.beacon") - 1',
  },
  {
    name: "EIP1967_ADMIN",
    slot: "0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103",
    preimage: 'keccak256("eip1967.proxy.admin") - 1',
  },
  {
    name: "EIP1822_PROXIABLE",
    slot: "0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7",
    preimage: 'keccak256("PROXIABLE")',
  },
  {
    name: "ZEPPELINOS_IMPLEMENTATION",
    slot: "0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3",
    preimage: 'keccak256("org.zeppelinos.proxy.implementation")',
  },
  {
    name: "ZEPPELINOS_ADMIN",
    slot: "0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b",
    preimage: 'keccak256("org.zeppelinos.proxy.admin")',
  },
] as const;

export type KnownProxySlot = (typeof knownProxySlots)[number];
export type KnownProxySlotName = KnownProxySlot["name"];
