import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchSettlementClient } from "@x402/evm/batch-settlement/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { type Address, type Hex, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { baseNetwork } from "../../base/baseChain";
import { createDevnetClient } from "../../devnet/client";
import type { Manifest } from "../../devnet/manifest";
import type { Backend } from "../access/support";
import type { Fetcher } from "../support/payingFetch";
import { giveUsdc } from "../support/usdc";
import { testBatchSettlement, testFacilitator, testX402Service } from "../support/x402";
import { fundedKey, paidApp } from "./support";

// The escrow's views and event the tests read (the package keeps its ABI to itself).
export const escrowAbi = parseAbi([
  "function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)",
  "event Claimed(bytes32 indexed channelId, address indexed sender, uint128 claimAmount, uint128 newTotalClaimed)",
  "struct ChannelConfig { address payer; address payerAuthorizer; address receiver; address receiverAuthorizer; address token; uint40 withdrawDelay; bytes32 salt; }",
  "function initiateWithdraw(ChannelConfig config, uint128 amount)",
  "function finalizeWithdraw(ChannelConfig config)",
]);

/** The origin and route the batch tests pay for, at 0.005 USDC a call. */
export const origin = "http://127.0.0.1:42069";
export const path = "/v1/token/price/WETH";
export const price = 5_000n;

/** A service paid at `payTo` with exact and batch-settlement over `backend`'s store (a replica's view: `replica`), with its own gas key. */
export async function batchService(manifest: Manifest, backend: Backend, payTo: Address, replica = 0) {
  const gasKey = await fundedKey(manifest);
  const x402 = testX402Service(manifest, replica === 0 ? backend.store : backend.replica(replica), {
    facilitator: testFacilitator(manifest, gasKey),
    payTo,
    batchSettlement: testBatchSettlement(manifest),
  });
  // The index follows the chain between calls only: a minute of blocks' slack for a slow deposit on a loaded machine.
  return { x402, payTo, gasKey: privateKeyToAccount(gasKey).address, ...(await paidApp(manifest, backend, x402, 60)) };
}

/** A payer with `calls` calls' worth of USDC and no ETH: a batch-settlement payer pays no gas. */
export async function newPayer(manifest: Manifest, calls: bigint): Promise<Hex> {
  const key = generatePrivateKey();
  await giveUsdc(manifest, privateKeyToAccount(key).address, price * calls);
  return key;
}

/**
 * The official client (`@x402/fetch` with the batch-settlement client scheme) paying as `privateKey` through
 * `send`; its first call deposits `depositCalls` calls' worth into the escrow. The PAYMENT-SIGNATURE of each
 * request it sends is kept in `sent`, and how long that request took to answer in `paidMs`.
 */
export function batchPayingFetch(manifest: Manifest, send: (request: Request) => Promise<Response>, privateKey: Hex, depositCalls: number) {
  const account = privateKeyToAccount(privateKey);
  // Its own deposit, not the challenge's minDeposit (ten calls' worth): one deposit for every call of a test.
  const scheme = new BatchSettlementClient(toClientEvmSigner(account, createDevnetClient(manifest.rpcUrl, privateKey)), {
    depositStrategy: () => price * BigInt(depositCalls),
  });
  const client = new x402Client().register(baseNetwork, scheme).setSpendControls({ maxAmountPerPayment: "$1" });
  const sent: string[] = [];
  const paidMs: number[] = [];
  const pay = wrapFetchWithPayment(async (input, init) => {
    const request = new Request(input, init);
    const header = request.headers.get("payment-signature");
    if (!header) return send(request);
    sent.push(header);
    const start = performance.now();
    const answer = await send(request);
    paidMs.push(performance.now() - start);
    return answer;
  }, client);
  return { pay, sent, paidMs };
}

export const fetcher = (app: Fetcher) => (request: Request) => Promise.resolve(app.fetch(request));

/** The vouchers the store holds on `payer`'s channels, by channel and cumulative amount. */
export const storedVouchers = (backend: Backend, payer: Address) =>
  backend.sql(
    `SELECT channel_id, v.cumulative_amount::text, v.amount::text, v.route, v.answer_status
       FROM app.x402_voucher v JOIN app.x402_channel c USING (channel_id)
      WHERE lower(c.payer) = lower($1) ORDER BY channel_id, v.cumulative_amount`,
    [payer],
  ) as Promise<{ channel_id: string; cumulative_amount: string; amount: string; route: string; answer_status: number }[]>;
