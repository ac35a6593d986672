import { privateKeyToAccount } from "viem/accounts";
import { parseSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { IntentEnvelope, IssuedKey, KeySelf, RevokeResult } from "../../api/keys/records";
import { testClient, testManifest } from "../support/devnet";
import { accessApp, type Backend, backendNames, captureLogs, openBackend, post } from "./support";

/** This file's signer: users[6] (other files use users[7..10]). */
const manifest = testManifest();
const userIndex = 6;
const user = manifest.accounts.users[userIndex] as { address: `0x${string}`; privateKey: `0x${string}` };
const stranger = manifest.accounts.users[7] as { address: `0x${string}`; privateKey: `0x${string}` };
const sign = (message: string, account = user) => privateKeyToAccount(account.privateKey).signMessage({ message });

describe.each(backendNames)("free key on %s", (backendName) => {
  let backend: Backend;
  let logs: ReturnType<typeof captureLogs>;
  const rawKeys: string[] = [];
  beforeAll(async () => {
    logs = captureLogs();
    backend = await openBackend(backendName);
  });
  afterAll(async () => {
    logs.restore();
    await backend.close();
  });

  const app = () => accessApp(manifest, backend).app;

  async function challenge(wallet: string = user.address): Promise<IntentEnvelope> {
    const res = await post(app(), "/v1/subscribe/free/challenge", { userWallet: wallet });
    expect(res.status).toBe(200);
    return (await res.json()) as IntentEnvelope;
  }

  test("default: challenge, personal_sign, claim: the raw key once, then it authenticates", async () => {
    expect(testClient(manifest, userIndex + 3).account.address).toBe(user.address);
    const envelope = await challenge();
    expect(envelope.intent).toMatchObject({ kind: "FREE_KEY", userWallet: user.address, signatureMethod: "personal_sign" });
    expect(envelope.intent.messageToSign).toContain(envelope.intent.intentId);
    expect(envelope.intent.messageToSign).toContain(user.address);
    const res = await post(app(), "/v1/subscribe/free/claim", {
      intentId: envelope.intent.intentId,
      signature: await sign(envelope.intent.messageToSign),
    });
    expect(res.status).toBe(200);
    const issued = (await res.json()) as IssuedKey;
    expect(issued).toMatchObject({ status: "ISSUED", tier: "FREE", wallet: user.address, expiresAt: null });
    expect(issued.apiKey).toMatch(/^svc_test_[1-9A-HJ-NP-Za-km-z]{40,44}$/);
    expect(issued.entitlements).toEqual({ creditsPerCycle: 300, cycleDays: 31, dailyLimit: 10, rateLimitPerMinute: 30 });
    rawKeys.push(issued.apiKey as string);

    const self = await app().request("/v1/keys/self", { headers: { "x-api-key": issued.apiKey as string } });
    expect(self.status).toBe(200);
    const selfText = await self.text();
    expect(selfText).not.toContain(issued.apiKey as string);
    const body = JSON.parse(selfText) as KeySelf;
    expect(body).toMatchObject({ keyId: issued.keyId, status: "ACTIVE", tier: "FREE", wallet: user.address });
    expect(body.credits).toMatchObject({ allowance: 300, used: 0, remaining: 300, daily: { limit: 10, used: 0, remaining: 10 } });
    expect(self.headers.get("x-credits-remaining")).toBe("10");
    expect(Number(self.headers.get("x-ratelimit-remaining"))).toBeGreaterThan(0);

    const bearer = await app().request("/v1/keys/self", { headers: { authorization: `Bearer ${issued.apiKey}` } });
    expect(bearer.status).toBe(200);
  });

  test("default: the challenge is a Sign-In with Ethereum message naming our origin, Base's chain, the intent and its validity", async () => {
    const { intent } = await challenge(stranger.address);
    const message = parseSiweMessage(intent.messageToSign);
    expect(message).toMatchObject({
      domain: "127.0.0.1:42069",
      uri: "http://127.0.0.1:42069",
      address: stranger.address,
      chainId: 8453,
      version: "1",
      requestId: intent.intentId,
      nonce: intent.intentId.replace("int_", ""),
    });
    expect(message.expirationTime?.toISOString()).toBe(intent.expiresAt);
    expect(message.issuedAt?.toISOString()).toBe(intent.createdAt);
  });

  test("behavior: a challenge asked through the fallback host names it; a claim is accepted on either host", async () => {
    const res = await app().request("/v1/subscribe/free/challenge", {
      method: "POST",
      headers: { "content-type": "application/json", host: "fallback.example" },
      body: JSON.stringify({ userWallet: stranger.address }),
    });
    const { intent } = (await res.json()) as IntentEnvelope;
    expect(parseSiweMessage(intent.messageToSign)).toMatchObject({ domain: "fallback.example", uri: "https://fallback.example" });
    // Another deployment (other origins) over the same store refuses a challenge that names ours.
    const elsewhere = accessApp(manifest, backend, { origins: { public: "https://other.example", fallback: undefined } }).app;
    const refused = await post(elsewhere, "/v1/subscribe/free/claim", {
      intentId: intent.intentId,
      signature: await sign(intent.messageToSign, stranger),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "CHALLENGE_ORIGIN_MISMATCH" });
    const claimed = await post(app(), "/v1/subscribe/free/claim", {
      intentId: intent.intentId,
      signature: await sign(intent.messageToSign, stranger),
    });
    expect(claimed.status).toBe(200);
    rawKeys.push(((await claimed.json()) as IssuedKey).apiKey as string);
  });

  test("error: a second free key for the same wallet is 409 FREE_KEY_EXISTS", async () => {
    const envelope = await challenge();
    const res = await post(app(), "/v1/subscribe/free/claim", {
      intentId: envelope.intent.intentId,
      signature: await sign(envelope.intent.messageToSign),
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "FREE_KEY_EXISTS" });
  });

  test("error: a signature by another wallet is 401 SIGNATURE_INVALID", async () => {
    const envelope = await challenge(stranger.address);
    const res = await post(app(), "/v1/subscribe/free/claim", {
      intentId: envelope.intent.intentId,
      signature: await sign(envelope.intent.messageToSign, user),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "SIGNATURE_INVALID" });
  });

  test("error: a signature over another text is 401", async () => {
    const envelope = await challenge(stranger.address);
    const res = await post(app(), "/v1/subscribe/free/claim", {
      intentId: envelope.intent.intentId,
      signature: await sign("something else", stranger),
    });
    expect(res.status).toBe(401);
  });

  test("error: a challenge claimed after 15 minutes is 400 INTENT_EXPIRED", async () => {
    const past = () => new Date(Date.now() - 16 * 60_000);
    const envelope = (await (
      await post(accessApp(manifest, backend, { clock: past }).app, "/v1/subscribe/free/challenge", { userWallet: stranger.address })
    ).json()) as IntentEnvelope;
    const res = await post(app(), "/v1/subscribe/free/claim", {
      intentId: envelope.intent.intentId,
      signature: await sign(envelope.intent.messageToSign, stranger),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "INTENT_EXPIRED" });
  });

  test("behavior: unconsumed challenges past their retention are purged; recent ones are kept", async () => {
    const at = (msAgo: number) => () => new Date(Date.now() - msAgo);
    const challengeAt = async (msAgo: number) =>
      (
        (await (
          await post(accessApp(manifest, backend, { clock: at(msAgo) }).app, "/v1/subscribe/free/challenge", {
            userWallet: stranger.address,
          })
        ).json()) as IntentEnvelope
      ).intent.intentId;
    const stale = await challengeAt(2 * 24 * 60 * 60_000);
    const recent = await challengeAt(16 * 60_000);
    await challengeAt(0); // any new intent purges
    const left = (await backend.sql("SELECT id FROM app.intent WHERE id = ANY($1)", [[stale, recent]])) as { id: string }[];
    expect(left.map((r) => r.id)).toEqual([recent]);
  });

  test("error: unknown intent, malformed bodies and addresses are clear 400s", async () => {
    const sig = await sign("x");
    const cases: [string, unknown, string][] = [
      ["/v1/subscribe/free/claim", { intentId: "int_000000000000000000000000", signature: sig }, "INTENT_NOT_FOUND"],
      ["/v1/subscribe/free/claim", { intentId: "nope", signature: sig }, "INVALID_BODY"],
      ["/v1/subscribe/free/claim", { intentId: "int_000000000000000000000000", signature: "0x1234" }, "INVALID_BODY"],
      ["/v1/subscribe/free/challenge", { userWallet: "0x123" }, "INVALID_BODY"],
      ["/v1/subscribe/free/challenge", { userWallet: user.address, extra: 1 }, "INVALID_BODY"],
      ["/v1/subscribe/free/challenge", {}, "INVALID_BODY"],
    ];
    for (const [path, body, code] of cases) {
      const res = await post(app(), path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(code);
    }
    const notJson = await app().request("/v1/subscribe/free/challenge", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);
  });

  test("behavior: keys/self refuses no key, a malformed key, an unknown key and x402-only requests with 401", async () => {
    const cases: Record<string, string>[] = [
      {},
      { "x-api-key": "nope" },
      { "x-api-key": "svc_test_1111111111111111111111111111111111111111111" },
      { "payment-signature": "e30=" },
    ];
    for (const headers of cases) {
      const res = await app().request("/v1/keys/self", { headers });
      expect(res.status).toBe(401);
    }
    const conflicting = await app().request("/v1/keys/self", {
      headers: { "x-api-key": rawKeys[0] as string, authorization: "Bearer svc_test_other" },
    });
    expect(conflicting.status).toBe(401);
    expect(await conflicting.json()).toMatchObject({ error: "CONFLICTING_CREDENTIALS" });
  });

  test("error: a credential in the query string is 401 CREDENTIAL_IN_QUERY and reaches no handler", async () => {
    const raw = rawKeys[0] as string;
    for (const query of [
      `api_key=${raw}`,
      `apiKey=${raw}`,
      `key=${raw}`,
      `access_token=${raw}`,
      `token=x`,
      `X-API-KEY=${raw}`,
      `q=${raw}`,
      raw,
    ]) {
      for (const path of ["/v1/keys/self", "/v1/plans", "/v1/status", "/v1/nothing"]) {
        const res = await app().request(`${path}?${query}`, { headers: { "x-api-key": raw } });
        expect(res.status, `${path}?${query}`).toBe(401);
        const text = await res.text();
        expect(JSON.parse(text)).toMatchObject({ error: "CREDENTIAL_IN_QUERY" });
        expect(text).not.toContain(raw);
      }
    }
    const revoke = await post(app(), `/v1/keys/revoke?api_key=${raw}`, { confirm: true }, { "x-api-key": raw });
    expect(revoke.status).toBe(401);
    const still = await app().request("/v1/keys/self", { headers: { "x-api-key": raw } });
    expect(still.status).toBe(200);
  });

  test("behavior: revoke needs {confirm: true}, then the key is 401 API_KEY_REVOKED for good", async () => {
    const raw = rawKeys[0] as string;
    const unconfirmed = await post(app(), "/v1/keys/revoke", { confirm: false }, { "x-api-key": raw });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.json()).toMatchObject({ error: "CONFIRMATION_REQUIRED" });
    expect((await post(app(), "/v1/keys/revoke", {}, { "x-api-key": raw })).status).toBe(400);
    const res = await post(app(), "/v1/keys/revoke", { confirm: true }, { authorization: `Bearer ${raw}` });
    expect(res.status).toBe(200);
    const body = (await res.json()) as RevokeResult;
    expect(body.status).toBe("REVOKED");
    expect(typeof body.message).toBe("string");
    expect(Number.isNaN(Date.parse(body.revokedAt))).toBe(false);
    const after = await app().request("/v1/keys/self", { headers: { "x-api-key": raw } });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: "API_KEY_REVOKED" });
    expect((await post(app(), "/v1/keys/revoke", { confirm: true }, { "x-api-key": raw })).status).toBe(401);
  });

  test("behavior: a revoked free key makes no room for another (one per wallet, ever)", async () => {
    const envelope = await challenge();
    const res = await post(app(), "/v1/subscribe/free/claim", {
      intentId: envelope.intent.intentId,
      signature: await sign(envelope.intent.messageToSign),
    });
    expect(res.status).toBe(409);
  });

  test("behavior: the store and the logs hold no raw key", async () => {
    expect(rawKeys.length).toBeGreaterThan(0);
    const dump = await backend.dump();
    expect(dump).toContain("api_key");
    for (const raw of rawKeys) {
      expect(dump).not.toContain(raw);
      expect(logs.text()).not.toContain(raw);
    }
  });
});
