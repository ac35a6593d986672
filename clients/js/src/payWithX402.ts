import { decodeBase64Json } from "./base64.js";
import { errorFromResponse, PaymentCapExceededError, type ServiceError } from "./errors.js";
import { readErrorBody, transportError } from "./request.js";
import type { Address, Hex, PaymentChallenge, PaymentReceipt } from "./types.js";

/** What signs an EIP-3009 authorization: a viem account, or any object with an address and `signTypedData`. */
export type PaymentSigner = {
  readonly address: Address;
  signTypedData(message: {
    domain: Record<string, unknown>;
    types: Record<string, unknown>;
    primaryType: string;
    message: Record<string, unknown>;
  }): Promise<Hex>;
};

export type PaymentParameters = {
  signer: PaymentSigner;
  /** The most one call may pay, in USDC (decimal text, e.g. "0.05"). */
  maxPerCallUsdc: string;
  /** The most this client pays in all, in USDC; unset: no total cap. */
  maxTotalUsdc?: string;
};

/** What the client has spent so far: a payment is reserved before it is signed, given back when the service refuses it (nothing settled), kept when its answer is lost. */
export type SpendingBudget = { spent: bigint; readonly max: bigint | null };

const usdcDecimals = 6;

/** USDC decimal text ("0.05") as atomic units (50000n). */
export function usdcToAtomic(usdc: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(usdc.trim());
  if (!match) throw new RangeError(`not a USDC amount with at most ${usdcDecimals} decimals: ${usdc}`);
  return BigInt(match[1] ?? "0") * 10n ** BigInt(usdcDecimals) + BigInt((match[2] ?? "").padEnd(usdcDecimals, "0"));
}

/**
 * GETs `url` paying its 402 challenge with the official `@x402/fetch` (an optional peer dependency,
 * loaded on first use): the challenge's amount is checked against the per-call cap and the client's
 * remaining budget before anything is signed. Answers the 2xx Response and its decoded receipt.
 */
export async function payWithX402(
  url: URL,
  headers: Record<string, string>,
  payment: PaymentParameters,
  /** Per-call caps in atomic USDC (the client's and the call's): the challenge must be within each. */
  perCallCaps: bigint[],
  budget: SpendingBudget,
  timeoutMs: number,
  fetchImpl: typeof fetch,
): Promise<{ response: Response; receipt: PaymentReceipt | null }> {
  const { wrapFetchWithPayment, x402Client } = await import("@x402/fetch");
  const { ExactEvmScheme } = await import("@x402/evm/exact/client");
  let reserved = 0n;
  let refusal: PaymentCapExceededError | undefined;
  const client = new x402Client()
    .register("eip155:8453", new ExactEvmScheme(payment.signer))
    .setSpendControls({ maxAmountPerPayment: false })
    .onBeforePaymentCreation(async ({ paymentRequired, selectedRequirements }) => {
      const amount = BigInt(selectedRequirements.amount);
      const overCall = perCallCaps.find((cap) => amount > cap);
      const overTotal = budget.max !== null && budget.spent + amount > budget.max;
      if (overCall !== undefined || overTotal) {
        const reason =
          overCall !== undefined
            ? `the per-call cap is ${overCall}`
            : `the client's remaining budget is ${(budget.max ?? 0n) - budget.spent}`;
        refusal = new PaymentCapExceededError(
          "PAYMENT_CAP_EXCEEDED",
          `the challenge asks ${amount} atomic USDC; ${reason}: nothing was signed`,
          402,
          { amount: String(amount) },
          paymentRequired as unknown as PaymentChallenge,
        );
        return { abort: true, reason: "spending cap" };
      }
      budget.spent += amount;
      reserved = amount;
    });
  let response: Response;
  try {
    response = await wrapFetchWithPayment(fetchImpl, client)(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (refusal) throw refusal;
    // The reservation stays: a payment signed and sent whose answer was lost may have been settled.
    throw transportError(error, url.origin, timeoutMs);
  }
  if (!response.ok) {
    budget.spent -= reserved;
    throw errorFromResponse(response.status, await readErrorBody(response), response.headers) satisfies ServiceError;
  }
  const header = response.headers.get("payment-response");
  return { response, receipt: header ? (decodeBase64Json(header) as PaymentReceipt | null) : null };
}
