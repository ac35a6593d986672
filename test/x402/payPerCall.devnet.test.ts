import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { type Address, type Hex, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import type { IssuedKey } from "../../api/keys/records";
import { routes } from "../../api/routes/routeList";
import { evidenceGradeSettlement } from "../../api/x402/confirmSettlement";
import { baseNetwork, baseUsdc, baseWeth } from "../../base/baseChain";
import { accessApp, type Backend, backendNames, openBackend, post } from "../access/support";
import { testAccessServices } from "../support/access";
import { testAppParameters } from "../support/app";
import { devnetProvider, testClient, testManifest } from "../support/devnet";
import type { seedMarketIndex } from "../support/marketIndex";
import { payingFetch } from "../support/payingFetch";
import { startRpcProxy } from "../support/rpcProxy";
import { signedPayment } from "../support/signedPayment";
import { usdcBalance, usdcTransfersFrom } from "../support/usdc";
import { testFacilitator, testX402Service } from "../support/x402";
import { challengeOf, fundedKey, paidApp } from "./support";

/** This file's payer: users[4] (no other file sends from it). Its payout address and gas key are its own too. */
const manifest = testManifest();
const payer = manifest.accounts.users[4] as { address: Address; privateKey: Hex };
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const origin = "http://127.0.0.1:42069";
const target = manifest.contracts.diamond as Address;
/** Every payable route, each with a URL it answers 200 at (the trade simulation's: the fixture taxing buys and sells). */
const paid = [
  { route: routes.audit, url: `${origin}/v1/audit/${target}` },
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
const priceOf = (usd: number) => parseUnits(String(usd), 6);
type Refusal = { error: string; message: string; reason?: string };

describe.each(backendNames)("x402 per-call payment on %s", (backendName) => {
  let backend: Backend;
  let gasKey: Hex;
  let app: ReturnType<typeof createApp>;
  /** An app whose contract reads fail (503), over the same store and facilitator. */
  let noChain: ReturnType<typeof createApp>;
  let requirements: PaymentRequirements;
  let marketIndex: Awaited<ReturnType<typeof seedMarketIndex>>;

  beforeAll(async () => {
    backend = await openBackend(backendName);
    gasKey = await fundedKey(manifest);
    const x402 = testX402Service(manifest, backend.store, { facilitator: testFacilitator(manifest, gasKey), payTo });
    const paying = await paidApp(manifest, backend, x402);
    ({ app, marketIndex } = paying);
    const { access, keyRoutes } = paying;
    const dead = [{ name: "down", url: "http://127.0.0.1:1", trusted: true }];
    noChain = createApp(
      testAppParameters(manifest, backend.indexDb, {
        access,
        keyRoutes,
        x402,
        capability: { providers: dead, chainId: 8453, samples: [] },
      }),
    );
    requirements = (await challengeOf(app, paid[0]?.url as string)).accepts[0] as PaymentRequirements;
  }, 60_000);
  afterAll(() => backend.close());

  const send = (url: string, headers: Record<string, string> = {}, on = app) => on.fetch(new Request(url, { headers }));
  const balances = () => Promise.all([usdcBalance(manifest, payer.address), usdcBalance(manifest, payTo)]);
  const rows = () =>
    backend.sql("SELECT route, network, asset, amount::text, status, tx_hash, reason FROM app.x402_payment ORDER BY claimed_at") as Promise<
      Record<string, string | null>[]
    >;

  test("default: no credential is 402 with an x402 v2 challenge in PAYMENT-REQUIRED and the JSON error body", async () => {
    for (const { route, url } of paid) {
      const res = await send(url);
      expect(res.status).toBe(402);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const challenge = decodePaymentRequiredHeader(res.headers.get("payment-required") as string);
      expect(challenge).toMatchObject({
        x402Version: 2,
        resource: { url, description: route.summary, mimeType: "application/json" },
        accepts: [
          {
            scheme: "exact",
            network: baseNetwork,
            amount: priceOf(route.x402PriceUsd).toString(),
            asset: baseUsdc,
            payTo,
            maxTimeoutSeconds: 300,
            extra: { name: "USD Coin", version: "2" },
          },
        ],
      });
      expect(await res.json()).toMatchObject({ error: "PAYMENT_REQUIRED", message: expect.any(String), plans: "/v1/plans" });
      // A browser script may read the challenge and the receipt, and send a payment.
      expect(res.headers.get("access-control-expose-headers")?.split(",")).toEqual(
        expect.arrayContaining(["payment-required", "payment-response"]),
      );
      const preflight = await app.fetch(
        new Request(url, {
          method: "OPTIONS",
          headers: {
            origin: "https://app.example",
            "access-control-request-method": "GET",
            "access-control-request-headers": "payment-signature",
          },
        }),
      );
      expect(preflight.headers.get("access-control-allow-headers")?.split(",")).toContain("payment-signature");
    }
  });

  test("default: the official client pays each payable route: 200, the exact price moves, the receipt names the transfer", async () => {
    const pay = payingFetch(app, payer.privateKey);
    for (const { route, url } of paid) {
      // Each settlement mines a block: the market index follows the chain as the indexer would.
      await marketIndex.syncHead();
      const [payerBefore, payToBefore] = await balances();
      const res = await pay(url);
      expect(res.status, await res.clone().text()).toBe(200);
      const body = (await res.json()) as { notASafetyGuarantee?: boolean; provenance?: object };
      expect(body.notASafetyGuarantee ?? body.provenance, route.name).toBeTruthy();
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      const receipt = decodePaymentResponseHeader(res.headers.get("payment-response") as string);
      expect(receipt).toMatchObject({ success: true, network: baseNetwork, payer: payer.address });
      const [payerAfter, payToAfter] = await balances();
      const price = priceOf(route.x402PriceUsd);
      expect(payerBefore - payerAfter).toBe(price);
      expect(payToAfter - payToBefore).toBe(price);
      const mined = await testClient(manifest).getTransactionReceipt({ hash: receipt.transaction as Hex });
      expect(mined.status).toBe("success");
      const recorded = (await rows()).find((r) => r.tx_hash === receipt.transaction);
      expect(recorded).toEqual({
        route: route.name,
        network: baseNetwork,
        asset: baseUsdc,
        amount: price.toString(),
        status: "SETTLED",
        tx_hash: receipt.transaction,
        reason: null,
      });
    }
    // The record names no payer.
    const stored = JSON.stringify(await backend.sql("SELECT * FROM app.x402_payment"));
    expect(stored.toLowerCase()).not.toContain(payer.address.slice(2).toLowerCase());
  });

  test("behavior: a replayed PAYMENT-SIGNATURE is refused and moves nothing", async () => {
    const { header } = await signedPayment(requirements, payer.privateKey);
    const first = await send(paid[0]?.url as string, { "payment-signature": header });
    expect(first.status).toBe(200);
    const before = await balances();
    for (const { route, url } of paid) {
      const again = await send(url, { "payment-signature": header });
      expect(again.status).toBe(402);
      // A route of another price refuses the terms before it looks the payment up.
      const reason = route.x402PriceUsd === routes.audit.x402PriceUsd ? "payment_already_settled" : expect.any(String);
      expect(await again.json(), route.name).toMatchObject({ error: "PAYMENT_INVALID", reason });
      expect(decodePaymentRequiredHeader(again.headers.get("payment-required") as string).error).toEqual(reason);
    }
    expect(await balances()).toEqual(before);
  });

  test("behavior: 50 concurrent copies of one payment: exactly one 200 and one transfer", async () => {
    const { header } = await signedPayment(requirements, payer.privateKey);
    const since = await testClient(manifest).getBlockNumber();
    const [payerBefore] = await balances();
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(paid[0]?.url as string, { "payment-signature": header })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 402)).toHaveLength(49);
    for (const refused of answers.filter((r) => r.status === 402)) {
      const body = (await refused.json()) as Refusal;
      expect(body.error).toBe("PAYMENT_INVALID");
      expect(["payment_in_progress", "payment_already_settled"]).toContain(body.reason);
    }
    expect(await usdcTransfersFrom(manifest, payer.address, since)).toHaveLength(1);
    expect(payerBefore - (await usdcBalance(manifest, payer.address))).toBe(requirements.amount ? BigInt(requirements.amount) : -1n);
  });

  test("behavior: 20 different payments at once settle from one gas key: 20 answers, 20 transfers, the exact sum", async () => {
    const payments = await Promise.all(Array.from({ length: 20 }, () => signedPayment(requirements, payer.privateKey)));
    const since = await testClient(manifest).getBlockNumber();
    const [payerBefore] = await balances();
    const answers = await Promise.all(payments.map(({ header }) => send(paid[0]?.url as string, { "payment-signature": header })));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const hashes = answers.map((r) => decodePaymentResponseHeader(r.headers.get("payment-response") as string).transaction);
    expect(new Set(hashes).size).toBe(20);
    expect(await usdcTransfersFrom(manifest, payer.address, since)).toHaveLength(20);
    expect(payerBefore - (await usdcBalance(manifest, payer.address))).toBe(20n * BigInt(requirements.amount));
  });

  test("error: a payment on other terms, expired or badly signed is refused with its reason, and nothing moves", async () => {
    const stranger = generatePrivateKey();
    const now = BigInt(Math.floor(Date.now() / 1000));
    const half = (BigInt(requirements.amount) / 2n).toString();
    const cases: { name: string; reason: string; make: () => Promise<{ header: string }> }[] = [
      { name: "underpaid", reason: "amount_mismatch", make: () => signedPayment(requirements, payer.privateKey, { amount: half }) },
      {
        name: "underpaid in the authorization only",
        reason: "invalid_exact_evm_payload_authorization_value_mismatch",
        make: () => signedPayment(requirements, payer.privateKey, { value: half }),
      },
      { name: "another asset", reason: "asset_mismatch", make: () => signedPayment(requirements, payer.privateKey, { asset: baseWeth }) },
      {
        name: "another network",
        reason: "network_mismatch",
        make: () => signedPayment(requirements, payer.privateKey, { network: "eip155:84532" }),
      },
      {
        name: "another payee",
        reason: "pay_to_mismatch",
        make: () => signedPayment(requirements, payer.privateKey, { payTo: payer.address }),
      },
      {
        name: "another payee in the authorization only",
        reason: "invalid_exact_evm_recipient_mismatch",
        make: () => signedPayment(requirements, payer.privateKey, { to: payer.address }),
      },
      {
        name: "expired",
        reason: "invalid_exact_evm_payload_authorization_valid_before",
        make: () => signedPayment(requirements, payer.privateKey, { validBefore: now - 60n }),
      },
      {
        name: "signed by another key",
        reason: "invalid_exact_evm_signature",
        make: () => signedPayment(requirements, stranger, {}, payer.address),
      },
      {
        name: "signed for another chain's token domain",
        reason: "invalid_exact_evm_signature",
        make: () => signedPayment(requirements, payer.privateKey, { chainId: 1 }),
      },
      {
        name: "from a wallet without USDC",
        reason: "invalid_exact_evm_insufficient_balance",
        make: () => signedPayment(requirements, stranger),
      },
    ];
    const before = await balances();
    const rowsBefore = (await rows()).length;
    for (const { name, reason, make } of cases) {
      const res = await send(paid[0]?.url as string, { "payment-signature": (await make()).header });
      expect(res.status, name).toBe(402);
      const body = (await res.json()) as Refusal;
      expect(body, name).toMatchObject({ error: "PAYMENT_INVALID", reason });
      expect(JSON.stringify(body), name).not.toMatch(/reverted|Contract Call|Details:/);
      expect(decodePaymentRequiredHeader(res.headers.get("payment-required") as string), name).toMatchObject({
        error: reason,
        accepts: [requirements],
      });
    }
    expect(await balances()).toEqual(before);
    expect((await rows()).length).toBe(rowsBefore);
  });

  test("error: a route answering 400 or 503 charges nothing, and the payment stays usable", async () => {
    const { header } = await signedPayment(requirements, payer.privateKey);
    const before = await balances();
    const invalid = await send(`${origin}/v1/audit/0x1234`, { "payment-signature": header });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("payment-response")).toBeNull();
    const down = await send(paid[0]?.url as string, { "payment-signature": header }, noChain);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ error: "DATA_SOURCE_UNAVAILABLE" });
    expect(down.headers.get("payment-response")).toBeNull();
    expect(await balances()).toEqual(before);
    const served = await send(paid[0]?.url as string, { "payment-signature": header });
    expect(served.status).toBe(200);
    expect(before[0] - (await usdcBalance(manifest, payer.address))).toBe(BigInt(requirements.amount));
  });

  test("behavior: an API key is served without payment; with both, the key is used and the payment untouched", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const keyApp = accessApp(manifest, backend).app;
    const { intent } = (await (await post(keyApp, "/v1/subscribe/free/challenge", { userWallet: owner.address })).json()) as {
      intent: { intentId: string; messageToSign: string };
    };
    const signature = await owner.signMessage({ message: intent.messageToSign });
    const issued = (await (await post(keyApp, "/v1/subscribe/free/claim", { intentId: intent.intentId, signature })).json()) as IssuedKey;
    const key = { "x-api-key": issued.apiKey as string };
    const plain = await send(paid[0]?.url as string, key);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("x-credits-remaining")).toBe("9");
    const { header } = await signedPayment(requirements, payer.privateKey);
    const before = await balances();
    const both = await send(paid[0]?.url as string, { ...key, "payment-signature": header });
    expect(both.status).toBe(200);
    expect(both.headers.get("payment-response")).toBeNull();
    expect(both.headers.get("x-credits-remaining")).toBe("8");
    expect(await balances()).toEqual(before);
    expect((await send(paid[0]?.url as string, { "payment-signature": header })).status).toBe(200);
  });

  test("error: garbage in PAYMENT-SIGNATURE (not base64, not JSON, not a payment, 1 MB) is a 402 JSON refusal, never a 500", async () => {
    const garbage: [string, string][] = [
      ["%%% not base64 %%%", "payment_signature_not_base64"],
      ["", "payment_signature_not_base64"],
      [Buffer.from("not json at all").toString("base64"), "payment_signature_not_json"],
      [Buffer.from(JSON.stringify({ x402Version: 2, hello: "world" })).toString("base64"), "payment_signature_not_exact_evm_v2"],
      [Buffer.from("null").toString("base64"), "payment_signature_not_exact_evm_v2"],
      ["A".repeat(1024 * 1024), "payment_signature_too_long"],
    ];
    const before = await balances();
    for (const [header, reason] of garbage) {
      const res = await send(paid[0]?.url as string, { "payment-signature": header });
      expect(res.status, reason).toBe(402);
      expect(await res.json(), reason).toMatchObject({ error: "PAYMENT_INVALID", reason });
      expect(res.headers.get("payment-required"), reason).not.toBeNull();
    }
    expect(await balances()).toEqual(before);
  });

  test("error: a settlement that fails after the work is not served, and its receipt carries only a short reason", async () => {
    const unfunded = generatePrivateKey();
    const x402 = testX402Service(manifest, backend.store, { facilitator: testFacilitator(manifest, unfunded), payTo });
    const broke = createApp(
      testAppParameters(manifest, backend.indexDb, { ...testAccessServices(manifest, backend.indexDb, { store: backend.store }), x402 }),
    );
    const { header } = await signedPayment(requirements, payer.privateKey);
    const before = await balances();
    const res = await send(paid[0]?.url as string, { "payment-signature": header }, broke);
    expect(res.status).toBe(402);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ error: "PAYMENT_SETTLEMENT_FAILED", reason: "invalid_exact_evm_transaction_failed" });
    expect(text).not.toContain("capabilityScore");
    const receiptHeader = res.headers.get("payment-response") as string;
    expect(decodePaymentResponseHeader(receiptHeader)).toEqual({
      success: false,
      errorReason: "invalid_exact_evm_transaction_failed",
      transaction: "",
      network: baseNetwork,
    });
    const gasAddress = privateKeyToAccount(unfunded).address.slice(2).toLowerCase();
    for (const exposed of [text, Buffer.from(receiptHeader, "base64").toString()]) {
      expect(exposed.toLowerCase()).not.toContain(gasAddress);
      expect(exposed).not.toMatch(/0x[0-9a-f]{8,}|reverted|Details:|insufficient funds/i);
    }
    expect(await balances()).toEqual(before);
    const again = await send(paid[0]?.url as string, { "payment-signature": header }, broke);
    expect(await again.json()).toMatchObject({ error: "PAYMENT_INVALID", reason: "payment_already_failed" });
  });

  test("behavior: a claim whose process died is resolved from the chain once stale: settled, retries are served for that one transfer and never settle again; unused past its validity, it failed and nothing moves; a live claim is never taken over", async () => {
    const url = paid[0]?.url as string;
    const route = { ...routes.audit, x402PriceUsd: routes.audit.x402PriceUsd as number };
    const resource = { url, path: new URL(url).pathname };
    const dying = testX402Service(manifest, backend.store, { facilitator: testFacilitator(manifest, gasKey), payTo });
    // The same store read by a replica ten minutes later, whose facilitator counts its settlements.
    const later = new Date(Date.now() + 10 * 60_000);
    const facilitator = testFacilitator(manifest, gasKey);
    let revivedSettlements = 0;
    const counting = {
      ...facilitator,
      settle(...args: Parameters<typeof facilitator.settle>) {
        revivedSettlements++;
        return facilitator.settle(...args);
      },
    };
    const revived = testX402Service(manifest, backend.store, { facilitator: counting, payTo, clock: () => later, retryWaitMs: 0 });
    const { access, keyRoutes } = testAccessServices(manifest, backend.indexDb, { store: backend.store });
    const revivedApp = createApp(testAppParameters(manifest, backend.indexDb, { access, keyRoutes, x402: revived }));
    const dead = [{ name: "down", url: "http://127.0.0.1:1", trusted: true }];
    const revivedNoChain = createApp(
      testAppParameters(manifest, backend.indexDb, {
        access,
        keyRoutes,
        x402: revived,
        capability: { providers: dead, chainId: 8453, samples: [] },
      }),
    );
    const rowOf = async (id: string) =>
      (
        (await backend.sql("SELECT status, tx_hash, reason, answer, claimed_at FROM app.x402_payment WHERE id = $1", [id])) as Record<
          string,
          unknown
        >[]
      )[0];
    /** Claims a payment in the dying process, settles it through the facilitator, and dies before recording it. */
    const claimedAndSettled = async () => {
      const signed = await signedPayment(requirements, payer.privateKey);
      const admitted = await dying.admit(route, resource, signed.header);
      if (!admitted.ok || admitted.value.kind !== "PAY") throw new Error(`not admitted: ${JSON.stringify(admitted)}`);
      const broadcast = await dying.facilitator.settle(signed.payload, requirements);
      expect(broadcast.success).toBe(true);
      return { header: signed.header, payment: admitted.value.payment, transaction: broadcast.transaction };
    };
    const sinceBlock = await testClient(manifest).getBlockNumber();
    const before = await balances();
    const price = BigInt(requirements.amount);

    const first = await claimedAndSettled();
    const live = await send(url, { "payment-signature": first.header });
    expect(live.status).toBe(402);
    expect(await live.json()).toMatchObject({ error: "PAYMENT_INVALID", reason: "payment_in_progress" });
    // Taken over, but its work fails: the payment was taken, so the answer says retry it, never pay again.
    const unserved = await send(url, { "payment-signature": first.header }, revivedNoChain);
    expect(unserved.status).toBe(409);
    expect(await unserved.json()).toMatchObject({ error: "PAYMENT_PENDING", reason: "payment_taken_answer_failed" });
    expect(await rowOf(first.payment.id)).toMatchObject({ status: "CLAIMED", tx_hash: first.transaction });
    const served = await send(url, { "payment-signature": first.header }, revivedApp);
    expect(served.status).toBe(200);
    const body = await served.text();
    expect(body).toContain("capabilityScore");
    expect(decodePaymentResponseHeader(served.headers.get("payment-response") as string)).toMatchObject({
      success: true,
      transaction: first.transaction,
    });
    // The header was public on the chain before its answer: a retry of it is served the kept answer.
    const replay = await send(url, { "payment-signature": first.header }, revivedApp);
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe(body);
    expect(await rowOf(first.payment.id)).toMatchObject({ status: "SETTLED", tx_hash: first.transaction, reason: "recovered_claim" });

    // A slow (not dead) process writes after a retry took its claim over: the claim time fences it out.
    const second = await claimedAndSettled();
    const takenOver = await revived.admit(route, resource, second.header);
    if (!takenOver.ok || takenOver.value.kind !== "PAY") throw new Error(`not taken over: ${JSON.stringify(takenOver)}`);
    expect(takenOver.value.payment.settledTx).toBe(second.transaction);
    expect(await dying.release(second.payment)).toBeNull();
    await dying.settle(second.payment, { status: 200, contentType: "application/json", body: "{}", headers: {} });
    expect(await rowOf(second.payment.id)).toMatchObject({ status: "CLAIMED", claimed_at: later, tx_hash: second.transaction });
    const answer = { status: 200, contentType: "application/json", body: '{"served":"by the retry"}', headers: {} };
    expect((await revived.settle(takenOver.value.payment, answer)).refusal).toBeNull();
    expect(await rowOf(second.payment.id)).toMatchObject({ status: "SETTLED", answer: JSON.stringify(answer) });
    expect(revivedSettlements).toBe(0);
    expect(await usdcTransfersFrom(manifest, payer.address, sinceBlock)).toHaveLength(2);
    expect(await balances()).toEqual([(before[0] as bigint) - 2n * price, (before[1] as bigint) + 2n * price]);

    // Claimed, never broadcast, and retried once the chain's time has passed its validity.
    const validBefore = BigInt(Math.floor(Date.now() / 1000) + 8);
    const unused = await signedPayment(requirements, payer.privateKey, { validBefore });
    const claimed = await dying.admit(route, resource, unused.header);
    if (!claimed.ok || claimed.value.kind !== "PAY") throw new Error(`not admitted: ${JSON.stringify(claimed)}`);
    const stillValid = await send(url, { "payment-signature": unused.header }, revivedApp);
    expect(stillValid.status).toBe(409);
    expect(await stillValid.json()).toMatchObject({ error: "PAYMENT_PENDING" });
    await new Promise((wake) => setTimeout(wake, Number(validBefore) * 1000 - Date.now() + 1000));
    await testClient(manifest).mine({ blocks: 1 });
    const failed = await send(url, { "payment-signature": unused.header }, revivedApp);
    expect(failed.status).toBe(402);
    expect(await failed.json()).toMatchObject({ error: "PAYMENT_SETTLEMENT_FAILED", reason: "authorization_expired_unused" });
    expect(await rowOf(claimed.value.payment.id)).toMatchObject({ status: "FAILED", reason: "authorization_expired_unused", answer: null });
    expect(await balances()).toEqual([(before[0] as bigint) - 2n * price, (before[1] as bigint) + 2n * price]);
  });

  test("behavior: an answer is released only once the chain shows the settlement at evidence grade", async () => {
    const proxy = await startRpcProxy(manifest.rpcUrl, "inflate-transfer:1");
    try {
      const confirmSettlement = evidenceGradeSettlement({
        providers: [devnetProvider(proxy.url, "proxy")],
        chainId: 8453,
        token: baseUsdc,
        intervalMs: 100,
      });
      const x402 = testX402Service(manifest, backend.store, { facilitator: testFacilitator(manifest, gasKey), payTo, confirmSettlement });
      const { access, keyRoutes } = testAccessServices(manifest, backend.indexDb, { store: backend.store });
      const watched = createApp(testAppParameters(manifest, backend.indexDb, { access, keyRoutes, x402 }));
      // A contradicted settlement failed; an unconfirmed one is pending: retry it, never pay it again.
      for (const [mode, reason, status, httpStatus, error] of [
        ["inflate-transfer:1", "settlement_not_on_chain", "FAILED", 402, "PAYMENT_SETTLEMENT_FAILED"],
        ["down", "settlement_unconfirmed", "PENDING", 409, "PAYMENT_PENDING"],
      ] as const) {
        await proxy.setMode(mode);
        const { header } = await signedPayment(requirements, payer.privateKey);
        const res = await send(paid[0]?.url as string, { "payment-signature": header }, watched);
        expect(res.status, mode).toBe(httpStatus);
        const text = await res.text();
        expect(JSON.parse(text), mode).toMatchObject({ error, reason });
        expect(text, mode).not.toContain("capabilityScore");
        const receipt = decodePaymentResponseHeader(res.headers.get("payment-response") as string);
        expect(receipt, mode).toMatchObject({ success: false, errorReason: reason, network: baseNetwork });
        // The facilitator did broadcast: the record keeps the transaction for whoever resolves it.
        expect(
          (await rows()).find((r) => r.tx_hash === receipt.transaction),
          mode,
        ).toMatchObject({ status, reason });
      }
    } finally {
      await proxy.stop();
    }
  });
});
