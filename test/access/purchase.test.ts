import { type Address, erc20Abi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { IntentEnvelope, IssuedKey, KeySelf, PurchaseIntent, RecoveryIntent } from "../../api/keys/records";
import { devnetProvider, testClient, testManifest } from "../support/devnet";
import { startRpcProxy } from "../support/rpcProxy";
import { payUsdc } from "../support/usdc";
import {
  accessApp,
  type Backend,
  backendNames,
  captureLogs,
  indexHeadAt,
  indexPayment,
  mine,
  openBackend,
  payEth,
  post,
  testEthQuote,
  usdc,
  userKey,
} from "./support";

/** This file's wallets: users[7] pays in USDC, users[8] in ETH (other files use users[6], [9], [10]). */
const manifest = testManifest();
const buyer = { index: 7, account: manifest.accounts.users[7] };
const ethBuyer = { index: 8, account: manifest.accounts.users[8] };
if (!buyer.account || !ethBuyer.account) throw new Error("the devnet manifest has too few users");
const payTo = manifest.payoutAddress;
const sign = (message: string, account: { privateKey: Hex }) => privateKeyToAccount(account.privateKey).signMessage({ message });

type Refusal = { error: string; message: string };

describe.each(backendNames)("paid keys on %s", (backendName) => {
  let backend: Backend;
  let logs: ReturnType<typeof captureLogs>;
  const rawKeys: string[] = [];
  let starter: IssuedKey;
  let spare: IssuedKey;
  let firstTx: Hex;

  beforeAll(async () => {
    logs = captureLogs();
    backend = await openBackend(backendName);
  });
  afterAll(async () => {
    logs.restore();
    await backend.close();
  });

  const app = (overrides = {}) => accessApp(manifest, backend, { ethQuote: testEthQuote, ...overrides }).app;

  async function intent(
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
    overrides = {},
  ): Promise<PurchaseIntent["intent"]> {
    const res = await post(app(overrides), "/v1/subscribe/intents", body, headers);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as PurchaseIntent).intent;
  }

  async function claim(
    i: PurchaseIntent["intent"],
    txHash: Hex,
    signer: { privateKey: Hex } = buyer.account as { privateKey: Hex },
    overrides = {},
  ) {
    return post(app(overrides), "/v1/subscribe/crypto", { intentId: i.intentId, signature: await sign(i.messageToSign, signer), txHash });
  }

  /** Pays `i` in USDC from `user`, indexes the transfer and a head 3 blocks later (4 confirmations); the tx hash. */
  async function payAndConfirm(i: PurchaseIntent["intent"], user = buyer.index, units = BigInt(i.usdc.amount)): Promise<Hex> {
    const receipt = await payUsdc(manifest, userKey(user), payTo, units);
    await indexPayment(backend, manifest, receipt);
    await indexHeadAt(backend, manifest, receipt.blockNumber + 3n);
    return receipt.transactionHash;
  }

  test("default: the intent freezes the exact USDC and wei amounts, the duration and the message", async () => {
    const i = await intent({ tier: "STARTER", userWallet: buyer.account?.address });
    expect(i).toMatchObject({
      kind: "PURCHASE",
      tier: "STARTER",
      durationDays: 31,
      renewKeyId: null,
      payTo,
      confirmationsRequired: 3,
      priceUsd: "49.00",
    });
    expect(i.usdc).toEqual({ asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", amount: "49000000", decimals: 6 });
    expect(i.eth?.amountWei).toBe(((49_000_000n * (10n ** 18n / 3000n) + 999_999n) / 1_000_000n).toString());
    expect(Date.parse(i.expiresAt) - Date.parse(i.createdAt)).toBe(15 * 60_000);
    for (const term of ["STARTER", "31 days", "49.00 USDC (49000000 base units)", `${i.eth?.amountWei} wei`, payTo, i.intentId]) {
      expect(i.messageToSign).toContain(term);
    }
    const year = await intent({ tier: "PRO", userWallet: buyer.account?.address, durationDays: 365 });
    expect(year.usdc.amount).toBe("9990000000");
    const quarter = await intent({ tier: "GROWTH", userWallet: buyer.account?.address, durationDays: 90 });
    expect(quarter.priceUsd).toBe("807.30");
    const noQuote = await intent(
      { tier: "STARTER", userWallet: buyer.account?.address },
      {},
      { ethQuote: { weiPerUsd: async () => null } },
    );
    expect(noQuote.eth).toBeNull();
    expect(noQuote.messageToSign).toContain("not offered");
  });

  test("error: bad intent bodies are 400", async () => {
    for (const body of [
      { tier: "GOLD", userWallet: buyer.account?.address },
      { tier: "STARTER", userWallet: buyer.account?.address, durationDays: 30 },
      { tier: "STARTER" },
    ]) {
      const res = await post(app(), "/v1/subscribe/intents", body);
      expect(res.status, await res.clone().text()).toBe(400);
      expect(await res.json()).toMatchObject({ error: "INVALID_BODY" });
    }
  });

  test("error: 2 confirmations is 400 PAYMENT_NOT_FINAL; at 3 (the payment's block counts as the first) the USDC payment issues a key", async () => {
    const i = await intent({ tier: "STARTER", userWallet: buyer.account?.address });
    const receipt = await payUsdc(manifest, userKey(buyer.index), payTo, BigInt(i.usdc.amount));
    firstTx = receipt.transactionHash;
    const early = await claim(i, firstTx);
    expect(early.status, await early.clone().text()).toBe(400);
    expect(await early.json()).toMatchObject({ error: "PAYMENT_NOT_INDEXED" });
    await indexPayment(backend, manifest, receipt);
    await indexHeadAt(backend, manifest, receipt.blockNumber + 1n);
    const two = await claim(i, firstTx);
    expect(two.status, await two.clone().text()).toBe(400);
    expect(await two.json()).toMatchObject({ error: "PAYMENT_NOT_FINAL", confirmations: 2, required: 3 });

    await indexHeadAt(backend, manifest, receipt.blockNumber + 2n);
    const res = await claim(i, firstTx);
    expect(res.status, await res.clone().text()).toBe(200);
    starter = (await res.json()) as IssuedKey;
    expect(starter).toMatchObject({
      status: "ISSUED",
      tier: "STARTER",
      wallet: buyer.account?.address,
      payment: { txHash: firstTx, asset: "USDC", amount: "49000000" },
    });
    expect(starter.apiKey).toMatch(/^svc_test_/);
    rawKeys.push(starter.apiKey as string);
    const days = (Date.parse(starter.expiresAt as string) - Date.parse(starter.issuedAt)) / 86_400_000;
    expect(days).toBe(31);
    const self = (await (await app().request("/v1/keys/self", { headers: { "x-api-key": starter.apiKey as string } })).json()) as KeySelf;
    expect(self.credits).toMatchObject({ allowance: 10_000, remaining: 10_000, daily: null });
  });

  test("error: a reused txHash is 400 TX_ALREADY_REDEEMED, for the same or another intent", async () => {
    const again = await claim(await intent({ tier: "STARTER", userWallet: buyer.account?.address }), firstTx);
    expect(again.status, await again.clone().text()).toBe(400);
    expect(await again.json()).toMatchObject({ error: "TX_ALREADY_REDEEMED" });
  });

  test("error: a signature by another wallet is 400 INTENT_SIGNATURE_INVALID", async () => {
    const i = await intent({ tier: "STARTER", userWallet: buyer.account?.address });
    const tx = await payAndConfirm(i);
    const res = await claim(i, tx, ethBuyer.account as { privateKey: Hex });
    expect(res.status, await res.clone().text()).toBe(400);
    expect(((await res.json()) as Refusal).error).toBe("INTENT_SIGNATURE_INVALID");
    // The payment stays redeemable by its rightful signer.
    const rightful = await claim(i, tx);
    expect(rightful.status, await rightful.clone().text()).toBe(200);
    spare = (await rightful.json()) as IssuedKey;
    rawKeys.push(spare.apiKey as string);
  });

  test("behavior: whether a payment was redeemed is told only to the wallet that paid it", async () => {
    // firstTx is redeemed. Another wallet, with its own valid intent and signature, learns only that it did not send it.
    const other = ethBuyer.account as { address: Address; privateKey: Hex };
    const theirs = await intent({ tier: "STARTER", userWallet: other.address });
    const probe = await claim(theirs, firstTx, other);
    expect(probe.status, await probe.clone().text()).toBe(400);
    expect(await probe.json()).toMatchObject({ error: "PAYMENT_SENDER_MISMATCH" });
    // A signature that is not the intent wallet's is refused before the payment is even looked at.
    const forged = await claim(await intent({ tier: "STARTER", userWallet: buyer.account?.address }), firstTx, other);
    expect(await forged.json()).toMatchObject({ error: "INTENT_SIGNATURE_INVALID" });
    // The payer is told.
    const own = await claim(await intent({ tier: "STARTER", userWallet: buyer.account?.address }), firstTx);
    expect(await own.json()).toMatchObject({ error: "TX_ALREADY_REDEEMED" });
  });

  test("error: a payment sent by another wallet is 400 PAYMENT_SENDER_MISMATCH", async () => {
    const i = await intent({ tier: "STARTER", userWallet: buyer.account?.address });
    const tx = await payAndConfirm(i, ethBuyer.index);
    const res = await claim(i, tx);
    expect(res.status, await res.clone().text()).toBe(400);
    expect(((await res.json()) as Refusal).error).toBe("PAYMENT_SENDER_MISMATCH");
  });

  test("error: USDC the wallet moves from another address (transferFrom in a transaction it sends) is 400 PAYMENT_SENDER_MISMATCH, no key", async () => {
    const i = await intent({ tier: "STARTER", userWallet: buyer.account?.address });
    const amount = BigInt(i.usdc.amount);
    const token = manifest.tokens.USDC?.address as Address;
    const owner = testClient(manifest, ethBuyer.index + 3);
    await owner.waitForTransactionReceipt({
      hash: await owner.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: "approve",
        args: [buyer.account?.address as Address, amount],
      }),
    });
    const spender = testClient(manifest, buyer.index + 3);
    const receipt = await spender.waitForTransactionReceipt({
      hash: await spender.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: "transferFrom",
        args: [ethBuyer.account?.address as Address, payTo, amount],
      }),
    });
    await indexPayment(backend, manifest, receipt);
    await indexHeadAt(backend, manifest, receipt.blockNumber + 3n);
    const res = await claim(i, receipt.transactionHash);
    expect(res.status, await res.clone().text()).toBe(400);
    expect(await res.json()).toMatchObject({ error: "PAYMENT_SENDER_MISMATCH" });
    expect(await backend.sql("SELECT count(*)::int AS n FROM app.redemption WHERE tx_hash = $1", [receipt.transactionHash])).toEqual([
      { n: 0 },
    ]);
    expect(await backend.sql("SELECT consumed_at FROM app.intent WHERE id = $1", [i.intentId])).toEqual([{ consumed_at: null }]);
  });

  test("error: a wrong USDC amount is 400 PAYMENT_AMOUNT_MISMATCH", async () => {
    const i = await intent({ tier: "STARTER", userWallet: buyer.account?.address });
    const tx = await payAndConfirm(i, buyer.index, usdc("48.99"));
    const res = await claim(i, tx);
    expect(res.status, await res.clone().text()).toBe(400);
    expect(await res.json()).toMatchObject({ error: "PAYMENT_AMOUNT_MISMATCH", expected: "49000000", received: ["48990000"] });
  });

  test("error: a provider that inflates a small payment's Transfer to the intent's amount is refused: the index disagrees (400 PAYMENT_AMOUNT_MISMATCH, no key)", async () => {
    const i = await intent({ tier: "STARTER", userWallet: buyer.account?.address });
    const tx = await payAndConfirm(i, buyer.index, usdc("1"));
    const liar = await startRpcProxy(manifest.rpcUrl, `inflate-transfer:${i.usdc.amount}`);
    const warned = logs.text().length;
    try {
      const res = await post(app({ providers: [devnetProvider(liar.url, "liar")] }), "/v1/subscribe/crypto", {
        intentId: i.intentId,
        signature: await sign(i.messageToSign, buyer.account as { privateKey: Hex }),
        txHash: tx,
      });
      expect(res.status, await res.clone().text()).toBe(400);
      expect(await res.json()).toMatchObject({ error: "PAYMENT_AMOUNT_MISMATCH", received: ["1000000"] });
    } finally {
      await liar.stop();
    }
    expect(logs.text().slice(warned)).toContain("disagrees with the receipt");
    const redeemed = await backend.sql("SELECT count(*)::int AS n FROM app.redemption WHERE tx_hash = $1", [tx]);
    expect(redeemed).toEqual([{ n: 0 }]);
    const unclaimed = await backend.sql("SELECT consumed_at FROM app.intent WHERE id = $1", [i.intentId]);
    expect(unclaimed).toEqual([{ consumed_at: null }]);
  });

  test("error: a payment mined after the intent expired is 400 INTENT_EXPIRED", async () => {
    const past = () => new Date(Date.now() - 16 * 60_000);
    const i = await intent({ tier: "STARTER", userWallet: buyer.account?.address }, {}, { clock: past });
    const tx = await payAndConfirm(i);
    const res = await claim(i, tx);
    expect(res.status, await res.clone().text()).toBe(400);
    expect(((await res.json()) as Refusal).error).toBe("INTENT_EXPIRED");
  });

  test("behavior: renewal extends the presented key's expiry with the same secret", async () => {
    const raw = starter.apiKey as string;
    const before = (await (await app().request("/v1/keys/self", { headers: { "x-api-key": raw } })).json()) as KeySelf;
    const withoutKey = await post(app(), "/v1/subscribe/intents", {
      tier: "STARTER",
      userWallet: buyer.account?.address,
      renewExistingKey: true,
    });
    expect(withoutKey.status, await withoutKey.clone().text()).toBe(401);
    const otherTier = await post(
      app(),
      "/v1/subscribe/intents",
      { tier: "GROWTH", userWallet: buyer.account?.address, renewExistingKey: true },
      { "x-api-key": raw },
    );
    expect(otherTier.status, await otherTier.clone().text()).toBe(400);
    expect(await otherTier.json()).toMatchObject({ error: "RENEWAL_TARGET_INVALID" });
    const otherWallet = await post(
      app(),
      "/v1/subscribe/intents",
      { tier: "STARTER", userWallet: ethBuyer.account?.address, renewExistingKey: true },
      { "x-api-key": raw },
    );
    expect(otherWallet.status, await otherWallet.clone().text()).toBe(400);

    const i = await intent(
      { tier: "STARTER", userWallet: buyer.account?.address, durationDays: 90, renewExistingKey: true },
      { "x-api-key": raw },
    );
    expect(i.renewKeyId).toBe(starter.keyId);
    expect(i.messageToSign).toContain(`Renew API key ${starter.keyId}`);
    const res = await claim(i, await payAndConfirm(i));
    expect(res.status, await res.clone().text()).toBe(200);
    const renewed = (await res.json()) as IssuedKey;
    expect(renewed).toMatchObject({ status: "RENEWED", apiKey: null, keyId: starter.keyId, tier: "STARTER" });
    expect(Date.parse(renewed.expiresAt as string) - Date.parse(before.expiresAt as string)).toBe(90 * 86_400_000);
    const after = (await (await app().request("/v1/keys/self", { headers: { "x-api-key": raw } })).json()) as KeySelf;
    expect(after.expiresAt).toBe(renewed.expiresAt);
    expect(after.issuedAt).toBe(before.issuedAt);
  });

  test("default: ETH purchase: exact wei to the payout address, 3 confirmations at the pinned head", async () => {
    const account = ethBuyer.account as { address: Address; privateKey: Hex };
    const i = await intent({ tier: "GROWTH", userWallet: account.address });
    const wei = BigInt(i.eth?.amountWei as string);
    const receipt = await payEth(manifest, ethBuyer.index, payTo, wei);
    // Claimed at the payment's own block: other test files mine blocks meanwhile, which would make it final.
    const atPayment = await startRpcProxy(manifest.rpcUrl);
    try {
      await atPayment.holdHead(Number(receipt.blockNumber));
      const early = await claim(i, receipt.transactionHash, account, {
        providers: [devnetProvider(atPayment.url)],
      });
      expect(early.status, await early.clone().text()).toBe(400);
      expect(await early.json()).toMatchObject({ error: "PAYMENT_NOT_FINAL", confirmations: 1, required: 3 });
    } finally {
      await atPayment.stop();
    }
    await mine(manifest, 3);
    const res = await claim(i, receipt.transactionHash, account);
    expect(res.status, await res.clone().text()).toBe(200);
    const issued = (await res.json()) as IssuedKey;
    expect(issued).toMatchObject({
      status: "ISSUED",
      tier: "GROWTH",
      wallet: account.address,
      payment: { asset: "ETH", amount: wei.toString() },
    });
    rawKeys.push(issued.apiKey as string);
    expect((await claim(i, receipt.transactionHash, account)).status).toBe(400);
  });

  test("error: ETH sent by another wallet than the intent's is 400 PAYMENT_SENDER_MISMATCH, no key", async () => {
    const account = ethBuyer.account as { address: Address; privateKey: Hex };
    const i = await intent({ tier: "GROWTH", userWallet: account.address });
    const fromOther = await payEth(manifest, buyer.index, payTo, BigInt(i.eth?.amountWei as string));
    await mine(manifest, 3);
    const res = await claim(i, fromOther.transactionHash, account);
    expect(res.status, await res.clone().text()).toBe(400);
    expect(await res.json()).toMatchObject({ error: "PAYMENT_SENDER_MISMATCH" });
    expect(await backend.sql("SELECT count(*)::int AS n FROM app.redemption WHERE tx_hash = $1", [fromOther.transactionHash])).toEqual([
      { n: 0 },
    ]);
  });

  test("error: ETH refusals: wrong value, not offered without a quote, not to the payout address", async () => {
    const account = ethBuyer.account as { address: Address; privateKey: Hex };
    const i = await intent({ tier: "GROWTH", userWallet: account.address });
    const short = await payEth(manifest, ethBuyer.index, payTo, BigInt(i.eth?.amountWei as string) - 1n);
    await mine(manifest, 3);
    const wrong = await claim(i, short.transactionHash, account);
    expect(wrong.status, await wrong.clone().text()).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "PAYMENT_AMOUNT_MISMATCH" });

    const usdcOnly = await intent({ tier: "GROWTH", userWallet: account.address }, {}, { ethQuote: { weiPerUsd: async () => null } });
    const paid = await payEth(manifest, ethBuyer.index, payTo, 1_000n);
    await mine(manifest, 3);
    const notOffered = await claim(usdcOnly, paid.transactionHash, account);
    expect(await notOffered.json()).toMatchObject({ error: "ETH_NOT_OFFERED" });

    const elsewhere = await payEth(manifest, ethBuyer.index, buyer.account?.address as Address, BigInt(i.eth?.amountWei as string));
    await mine(manifest, 3);
    const notPayout = await claim(i, elsewhere.transactionHash, account);
    expect(await notPayout.json()).toMatchObject({ error: "PAYMENT_NOT_FOUND" });
    const unknown = await claim(i, `0x${"ab".repeat(32)}`, account);
    expect(await unknown.json()).toMatchObject({ error: "PAYMENT_NOT_FOUND" });
  });

  async function recoveryChallenge(body: Record<string, unknown>) {
    const res = await post(app(), "/v1/keys/recovery/challenge", body);
    expect(res.status, await res.clone().text()).toBe(202);
    return ((await res.json()) as RecoveryIntent).intent;
  }

  const recoveryClaim = async (i: RecoveryIntent["intent"], signer = buyer.account as { privateKey: Hex }) =>
    post(app(), "/v1/keys/recovery/claim", { intentId: i.intentId, signature: await sign(i.messageToSign, signer) });

  test("behavior: recovery challenges are identical in status, headers and body (key by key, type by type) for a known and an unknown wallet", async () => {
    const ask = (userWallet: string) => post(app(), "/v1/keys/recovery/challenge", { userWallet });
    const [knownRes, unknownRes] = [await ask(buyer.account?.address as string), await ask("0x000000000000000000000000000000000000dEaD")];
    expect(unknownRes.status, await unknownRes.clone().text()).toBe(202);
    expect(knownRes.status, await knownRes.clone().text()).toBe(202);
    const headers = (r: Response) => [...r.headers.keys()].filter((h) => h !== "date").sort();
    expect(headers(unknownRes)).toEqual(headers(knownRes));
    for (const h of ["content-type", "cache-control", "x-ratelimit-remaining"]) {
      expect(unknownRes.headers.has(h), h).toBe(knownRes.headers.has(h));
    }
    expect(unknownRes.headers.get("content-type")).toBe(knownRes.headers.get("content-type"));
    const [known, unknown] = [(await knownRes.json()) as RecoveryIntent, (await unknownRes.json()) as RecoveryIntent];
    const shape = (v: unknown): unknown =>
      v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)])) : typeof v;
    expect(shape(unknown)).toEqual(shape(known));
    expect(Object.keys(unknown)).toEqual(Object.keys(known));
    expect(Object.keys(unknown.intent)).toEqual(Object.keys(known.intent));
    expect({ ...unknown, intent: undefined }).toEqual({ ...known, intent: undefined });
    const skeleton = (message: string) => message.replace(/0x[0-9a-fA-F]{40}|int_[0-9a-f]+|[0-9a-f]{24}|\d{4}-\S+Z/g, "");
    expect(skeleton(unknown.intent.messageToSign)).toBe(skeleton(known.intent.messageToSign));
  });

  test("behavior: known and unknown wallets take indistinguishable time", async () => {
    // One app for every request (building one per request dwarfed the challenge), pairs in alternating
    // order, and the median of each pair's ratio: load on the shared cores hits both halves of a pair.
    const server = app();
    const time = async (wallet: string) => {
      const started = performance.now();
      const res = await post(server, "/v1/keys/recovery/challenge", { userWallet: wallet });
      expect(res.status).toBe(202);
      await res.arrayBuffer();
      return performance.now() - started;
    };
    const ratios: number[] = [];
    for (let n = 0; n < 100; n += 1) {
      const unknownWallet = `0x${(n + 1).toString(16).padStart(40, "0")}`;
      const knownFirst = n % 2 === 0;
      const first = await time(knownFirst ? (buyer.account?.address as string) : unknownWallet);
      const second = await time(knownFirst ? unknownWallet : (buyer.account?.address as string));
      ratios.push(knownFirst ? first / second : second / first);
    }
    const median = [...ratios].sort((a, b) => a - b)[ratios.length / 2] as number;
    expect(median).toBeGreaterThan(1 / 1.2);
    expect(median).toBeLessThan(1.2);
  });

  test("default: recovery replaces the secret atomically: old key 401, new key same tier and expiry", async () => {
    const before = (await (await app().request("/v1/keys/self", { headers: { "x-api-key": starter.apiKey as string } })).json()) as KeySelf;
    const i = await recoveryChallenge({ userWallet: buyer.account?.address, txHash: firstTx });
    const res = await recoveryClaim(i);
    expect(res.status, await res.clone().text()).toBe(200);
    const replaced = (await res.json()) as IssuedKey;
    expect(replaced).toMatchObject({
      status: "REPLACED",
      keyId: starter.keyId,
      tier: "STARTER",
      expiresAt: before.expiresAt,
      issuedAt: before.issuedAt,
    });
    expect(replaced.apiKey).not.toBe(starter.apiKey);
    rawKeys.push(replaced.apiKey as string);
    expect((await app().request("/v1/keys/self", { headers: { "x-api-key": starter.apiKey as string } })).status).toBe(401);
    const self = (await (await app().request("/v1/keys/self", { headers: { "x-api-key": replaced.apiKey as string } })).json()) as KeySelf;
    expect(self).toMatchObject({ keyId: starter.keyId, tier: "STARTER", expiresAt: before.expiresAt });
    starter = replaced;

    const consumed = await recoveryClaim(i);
    expect(consumed.status, await consumed.clone().text()).toBe(409);
    expect(await consumed.json()).toMatchObject({ error: "RECOVERY_CHALLENGE_CONSUMED" });
  });

  test("error: a challenge whose target changed since is 409 RECOVERY_TARGET_CHANGED; a wrong signer 401", async () => {
    const first = await recoveryChallenge({ userWallet: buyer.account?.address });
    const second = await recoveryChallenge({ userWallet: buyer.account?.address });
    const wrongSigner = await recoveryClaim(first, ethBuyer.account as { privateKey: Hex });
    expect(wrongSigner.status, await wrongSigner.clone().text()).toBe(401);
    const res = await recoveryClaim(first);
    expect(res.status, await res.clone().text()).toBe(200);
    starter = (await res.json()) as IssuedKey;
    rawKeys.push(starter.apiKey as string);
    const stale = await recoveryClaim(second);
    expect(stale.status, await stale.clone().text()).toBe(409);
    expect(await stale.json()).toMatchObject({ error: "RECOVERY_TARGET_CHANGED" });
  });

  test("behavior: a paid key past its expiry (not revoked) is recovered with its tier and expiry, then renewed with the same secret from now", async () => {
    const expiredAt = new Date(Date.now() - 86_400_000);
    await backend.sql("UPDATE app.api_key SET expires_at = $1 WHERE id = $2", [expiredAt, starter.keyId]);
    const refused = await app().request(`/v1/audit/${payTo}`, { headers: { "x-api-key": starter.apiKey as string } });
    expect(refused.status, await refused.clone().text()).toBe(402);
    expect(((await refused.json()) as Refusal).message).toMatch(/renew it .* or recover it/);

    const recovered = await recoveryClaim(await recoveryChallenge({ userWallet: buyer.account?.address, txHash: firstTx }));
    expect(recovered.status, await recovered.clone().text()).toBe(200);
    const replaced = (await recovered.json()) as IssuedKey;
    expect(replaced).toMatchObject({ status: "REPLACED", keyId: starter.keyId, tier: "STARTER", expiresAt: expiredAt.toISOString() });
    rawKeys.push(replaced.apiKey as string);

    const renewal = await intent(
      { tier: "STARTER", userWallet: buyer.account?.address, renewExistingKey: true, durationDays: 90 },
      { "x-api-key": replaced.apiKey as string },
    );
    expect(renewal.renewKeyId).toBe(starter.keyId);
    const renewed = await claim(renewal, await payAndConfirm(renewal));
    expect(renewed.status, await renewed.clone().text()).toBe(200);
    expect(await renewed.json()).toMatchObject({ status: "RENEWED", apiKey: null, keyId: starter.keyId });
    const self = (await (await app().request("/v1/keys/self", { headers: { "x-api-key": replaced.apiKey as string } })).json()) as KeySelf;
    expect(self.status).toBe("ACTIVE");
    // Extended from now, not from the past expiry.
    expect(Date.parse(self.expiresAt as string)).toBeGreaterThan(Date.now() + 89 * 86_400_000);
    starter = replaced;
  });

  test("error: free and revoked keys cannot be recovered (409 NO_RECOVERABLE_KEY / RECOVERY_TARGET_CHANGED)", async () => {
    const pending = await recoveryChallenge({ userWallet: buyer.account?.address });
    // The challenge targets the key expiring last: the renewed one.
    const revoked = await post(app(), "/v1/keys/revoke", { confirm: true }, { "x-api-key": starter.apiKey as string });
    expect(revoked.status, await revoked.clone().text()).toBe(200);
    const changed = await recoveryClaim(pending);
    expect(changed.status, await changed.clone().text()).toBe(409);
    expect(await changed.json()).toMatchObject({ error: "RECOVERY_TARGET_CHANGED" });
    expect((await post(app(), "/v1/keys/revoke", { confirm: true }, { "x-api-key": spare.apiKey as string })).status).toBe(200);
    // Left: the wallet's free key, which recovery never targets.
    const free = (await (
      await post(app(), "/v1/subscribe/free/challenge", { userWallet: buyer.account?.address })
    ).json()) as IntentEnvelope;
    const freeKey = await post(app(), "/v1/subscribe/free/claim", {
      intentId: free.intent.intentId,
      signature: await sign(free.intent.messageToSign, buyer.account as { privateKey: Hex }),
    });
    expect(freeKey.status, await freeKey.clone().text()).toBe(200);
    rawKeys.push(((await freeKey.json()) as IssuedKey).apiKey as string);
    const none = await recoveryClaim(await recoveryChallenge({ userWallet: buyer.account?.address }));
    expect(none.status, await none.clone().text()).toBe(409);
    expect(await none.json()).toMatchObject({ error: "NO_RECOVERABLE_KEY" });
  });

  test("behavior: the store and the logs hold no raw key", async () => {
    expect(rawKeys.length).toBe(7);
    const dump = await backend.dump();
    for (const raw of rawKeys) {
      expect(dump).not.toContain(raw);
      expect(logs.text()).not.toContain(raw);
    }
  });
});
