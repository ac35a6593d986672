/** EIP-2535 loupe functions, and ERC-165, as Diamonds answer them. */
export const DiamondLoupeAbi = [
  {
    type: "function",
    name: "facets",
    stateMutability: "view",
    inputs: [],
    outputs: [
      {
        name: "facets_",
        type: "tuple[]",
        components: [
          { name: "facetAddress", type: "address" },
          { name: "functionSelectors", type: "bytes4[]" },
        ],
      },
    ],
  },
  {
    type: "function",
    name: "facetAddress",
    stateMutability: "view",
    inputs: [{ name: "_functionSelector", type: "bytes4" }],
    outputs: [{ name: "facetAddress_", type: "address" }],
  },
  {
    type: "function",
    name: "supportsInterface",
    stateMutability: "view",
    inputs: [{ name: "interfaceId", type: "bytes4" }],
    outputs: [{ name: "", type: "bool" }],
  },
] as const;

/** ERC-165 interface id of IDiamondLoupe. */
export const diamondLoupeInterfaceId = "0x48e2b093";
