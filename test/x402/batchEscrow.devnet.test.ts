import { x402Facilitator } from "@x402/core/facilitator";
import { type FacilitatorClient, x402HTTPResourceServer, x402ResourceServer } from "@x402/core/server";
import type { SupportedResponse } from "@x402/core/types";
import { toClientEvmSigner, toFacilitatorEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchSettlementClient } from "@x402/evm/batch-settlement/client";
import { BatchSettlementEvmScheme as BatchSettlementFacilitator } from "@x402/evm/batch-settlement/facilitator";
import {
  BatchSettlementEvmScheme as BatchSettlementServer,
  type ChannelStorage,
  type ClaimResult,
  InMemoryChannelStorage,
} from "@x402/evm/batch-settlement/server";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { type Address, erc20Abi, type Hex, hexToBytes, parseAbi, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createStoreChannelStorage } from "../../api/x402/createStoreChannelStorage";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { createDevnetClient } from "../../devnet/client";
import { batchSettlementAddresses } from "../../devnet/seed/batchSettlement";
import { type Backend, backendNames, openBackend } from "../access/support";
import { privateFork, testManifest } from "../support/devnet";

// The escrow's views and event that the test reads (the package keeps its ABI to itself).
const escrowAbi = parseAbi([
  "function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)",
  "event Claimed(bytes32 indexed channelId, address indexed sender, uint128 claimAmount, uint128 newTotalClaimed)",
]);

/** 0.005 USDC, the price of a market call. */
const price = 5_000n;
const callsPerPayer = 4;
/** What the client deposits: ten calls' worth (its deposit policy), so one deposit pays for every call below. */
const depositMultiplier = 10;

// A private fork of the seeded devnet: the facilitator's gas key sends transactions, and balances are read exact.
const shared = testManifest();
const fork = privateFork();
let rpcUrl: string;
beforeAll(() => {
  rpcUrl = fork.manifest().rpcUrl;
});

/** The package's facilitator in-process: its gas key is the devnet facilitator's, its receiverAuthorizer a fresh key. */
function localFacilitator(): { client: FacilitatorClient; transactions: Hex[] } {
  const wallet = createDevnetClient(rpcUrl, shared.accounts.facilitator.privateKey);
  const signer = toFacilitatorEvmSigner({ ...wallet, address: wallet.account.address } as never);
  const authorizer = privateKeyToAccount(generatePrivateKey());
  const facilitator = new x402Facilitator().register(baseNetwork, new BatchSettlementFacilitator(signer, authorizer));
  const transactions: Hex[] = [];
  facilitator.onAfterSettle(async ({ result }) => {
    if (result.success && result.transaction) transactions.push(result.transaction as Hex);
  });
  return {
    transactions,
    client: {
      verify: (payload, requirements) => facilitator.verify(payload, requirements),
      settle: (payload, requirements) => facilitator.settle(payload, requirements),
      getSupported: async () => facilitator.getSupported() as SupportedResponse,
    },
  };
}

/** A paid route `GET /price` behind the package's HTTP resource server, answering once the payment is settled. */
async function paidRoute(server: x402ResourceServer, receiver: Address) {
  const http = new x402HTTPResourceServer(server, {
    "GET /price": { accepts: { scheme: "batch-settlement", network: baseNetwork, payTo: receiver, price: "$0.005" } },
  });
  await http.initialize();
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const adapter = {
      getHeader: (name: string) => request.headers.get(name) ?? undefined,
      getMethod: () => request.method,
      getPath: () => url.pathname,
      getUrl: () => request.url,
      getAcceptHeader: () => request.headers.get("accept") ?? "",
      getUserAgent: () => request.headers.get("user-agent") ?? "",
    };
    const context = { adapter, path: url.pathname, method: request.method };
    const result = await http.processHTTPRequest(context);
    if (result.type === "payment-error") {
      return Response.json(result.response.body ?? {}, { status: result.response.status, headers: result.response.headers });
    }
    if (result.type === "no-payment-required") return Response.json({ free: true });
    const settled = await http.processSettlement(result.paymentPayload, result.paymentRequirements, result.declaredExtensions, {
      request: context,
    });
    if (!settled.success) return Response.json({ error: settled.errorReason }, { status: 402, headers: settled.headers });
    return Response.json({ priceUsd: "1" }, { headers: settled.headers });
  };
}

/** The official client (`@x402/fetch` with the batch-settlement client scheme) paying as `privateKey`. */
function batchPayingFetch(route: (request: Request) => Promise<Response>, privateKey: Hex) {
  const account = privateKeyToAccount(privateKey);
  const reader = createDevnetClient(rpcUrl, privateKey);
  const scheme = new BatchSettlementClient(toClientEvmSigner(account, reader), { depositPolicy: { depositMultiplier } });
  const client = new x402Client().register(baseNetwork, scheme).setSpendControls({ maxAmountPerPayment: "$1" });
  return wrapFetchWithPayment((input, init) => route(new Request(input, init)), client);
}

/**
 * Gas a transaction used less its intrinsic cost (21,000 and its calldata's, 4 a zero byte and 16 another): what
 * forge's gas snapshots count, so comparable with the upstream contract's figures.
 */
async function executionGas(hash: Hex): Promise<number> {
  const chain = createDevnetClient(rpcUrl, shared.accounts.deployer.privateKey);
  const [receipt, { input }] = await Promise.all([chain.getTransactionReceipt({ hash }), chain.getTransaction({ hash })]);
  const bytes = hexToBytes(input);
  const zeros = bytes.filter((b) => b === 0).length;
  return Number(receipt.gasUsed) - 21_000 - 4 * zeros - 16 * (bytes.length - zeros);
}

/** The one claim transaction of `results`, which must hold `vouchers` vouchers. */
function onlyClaim(results: ClaimResult[], vouchers: number): Hex {
  expect(results).toEqual([{ vouchers, transaction: expect.any(String) }]);
  return results[0]?.transaction as Hex;
}

const usdcOf = (address: Address) =>
  createDevnetClient(rpcUrl, shared.accounts.deployer.privateKey).readContract({
    address: baseUsdc,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address],
  });

/** The server scheme's channels: the package's in-memory storage, or the app store's (`createStoreChannelStorage`). */
const storageNames = ["memory", ...backendNames] as const;

describe.each(storageNames)(
  "x402 batch-settlement on the devnet escrow, through @x402/evm's client, server and facilitator, channels in %s",
  (storageName) => {
    let backend: Backend | undefined;
    let storage: ChannelStorage;
    beforeAll(async () => {
      if (storageName === "memory") {
        storage = new InMemoryChannelStorage();
        return;
      }
      backend = await openBackend(storageName);
      storage = createStoreChannelStorage(backend.store.db);
    });
    afterAll(() => backend?.close());

    test("behavior: deposits, cumulative vouchers checked off-chain, one claim transaction for three channels, settlement to the receiver exact to the unit", async () => {
      const chain = createDevnetClient(rpcUrl, shared.accounts.deployer.privateKey);
      expect(await chain.getCode({ address: batchSettlementAddresses.x402BatchSettlement })).toMatch(/^0x[0-9a-f]{100,}/);

      const receiver = privateKeyToAccount(generatePrivateKey()).address;
      const facilitator = localFacilitator();
      const serverScheme = new BatchSettlementServer(receiver, { storage });
      const server = new x402ResourceServer(facilitator.client).register(baseNetwork, serverScheme);
      const route = await paidRoute(server, receiver);

      const payers = shared.accounts.users.slice(0, 3);
      const before = await Promise.all(payers.map((p) => usdcOf(p.address)));
      const escrowBefore = await usdcOf(batchSettlementAddresses.x402BatchSettlement);
      for (const payer of payers) {
        const pay = batchPayingFetch(route, payer.privateKey);
        for (let call = 0; call < callsPerPayer; call++) {
          const answer = await pay("http://service.test/price");
          expect(answer.status, await answer.clone().text()).toBe(200);
        }
      }
      // One deposit transaction per payer; every voucher after it was checked off-chain (no transaction).
      expect(facilitator.transactions).toHaveLength(payers.length);
      const deposit = price * BigInt(depositMultiplier);
      const after = await Promise.all(payers.map((p) => usdcOf(p.address)));
      expect(after.map((a, i) => (before[i] ?? 0n) - a)).toEqual(payers.map(() => deposit));
      expect(await usdcOf(batchSettlementAddresses.x402BatchSettlement)).toBe(escrowBefore + deposit * BigInt(payers.length));

      const manager = serverScheme.createChannelManager(facilitator.client, baseNetwork, baseUsdc);
      const claimTransaction = onlyClaim(await manager.claim(), payers.length);
      const claimReceipt = await chain.getTransactionReceipt({ hash: claimTransaction });
      const claimed = parseEventLogs({ abi: escrowAbi, eventName: "Claimed", logs: claimReceipt.logs });
      expect(claimed.map((e) => e.args.newTotalClaimed)).toEqual(payers.map(() => price * BigInt(callsPerPayer)));
      for (const event of claimed) {
        const [balance, totalClaimed] = await chain.readContract({
          address: batchSettlementAddresses.x402BatchSettlement,
          abi: escrowAbi,
          functionName: "channels",
          args: [event.args.channelId],
        });
        expect({ balance, totalClaimed }).toEqual({ balance: deposit, totalClaimed: price * BigInt(callsPerPayer) });
      }

      // The storage's channels agree with the escrow: each charged and claimed exactly its calls.
      expect((await storage.list()).map((c) => [c.chargedCumulativeAmount, c.totalClaimed])).toEqual(
        payers.map(() => [(price * BigInt(callsPerPayer)).toString(), (price * BigInt(callsPerPayer)).toString()]),
      );

      const settle = await manager.settle();
      const settleReceipt = await chain.getTransactionReceipt({ hash: settle.transaction as Hex });
      const earned = price * BigInt(callsPerPayer * payers.length);
      expect(await usdcOf(receiver)).toBe(earned);
      expect(await usdcOf(batchSettlementAddresses.x402BatchSettlement)).toBe(escrowBefore + deposit * BigInt(payers.length) - earned);

      // A second round on one channel: one more call, then a claim of that one voucher alone.
      const [first] = payers;
      if (!first) throw new Error("the manifest lists no test user");
      expect((await batchPayingFetch(route, first.privateKey)("http://service.test/price")).status).toBe(200);
      const singleTransaction = onlyClaim(await manager.claim(), 1);
      const [depositGas, claimGas, singleGas, settleGas] = await Promise.all([
        executionGas(facilitator.transactions[0] as Hex),
        executionGas(claimTransaction),
        executionGas(singleTransaction),
        executionGas(settle.transaction as Hex),
      ]);
      // Figures for docs/devnet.md (transaction gas less its intrinsic cost, as forge's snapshots count it).
      console.info(
        JSON.stringify({
          depositGas,
          claimGasThreeChannels: claimGas,
          claimGasPerChannel: Math.round(claimGas / payers.length),
          claimGasOneVoucher: singleGas,
          settleGas,
          claimTransactionGasUsed: Number(claimReceipt.gasUsed),
          settleTransactionGasUsed: Number(settleReceipt.gasUsed),
        }),
      );
    });
  },
);
