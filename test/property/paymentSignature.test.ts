import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import fc from "fast-check";
import { getAddress, type Hex, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { routes } from "../../api/routes/routeList";
import { maxPaymentSignatureLength, type PaymentSignatureProblem, parsePaymentSignature } from "../../api/x402/parsePaymentSignature";
import { signedPayment } from "../support/signedPayment";
import { challengeOf } from "../x402/support";
import { anyString, headerValue } from "./arbitraries";
import { propertyApp, readAnswer, undocumentedAnswer } from "./support";

/**
 * Property tests of the PAYMENT-SIGNATURE parser (`parsePaymentSignature`), alone and through createApp
 * on a payable route. Cases per property are stated at each `numRuns`; its tests took 6 s on the shared
 * 2-core machine (most of it the 40 signed payments that reach the facilitator's chain reads).
 */

const problems: PaymentSignatureProblem[] = [
  "payment_signature_too_long",
  "payment_signature_not_base64",
  "payment_signature_not_json",
  "payment_signature_not_exact_evm_v2",
];
const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

const hexBytes = (length: number) => fc.uint8Array({ minLength: length, maxLength: length }).map((b) => toHex(b));
/** An address as clients write it: lowercase or checksummed. */
const address = fc.tuple(hexBytes(20), fc.boolean()).map(([a, checksum]) => (checksum ? getAddress(a) : a));
const uint256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String);

/** A well-formed v2 exact EVM PaymentPayload (any terms; an ECDSA-sized or longer signature). */
const payload = fc.record({
  x402Version: fc.constant(2),
  accepted: fc.record({
    scheme: fc.constantFrom("exact", "upto", ""),
    network: fc.constantFrom("eip155:8453", "eip155:84532", "solana:mainnet"),
    amount: uint256,
    asset: address,
    payTo: address,
    maxTimeoutSeconds: fc.integer({ min: 0, max: 86_400 }),
    extra: fc.constant({ name: "USD Coin", version: "2" }),
  }),
  payload: fc.record({
    authorization: fc.record({
      from: address,
      to: address,
      value: uint256,
      validAfter: uint256,
      validBefore: uint256,
      nonce: hexBytes(32),
    }),
    signature: fc.integer({ min: 65, max: 300 }).chain((n) => hexBytes(n)),
  }),
});

/** A well-formed payload with one thing broken: a field removed, retyped or added where none is allowed, or the version. */
const broken = fc.tuple(payload, fc.nat(5), anyString(12)).map(([p, which, junk]) => {
  const copy = structuredClone(p) as unknown as Record<string, Record<string, Record<string, unknown>>> & { x402Version: unknown };
  const authorization = copy.payload?.authorization as Record<string, unknown>;
  if (which === 0) copy.x402Version = 1;
  if (which === 1) delete authorization.nonce;
  if (which === 2) authorization.value = Number.parseInt(String(authorization.value).slice(0, 6) || "0", 10);
  if (which === 3) authorization.extra = junk;
  if (which === 4) (copy.payload as Record<string, unknown>).signature = `0x${junk}z`;
  if (which === 5) authorization.from = junk;
  return { payload: copy, which };
});

describe("parsePaymentSignature, alone", () => {
  test("behavior: never throws; anything refused has one of its four reasons, the first that applies (2,000 cases)", () => {
    const header = fc.oneof(
      anyString(200),
      headerValue(200),
      fc.jsonValue().map((v) => base64(JSON.stringify(v) ?? "null")),
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString("base64")),
      fc.string({ unit: fc.constantFrom(..."ABCDEFabcdef0123456789+/="), maxLength: 64 }),
    );
    fc.assert(
      fc.property(header, (h) => {
        const parsed = parsePaymentSignature(h);
        if (parsed.ok) {
          expect(parsed.payload.x402Version).toBe(2);
          return;
        }
        expect(problems).toContain(parsed.reason);
        if (h.length > maxPaymentSignatureLength) expect(parsed.reason).toBe("payment_signature_too_long");
        else if (!/^[A-Za-z0-9+/]+={0,2}$/.test(h)) expect(parsed.reason).toBe("payment_signature_not_base64");
      }),
      { numRuns: 2000 },
    );
  });

  test("behavior: a well-formed payload, as x402's client encodes it, is read back exactly (addresses checksummed) (1,000 cases)", () => {
    fc.assert(
      fc.property(payload, (p) => {
        const parsed = parsePaymentSignature(encodePaymentSignatureHeader(p as PaymentPayload));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const { authorization } = p.payload;
        expect(parsed.payload.accepted).toEqual(p.accepted);
        expect(parsed.payload.payload).toEqual({
          signature: p.payload.signature,
          authorization: { ...authorization, from: getAddress(authorization.from), to: getAddress(authorization.to) },
        });
      }),
      { numRuns: 1000 },
    );
  });

  test("error: one broken field makes it payment_signature_not_exact_evm_v2; past the length cap it is too long (1,000 cases)", () => {
    fc.assert(
      fc.property(broken, fc.nat(100), ({ payload: p, which }, pad) => {
        const header = base64(JSON.stringify(p));
        expect(parsePaymentSignature(header), `case ${which}`).toEqual({ ok: false, reason: "payment_signature_not_exact_evm_v2" });
        const long = `${header}${"A".repeat(maxPaymentSignatureLength - header.length + 1 + pad)}`;
        expect(parsePaymentSignature(long)).toEqual({ ok: false, reason: "payment_signature_too_long" });
      }),
      { numRuns: 1000 },
    );
  });
});

describe("PAYMENT-SIGNATURE through createApp", () => {
  const { app, manifest, close } = propertyApp();
  const url = `http://127.0.0.1:42069/v1/audit/${manifest.contracts.diamond}`;
  let requirements: PaymentRequirements;
  beforeAll(async () => {
    requirements = (await challengeOf(app, url)).accepts[0] as PaymentRequirements;
  });
  afterAll(() => close());

  const pay = async (header: string) => readAnswer(await app.request(url, { headers: { "payment-signature": header } }));

  test("behavior: any header value, JSON or payload is a documented refusal of the route, never a 200 nor a 500 (300 cases)", async () => {
    const header = fc.oneof(
      headerValue(300),
      fc.jsonValue().map((v) => base64(JSON.stringify(v) ?? "null")),
      payload.map((p) => encodePaymentSignatureHeader(p as PaymentPayload)),
      broken.map(({ payload: p }) => base64(JSON.stringify(p))),
    );
    await fc.assert(
      fc.asyncProperty(header, async (h) => {
        const answer = await pay(h);
        expect(undocumentedAnswer(answer, routes.audit), h.slice(0, 200)).toBeNull();
        expect(answer.status, h.slice(0, 200)).toBe(402);
      }),
      { numRuns: 300 },
    );
  });

  test("error: real signatures by random keys on our exact terms reach the facilitator and are refused there (40 cases)", async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(hexBytes(32), fc.boolean(), async (key, ownWallet) => {
        // Signed by the key itself (a wallet without USDC), or by it in another wallet's name.
        const from = ownWallet ? undefined : manifest.accounts.users[0]?.address;
        const { header } = await signedPayment(requirements, key as Hex, {}, from);
        const answer = await pay(header);
        expect(answer.status).toBe(402);
        const reason = (answer.body as { reason: string }).reason;
        seen.add(reason);
        expect(reason).toBe(ownWallet ? "invalid_exact_evm_insufficient_balance" : "invalid_exact_evm_signature");
      }),
      { numRuns: 40 },
    );
    expect(seen.size).toBe(2);
  });
});
