import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { encodeFunctionData, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import { AuditResponse, ScoreResponse } from "../../api/capability/AuditResponse";
import { TransactionPreflightResponse } from "../../api/capability/TransactionPreflightResponse";
import type { IndexDb } from "../../api/index/indexDb";
import { testAccessServices } from "../support/access";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";

const manifest = testManifest();
const pglite = new PGlite();
const indexDb = drizzle(pglite) as unknown as IndexDb;
const app = createApp(testAppParameters(manifest, indexDb));
const user = manifest.accounts.users[11];
let apiKey = "";

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
const withKey = () => ({ headers: { "x-api-key": apiKey } });
const mintCall = encodeFunctionData({
  abi: parseAbi(["function mint(address,uint256)"]),
  functionName: "mint",
  args: [manifest.accounts.deployer.address, 1n],
});
const preflightBody = { chainId: 8453, to: manifest.contracts.diamond, data: mintCall, from: manifest.accounts.deployer.address };

beforeAll(async () => {
  if (!user) throw new Error("no test user 11");
  // A real free key: challenge, personal_sign by the wallet, claim.
  const challenge = (await (await app.request("/v1/subscribe/free/challenge", json({ userWallet: user.address }))).json()) as {
    intent: { intentId: string; messageToSign: string };
  };
  const signature = await privateKeyToAccount(user.privateKey).signMessage({ message: challenge.intent.messageToSign });
  const issued = (await (
    await app.request("/v1/subscribe/free/claim", json({ intentId: challenge.intent.intentId, signature }))
  ).json()) as { apiKey: string };
  apiKey = issued.apiKey;
  expect(apiKey).toMatch(/^svc_test_/);
});
afterAll(() => pglite.close());

const credits = (res: Response) => Number(res.headers.get("x-credits-remaining"));

describe("capability routes behind access control", () => {
  test("error: audit and score without a credential are 402, preflight is 401", async () => {
    for (const path of [`/v1/audit/${manifest.contracts.diamond}`, `/v1/security/score/${manifest.contracts.diamond}`]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(402);
      expect(await res.json()).toMatchObject({ error: "PAYMENT_REQUIRED" });
    }
    const res = await app.request("/v1/transaction/preflight", json(preflightBody));
    expect(res.status).toBe(401);
  });

  test("error: a key in the query string is 401 and never reaches the handler", async () => {
    const res = await app.request(`/v1/audit/${manifest.contracts.diamond}?api_key=${apiKey}`);
    expect(res.status).toBe(401);
  });

  test("default: an audit with a key answers the full AuditResponse with the four headers, and costs one credit", async () => {
    const first = await app.request(`/v1/audit/${manifest.contracts.diamond}`, withKey());
    expect(first.status).toBe(200);
    AuditResponse.parse(await first.json());
    expect(first.headers.get("x-service-rpc-provider")).toBe("devnet");
    expect(first.headers.get("x-service-trust-level")).toBe("TRUSTED_PRIMARY");
    expect(Number(first.headers.get("x-ratelimit-remaining"))).toBeGreaterThan(0);
    const score = await app.request(`/v1/security/score/${manifest.contracts.diamond}`, withKey());
    expect(score.status).toBe(200);
    ScoreResponse.parse(await score.json());
    expect(credits(score)).toBe(credits(first) - 1);
  });

  test("default: a preflight with a key answers every evidence field and costs one decision credit", async () => {
    const before = await app.request(`/v1/security/score/${manifest.contracts.plainToken}`, withKey());
    const res = await app.request("/v1/transaction/preflight", json(preflightBody, { authorization: `Bearer ${apiKey}` }));
    expect(res.status).toBe(200);
    const body = TransactionPreflightResponse.parse(await res.json());
    expect(body.resolvedFacet).toBe(manifest.contracts.diamondMintFacet);
    expect(res.headers.get("x-service-trust-level")).toBe("TRUSTED_PRIMARY");
    expect(credits(res)).toBe(credits(before) - 1);
  });

  test("behavior: a refused preflight (bad body, or no evidence grade) charges nothing", async () => {
    const before = credits(await app.request(`/v1/security/score/${manifest.contracts.plainToken}`, withKey()));
    const bad = await app.request("/v1/transaction/preflight", json({ ...preflightBody, chainId: 1 }, { "x-api-key": apiKey }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "INVALID_BODY" });

    const offline = createApp(
      testAppParameters(manifest, indexDb, {
        capability: { providers: [{ name: "down", url: "http://127.0.0.1:9", trusted: true }], chainId: 8453, samples: [] },
        ...testAccessServices(manifest, indexDb),
      }),
    );
    const unavailable = await offline.request("/v1/transaction/preflight", json(preflightBody, { "x-api-key": apiKey }));
    expect(unavailable.status).toBe(503);
    expect(await unavailable.json()).toMatchObject({ error: "DATA_SOURCE_UNAVAILABLE" });

    const after = await app.request(`/v1/security/score/${manifest.contracts.plainToken}`, withKey());
    expect(credits(after)).toBe(before - 1); // only this score call itself
  });

  test("error: wrong methods are 405, bad addresses 400", async () => {
    expect((await app.request("/v1/transaction/preflight", withKey())).status).toBe(405);
    expect((await app.request(`/v1/audit/${manifest.contracts.diamond}`, { method: "DELETE" })).status).toBe(405);
    const bad = await app.request("/v1/audit/0xnothex", withKey());
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "INVALID_ADDRESS" });
  });
});
