import { HTTPFacilitatorClient } from "@x402/core/server";
import { type Network, SettleError, VerifyError } from "@x402/core/types";
import { answerWithin } from "./answerWithin";
import { reuseAnswer } from "./reuseAnswer";
import { FacilitatorUnavailableError, type X402Facilitator } from "./X402Facilitator";

export type CreateRemoteFacilitatorParameters = {
  /** The facilitator's base URL (it serves /verify, /settle and /supported). */
  url: string;
  network: Network;
  /** Longest wait for one facilitator request. */
  timeoutMs?: number;
  /** How long the readiness probe waits for its answer. */
  probeTimeoutMs?: number;
};

/**
 * A remote facilitator over HTTP (x402's `HTTPFacilitatorClient`): it verifies and settles from its
 * own gas key. Its refusals (a 4xx carrying a verify or settle answer) are answers; anything else it
 * fails with means it cannot be used now.
 */
export function createRemoteFacilitator({
  url,
  network,
  timeoutMs = 30_000,
  probeTimeoutMs = 2_000,
}: CreateRemoteFacilitatorParameters): X402Facilitator {
  const client = new HTTPFacilitatorClient({ url, timeoutMs });
  const unavailable = (operation: string) => new FacilitatorUnavailableError(`the remote facilitator's ${operation} failed`);
  return {
    kind: "REMOTE",
    getSupported: () => client.getSupported().catch(() => Promise.reject(unavailable("supported"))),
    async verify(payload, requirements) {
      try {
        return await client.verify(payload, requirements);
      } catch (error) {
        if (error instanceof VerifyError) return { isValid: false, invalidReason: error.invalidReason, payer: error.payer };
        throw unavailable("verify");
      }
    },
    async settle(payload, requirements) {
      try {
        return await client.settle(payload, requirements);
      } catch (error) {
        if (error instanceof SettleError) {
          return { success: false, errorReason: error.errorReason, transaction: error.transaction ?? "", network };
        }
        throw unavailable("settle");
      }
    },
    readiness: reuseAnswer(async () => {
      try {
        const supported = await answerWithin(client.getSupported(), probeTimeoutMs);
        return supported.kinds.some((k) => k.x402Version === 2 && k.scheme === "exact" && k.network === network)
          ? { ready: true }
          : { ready: false, reason: "FACILITATOR_DOES_NOT_SETTLE_BASE_USDC" };
      } catch {
        return { ready: false, reason: "FACILITATOR_UNREACHABLE" };
      }
    }, 10_000),
  };
}
