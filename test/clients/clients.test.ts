import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { type Address, createTestClient, erc20Abi, type Hex, http, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  AuthenticationError,
  type Client,
  CreditsExhaustedError,
  createClient,
  DataSourceUnavailableError,
  ExpiredKeyError,
  InvalidInputError,
  type IssuedKey,
  PaymentCapExceededError,
  PaymentRequiredError,
  RateLimitedError,
  ServiceError,
  signChallenge,
} from "../../clients/js/src/index";
import { freePort } from "../../devnet/anvil";
import { createDevnetClient } from "../../devnet/client";
import { type Manifest, readManifest } from "../../devnet/manifest";
import { payUsdc, usdcBalance } from "../support/usdc";
import { type ClientTestService, devnetUser, preflightOf, startClientTestService } from "./support";

/** Free keys may make 20 requests a minute here, so that a rate limit is reached in a few calls. */
const freeRateLimit = 20;
const operatorToken = "operator-stats-token-of-the-client-tests";
const usdcAddress = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
/** The trade simulation's devnet fixture taking 3% on buys and 7% on sells. */
const taxed = () => manifest.simulationTokens.find((f) => f.name === "buySellTax")?.address as Address;

let running: ClientTestService;
let manifest: Manifest;
let client: Client;
const user = (i: number) => devnetUser(manifest, i);
/** Polls `call` until it throws an error of `type` (the key cache sees a store change within 1 s). */
async function untilThrows<E>(call: () => Promise<unknown>, type: new (...args: never[]) => E, tries = 20): Promise<E> {
  let last: unknown;
  for (let i = 0; i < tries; i++) {
    try {
      last = await call();
    } catch (error) {
      if (error instanceof type) return error;
      last = error;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`never threw ${type.name}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
}

/** Runs python3 in clients/python; its exit code and its whole output. */
function runPython(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile("python3", args, { cwd: resolve(import.meta.dirname, "../../clients/python"), env }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

beforeAll(async () => {
  // "::": both loopbacks (the Python suite runs on ::1); a devnet needs the explicit setting for it. Traffic stays on loopback.
  running = await startClientTestService({
    TIER_RATE_LIMITS: `FREE=${freeRateLimit}`,
    OPERATOR_STATS_TOKEN: operatorToken,
    HOST: "::",
    DEVNET_ALLOW_PUBLIC_HOST: "true",
  });
  manifest = readManifest(running.service.manifestPath);
  client = createClient({ baseUrl: running.service.baseUrl });
}, 300_000);
afterAll(() => running?.stop());

describe("the JS client against npm start", () => {
  test("default: public reads: status, plans and the demo audit", async () => {
    const status = await client.status();
    expect(status).toMatchObject({ apiVersion: "2.2.0", chain: { chainId: 8453, network: "eip155:8453" }, status: "OPERATIONAL" });
    const plans = await client.plans();
    expect(plans.x402).toContainEqual({ route: "GET /v1/audit/{address}", priceUsd: 0.02 });
    expect(plans.plans.map((p) => p.tier)).toEqual(["FREE", "STARTER", "GROWTH", "PRO"]);
    const demo = await client.demoAudit(usdcAddress);
    expect(demo).toMatchObject({ notASafetyGuarantee: true });
  });

  test("default: the free-key flow signed with a devnet account, then every metered method with the key", async () => {
    const issued = await client.claimFreeKey(user(0).signer);
    expect(issued).toMatchObject({ status: "ISSUED", tier: "FREE", wallet: user(0).address, expiresAt: null });
    const keyed = client.withApiKey(issued.apiKey ?? "");

    const audit = await keyed.audit(manifest.contracts.diamond as Address);
    expect(audit.data).toMatchObject({ status: "SUCCESS", notASafetyGuarantee: true, address: manifest.contracts.diamond });
    expect(audit).toMatchObject({ receipt: null, trustLevel: "TRUSTED_PRIMARY" });
    expect(audit.creditsRemaining).toBe(9);
    const score = await keyed.score(manifest.contracts.diamond as Address);
    expect(score.data.maxScore).toBe(100);
    expect(score.creditsRemaining).toBe(8);
    const gas = await keyed.gasFees();
    expect(BigInt(gas.data.gasPrice.wei)).toBeGreaterThan(0n);
    const dex = await keyed.dexMetrics();
    expect(dex.data.coverage.scope).toBe("TRACKED_POOLS");
    const price = await keyed.tokenPrice("weth");
    expect(price.data).toMatchObject({ symbol: "WETH", basis: "MEDIAN_OF_DEEPEST_POOLS" });
    const whales = await keyed.whaleSignals();
    expect(whales.data.limit).toBe(50);
    const preflight = await keyed.preflight(preflightOf(manifest));
    expect(preflight.data).toMatchObject({ resolvedFacet: manifest.contracts.diamondMintFacet, notASafetyGuarantee: true });
    expect(preflight.creditsRemaining).toBe(3);
    const simulation = await keyed.tokenSimulation(taxed());
    expect(simulation.data).toMatchObject({ evidenceStatus: "VERIFIED", conclusion: null, token: { address: taxed() } });
    expect(simulation.data.figures.map((f) => [f.step, f.costBps])).toEqual([
      ["BUY_SMALL", 300],
      ["TRANSFER", 0],
      ["SELL_SMALL", 700],
      ["BUY_LARGE", 300],
      ["SELL_LARGE", expect.any(Number)],
    ]);
    expect(simulation.creditsRemaining).toBe(1);

    const self = await keyed.keySelf();
    expect(self).toMatchObject({ keyId: issued.keyId, status: "ACTIVE", credits: { used: 9, daily: { used: 9, remaining: 1 } } });
    await expect(client.claimFreeKey(user(0).signer)).rejects.toMatchObject({ code: "FREE_KEY_EXISTS", status: 409 });
  });

  test("error: bad input is InvalidInputError: an unknown symbol (with the supported list), a bad address, a bad body; a token without a pool is DataSourceUnavailableError", async () => {
    const { apiKey } = await client.claimFreeKey(user(5).signer);
    const keyed = client.withApiKey(apiKey ?? "");
    const unknown = await keyed.tokenPrice("PEPE").catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(InvalidInputError);
    expect(unknown).toMatchObject({
      code: "UNKNOWN_SYMBOL",
      status: 404,
      details: { supported: expect.arrayContaining(["WETH", "cbBTC"]) },
    });
    for (const malformed of [() => keyed.audit("0x1234"), () => keyed.tokenSimulation("0x1234")]) {
      await expect(malformed()).rejects.toMatchObject({ name: "InvalidInputError", code: "INVALID_ADDRESS", status: 400 });
    }
    await expect(client.freeChallenge("0xnot-a-wallet" as Address)).rejects.toMatchObject({
      name: "InvalidInputError",
      code: "INVALID_BODY",
    });
    const noPool = await keyed.tokenSimulation(manifest.contracts.diamond as Address).catch((e: unknown) => e);
    expect(noPool).toBeInstanceOf(DataSourceUnavailableError);
    expect(noPool).toMatchObject({ code: "DATA_SOURCE_UNAVAILABLE", status: 503, message: expect.stringMatching(/^no pool: /) });
    // None of them cost a credit.
    expect((await keyed.keySelf()).credits.used).toBe(0);
  });

  test("error: a payable call without a key is PaymentRequiredError carrying the decoded x402 challenge", async () => {
    const refused = await client.audit(manifest.contracts.diamond as Address).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PaymentRequiredError);
    const { challenge, code, status } = refused as PaymentRequiredError;
    expect({ code, status }).toEqual({ code: "PAYMENT_REQUIRED", status: 402 });
    expect(challenge).toMatchObject({ x402Version: 2, resource: { url: expect.stringContaining("/v1/audit/") } });
    expect(challenge?.accepts[0]).toMatchObject({
      scheme: "exact",
      network: "eip155:8453",
      amount: "20000",
      asset: usdcAddress,
      payTo: manifest.payoutAddress,
    });
  });

  test("default: an x402 payment moves exactly the price from the payer to the payout address, with the decoded receipt", async () => {
    const payer = user(1);
    const paying = createClient({
      baseUrl: running.service.baseUrl,
      payment: { signer: payer.signer, maxPerCallUsdc: "0.02", maxTotalUsdc: "0.03" },
    });
    const before = await Promise.all([usdcBalance(manifest, payer.address), usdcBalance(manifest, manifest.payoutAddress as Address)]);
    const paid = await paying.audit(manifest.contracts.diamond as Address, { pay: true });
    expect(paid.data).toMatchObject({ status: "SUCCESS", address: manifest.contracts.diamond });
    expect(paid.receipt).toMatchObject({ success: true, network: "eip155:8453", payer: payer.address });
    const after = await Promise.all([usdcBalance(manifest, payer.address), usdcBalance(manifest, manifest.payoutAddress as Address)]);
    expect(before[0] - (after[0] ?? 0n)).toBe(20_000n);
    expect((after[1] ?? 0n) - (before[1] ?? 0n)).toBe(20_000n);
    // The receipt names the settlement: one USDC transfer of exactly the price, payer to payout.
    const chain = createDevnetClient(manifest.rpcUrl, payer.privateKey);
    const mined = await chain.getTransactionReceipt({ hash: paid.receipt?.transaction as Hex });
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: mined.logs });
    expect(transfers.map((t) => t.args)).toEqual([{ from: payer.address, to: manifest.payoutAddress, value: 20_000n }]);
    expect(paying.spentAtomicUsdc()).toBe(20_000n);

    // The caps refuse before anything is signed: the call's own cap, then the client's total (0.03 - 0.02 left).
    const overCall = await paying.tokenPrice("WETH", { pay: { maxUsdc: "0.001" } }).catch((e: unknown) => e);
    expect(overCall).toBeInstanceOf(PaymentCapExceededError);
    expect((overCall as PaymentCapExceededError).challenge?.accepts[0]?.amount).toBe("5000");
    const overTotal = await paying.score(manifest.contracts.diamond as Address, { pay: true }).catch((e: unknown) => e);
    expect(overTotal).toMatchObject({ code: "PAYMENT_CAP_EXCEEDED", details: { amount: "20000" } });
    expect(await usdcBalance(manifest, payer.address)).toBe(after[0]);
    expect(paying.spentAtomicUsdc()).toBe(20_000n);
  }, 120_000);

  test("error: past the per-minute limit a call (the trade simulation too) is RateLimitedError with retryAfter; a Retry-After above the client's bound is not waited for", async () => {
    const { apiKey } = await client.claimFreeKey(user(3).signer);
    const patient = createClient({ baseUrl: running.service.baseUrl, apiKey: apiKey ?? "", retries: 3, maxRetryDelaySeconds: 0 });
    const refused = await untilThrows(() => patient.keySelf(), RateLimitedError, freeRateLimit + 2);
    expect(refused.code).toBe("RATE_LIMITED");
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    // The trade simulation shares the key's budget: past it, refused before any chain work.
    const simulation = await patient.tokenSimulation(taxed()).catch((e: unknown) => e);
    expect(simulation).toBeInstanceOf(RateLimitedError);
    expect(simulation).toMatchObject({ code: "RATE_LIMITED", status: 429 });
  });

  test("error: an expired key is ExpiredKeyError, spent credits CreditsExhaustedError (the key's rows moved in the app store)", async (ctx) => {
    const sql = running.sql;
    if (!sql)
      ctx.skip(
        "needs DATABASE_URL: the test moves the key's expiry and credits in the service's app store, which PGlite keeps to its process",
      );
    if (!sql) return;
    const issued: IssuedKey = await client.claimFreeKey(user(4).signer);
    const keyed = client.withApiKey(issued.apiKey ?? "");
    await keyed.gasFees();
    await sql("UPDATE app.credit_usage SET used = 300 WHERE key_id = $1", [issued.keyId]);
    const spent = await untilThrows(() => keyed.gasFees(), CreditsExhaustedError);
    expect(spent).toMatchObject({ code: "CREDITS_EXHAUSTED", status: 402 });
    expect(Date.parse(spent.cycleEndsAt ?? "")).toBeGreaterThan(Date.now());

    await sql("UPDATE app.api_key SET expires_at = now() - interval '1 day' WHERE id = $1", [issued.keyId]);
    const expired = await untilThrows(() => keyed.gasFees(), ExpiredKeyError);
    expect(expired).toMatchObject({ code: "API_KEY_EXPIRED", status: 402 });
    expect((await keyed.keySelf()).status).toBe("EXPIRED");
  });

  test("default: a paid key: purchase paid in USDC, renewal with the same secret, recovery to a new secret, revocation", async () => {
    const buyer = user(2);
    const buy = async (intentClient: Client, renew: boolean) => {
      const { intent } = await intentClient.purchaseIntent({ tier: "STARTER", userWallet: buyer.address, renewExistingKey: renew });
      const claim = await signChallenge({ intent }, buyer.signer);
      const { transactionHash: txHash } = await payUsdc(manifest, buyer.privateKey, intent.payTo, BigInt(intent.usdc.amount));
      // The claim waits for 3 confirmations and the index: refusals that say "not yet" are repeated.
      for (let i = 0; ; i++) {
        try {
          return { intent, issued: await client.claimPurchase({ ...claim, txHash }) };
        } catch (error) {
          const notYet =
            error instanceof ServiceError && ["PAYMENT_NOT_FOUND", "PAYMENT_NOT_INDEXED", "PAYMENT_NOT_FINAL"].includes(error.code);
          if (!notYet || i > 60) throw error;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    };
    const { issued } = await buy(client, false);
    expect(issued).toMatchObject({ status: "ISSUED", tier: "STARTER", payment: { asset: "USDC", amount: "49000000" } });
    const paidKey = issued.apiKey ?? "";
    const keyed = client.withApiKey(paidKey);

    const renewal = await buy(keyed, true);
    expect(renewal.intent.renewKeyId).toBe(issued.keyId);
    expect(renewal.issued).toMatchObject({ status: "RENEWED", apiKey: null, keyId: issued.keyId });
    expect(Date.parse(renewal.issued.expiresAt ?? "")).toBeGreaterThan(Date.parse(issued.expiresAt ?? ""));
    expect((await keyed.keySelf()).expiresAt).toBe(renewal.issued.expiresAt);

    const replaced = await client.recoverKey(buyer.signer);
    expect(replaced).toMatchObject({ status: "REPLACED", keyId: issued.keyId, expiresAt: renewal.issued.expiresAt });
    expect(replaced.apiKey).not.toBe(paidKey);
    await expect(keyed.keySelf()).rejects.toBeInstanceOf(AuthenticationError);
    const recovered = client.withApiKey(replaced.apiKey ?? "");
    expect((await recovered.gasFees()).creditsRemaining).toBe(9_999);

    const revoked = await recovered.revokeKey();
    expect(revoked).toMatchObject({ status: "REVOKED" });
    await expect(recovered.keySelf()).rejects.toMatchObject({ name: "AuthenticationError", code: "API_KEY_REVOKED", status: 401 });
  }, 120_000);

  test("behavior: reads move to the fallback URL when the base URL refuses connections; writes never move", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const split = createClient({ baseUrl: closed, fallbackUrl: running.service.baseUrl, retries: 1 });
    expect((await split.status()).apiVersion).toBe("2.2.0");
    expect((await split.plans()).currency).toBe("USD");
    await expect(split.freeChallenge(user(6).address)).rejects.toMatchObject({ code: "CONNECTION_REFUSED", status: 0 });
    const noFallback = createClient({ baseUrl: closed, retries: 1 });
    await expect(noFallback.status()).rejects.toMatchObject({ code: "CONNECTION_REFUSED" });
  });

  test("default: samples, a sample, public and operator stats, events", async () => {
    const samples = await client.samples();
    expect(samples.samples.map((s) => s.name)).toContain("gas-fees");
    const sample = await client.sample("gas-fees");
    expect(sample).toMatchObject({ status: "SAMPLE", sample: true, paidRoute: expect.stringContaining("/v1/gas/fees") });
    await expect(client.sample("nope" as "gas-fees")).rejects.toMatchObject({ code: "UNKNOWN_SAMPLE", status: 404 });

    await expect(client.sendEvent({ event: "ctaClicked", page: "home", cta: "getFreeKey" })).resolves.toBeUndefined();
    const badEvent = { event: "pageViewed", page: "home", wallet: user(6).address } as unknown as Parameters<Client["sendEvent"]>[0];
    await expect(client.sendEvent(badEvent)).rejects.toBeInstanceOf(InvalidInputError);

    expect(await client.stats({ days: 7 })).toMatchObject({ view: "PUBLIC", days: 7 });
    await expect(client.stats({ bucket: "test" })).rejects.toMatchObject({ name: "AuthenticationError", code: "OPERATOR_UNAUTHORIZED" });
    const operator = createClient({ baseUrl: running.service.baseUrl, operatorToken });
    const aggregate = await operator.stats({ days: 2 });
    expect(aggregate).toMatchObject({ view: "OPERATOR", bucket: "production", days: 2 });
    expect(await operator.stats({ bucket: "test", days: 1 })).toMatchObject({ view: "OPERATOR", bucket: "test", days: 1 });
  });

  test("default: the Python client's unittest suite passes against the same service (python3 -m unittest)", async () => {
    const { service, databaseUrl } = running;
    const env = {
      ...process.env,
      // The IPv6 loopback: a client address of its own, so the two suites' unauthenticated calls (60 a minute per address) do not add up.
      SERVICE_URL: service.baseUrl.replace("127.0.0.1", "[::1]"),
      DEVNET_MANIFEST: service.manifestPath,
      DEVNET_WALLET: `${process.execPath} ${join(import.meta.dirname, "devnetWallet.mjs")}`,
      OPERATOR_STATS_TOKEN: operatorToken,
      FREE_RATE_LIMIT: String(freeRateLimit),
      ...(databaseUrl ? { SERVICE_DATABASE_URL: databaseUrl } : {}),
    };
    const run = await runPython(["-m", "unittest", "-v", "tests.test_client"], env);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^OK/m);
    const skipped = [...run.output.matchAll(/^(test_\w+) .* skipped ["'](.*)["']$/gm)].map((m) => m[1]);
    expect(skipped, run.output).toEqual(databaseUrl ? [] : ["test_06_expired_key_and_exhausted_credits"]);
    expect(run.output).toMatch(/Ran 11 tests/);
  }, 240_000);

  // Last (after the Python suite, whose last test does the same): it leaves the index far behind the chain.
  test("error: an index left behind the chain is DataSourceUnavailableError (503), and nothing is charged", async () => {
    const { apiKey } = await client.claimFreeKey(user(7).signer);
    const keyed = createClient({ baseUrl: running.service.baseUrl, apiKey: apiKey ?? "", retries: 0 });
    // 500 blocks at once, which Ponder then indexes: a loaded machine takes longer than viem's 10 s, and a retry would mine 500 more.
    const chain = createTestClient({ mode: "anvil", transport: http(manifest.rpcUrl, { timeout: 120_000, retryCount: 0 }) });
    await chain.mine({ blocks: 500 });
    const refused = await untilThrows(() => keyed.tokenPrice("WETH"), DataSourceUnavailableError);
    expect(refused).toMatchObject({ code: "DATA_SOURCE_UNAVAILABLE", status: 503, details: { retryable: true } });
    expect(refused.message).toMatch(/behind the chain head/);
    expect((await keyed.keySelf()).credits.used).toBe(0);
  });
});
