import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { generatePaymentId } from "@x402/extensions/payment-identifier";
import { type Address, type Hex, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { routes } from "../../api/routes/routeList";
import { authorizationSignatureCheck } from "../../api/x402/authorizationSignature";
import { evidenceGradeSettlement } from "../../api/x402/confirmSettlement";
import type { X402Service } from "../../api/x402/createX402Service";
import { isBatchSettlementPayment, parsePaymentPayload } from "../../api/x402/parsePaymentSignature";
import { baseUsdc } from "../../base/baseChain";
import { type Backend, backendNames, openBackend } from "../access/support";
import { devnetProvider, testManifest } from "../support/devnet";
import type { Fetcher } from "../support/payingFetch";
import { startRpcProxy } from "../support/rpcProxy";
import { signedPayment } from "../support/signedPayment";
import { giveUsdc } from "../support/usdc";
import { testFacilitator, testX402Service } from "../support/x402";
import { challengeOf, fundedKey, paidApp } from "./support";

const manifest = testManifest();
// The audit route: its answer reads the chain with more patience than the gas route's 2 s probe, on a busy machine.
const path = `/v1/audit/${manifest.contracts.diamond}`;
const url = `http://127.0.0.1${path}`;
const route = { ...routes.audit, x402PriceUsd: routes.audit.x402PriceUsd as number };
const resource = { url, path };
type Refusal = { error: string; reason?: string };
const nonceOf = (payload: PaymentPayload) => (payload.payload as { authorization: { nonce: Hex } }).authorization.nonce;
/** `payload` carrying the payment-identifier id `id`, as a header. */
const headerWithId = (payload: PaymentPayload, id: string) =>
  encodePaymentSignatureHeader({ ...payload, extensions: { "payment-identifier": { info: { required: false, id } } } } as PaymentPayload);

/**
 * A payment taken but not answered (its settlement pending, or its claim left by a process that died)
 * is found again by its payer and nonce, which anyone reads on the chain: a retry must be signed by the
 * payer to be served the kept answer.
 */
describe.each(backendNames)("x402: a kept answer is served only to the payer's signature on %s", (backendName) => {
  let backend: Backend;
  let gasKey: Hex;
  let payerKey: Hex;
  let payer: Address;
  let requirements: PaymentRequirements;
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const stranger = generatePrivateKey();
  beforeAll(async () => {
    backend = await openBackend(backendName);
    gasKey = await fundedKey(manifest);
    payerKey = generatePrivateKey();
    payer = privateKeyToAccount(payerKey).address;
    await giveUsdc(manifest, payer, parseUnits("1", 6));
  }, 60_000);
  afterAll(() => backend.close());

  const appOf = async (x402: X402Service) => (await paidApp(manifest, backend, x402)).app;
  const send = (app: Fetcher, header: string) => app.fetch(new Request(url, { headers: { "payment-signature": header } }));
  /** A header with the payer's `from` and `nonce` (public on the chain) signed by someone else. */
  const forgeryOf = (nonce: Hex) => signedPayment(requirements, stranger, { nonce }, payer).then((p) => p.header);
  const statusOf = async (id: string) =>
    ((await backend.sql("SELECT status, reason FROM app.x402_payment WHERE id = $1", [id])) as Record<string, string | null>[])[0];

  async function forgeryRefusedGenuineServed(app: Fetcher, genuine: string, nonce: Hex) {
    const forged = await send(app, await forgeryOf(nonce));
    expect(forged.status).toBe(402);
    expect((await forged.json()) as Refusal).toMatchObject({ error: "PAYMENT_INVALID", reason: "invalid_exact_evm_signature" });
    expect(forged.headers.get("payment-response")).toBeNull();
    const served = await send(app, genuine);
    expect(served.status, await served.clone().text()).toBe(200);
    return served.text();
  }

  test("attack: a settlement left pending is resolved for a forged signature: 402, the payer's retry is served", async () => {
    const proxy = await startRpcProxy(manifest.rpcUrl, "down");
    try {
      const unconfirmed = evidenceGradeSettlement({
        providers: [devnetProvider(proxy.url, "proxy")],
        chainId: 8453,
        token: baseUsdc,
        intervalMs: 100,
      });
      const blind = await appOf(
        testX402Service(manifest, backend.store, { facilitator: testFacilitator(manifest, gasKey), payTo, confirmSettlement: unconfirmed }),
      );
      requirements = (await challengeOf(blind, url)).accepts[0] as PaymentRequirements;
      const genuine = await signedPayment(requirements, payerKey);
      const pending = await send(blind, genuine.header);
      expect(pending.status, await pending.clone().text()).toBe(409);
      const app = await appOf(testX402Service(manifest, backend.store, { facilitator: testFacilitator(manifest, gasKey), payTo }));
      await forgeryRefusedGenuineServed(app, genuine.header, nonceOf(genuine.payload));
    } finally {
      await proxy.stop();
    }
  }, 60_000);

  test("attack: a stale claim is taken over for a forged signature: 402, the payer's retries are served the kept answer", async () => {
    const dying = testX402Service(manifest, backend.store, { facilitator: testFacilitator(manifest, gasKey), payTo });
    requirements = (await challengeOf(await appOf(dying), url)).accepts[0] as PaymentRequirements;
    // Claimed and settled by a process that dies before it records the settlement.
    const genuine = await signedPayment(requirements, payerKey);
    const admitted = await dying.admit(route, resource, genuine.header);
    if (!admitted.ok || admitted.value.kind !== "PAY") throw new Error(`not admitted: ${JSON.stringify(admitted)}`);
    expect((await dying.facilitator.settle(genuine.payload, requirements)).success).toBe(true);
    // Read ten minutes later, once the claim is stale.
    const later = new Date(Date.now() + 10 * 60_000);
    const revived = testX402Service(manifest, backend.store, { facilitator: testFacilitator(manifest, gasKey), payTo, clock: () => later });
    const app = await appOf(revived);
    const nonce = nonceOf(genuine.payload);
    const first = await forgeryRefusedGenuineServed(app, genuine.header, nonce);
    expect(await statusOf(admitted.value.payment.id)).toEqual({ status: "SETTLED", reason: "recovered_claim" });
    expect(await forgeryRefusedGenuineServed(app, genuine.header, nonce)).toBe(first);
  }, 60_000);

  test("attack: a paid answer kept under a payment-identifier id is asked for with a forged signature and that id: 402", async () => {
    const x402 = testX402Service(manifest, backend.store, { facilitator: testFacilitator(manifest, gasKey), payTo });
    const app = await appOf(x402);
    requirements = (await challengeOf(app, url)).accepts[0] as PaymentRequirements;
    const id = generatePaymentId();
    const genuine = await signedPayment(requirements, payerKey);
    const paid = await send(app, headerWithId(genuine.payload, id));
    expect(paid.status, await paid.clone().text()).toBe(200);
    // The payer's from and nonce copied from the chain, the id seen by a facilitator: the signature is someone else's.
    const forged = await signedPayment(requirements, stranger, { nonce: nonceOf(genuine.payload) }, payer);
    const refused = await send(app, headerWithId(forged.payload, id));
    expect(refused.status).toBe(402);
    expect((await refused.json()) as Refusal).toMatchObject({ error: "PAYMENT_INVALID", reason: "invalid_exact_evm_signature" });
    expect(refused.headers.get("payment-response")).toBeNull();
    const retried = await send(app, headerWithId(genuine.payload, id));
    expect(retried.status, await retried.clone().text()).toBe(200);
    expect(await retried.text()).toBe(await paid.text());
  }, 60_000);

  test("attack: a forged signature for an EOA payer is refused without a call to the chain", async () => {
    requirements ??= (await challengeOf(await appOf(testX402Service(manifest, backend.store)), url)).accepts[0] as PaymentRequirements;
    const proxy = await startRpcProxy(manifest.rpcUrl);
    try {
      const check = authorizationSignatureCheck([devnetProvider(proxy.url, "proxy")]);
      const payloadOf = async (signer: Hex) => {
        const parsed = parsePaymentPayload((await signedPayment(requirements, signer, {}, payer)).payload);
        if (!parsed.ok || isBatchSettlementPayment(parsed.payload)) throw new Error("not an exact payment");
        return parsed.payload;
      };
      expect(await check(await payloadOf(payerKey), requirements)).toBe(true);
      expect(await proxy.requests()).toBe(0);
      expect(await check(await payloadOf(stranger), requirements)).toBe(false);
      // One read of the payer's code (none: an EOA), no ERC-6492/1271 call, which a flood of forgeries would multiply.
      expect(await proxy.counts()).toEqual({ eth_getCode: 1 });
    } finally {
      await proxy.stop();
    }
  }, 60_000);
});
