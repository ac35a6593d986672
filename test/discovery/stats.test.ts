import { type Address, encodeFunctionData, parseAbi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, test } from "vitest";
import { createRateLimits } from "../../api/access/createRateLimits";
import type { PurchaseIntent } from "../../api/keys/records";
import type { AggregateStats, PublicStats } from "../../api/stats/StatsResponse";
import { createDevnetClient } from "../../devnet/client";
import { backendNames, claimFreeKey, mine, post, testEthQuote } from "../access/support";
import { unlimitedAbuse, unlimitedRates, viaTestProxy } from "../support/access";
import { testManifest } from "../support/devnet";
import { payingFetch } from "../support/payingFetch";
import { giveUsdc } from "../support/usdc";
import { testFacilitator, testX402Service } from "../support/x402";
import { fundedKey } from "../x402/support";
import { discoveryApp, grown, operatorHeaders, operatorTotals, useDiscoveryBackend } from "./support";

const manifest = testManifest();
const fixture = manifest.contracts.plainToken as Address;

describe.each(backendNames)("GET /v1/stats and the server's counters on %s", (name) => {
  const suite = useDiscoveryBackend(manifest, name);

  test("behavior: counters move when the routes do their work: keys issued, audits, demo audits, preflights, revocations", async () => {
    const before = await operatorTotals(suite.app);
    const { apiKey } = await claimFreeKey(suite.app);
    const key = { "x-api-key": apiKey };
    expect((await suite.app.request(`/v1/audit/${fixture}`, { headers: key })).status).toBe(200);
    expect((await suite.app.request(`/v1/security/score/${fixture}`, { headers: key })).status).toBe(200);
    expect((await suite.app.request(`/v1/demo/audit/${fixture}`)).status).toBe(200);
    const mint = encodeFunctionData({ abi: parseAbi(["function mint(address,uint256)"]), functionName: "mint", args: [fixture, 1n] });
    const preflight = { chainId: 8453, to: manifest.contracts.diamond, data: mint, from: manifest.accounts.deployer.address };
    const preflighted = await post(suite.app, "/v1/transaction/preflight", preflight, key);
    expect(preflighted.status, await preflighted.clone().text()).toBe(200);
    // Refused work counts nothing: a bad address, no credential (402).
    expect((await suite.app.request("/v1/audit/0x1234", { headers: key })).status).toBe(400);
    expect((await suite.app.request(`/v1/audit/${fixture}`)).status).toBe(402);
    expect((await post(suite.app, "/v1/keys/revoke", { confirm: true }, key)).status).toBe(200);
    expect(grown(before, await operatorTotals(suite.app))).toEqual({
      FREE_KEY_ISSUED: 1,
      KEY_REVOKED: 1,
      "SERVED GET /v1/audit/{address} VIA API_KEY": 1,
      "SERVED GET /v1/security/score/{address} VIA API_KEY": 1,
      "SERVED GET /v1/demo/audit/{address} VIA FREE": 1,
      "SERVED POST /v1/transaction/preflight VIA API_KEY": 1,
    });
  });

  test("behavior: a paid key bought with ETH counts the key and its payment by kind", async () => {
    const buying = discoveryApp(manifest, suite.backend, { ethQuote: testEthQuote }).app;
    const buyerKey = generatePrivateKey();
    const buyer = privateKeyToAccount(buyerKey);
    const wallet = createDevnetClient(manifest.rpcUrl, buyerKey);
    await wallet.setBalance({ address: buyer.address, value: parseEther("10") });
    const before = await operatorTotals(buying);
    const { intent } = (await (
      await post(buying, "/v1/subscribe/intents", { tier: "STARTER", userWallet: buyer.address })
    ).json()) as PurchaseIntent;
    const hash = await wallet.sendTransaction({ to: manifest.payoutAddress, value: BigInt(intent.eth?.amountWei as string) });
    await wallet.waitForTransactionReceipt({ hash });
    await mine(manifest, 3);
    const signature = await buyer.signMessage({ message: intent.messageToSign });
    expect((await post(buying, "/v1/subscribe/crypto", { intentId: intent.intentId, signature, txHash: hash })).status).toBe(200);
    expect(grown(before, await operatorTotals(buying))).toEqual({ PAID_KEY_ISSUED: 1, PAYMENT_SETTLED_ETH: 1 });
  }, 60_000);

  test("behavior: an x402 payment's settlement counts as the route's X402 answer; a refused payment counts nothing", async () => {
    // A payer of this file's own, holding devnet USDC (its balance written into the token's storage),
    // and a gas key of its own for the facilitator: no other file settles from either.
    const payer = generatePrivateKey();
    await giveUsdc(manifest, privateKeyToAccount(payer).address, 1_000_000n);
    const gasKey = await fundedKey(manifest);
    const x402 = testX402Service(manifest, suite.backend.store, { facilitator: testFacilitator(manifest, gasKey) });
    const paying = discoveryApp(manifest, suite.backend, {}, {}, x402).app;
    const before = await operatorTotals(paying);
    const paid = await payingFetch(paying, payer)(`http://localhost/v1/gas/fees`);
    expect(paid.status).toBe(200);
    const unpaid = await payingFetch(paying, generatePrivateKey())(`http://localhost/v1/gas/fees`);
    expect(unpaid.status).toBe(402);
    expect(grown(before, await operatorTotals(paying))).toEqual({ "SERVED GET /v1/gas/fees VIA X402": 1 });
  }, 60_000);

  test("behavior: counters never carry an identifier (no key, wallet, address or key id)", async () => {
    const { apiKey, wallet, keyId } = await claimFreeKey(suite.app);
    await suite.app.request(`/v1/audit/${fixture}`, { headers: { "x-api-key": apiKey } });
    const rows = (await suite.backend.sql("SELECT day, bucket, name, count FROM app.daily_counter")) as { name: string }[];
    expect(rows.length).toBeGreaterThan(0);
    const text = JSON.stringify(rows).toLowerCase();
    for (const id of [apiKey, wallet, keyId, fixture, manifest.contracts.diamond as string])
      expect(text.includes(id.toLowerCase()), id).toBe(false);
    expect(text).not.toMatch(/0x[0-9a-f]{6,}/);
    for (const { name } of rows)
      expect(name).toMatch(/^([A-Z_]+|SERVED (GET|POST) \/[a-z0-9/{}]+ VIA [A-Z0-9_]+|EVENT [a-zA-Z]+( [a-zA-Z]+){1,2})$/);
  });

  test("default: the public view names the active counters of the last 30 days and holds no figure", async () => {
    const res = await suite.app.request("/v1/stats");
    expect(res.status).toBe(200);
    const stats = (await res.json()) as PublicStats;
    expect(stats).toMatchObject({ view: "PUBLIC", days: 30 });
    expect(stats.activeCounters).toContain("FREE_KEY_ISSUED");
    const numbers = JSON.stringify({ ...stats, days: undefined }).match(/:\s*\d/g);
    expect(numbers).toBeNull();
    expect(Date.parse(stats.to) - Date.parse(stats.from)).toBe(29 * 86_400_000);
  });

  test("behavior: the operator view gives exact daily counts of a bucket; days 1..400", async () => {
    const res = await suite.app.request("/v1/stats?days=400&bucket=test", { headers: operatorHeaders });
    expect(res.status).toBe(200);
    const stats = (await res.json()) as AggregateStats;
    expect(stats).toMatchObject({ view: "OPERATOR", bucket: "test", days: 400 });
    const summed = stats.daily.reduce((n, d) => n + (d.counts.FREE_KEY_ISSUED ?? 0), 0);
    expect(summed).toBe(stats.totals.FREE_KEY_ISSUED);
    expect(stats.totals.FREE_KEY_ISSUED).toBeGreaterThanOrEqual(2);
    // The production bucket holds none of the devnet's counts.
    const production = (await (
      await suite.app.request("/v1/stats?bucket=production", { headers: operatorHeaders })
    ).json()) as AggregateStats;
    expect(production).toMatchObject({ bucket: "production", totals: {}, daily: [] });
  });

  test("error: days outside 1..400 or not an integer is 400", async () => {
    for (const days of ["0", "401", "-1", "1.5", "abc", "", "030", "1e2"]) {
      const res = await suite.app.request(`/v1/stats?days=${days}`);
      expect(res.status, days).toBe(400);
      expect(await res.json(), days).toMatchObject({ error: "INVALID_PARAMETER" });
    }
  });

  test("error: bucket without operator authorization, or with a wrong token, is 401", async () => {
    const noAuth = await suite.app.request("/v1/stats?bucket=production");
    expect(noAuth.status).toBe(401);
    expect(await noAuth.json()).toMatchObject({ error: "OPERATOR_UNAUTHORIZED" });
    for (const authorization of ["Bearer wrong-token-0123456789abcdef0123456789", "Basic abc", `Bearer ${"x".repeat(40)}`]) {
      const res = await suite.app.request("/v1/stats?bucket=test", { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(await res.json(), authorization).toMatchObject({ error: "OPERATOR_UNAUTHORIZED" });
    }
  });

  test("behavior: without bucket, an Authorization that is not the operator's gets the public view and spends no failed authentication", async () => {
    const allowance = 2;
    const app = discoveryApp(manifest, suite.backend, { limits: { ...unlimitedAbuse, maxAuthFailuresPerMinute: allowance } }).app;
    const from = (headers: Record<string, string>, query = "") =>
      app.request(`/v1/stats${query}`, { headers: { "x-forwarded-for": "198.51.100.77", ...headers } });
    const { apiKey } = await claimFreeKey(suite.app);
    const others = [`Bearer ${apiKey}`, "Bearer wrong-token-0123456789abcdef0123456789", "Basic abc", "Bearer"];
    for (let i = 0; i < allowance * 3; i++) {
      const authorization = others[i % others.length] as string;
      const res = await from({ authorization });
      expect(res.status, authorization).toBe(200);
      expect(await res.json(), authorization).toMatchObject({ view: "PUBLIC" });
    }
    const operator = await from(operatorHeaders, "?days=1&bucket=test");
    expect(operator.status).toBe(200);
    expect(await operator.json()).toMatchObject({ view: "OPERATOR" });
    // With bucket, a wrong token is an operator attempt: it spends the allowance, then 429.
    for (let i = 0; i < allowance; i++) expect((await from({ authorization: `Bearer ${apiKey}` }, "?bucket=test")).status).toBe(401);
    const locked = await from({ authorization: `Bearer ${apiKey}` }, "?bucket=test");
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ error: "TOO_MANY_FAILED_AUTHENTICATIONS" });
  });

  test("behavior: the public view is limited per client address (IPv6 by /64), the operator view per token", async () => {
    const limited = discoveryApp(manifest, suite.backend, {
      rateLimits: createRateLimits({ perMinute: { ...unlimitedRates, PUBLIC: 2 } }),
    }).app;
    const from = (ip: string, headers: Record<string, string> = {}) =>
      limited.request("/v1/stats", { headers: { "x-forwarded-for": ip, ...headers } }, viaTestProxy);
    expect((await from("2001:db8:1:2::1")).status).toBe(200);
    expect((await from("2001:db8:1:2::2")).status).toBe(200);
    const refused = await from("2001:db8:1:2:ffff::9");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ error: "RATE_LIMITED", message: expect.any(String) });
    expect((await from("2001:db8:1:3::1")).status).toBe(200);
    // The operator's budget is its token's, whatever the address.
    expect((await from("2001:db8:1:2::1", operatorHeaders)).status).toBe(200);
    expect((await from("198.51.100.1", operatorHeaders)).status).toBe(200);
    const operatorRefused = await from("198.51.100.2", operatorHeaders);
    expect(operatorRefused.status).toBe(429);
    expect(operatorRefused.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
