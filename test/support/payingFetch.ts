import { ExactEvmScheme } from "@x402/evm/exact/client";
import { appendPaymentIdentifierToExtensions } from "@x402/extensions/payment-identifier";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { baseNetwork } from "../../base/baseChain";

/** A Hono app or anything else that answers a fetch Request. */
export type Fetcher = { fetch: (request: Request) => Response | Promise<Response> };

/**
 * The official x402 client (`@x402/fetch` with the "exact" EVM scheme) paying as `privateKey`, in
 * front of `app`. Its spend controls allow Base USDC up to 0.10 USD a call (x402 refuses unknown
 * assets and caps spending by default).
 */
export function payingFetch(app: Fetcher, privateKey: Hex, paymentIdentifier?: string) {
  const client = new x402Client()
    .register(baseNetwork, new ExactEvmScheme(privateKeyToAccount(privateKey)))
    .setSpendControls({ maxAmountPerPayment: "$0.10" });
  // As x402's payment-identifier example does: the same id on every payment of one logical request.
  if (paymentIdentifier) {
    client.onBeforePaymentCreation(async ({ paymentRequired }) => {
      paymentRequired.extensions ??= {};
      appendPaymentIdentifierToExtensions(paymentRequired.extensions, paymentIdentifier);
    });
  }
  return wrapFetchWithPayment((input, init) => Promise.resolve(app.fetch(new Request(input, init))), client);
}
