import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchSettlementClient } from "@x402/evm/batch-settlement/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { type Hex, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { baseNetwork } from "../../base/baseChain";
import { createDevnetClient } from "../../devnet/client";
import type { Manifest } from "../../devnet/manifest";
import { giveUsdc } from "./usdc";

/** The price of `GET /v1/token/price/WETH`, which the batch-settlement tests and bench:x402 pay for: 0.005 USDC. */
export const price = 5_000n;

// The escrow's views and event the tests read (the package keeps its ABI to itself).
export const escrowAbi = parseAbi([
  "function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)",
  "event Claimed(bytes32 indexed channelId, address indexed sender, uint128 claimAmount, uint128 newTotalClaimed)",
  "struct ChannelConfig { address payer; address payerAuthorizer; address receiver; address receiverAuthorizer; address token; uint40 withdrawDelay; bytes32 salt; }",
  "function initiateWithdraw(ChannelConfig config, uint128 amount)",
  "function finalizeWithdraw(ChannelConfig config)",
]);

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

/** A payer with `calls` calls' worth of USDC and no ETH: a batch-settlement payer pays no gas. */
export async function newPayer(manifest: Manifest, calls: bigint): Promise<Hex> {
  const key = generatePrivateKey();
  await giveUsdc(manifest, privateKeyToAccount(key).address, price * calls);
  return key;
}
