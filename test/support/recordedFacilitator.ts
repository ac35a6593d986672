import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from "@x402/core/types";
import { type Address, type Hex, keccak256, stringToHex } from "viem";
import { authorizationSignatureCheck } from "../../api/x402/authorizationSignature";
import type { CreateX402ServiceParameters } from "../../api/x402/createX402Service";
import type { FacilitatorReadiness, X402Facilitator } from "../../api/x402/X402Facilitator";
import { baseNetwork, baseUsdc } from "../../base/baseChain";

/**
 * The facilitator's answers as the in-process one (x402's `x402Facilitator` with `ExactEvmScheme` over
 * the devnet) gives them: `getSupported` printed by createInProcessFacilitator (it needs no chain), the
 * verify and settle shapes as @x402/evm's facilitator builds them and test/x402 observes them.
 */
export const facilitatorAnswers = {
  supported: (): SupportedResponse => ({
    kinds: [
      { x402Version: 2, scheme: "exact", network: baseNetwork },
      { x402Version: 2, scheme: "batch-settlement", network: baseNetwork },
    ],
    extensions: [],
    signers: { "eip155:*": ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8"] },
  }),
  valid: (payer: Address): VerifyResponse => ({ isValid: true, invalidReason: undefined, payer }),
  invalid: (invalidReason: string, payer: Address): VerifyResponse => ({ isValid: false, invalidReason, payer }),
  settled: (transaction: Hex, payer: Address): SettleResponse => ({ success: true, transaction, network: baseNetwork, payer }),
  /** Refused before any broadcast (x402's own checks, or the simulation): no transaction. */
  refused: (errorReason: string, payer: Address): SettleResponse => ({
    success: false,
    errorReason,
    errorMessage: "Execution reverted for an unknown reason. Contract Call: address: 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    transaction: "",
    network: baseNetwork,
    payer,
  }),
  /** Broadcast, and its receipt not seen within the confirmation timeout (`settlementPendingResponse`). */
  pending: (transaction: Hex, payer: Address): SettleResponse => ({
    success: false,
    errorReason: "settlement_pending",
    errorMessage: `Timed out while waiting for transaction with hash "${transaction}" to be confirmed.`,
    transaction,
    network: baseNetwork,
    payer,
  }),
};

/** Where the fast x402 tests' payments go: anvil's sixth account. */
export const testPayTo = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc" as Address;

/** Our terms for the audit's 0.02 USDC to `testPayTo`, as x402's server builds them for Base. */
export const auditTerms: PaymentRequirements = {
  scheme: "exact",
  network: baseNetwork,
  amount: "20000",
  asset: baseUsdc,
  payTo: testPayTo,
  maxTimeoutSeconds: 300,
  extra: { name: "USD Coin", version: "2" },
};

/** A transaction hash named by `label` (what a settlement's broadcast returns). */
export const txHashOf = (label: string): Hex => keccak256(stringToHex(label));

/** The EIP-3009 authorization an "exact" EVM payment carries. */
export const authorizationOf = (payload: PaymentPayload) =>
  (payload.payload as { authorization: { from: Address; to: Address; value: string; nonce: Hex; validBefore: string } }).authorization;

type Answer<T> = (payload: PaymentPayload, requirements: PaymentRequirements) => T | Promise<T>;

/** A facilitator answering from `facilitatorAnswers`, as a test sets it; every call is kept. */
export type RecordedFacilitator = X402Facilitator & {
  answerSupported: () => SupportedResponse | Promise<SupportedResponse>;
  answerVerify: Answer<VerifyResponse>;
  answerSettle: Answer<SettleResponse>;
  calls: { method: "getSupported" | "verify" | "settle"; payload?: PaymentPayload; requirements?: PaymentRequirements }[];
};

/** By default every payment is valid and settles in a transaction named after its nonce. */
export function recordedFacilitator(): RecordedFacilitator {
  const facilitator: RecordedFacilitator = {
    kind: "IN_PROCESS",
    calls: [],
    answerSupported: facilitatorAnswers.supported,
    answerVerify: (payload) => facilitatorAnswers.valid(authorizationOf(payload).from),
    answerSettle: (payload) => facilitatorAnswers.settled(txHashOf(authorizationOf(payload).nonce), authorizationOf(payload).from),
    async getSupported() {
      facilitator.calls.push({ method: "getSupported" });
      return facilitator.answerSupported();
    },
    async verify(payload, requirements) {
      facilitator.calls.push({ method: "verify", payload, requirements });
      return facilitator.answerVerify(payload, requirements);
    },
    async settle(payload, requirements) {
      facilitator.calls.push({ method: "settle", payload, requirements });
      return facilitator.answerSettle(payload, requirements);
    },
    readiness: async (): Promise<FacilitatorReadiness> => ({ ready: true }),
  };
  return facilitator;
}

/**
 * The chain reads of `createX402Service` for tests without a chain: every payer's balance unbounded,
 * and signatures recovered (an EOA's needs no chain; anything else would ask a node that is not there).
 */
export const offChainPayerChecks = {
  readPayerFunds: async () => ({ balance: 2n ** 255n, blockTime: new Date(), committed: () => 0n }),
  checkSignature: authorizationSignatureCheck([{ name: "none", url: "http://127.0.0.1:1", trusted: true }]),
} satisfies Pick<CreateX402ServiceParameters, "readPayerFunds" | "checkSignature">;
