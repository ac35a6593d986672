import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { extractDiscoveryInfo } from "@x402/extensions/bazaar";
import {
  createOfferDomain,
  createReceiptDomain,
  type EIP712SignedOffer,
  type EIP712SignedReceipt,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  OFFER_TYPES,
  prepareOfferForEIP712,
  prepareReceiptForEIP712,
  RECEIPT_TYPES,
  verifyOfferSignatureEIP712,
  verifyReceiptSignatureEIP712,
} from "@x402/extensions/offer-receipt";
import { generatePaymentId } from "@x402/extensions/payment-identifier";
import { type Address, type Hex, parseUnits, verifyTypedData } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import { routes } from "../../api/routes/routeList";
import { createInProcessFacilitator } from "../../api/x402/createInProcessFacilitator";
import { bodySha256, paidAnswerDomain, paidAnswerMessage, paidAnswerTypes, type SignedPaidAnswer } from "../../api/x402/createX402Signer";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { type Backend, backendNames, openBackend } from "../access/support";
import { testAccessServices } from "../support/access";
import { testAppParameters } from "../support/app";
import { testClient, testManifest } from "../support/devnet";
import { payingFetch } from "../support/payingFetch";
import { startRpcProxy } from "../support/rpcProxy";
import { signedPayment } from "../support/signedPayment";
import { usdcBalance, usdcTransfersFrom } from "../support/usdc";
import { testFacilitator, testSigningKey, testX402Service } from "../support/x402";
import { challengeOf, fundedKey, paidApp } from "./support";

/** This file's payer: users[13] (no other file sends from it); its payout address and gas key are its own too. */
const manifest = testManifest();
const payer = manifest.accounts.users[13] as { address: Address; privateKey: Hex };
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const signer = privateKeyToAccount(testSigningKey).address;
const origin = "http://127.0.0.1:42069";
const target = manifest.contracts.diamond as Address;
const auditUrl = `${origin}/v1/audit/${target}`;
/** Every payable route, each with a URL it answers 200 at (the trade simulation's: the fixture taxing buys and sells). */
const paid = [
  { route: routes.audit, url: auditUrl },
  { route: routes.score, url: `${origin}/v1/security/score/${target}` },
  { route: routes.gasFees, url: `${origin}/v1/gas/fees` },
  { route: routes.tokenPrice, url: `${origin}/v1/token/price/WETH` },
  { route: routes.dexMetrics, url: `${origin}/v1/dex/metrics` },
  { route: routes.whaleSignals, url: `${origin}/v1/whales/signals` },
  {
    route: routes.tokenSimulation,
    url: `${origin}/v1/token/simulation/${manifest.simulationTokens.find((f) => f.name === "buySellTax")?.address}`,
  },
];
const auditPrice = parseUnits(String(routes.audit.x402PriceUsd), 6);

/** A hand-signed payment carrying a payment-identifier id (the negative and raw-retry cases). */
async function paymentWithId(requirements: PaymentRequirements, id: string) {
  const { payload } = await signedPayment(requirements, payer.privateKey);
  const withId = { ...payload, extensions: { "payment-identifier": { info: { required: false, id } } } } as PaymentPayload;
  return encodePaymentSignatureHeader(withId);
}

describe.each(backendNames)("x402 for agents on %s", (backendName) => {
  let backend: Backend;
  let gasKey: Hex;
  let app: ReturnType<typeof createApp>;
  let requirements: PaymentRequirements;

  beforeAll(async () => {
    backend = await openBackend(backendName);
    gasKey = await fundedKey(manifest);
    ({ app } = await paidApp(
      manifest,
      backend,
      testX402Service(manifest, backend.store, { facilitator: testFacilitator(manifest, gasKey), payTo }),
    ));
    requirements = (await challengeOf(app, auditUrl)).accepts[0] as PaymentRequirements;
  }, 60_000);
  afterAll(() => backend.close());

  const send = (url: string, headers: Record<string, string> = {}) => app.fetch(new Request(url, { headers }));
  const balances = () => Promise.all([usdcBalance(manifest, payer.address), usdcBalance(manifest, payTo)]);
  const head = () => testClient(manifest).getBlockNumber({ cacheTime: 0 });

  test("behavior: the same payment-identifier id twice: one settlement, two identical answers", async () => {
    const id = generatePaymentId();
    const since = await head();
    const [payerBefore, payToBefore] = await balances();
    const first = await payingFetch(app, payer.privateKey, id)(auditUrl);
    const second = await payingFetch(app, payer.privateKey, id)(auditUrl);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get("payment-response")).toBe(first.headers.get("payment-response"));
    expect(second.headers.get("x-service-trust-level")).toBe(first.headers.get("x-service-trust-level"));
    expect(await usdcTransfersFrom(manifest, payer.address, since)).toHaveLength(1);
    expect(await balances()).toEqual([payerBefore - auditPrice, payToBefore + auditPrice]);
  });

  test("error: the same id for another request is 409 and moves nothing; a malformed id is 400", async () => {
    const id = generatePaymentId();
    expect((await payingFetch(app, payer.privateKey, id)(auditUrl)).status).toBe(200);
    const before = await balances();
    const other = await payingFetch(app, payer.privateKey, id)(`${origin}/v1/security/score/${target}`);
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ error: "PAYMENT_ID_CONFLICT", reason: "payment_identifier_conflict" });
    const otherAddress = await send(`${origin}/v1/audit/${baseUsdc}`, {
      "payment-signature": await paymentWithId(requirements, id),
    });
    expect(otherAddress.status).toBe(409);
    for (const bad of ["short", "pay_with spaces and more", "x".repeat(129)]) {
      const res = await send(auditUrl, { "payment-signature": await paymentWithId(requirements, bad) });
      expect(res.status, bad).toBe(400);
      expect(await res.json(), bad).toMatchObject({ error: "PAYMENT_ID_INVALID", message: expect.any(String) });
    }
    expect(await balances()).toEqual(before);
  });

  test("behavior: 20 concurrent retries of one id: one settlement, 20 identical answers", async () => {
    const id = generatePaymentId();
    const since = await head();
    const [payerBefore] = await balances();
    const answers = await Promise.all(Array.from({ length: 20 }, () => payingFetch(app, payer.privateKey, id)(auditUrl)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(new Set(answers.map((r) => r.headers.get("payment-response"))).size).toBe(1);
    expect(await usdcTransfersFrom(manifest, payer.address, since)).toHaveLength(1);
    expect(payerBefore - (await usdcBalance(manifest, payer.address))).toBe(auditPrice);
  });

  test("behavior: a settlement whose answer is dropped is pending, never a fresh 402; the retry gets the answer and the payer paid once", async () => {
    const proxy = await startRpcProxy(manifest.rpcUrl, "drop-broadcast-answer");
    try {
      const facilitator = createInProcessFacilitator({ privateKey: gasKey, rpcUrls: [proxy.url], network: baseNetwork });
      const x402 = testX402Service(manifest, backend.store, { facilitator, payTo });
      const { access, keyRoutes } = testAccessServices(manifest, backend.indexDb, { store: backend.store });
      const dropping = createApp(testAppParameters(manifest, backend.indexDb, { access, keyRoutes, x402 }));
      const id = generatePaymentId();
      const header = await paymentWithId(requirements, id);
      const since = await head();
      const [payerBefore, payToBefore] = await balances();
      const first = await dropping.fetch(new Request(auditUrl, { headers: { "payment-signature": header } }));
      expect(first.status, await first.clone().text()).toBe(409);
      expect(first.headers.get("retry-after")).toBe("2");
      expect(first.headers.get("payment-required")).toBeNull();
      expect(await first.json()).toMatchObject({ error: "PAYMENT_PENDING", reason: "settlement_pending", retryable: true });
      const pendingReceipt = decodePaymentResponseHeader(first.headers.get("payment-response") as string);
      expect(pendingReceipt).toMatchObject({ success: false, errorReason: "settlement_pending" });
      // The facilitator never heard back, but the transfer was broadcast and mined.
      expect(await usdcTransfersFrom(manifest, payer.address, since)).toHaveLength(1);

      // The official client retries the same logical request (a new authorization under the same id).
      const retried = await payingFetch(dropping, payer.privateKey, id)(auditUrl);
      expect(retried.status, await retried.clone().text()).toBe(200);
      const receipt = decodePaymentResponseHeader(retried.headers.get("payment-response") as string);
      expect(receipt).toMatchObject({ success: true, transaction: pendingReceipt.transaction, payer: payer.address });
      const again = await dropping.fetch(new Request(auditUrl, { headers: { "payment-signature": header } }));
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(await retried.text());
      expect(await usdcTransfersFrom(manifest, payer.address, since)).toHaveLength(1);
      expect(await balances()).toEqual([payerBefore - auditPrice, payToBefore + auditPrice]);
    } finally {
      await proxy.stop();
    }
  });

  test("behavior: discovery: x402's extractDiscoveryInfo reads each payable route's challenge; the listing and the OpenAPI document agree", async () => {
    const listing = (await (await send(`${origin}/v1/x402/discovery`)).json()) as {
      items: { resource: string; method: string; accepts: PaymentRequirements[]; extensions: Record<string, unknown> }[];
      signer: { address: string };
    };
    expect(listing.items.map((i) => i.resource)).toEqual(paid.map(({ route }) => `${origin}${route.path.replace(/\{(\w+)\}/g, ":$1")}`));
    expect(listing.signer.address).toBe(signer);
    for (const { route, url } of paid) {
      const challenge = await challengeOf(app, url);
      const accepted = challenge.accepts[0] as PaymentRequirements;
      // As a facilitator reads a payment: the client echoes the challenge's resource and extensions.
      const payload = {
        x402Version: 2,
        resource: challenge.resource,
        accepted,
        payload: {},
        extensions: challenge.extensions,
      } as PaymentPayload;
      const found = extractDiscoveryInfo(payload, accepted);
      const template = route.path.replace(/\{(\w+)\}/g, ":$1");
      expect(found, route.name).toMatchObject({ resourceUrl: `${origin}${template}`, method: "GET", x402Version: 2 });
      expect(accepted.amount, route.name).toBe(parseUnits(String(route.x402PriceUsd), 6).toString());
      const info = found?.discoveryInfo as { input: { pathParams?: Record<string, string> }; output?: { example?: unknown } };
      expect(info.output?.example, route.name).toBeTruthy();
      const bazaar = challenge.extensions as { bazaar: { schema: { properties: { input: { properties: Record<string, unknown> } } } } };
      const schema = bazaar.bazaar.schema;
      if (route.path.includes("{")) {
        expect(schema.properties.input.properties.pathParams, route.name).toMatchObject({ type: "object", properties: expect.any(Object) });
        expect(Object.values(info.input.pathParams ?? {}), route.name).toEqual([new URL(url).pathname.split("/").at(-1)]);
      }
      const listed = listing.items.find((i) => i.resource === `${origin}${template}`);
      expect(listed?.accepts, route.name).toEqual([accepted]);
      expect(listed?.method).toBe("GET");
      // Both headers an agent sends and receives stay well under Node's 16 KiB header limit.
      const echoed = encodePaymentSignatureHeader(payload);
      expect(echoed.length, route.name).toBeLessThan(8 * 1024);
    }
    const document = (await (await send(`${origin}/v1/openapi.json`)).json()) as Record<string, unknown>;
    expect(document["x-x402-discovery"]).toBe(`${origin}/v1/x402/discovery`);
  });

  test("behavior: the offer and the receipt verify with x402's functions and viem's; the paid answer binds the body, the price and the block", async () => {
    const challenge = await challengeOf(app, auditUrl);
    const [offer] = extractOffersFromPaymentRequired(challenge) as EIP712SignedOffer[];
    expect(offer?.format).toBe("eip712");
    const offered = await verifyOfferSignatureEIP712(offer as EIP712SignedOffer);
    expect(offered.signer).toBe(signer);
    expect(offered.payload).toMatchObject({ resourceUrl: auditUrl, amount: requirements.amount, payTo, network: baseNetwork });
    const offerSignature = (offer as EIP712SignedOffer).signature as Hex;
    const offerTyped = { domain: createOfferDomain(), types: OFFER_TYPES, primaryType: "Offer" as const };
    expect(
      await verifyTypedData({ address: signer, ...offerTyped, message: prepareOfferForEIP712(offered.payload), signature: offerSignature }),
    ).toBe(true);

    const res = await payingFetch(app, payer.privateKey)(auditUrl);
    expect(res.status).toBe(200);
    const body = await res.text();
    const receipt = extractReceiptFromResponse(res) as EIP712SignedReceipt;
    const settled = decodePaymentResponseHeader(res.headers.get("payment-response") as string);
    const received = await verifyReceiptSignatureEIP712(receipt);
    expect(received.signer).toBe(signer);
    expect(received.payload).toMatchObject({
      resourceUrl: auditUrl,
      payer: payer.address,
      network: baseNetwork,
      transaction: settled.transaction,
    });
    const receiptTyped = { domain: createReceiptDomain(), types: RECEIPT_TYPES, primaryType: "Receipt" as const };
    const receiptMessage = prepareReceiptForEIP712(receipt.payload);
    expect(await verifyTypedData({ address: signer, ...receiptTyped, message: receiptMessage, signature: receipt.signature as Hex })).toBe(
      true,
    );

    const { paidAnswer } = (settled.extensions as { "offer-receipt": { info: { paidAnswer: SignedPaidAnswer } } })["offer-receipt"].info;
    const paidTyped = { domain: paidAnswerDomain, types: paidAnswerTypes, primaryType: "PaidAnswer" as const };
    const verifyAnswer = (payload: SignedPaidAnswer["payload"]) =>
      verifyTypedData({ address: signer, ...paidTyped, message: paidAnswerMessage(payload), signature: paidAnswer.signature });
    expect(await verifyAnswer(paidAnswer.payload)).toBe(true);
    const observed = (JSON.parse(body) as { observationBlock: { blockNumber: number } }).observationBlock.blockNumber;
    expect(paidAnswer.payload).toMatchObject({
      route: routes.audit.name,
      resourceUrl: auditUrl,
      amount: requirements.amount,
      payTo,
      transaction: settled.transaction,
      bodySha256: bodySha256(body),
      observationBlock: String(observed),
    });
    // A changed body no longer matches: its hash differs, and a payload claiming it does not verify.
    const changed = body.replace('"notASafetyGuarantee":true', '"notASafetyGuarantee":false');
    expect(changed).not.toBe(body);
    expect(bodySha256(changed)).not.toBe(paidAnswer.payload.bodySha256);
    expect(await verifyAnswer({ ...paidAnswer.payload, bodySha256: bodySha256(changed) })).toBe(false);
  });
});
