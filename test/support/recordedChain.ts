import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Address, encodeAbiParameters, encodeEventTopics, erc20Abi, type Hex, keccak256, numberToHex, stringToHex } from "viem";
import { FiatTokenAbi } from "../../abis/FiatTokenAbi";
import type { RpcProvider } from "../../api/chain/providers";

/** A block as eth_getBlockByNumber answers it (without transactions): the fields the reads use. */
export type RecordedBlock = { number: Hex; hash: Hex; timestamp: Hex; baseFeePerGas: Hex };

/** A mined transaction and its receipt, as anvil answers eth_getTransactionByHash and eth_getTransactionReceipt. */
export type RecordedTransaction = { transaction: Record<string, unknown>; receipt: Record<string, unknown> | null };

/** One JSON-RPC request the chain answered (method and params), in order. */
export type RecordedRequest = { method: string; params: unknown[] };

/**
 * A chain served over JSON-RPC on a loopback port from recorded answers: its head, its blocks, mined
 * transactions with their receipts, eth_call answers by target and calldata, and logs. A provider URL
 * the chain modules read as they read Base, with no node behind it. `down` answers HTTP 503.
 */
export type RecordedChain = {
  url: string;
  provider(name: string, trusted: boolean): RpcProvider;
  head: number;
  blocks: Map<number, RecordedBlock>;
  transactions: Map<Hex, RecordedTransaction>;
  /** Answers of eth_call by `${to ?? "deployless"}:${data}` (lowercase); an absent one is a JSON-RPC error. */
  calls: Map<string, Hex>;
  /** ETH balances (eth_getBalance, at any block) by lowercase address; absent: 0. */
  balances: Map<string, bigint>;
  /** What eth_maxPriorityFeePerGas answers. */
  maxPriorityFeePerGas: bigint;
  /** What eth_getLogs answers (whatever its filter); null: a JSON-RPC error. */
  logs: Record<string, unknown>[] | null;
  down: boolean;
  requests: RecordedRequest[];
  stop(): Promise<void>;
};

/** A block hash named by its number, as the recorded chain's canonical blocks carry. */
export const blockHashOf = (number: number, fork = "") => keccak256(stringToHex(`block ${number}${fork}`));

/** Base's block time is 2 s: the recorded blocks' timestamps from `genesis` (Unix seconds). */
export const recordedBlock = (number: number, genesis: number, fork = ""): RecordedBlock => ({
  number: numberToHex(number),
  hash: blockHashOf(number, fork),
  timestamp: numberToHex(genesis + 2 * number),
  baseFeePerGas: numberToHex(5_000_000n),
});

/** Starts a recorded chain whose head and blocks 0..`head` exist (from `genesis`). */
export async function startRecordedChain(head: number, genesis: number): Promise<RecordedChain> {
  const chain: Omit<RecordedChain, "provider" | "url" | "stop"> = {
    head,
    blocks: new Map(Array.from({ length: head + 1 }, (_, n) => [n, recordedBlock(n, genesis)])),
    transactions: new Map(),
    calls: new Map(),
    balances: new Map(),
    maxPriorityFeePerGas: 1_000_000n,
    logs: [],
    down: false,
    requests: [],
  };
  const answer = ({ method, params }: RecordedRequest): { result: unknown } | { error: { code: number; message: string } } => {
    if (method === "eth_blockNumber") return { result: numberToHex(chain.head) };
    if (method === "eth_chainId") return { result: numberToHex(8453) };
    if (method === "eth_getBalance") return { result: numberToHex(chain.balances.get((params[0] as string).toLowerCase()) ?? 0n) };
    if (method === "eth_maxPriorityFeePerGas") return { result: numberToHex(chain.maxPriorityFeePerGas) };
    if (method === "eth_getBlockByNumber") {
      const tag = params[0] as string;
      return { result: chain.blocks.get(tag === "latest" ? chain.head : Number.parseInt(tag, 16)) ?? null };
    }
    if (method === "eth_getTransactionByHash") return { result: chain.transactions.get(params[0] as Hex)?.transaction ?? null };
    if (method === "eth_getTransactionReceipt") return { result: chain.transactions.get(params[0] as Hex)?.receipt ?? null };
    if (method === "eth_call") {
      const { to, data } = params[0] as { to?: string; data: string };
      const result = chain.calls.get(`${to ?? "deployless"}:${data}`.toLowerCase());
      return result ? { result } : { error: { code: -32603, message: "internal error" } };
    }
    if (method === "eth_getLogs")
      return chain.logs ? { result: chain.logs } : { error: { code: -32005, message: "query returned more than 10000 results" } };
    return { error: { code: -32601, message: `the method ${method} does not exist/is not available` } };
  };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (chain.down) {
        res.writeHead(503).end();
        return;
      }
      // viem sends one request as an object, the chain modules a batch as an array.
      const parsed = JSON.parse(body) as (RecordedRequest & { id: number }) | (RecordedRequest & { id: number })[];
      const requests = Array.isArray(parsed) ? parsed : [parsed];
      chain.requests.push(...requests.map(({ method, params }) => ({ method, params })));
      const answers = requests.map((r) => ({ jsonrpc: "2.0", id: r.id, ...answer(r) }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
    });
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(chain, {
    url,
    provider: (name: string, trusted: boolean) => ({ name, url, trusted }),
    stop: () =>
      new Promise<void>((stopped) => {
        server.closeAllConnections();
        server.close(() => stopped());
      }),
  });
}

/** The settlement of an EIP-3009 authorization as anvil answers it: the facilitator's transaction calling the token, and its receipt. */
export type Settlement = {
  hash: Hex;
  block: RecordedBlock;
  facilitator: Address;
  token: Address;
  /** The authorization used (its AuthorizationUsed log). */
  authorizer: Address;
  nonce: Hex;
  /** The Transfer logs of the receipt (usually one: the authorization's). */
  transfers: { token: Address; from: Address; to: Address; value: bigint }[];
  status?: "0x1" | "0x0";
};

/** A `transferWithAuthorization` settlement, as eth_getTransactionByHash and eth_getTransactionReceipt answer it, and its receipt's logs. */
export function settlementTransaction(s: Settlement): RecordedTransaction & { logs: Record<string, unknown>[] } {
  const placed = { blockHash: s.block.hash, blockNumber: s.block.number, transactionHash: s.hash, transactionIndex: "0x0" };
  const logs = [
    {
      address: s.token.toLowerCase(),
      topics: encodeEventTopics({ abi: FiatTokenAbi, eventName: "AuthorizationUsed", args: { authorizer: s.authorizer, nonce: s.nonce } }),
      data: "0x",
      ...placed,
      logIndex: "0x0",
      removed: false,
    },
    ...s.transfers.map((t, i) => ({
      address: t.token.toLowerCase(),
      topics: encodeEventTopics({ abi: erc20Abi, eventName: "Transfer", args: { from: t.from, to: t.to } }),
      data: encodeAbiParameters([{ type: "uint256" }], [t.value]),
      ...placed,
      logIndex: numberToHex(i + 1),
      removed: false,
    })),
  ];
  return {
    logs,
    transaction: {
      hash: s.hash,
      from: s.facilitator.toLowerCase(),
      to: s.token.toLowerCase(),
      value: "0x0",
      input: "0xe3ee160e",
      nonce: "0x7",
      gas: "0x186a0",
      type: "0x2",
      chainId: "0x2105",
      ...placed,
    },
    receipt: {
      ...placed,
      from: s.facilitator.toLowerCase(),
      to: s.token.toLowerCase(),
      status: s.status ?? "0x1",
      gasUsed: "0xf1a4",
      cumulativeGasUsed: "0xf1a4",
      effectiveGasPrice: "0x3b9aca00",
      contractAddress: null,
      type: "0x2",
      logs,
      logsBloom: `0x${"0".repeat(512)}`,
    },
  };
}
