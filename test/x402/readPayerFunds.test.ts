import type { PaymentRequirements } from "@x402/core/types";
import { type Hex, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, test } from "vitest";
import { routes } from "../../api/routes/routeList";
import type { PayerCommitment } from "../../api/store/x402PaymentQueries";
import { payerFundsOnChain } from "../../api/x402/readPayerFunds";
import { baseUsdc } from "../../base/baseChain";
import { devnetProvider, testManifest } from "../support/devnet";
import { signedPayment } from "../support/signedPayment";
import { giveUsdc } from "../support/usdc";
import { testFacilitator, testX402Service } from "../support/x402";
import { fundedKey } from "./support";

/**
 * A payer's funds read at the devnet: with more payments in flight than the authorization states it
 * may read, the settled ones are read first, as only an authorization already used leaves the sum its
 * balance must cover; this file settles one authorization with a gas key of its own.
 */
const manifest = testManifest();
const maxAuthorizationReads = 4;
const readFunds = payerFundsOnChain({
  providers: [devnetProvider(manifest.rpcUrl)],
  chainId: 8453,
  token: baseUsdc,
  maxAuthorizationReads,
});
const validBefore = BigInt(Math.floor(Date.now() / 1000) + 3600);

let terms: PaymentRequirements;
const payerKey = generatePrivateKey();
const payer = privateKeyToAccount(payerKey).address;
/** The nonce of the payer's authorization settled on the chain. */
let settledNonce: Hex;

beforeAll(async () => {
  const offer = await testX402Service(manifest).offerOf({ ...routes.gasFees, x402PriceUsd: routes.gasFees.x402PriceUsd as number });
  if (!offer.ok) throw new Error(`no offer: ${offer.message}`);
  terms = offer.value.accepts[0] as PaymentRequirements;
  await giveUsdc(manifest, payer, BigInt(terms.amount) * 10n);
  const payment = await signedPayment(terms, payerKey);
  const settled = await testFacilitator(manifest, await fundedKey(manifest)).settle(payment.payload, terms);
  expect(settled.success, settled.errorReason).toBe(true);
  settledNonce = (payment.payload.payload as { authorization: { nonce: Hex } }).authorization.nonce;
}, 120_000);

/** A payment of the payer in `status`, spending the authorization `nonce`. */
const commitment = (status: PayerCommitment["status"], nonce: Hex, settledAt: Date | null = null): PayerCommitment => ({
  id: nonce,
  amount: BigInt(terms.amount),
  nonce,
  validBefore,
  status,
  settledAt,
});
const unusedNonce = () => toHex(crypto.getRandomValues(new Uint8Array(32)));

describe("payerFundsOnChain", () => {
  test("behavior: past the cap, the settled payment's state is read first, wherever the store lists it: it leaves the sum", async () => {
    const claimed = Array.from({ length: maxAuthorizationReads }, () => commitment("CLAIMED", unusedNonce()));
    const settled = commitment("SETTLED", settledNonce);
    for (const known of [
      [...claimed, settled],
      [settled, ...claimed],
    ]) {
      const funds = await readFunds(payer, known);
      expect(funds).not.toBeNull();
      // The claimed ones still take their amount (unused); the settled one is in the balance already.
      expect(funds?.committed(known)).toBe(BigInt(terms.amount) * BigInt(claimed.length));
      expect(funds?.balance).toBe(BigInt(terms.amount) * 9n);
    }
  });

  test("behavior: past the cap, the newest settled payments are read first (the ones a claim counts): the used one leaves the sum", async () => {
    const older = Array.from({ length: maxAuthorizationReads }, (_, i) => commitment("SETTLED", unusedNonce(), new Date(1_000 + i)));
    const newest = commitment("SETTLED", settledNonce, new Date(2_000));
    const known = [...older, newest];
    const funds = await readFunds(payer, known);
    // Read oldest first, the used one would be past the cap and count whole too.
    expect(funds?.committed(known)).toBe(BigInt(terms.amount) * BigInt(older.length));
  });

  test("behavior: a payment whose state is past the cap counts whole, settled or not", async () => {
    const settled = commitment("SETTLED", settledNonce);
    const known = [...Array.from({ length: maxAuthorizationReads + 1 }, () => commitment("SETTLED", unusedNonce())), settled];
    const funds = await readFunds(payer, known);
    // Five settled payments, four states read: the used one (last) is not among them and counts whole with the unread one.
    expect(funds?.committed(known)).toBe(BigInt(terms.amount) * BigInt(known.length));
  });
});
