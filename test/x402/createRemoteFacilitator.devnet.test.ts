import { decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import { StatusReport } from "../../api/health/StatusReport";
import { createRemoteFacilitator } from "../../api/x402/createRemoteFacilitator";
import type { X402Facilitator } from "../../api/x402/X402Facilitator";
import { baseNetwork } from "../../base/baseChain";
import { type Backend, openBackend } from "../access/support";
import { testAccessServices } from "../support/access";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";
import { type FacilitatorServer, startFacilitatorServer } from "../support/facilitatorServer";
import { payingFetch } from "../support/payingFetch";
import { signedPayment } from "../support/signedPayment";
import { usdcBalance } from "../support/usdc";
import { testFacilitator, testX402Service } from "../support/x402";
import { challengeOf, fundedKey } from "./support";

/** This file's payer: users[5] (no other file sends from it); its payout address and gas key are its own. */
const manifest = testManifest();
const payer = manifest.accounts.users[5] as { address: Address; privateKey: Hex };
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const url = `http://127.0.0.1:42069/v1/audit/${manifest.contracts.diamond}`;

describe("a remote facilitator (X402_FACILITATOR_URL) behind the same interface", () => {
  let backend: Backend;
  let remote: FacilitatorServer;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    backend = await openBackend("pglite");
    remote = await startFacilitatorServer(testFacilitator(manifest, await fundedKey(manifest)));
    app = appOver(createRemoteFacilitator({ url: remote.url, network: baseNetwork }));
  }, 60_000);
  afterAll(async () => {
    await remote.stop();
    await backend.close();
  });

  /** The app with per-call payment through `facilitator`, over this file's store. */
  const appOver = (facilitator: X402Facilitator) =>
    createApp(
      testAppParameters(manifest, backend.indexDb, {
        ...testAccessServices(manifest, backend.indexDb, { store: backend.store }),
        x402: testX402Service(manifest, backend.store, { facilitator, payTo }),
      }),
    );
  const status = async (on = app) => StatusReport.parse(await (await on.request("/v1/status")).json()).paymentSettlement;

  test("default: the official client pays through it: 200, the price moves once, the receipt names the transfer", async () => {
    expect(await status()).toMatchObject({ x402: "AVAILABLE", x402Facilitator: "REMOTE", x402Reason: null });
    const before = await Promise.all([usdcBalance(manifest, payer.address), usdcBalance(manifest, payTo)]);
    const res = await payingFetch(app, payer.privateKey)(url);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(decodePaymentResponseHeader(res.headers.get("payment-response") as string)).toMatchObject({
      success: true,
      network: baseNetwork,
    });
    const after = await Promise.all([usdcBalance(manifest, payer.address), usdcBalance(manifest, payTo)]);
    expect([before[0] - after[0], after[1] - before[1]]).toEqual([20_000n, 20_000n]);
  });

  test("error: once it cannot be reached, a payment is 503 PAYMENT_FACILITATOR_UNAVAILABLE, nothing moves, the status says why", async () => {
    const requirements = (await challengeOf(app, url)).accepts[0] as PaymentRequirements;
    const { header } = await signedPayment(requirements, payer.privateKey);
    await remote.stop();
    const before = await usdcBalance(manifest, payer.address);
    const res = await app.request(url, { headers: { "payment-signature": header } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: "PAYMENT_FACILITATOR_UNAVAILABLE", retryable: true });
    expect(await usdcBalance(manifest, payer.address)).toBe(before);
    // The payment was neither claimed nor refused: it is still the payer's to use.
    expect(await backend.sql("SELECT id FROM app.x402_payment WHERE status = 'CLAIMED'")).toEqual([]);
    // A fresh probe (the app's own is reused for 10 s).
    expect(await status(appOver(createRemoteFacilitator({ url: remote.url, network: baseNetwork })))).toMatchObject({
      x402: "UNAVAILABLE",
      x402Facilitator: "REMOTE",
      x402Reason: "FACILITATOR_UNREACHABLE",
    });
  });
});
