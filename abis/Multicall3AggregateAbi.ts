/**
 * Multicall3's `aggregate` (every call must succeed, or the whole call reverts). Ponder's indexing client
 * splits an `aggregate3` into its calls and caches each one as a row of its own; an `aggregate` it caches
 * as one request, which is what a bulk read of thousands of storage words wants.
 */
export const Multicall3AggregateAbi = [
  {
    type: "function",
    name: "aggregate",
    // Payable in Multicall3; declared view here: it is only ever read by eth_call, without value.
    stateMutability: "view",
    inputs: [
      {
        name: "calls",
        type: "tuple[]",
        components: [
          { name: "target", type: "address" },
          { name: "callData", type: "bytes" },
        ],
      },
    ],
    outputs: [
      { name: "blockNumber", type: "uint256" },
      { name: "returnData", type: "bytes[]" },
    ],
  },
] as const;
