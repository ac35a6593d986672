import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { createPublicClient, defineChain, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createInProcessFacilitator } from "../../api/x402/createInProcessFacilitator";
import { FacilitatorUnavailableError } from "../../api/x402/X402Facilitator";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { type RecordedChain, startRecordedChain } from "../support/recordedChain";
import { facilitatorAnswers } from "../support/recordedFacilitator";
import { signedPayment } from "../support/signedPayment";

// Anvil's well-known development keys: the facilitator's gas key and the payer.
const gasKey: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const gasAddress = privateKeyToAccount(gasKey).address;
const payerKey: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
/** Terms on a network the facilitator does not settle (Ethereum): x402's facilitator throws on them before any chain read. */
const elsewhere: PaymentRequirements = {
  scheme: "exact",
  network: "eip155:1",
  amount: "20000",
  asset: baseUsdc,
  payTo: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
  maxTimeoutSeconds: 300,
  extra: { name: "USD Coin", version: "2" },
};

let chain: RecordedChain;
beforeAll(async () => {
  chain = await startRecordedChain(10, 1_773_000_000);
});
afterAll(() => chain.stop());
beforeEach(() => {
  chain.balances.clear();
  chain.down = false;
});

const facilitatorOn = (url: string) =>
  // No chain here hangs (a closed port refuses, a down one answers 503): the probe timeout only has to outlast a loaded machine.
  createInProcessFacilitator({ privateKey: gasKey, rpcUrls: [url], network: baseNetwork, probeTimeoutMs: 20_000 });
/** A closed port: a chain that cannot be reached. */
const unreachable = "http://127.0.0.1:1";
const paidElsewhere = async () => (await signedPayment(elsewhere, payerKey)).payload as PaymentPayload;

describe("createInProcessFacilitator (what needs no settlement on a chain)", () => {
  test("it supports x402 v2 exact and batch-settlement on our network, signing from the gas key", async () => {
    const facilitator = facilitatorOn(unreachable);
    expect(facilitator.kind).toBe("IN_PROCESS");
    expect(await facilitator.getSupported()).toEqual({ ...facilitatorAnswers.supported(), signers: { "eip155:*": [gasAddress] } });
  });

  test("readiness: funded for ten settlements of 100,000 gas at the current fee, else GAS_KEY_UNFUNDED; RPC_UNREACHABLE without a chain", async () => {
    const client = createPublicClient({
      chain: defineChain({ ...base, rpcUrls: { default: { http: [chain.url] } } }),
      transport: http(chain.url),
    });
    const { maxFeePerGas } = await client.estimateFeesPerGas();
    const funded = 10n * 100_000n * maxFeePerGas;
    chain.balances.set(gasAddress.toLowerCase(), funded);
    expect(await facilitatorOn(chain.url).readiness()).toEqual({ ready: true });
    chain.balances.set(gasAddress.toLowerCase(), funded - 1n);
    expect(await facilitatorOn(chain.url).readiness()).toEqual({ ready: false, reason: "GAS_KEY_UNFUNDED" });
    expect(await facilitatorOn(unreachable).readiness()).toEqual({ ready: false, reason: "RPC_UNREACHABLE" });
    // Later URLs are fallbacks: read when the first cannot be.
    const fallingBack = createInProcessFacilitator({ privateKey: gasKey, rpcUrls: [unreachable, chain.url], network: baseNetwork });
    expect(await fallingBack.readiness()).toEqual({ ready: false, reason: "GAS_KEY_UNFUNDED" });
  });

  test("a payment x402's checks throw on is refused while the chain answers; while it does not, verification is unavailable and the settlement, never sent, fails as chain_unreachable", async () => {
    const payload = await paidElsewhere();
    const facilitator = facilitatorOn(chain.url);
    expect(await facilitator.verify(payload, elsewhere)).toEqual({ isValid: false, invalidReason: "payment_verification_failed" });
    expect(await facilitator.settle(payload, elsewhere)).toEqual({
      success: false,
      errorReason: "settlement_failed",
      transaction: "",
      network: baseNetwork,
    });
    // A payload that carries no EIP-3009 authorization (parsePaymentSignature refuses it first) fails without a read.
    const requestsBefore = chain.requests.length;
    for (const authorization of [undefined, { ...(payload.payload as { authorization: object }).authorization, nonce: "" }]) {
      expect(await facilitator.settle({ ...payload, payload: { ...payload.payload, authorization } }, elsewhere)).toEqual({
        success: false,
        errorReason: "settlement_failed",
        transaction: "",
        network: baseNetwork,
      });
    }
    expect(chain.requests.length).toBe(requestsBefore);
    chain.down = true;
    const down = new FacilitatorUnavailableError("the chain cannot be reached");
    await expect(facilitator.verify(payload, elsewhere)).rejects.toEqual(down);
    expect(await facilitator.settle(payload, elsewhere)).toEqual({
      success: false,
      errorReason: "chain_unreachable",
      transaction: "",
      network: baseNetwork,
    });
  });
});
