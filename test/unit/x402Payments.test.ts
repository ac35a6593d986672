import { createHash } from "node:crypto";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { type Hex, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ConfigError, loadConfig } from "../../api/config";
import { answerWithin } from "../../api/x402/answerWithin";
import { payerKey as payerKeyOf, paymentId, termsMismatch } from "../../api/x402/createX402Admission";
import { type ExactEvmPaymentPayload, maxPaymentSignatureLength, parsePaymentSignature } from "../../api/x402/parsePaymentSignature";
import { reuseAnswer } from "../../api/x402/reuseAnswer";
import { reasonCode } from "../../api/x402/X402Facilitator";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { signedPayment } from "../support/signedPayment";

/** Our terms for a 0.02 USDC call, as x402's server builds them. */
const ours: PaymentRequirements = {
  scheme: "exact",
  network: baseNetwork,
  amount: "20000",
  asset: baseUsdc,
  payTo: privateKeyToAccount(generatePrivateKey()).address,
  maxTimeoutSeconds: 300,
  extra: { name: "USD Coin", version: "2" },
};
const payerKey = generatePrivateKey();
const payer = privateKeyToAccount(payerKey);

/** A real EIP-3009 authorization of our terms, signed by the payer as x402's "exact" client signs it (decoded). */
const signed = async () => (await signedPayment(ours, payerKey)).payload as unknown as ExactEvmPaymentPayload;

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
type Mutable = {
  x402Version: unknown;
  accepted: Record<string, unknown>;
  payload: Record<string, unknown> & { authorization: Record<string, unknown> };
  resource?: unknown;
  extensions?: unknown;
};
/** A signed payment changed by `change` (a copy; the signature is left as it was). */
const changed = async (change: (p: Mutable) => void) => {
  const p = structuredClone(await signed()) as unknown as Mutable;
  change(p);
  return parsePaymentSignature(encode(p));
};
const shape = { ok: false, reason: "payment_signature_not_exact_evm_v2" };

describe("parsePaymentSignature", () => {
  test("a payment x402's client encodes is read whole, its addresses checksummed", async () => {
    const payment = await signed();
    const lower = structuredClone(payment) as unknown as Mutable;
    lower.payload.authorization.from = payer.address.toLowerCase();
    lower.accepted.unknownField = "kept";
    const parsed = parsePaymentSignature(encode(lower));
    expect(parsed).toEqual({ ok: true, payload: { ...payment, accepted: { ...ours, unknownField: "kept" } } });
    expect(parsePaymentSignature(encodePaymentSignatureHeader(payment as unknown as PaymentPayload))).toEqual({
      ok: true,
      payload: payment,
    });
  });

  test("optional resource and extensions are read; unpadded base64 too", async () => {
    const payment = { ...(await signed()), resource: { url: "https://api.example.com/v1/audit/0x1" }, extensions: { x: { y: 1 } } };
    const header = encode(payment).replace(/=+$/, "");
    expect(header.length % 4).not.toBe(0);
    expect(parsePaymentSignature(header)).toEqual({ ok: true, payload: payment });
  });

  test("the length cap: exactly the cap is read, one more character is too long", async () => {
    const json = JSON.stringify(await signed());
    const padded = `${json}${" ".repeat((maxPaymentSignatureLength / 4) * 3 - Buffer.byteLength(json))}`;
    const header = Buffer.from(padded).toString("base64");
    expect(header.length).toBe(maxPaymentSignatureLength);
    expect(parsePaymentSignature(header).ok).toBe(true);
    expect(parsePaymentSignature(`${header}A`)).toEqual({ ok: false, reason: "payment_signature_too_long" });
    expect(maxPaymentSignatureLength).toBe(8192);
  });

  test("not base64: other characters, nothing, or a length no base64 has (4k + 1)", () => {
    for (const header of ["", "a b", "abc-", "YWJj_", "====", "QUFB=A", "QUFBQ"]) {
      expect(parsePaymentSignature(header), header).toEqual({ ok: false, reason: "payment_signature_not_base64" });
    }
  });

  test("not JSON: base64 of anything else", () => {
    for (const text of ["{", "x402", "{'a': 1}", "[1,]"]) {
      expect(parsePaymentSignature(Buffer.from(text).toString("base64")), text).toEqual({
        ok: false,
        reason: "payment_signature_not_json",
      });
    }
  });

  test("not a v2 exact EVM payment: another version, another payload kind, missing or extra fields", async () => {
    expect(parsePaymentSignature(encode(null))).toEqual(shape);
    expect(parsePaymentSignature(encode([]))).toEqual(shape);
    expect(await changed((p) => (p.x402Version = 1))).toEqual(shape);
    expect(await changed((p) => (p.x402Version = "2"))).toEqual(shape);
    expect(await changed((p) => delete (p as Partial<Mutable>).accepted)).toEqual(shape);
    expect(await changed((p) => (p.accepted.maxTimeoutSeconds = "300"))).toEqual(shape);
    expect(await changed((p) => (p.accepted.extra = "USD Coin"))).toEqual(shape);
    expect(
      await changed((p) => (p.payload = { permit2Authorization: {}, signature: p.payload.signature } as unknown as Mutable["payload"])),
    ).toEqual(shape);
    expect(await changed((p) => (p.payload.extra = 1))).toEqual(shape);
    expect(await changed((p) => (p.payload.authorization.extra = 1))).toEqual(shape);
    expect(await changed((p) => delete p.payload.authorization.validBefore)).toEqual(shape);
    expect(await changed((p) => (p.resource = "https://x"))).toEqual(shape);
    expect(await changed((p) => (p.extensions = []))).toEqual(shape);
  });

  test("authorization fields: addresses with a valid checksum, decimal uint256 values, a 32-byte nonce, a hex signature, nothing before them", async () => {
    const from = payer.address;
    // One letter of the checksummed address in the other case.
    const letter = from.slice(2).search(/[a-fA-F]/) + 2;
    const flipped = from[letter] === from[letter]?.toUpperCase() ? from[letter]?.toLowerCase() : from[letter]?.toUpperCase();
    const badChecksum = `${from.slice(0, letter)}${flipped}${from.slice(letter + 1)}`;
    const refused: [string, (p: Mutable) => void][] = [
      ["bad checksum", (p) => (p.payload.authorization.from = badChecksum)],
      ["all-uppercase address (no checksum)", (p) => (p.payload.authorization.to = `0x${from.slice(2).toUpperCase()}`)],
      ["short address", (p) => (p.payload.authorization.to = from.slice(0, 41))],
      ["2^256", (p) => (p.payload.authorization.value = (2n ** 256n).toString())],
      ["leading zero", (p) => (p.payload.authorization.value = "020000")],
      ["negative", (p) => (p.payload.authorization.validAfter = "-1")],
      ["a number", (p) => (p.payload.authorization.value = 20000)],
      ["hex value", (p) => (p.payload.authorization.value = "0x4e20")],
      ["31-byte nonce", (p) => (p.payload.authorization.nonce = `0x${"ab".repeat(31)}`)],
      ["33-byte nonce", (p) => (p.payload.authorization.nonce = `0x${"ab".repeat(33)}`)],
      ["nonce without 0x", (p) => (p.payload.authorization.nonce = "ab".repeat(32))],
      ["nonce after other text", (p) => (p.payload.authorization.nonce = `ab0x${"ab".repeat(32)}`)],
      ["signature after other text", (p) => (p.payload.signature = `zz${p.payload.signature}`)],
      ["empty signature", (p) => (p.payload.signature = "0x")],
      ["odd signature", (p) => (p.payload.signature = `${p.payload.signature}a`)],
      ["signature without 0x", (p) => (p.payload.signature = String(p.payload.signature).slice(2))],
      ["non-hex signature", (p) => (p.payload.signature = `0x${"zz".repeat(65)}`)],
    ];
    for (const [name, change] of refused) expect(await changed(change), name).toEqual(shape);
    const accepted: [string, (p: Mutable) => void][] = [
      ["2^256 - 1", (p) => (p.payload.authorization.value = (2n ** 256n - 1n).toString())],
      ["zero", (p) => (p.payload.authorization.validAfter = "0")],
      ["a longer (smart wallet) signature", (p) => (p.payload.signature = `0x${"ab".repeat(200)}`)],
    ];
    for (const [name, change] of accepted) expect((await changed(change)).ok, name).toBe(true);
  });
});

describe("termsMismatch", () => {
  test("null when the accepted terms are ours (asset and payee in any case)", () => {
    expect(termsMismatch(ours, ours)).toBeNull();
    expect(
      termsMismatch(ours, { ...ours, asset: ours.asset.toLowerCase(), payTo: ours.payTo.toUpperCase().replace("0X", "0x") }),
    ).toBeNull();
  });

  test("the first term that differs, in the order scheme, network, asset, payee, amount", () => {
    const other = privateKeyToAccount(generatePrivateKey()).address;
    expect(termsMismatch(ours, { ...ours, scheme: "upto", network: "eip155:1" })).toBe("scheme_mismatch");
    expect(termsMismatch(ours, { ...ours, network: "eip155:84532", asset: other })).toBe("network_mismatch");
    expect(termsMismatch(ours, { ...ours, asset: other, payTo: other })).toBe("asset_mismatch");
    expect(termsMismatch(ours, { ...ours, payTo: other, amount: "1" })).toBe("pay_to_mismatch");
    expect(termsMismatch(ours, { ...ours, amount: "19999" })).toBe("amount_mismatch");
    expect(termsMismatch(ours, { ...ours, amount: "020000" })).toBe("amount_mismatch");
  });
});

describe("paymentId", () => {
  test("one id per authorization: the same in any case, another for any other network, asset, payer or nonce; never the payer", async () => {
    const { authorization } = (await signed()).payload;
    const id = paymentId(ours, authorization);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(id).not.toContain(payer.address.slice(2).toLowerCase());
    expect(
      paymentId(
        { network: ours.network, asset: ours.asset.toLowerCase() },
        { ...authorization, from: authorization.from.toLowerCase() as Hex },
      ),
    ).toBe(id);
    // Stable across releases (a record written before an upgrade must still refuse the payment after it).
    const parts = [ours.network, ours.asset, authorization.from, authorization.nonce].join(":").toLowerCase();
    expect(id).toBe(createHash("sha256").update(parts).digest("hex"));
    const others = [
      paymentId({ ...ours, network: "eip155:84532" }, authorization),
      paymentId({ ...ours, asset: ours.payTo }, authorization),
      paymentId(ours, { ...authorization, from: ours.payTo as Hex }),
      paymentId(ours, { ...authorization, nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) }),
    ];
    expect(new Set([id, ...others]).size).toBe(5);
  });
});

describe("payerKey", () => {
  test("one key per payer of one asset on one network: the same in any case, another for any other; never the payer", async () => {
    const { from } = (await signed()).payload.authorization;
    const key = payerKeyOf(ours, from);
    expect(key).not.toContain(from.slice(2).toLowerCase());
    expect(payerKeyOf({ network: ours.network, asset: ours.asset.toUpperCase() }, from.toLowerCase())).toBe(key);
    // Stable across releases (the payments in flight recorded before an upgrade still count after it).
    expect(key).toBe(createHash("sha256").update([ours.network, ours.asset, from].join(":").toLowerCase()).digest("hex"));
    const others = [
      payerKeyOf({ ...ours, network: "eip155:84532" }, from),
      payerKeyOf({ ...ours, asset: ours.payTo }, from),
      payerKeyOf(ours, ours.payTo),
    ];
    expect(new Set([key, ...others]).size).toBe(4);
  });
});

describe("reasonCode", () => {
  test("short snake_case codes pass", () => {
    for (const code of [
      "invalid_exact_evm_signature",
      "settlement_pending",
      "eip6492_factory_not_allowed",
      "a",
      `a${"b".repeat(63)}`,
      "permit2_2612_amount_mismatch",
      "deadbeef_cafe",
    ]) {
      expect(reasonCode(code, "fallback"), code).toBe(code);
    }
  });

  test("anything else is the fallback: nothing, too long, not snake_case, or holding an address or a hash", () => {
    const refused = [
      undefined,
      "",
      `a${"b".repeat(64)}`,
      "Invalid signature",
      "invalid-signature",
      "_leading",
      "trailing_",
      "double__underscore",
      "9starts_with_digit",
      "UPPER_CASE",
      'The contract function "transferWithAuthorization" reverted',
      "sent_by_0xdd2fd4581271e230360230f9337d5c0430bf44c0",
      "tx_94b986ae805d582aaa216c3e3323f00299",
      "nonce_a1b2c3d4",
      "nonce_abcdef12",
    ];
    for (const reason of refused) expect(reasonCode(reason, "fallback"), String(reason)).toBe("fallback");
    expect(reasonCode("nonce_a1b2c3d", "fallback")).toBe("nonce_a1b2c3d");
  });
});

describe("reuseAnswer", () => {
  test("callers during a read share it; its answer is reused for the ttl, then read again", async () => {
    let now = 10_000;
    let reads = 0;
    let release: (value: number) => void = () => {};
    const shared = reuseAnswer(
      () => {
        reads += 1;
        return new Promise<number>((done) => (release = done));
      },
      1000,
      () => now,
    );
    const first = [shared()];
    now = 20_000;
    first.push(shared());
    expect(reads).toBe(1);
    now = 25_000;
    release(7);
    expect(await Promise.all(first)).toEqual([7, 7]);
    now = 25_999;
    expect(await shared()).toBe(7);
    expect(reads).toBe(1);
    now = 26_000;
    const again = shared();
    expect(reads).toBe(2);
    release(8);
    expect(await again).toBe(8);
  });

  test("a failed read is reused for the ttl too (a down dependency is not asked again at once)", async () => {
    let reads = 0;
    let now = 0;
    const shared = reuseAnswer(
      async () => {
        reads += 1;
        throw new Error(`down ${reads}`);
      },
      1000,
      () => now,
    );
    await expect(shared()).rejects.toThrow("down 1");
    await expect(shared()).rejects.toThrow("down 1");
    now = 1000;
    await expect(shared()).rejects.toThrow("down 2");
  });
});

describe("answerWithin", () => {
  afterEach(() => vi.useRealTimers());

  test("the answer when it comes first; a rejection naming the wait when the time runs out", async () => {
    vi.useFakeTimers();
    await expect(answerWithin(Promise.resolve("yes"), 100)).resolves.toBe("yes");
    const slow = answerWithin(new Promise(() => {}), 100);
    const outcome = expect(slow).rejects.toThrow("no answer within 100 ms");
    vi.advanceTimersByTime(99);
    await Promise.resolve();
    vi.advanceTimersByTime(1);
    await outcome;
    await expect(answerWithin(Promise.reject(new Error("own")), 100)).rejects.toThrow("own");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("x402 configuration", () => {
  const key = `0x${"11".repeat(32)}`;

  test("a signing key, the retention of paid answers and ids, and the payer's authorization reads, each checked", () => {
    expect(
      loadConfig({ X402_SIGNING_KEY: key, X402_PAYMENT_ID_RETENTION_SECONDS: "3600", X402_PAYER_AUTHORIZATION_READS: "8" }).x402,
    ).toMatchObject({ signingKey: key, paymentIdRetentionSeconds: 3600, payerAuthorizationReads: 8 });
  });

  test("a gas key or a remote facilitator, not both; each checked", () => {
    expect(loadConfig({ X402_FACILITATOR_PRIVATE_KEY: key }).x402).toMatchObject({ facilitatorUrl: undefined, facilitatorPrivateKey: key });
    expect(loadConfig({ X402_FACILITATOR_URL: "https://facilitator.example/" }).x402.facilitatorUrl).toBe("https://facilitator.example/");
    expect(loadConfig({}).x402).toEqual({
      facilitatorUrl: undefined,
      facilitatorPrivateKey: undefined,
      signingKey: undefined,
      paymentIdRetentionSeconds: 86_400,
      payerAuthorizationReads: 64,
      // Its defaults are checked with the escrow's hash below.
      claims: expect.objectContaining({ maxVouchers: 100 }),
    });
    expect(() => loadConfig({ X402_FACILITATOR_PRIVATE_KEY: key, X402_FACILITATOR_URL: "https://f.example" })).toThrow(
      /X402_FACILITATOR_URL and X402_FACILITATOR_PRIVATE_KEY: set one/,
    );
    for (const bad of [
      { X402_FACILITATOR_PRIVATE_KEY: "0x1234" },
      { X402_FACILITATOR_URL: "ftp://f.example" },
      { X402_FACILITATOR_URL: "nope" },
      { X402_SIGNING_KEY: "0x1234" },
      { X402_PAYMENT_ID_RETENTION_SECONDS: "59" },
      { X402_PAYMENT_ID_RETENTION_SECONDS: "forever" },
      { X402_PAYER_AUTHORIZATION_READS: "0" },
      { X402_PAYER_AUTHORIZATION_READS: "1001" },
    ]) {
      expect(() => loadConfig(bad), JSON.stringify(bad)).toThrow(ConfigError);
    }
    // A URL that is no URL is a configuration error, not a crash (the public origin's check had the same fault).
    expect(() => loadConfig({ PUBLIC_URL: "nope" })).toThrow(ConfigError);
    // The key itself never appears in the refusal.
    expect(() => loadConfig({ X402_FACILITATOR_PRIVATE_KEY: `${key}00` })).toThrow(/^(?!.*1111).*$/s);
  });

  test("batch-settlement's escrow hash and claim bounds: taken on the devnet and on Base, out-of-range bounds refused", () => {
    const hash = `0x${"ab".repeat(32)}`;
    expect(loadConfig({ X402_BATCH_ESCROW_CODE_HASH: hash.toUpperCase().replace("0X", "0x") }).x402.batchEscrowCodeHash).toBe(hash);
    expect(() => loadConfig({ X402_BATCH_ESCROW_CODE_HASH: "0x1234" })).toThrow(ConfigError);
    const base = { BASE_RPC_PRIMARY_URL: "https://node.example", API_KEY_PEPPER: "p".repeat(32) };
    expect(loadConfig(base).x402.batchEscrowCodeHash).toBeUndefined();
    expect(loadConfig({ ...base, X402_BATCH_ESCROW_CODE_HASH: hash }).x402.batchEscrowCodeHash).toBe(hash);
    expect(loadConfig({}).x402.claims).toEqual({
      maxVouchers: 100,
      minAmount: 1_000_000n,
      maxAgeSeconds: 300,
      maxClaimsPerBatch: 100,
      intervalSeconds: 10,
      sweepIntervalSeconds: 3600,
    });
    expect(loadConfig({ X402_CLAIM_MIN_AMOUNT_USDC: "0.25" }).x402.claims.minAmount).toBe(250_000n);
    // A claim later than a third of the channels' 900-second withdrawal delay could lose a race with a payer's withdrawal.
    for (const bad of [
      { X402_CLAIM_MAX_AGE_SECONDS: "301" },
      { X402_CLAIM_MAX_AGE_SECONDS: "0" },
      { X402_CLAIM_MAX_VOUCHERS: "0" },
      { X402_CLAIM_MIN_AMOUNT_USDC: "0" },
      { X402_CLAIM_INTERVAL_SECONDS: "301" },
      { X402_SWEEP_INTERVAL_SECONDS: "0" },
    ]) {
      expect(() => loadConfig(bad), JSON.stringify(bad)).toThrow(ConfigError);
    }
  });
});
