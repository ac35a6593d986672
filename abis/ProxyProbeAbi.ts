/** Functions proxies answer about themselves: beacons, Safe proxies and UUPS implementations. */
export const ProxyProbeAbi = [
  { type: "function", name: "implementation", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "address" }] },
  { type: "function", name: "masterCopy", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "address" }] },
  { type: "function", name: "proxiableUUID", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "bytes32" }] },
] as const;
