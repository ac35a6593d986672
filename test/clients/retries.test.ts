import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ClientParameters, createClient, DataSourceUnavailableError, RateLimitedError } from "../../clients/js/src/index";
import { type Manifest, readManifest } from "../../devnet/manifest";
import { type HttpFaultProxy, startHttpFaultProxy } from "../support/httpFaultProxy";
import { usdcBalance } from "../support/usdc";
import { type ClientTestService, devnetUser, preflightOf, startClientTestService } from "./support";

/** A free key may make 5 requests a minute here, so that the rate limit is reached in a few calls. */
const freeRateLimit = 5;

let running: ClientTestService;
let proxy: HttpFaultProxy;
let manifest: Manifest;
const user = (i: number) => devnetUser(manifest, i);

type Exchange = { url: string; sentAt: number; answeredAt: number | null; status: number | null; retryAfter: number | null };
/** The real fetch, with a record of each exchange (when it was sent, when and how it was answered). */
function recordingFetch() {
  const exchanges: Exchange[] = [];
  const recording: typeof fetch = async (input, init) => {
    const exchange: Exchange = { url: String(input), sentAt: performance.now(), answeredAt: null, status: null, retryAfter: null };
    exchanges.push(exchange);
    const response = await fetch(input, init);
    Object.assign(exchange, {
      answeredAt: performance.now(),
      status: response.status,
      retryAfter: Number(response.headers.get("retry-after")),
    });
    return response;
  };
  return { fetch: recording, exchanges };
}
/** How long the client waited after a refusal before it asked again. */
const waitAfter = (refused: Exchange, next: Exchange | undefined) => (next?.sentAt ?? Number.NaN) - (refused.answeredAt ?? Number.NaN);

/** A free key of devnet user `i`. */
async function freeKey(i: number): Promise<string> {
  const { apiKey } = await createClient({ baseUrl: running.service.baseUrl }).claimFreeKey(user(i).signer);
  return apiKey ?? "";
}
/** A client of the service itself with `options` (e.g. the fault proxy as its base URL). */
const clientOf = (options: Partial<ClientParameters>) => createClient({ baseUrl: running.service.baseUrl, ...options });
const requestsTo = async (path: string) => (await proxy.log()).filter((seen) => seen.path.startsWith(path)).map((seen) => seen.outcome);

beforeAll(async () => {
  running = await startClientTestService({ TIER_RATE_LIMITS: `FREE=${freeRateLimit}` });
  manifest = readManifest(running.service.manifestPath);
  proxy = await startHttpFaultProxy(running.service.baseUrl);
}, 300_000);
afterAll(async () => {
  await proxy?.stop();
  await running?.stop();
});

describe("the JS client's retries against npm start", () => {
  test("behavior: a real 429 is waited out for its Retry-After, then the call succeeds", async () => {
    const apiKey = await freeKey(0);
    const strict = clientOf({ apiKey, retries: 0 });
    for (let i = 0; i < freeRateLimit; i++) await strict.keySelf();
    await expect(strict.keySelf()).rejects.toBeInstanceOf(RateLimitedError);

    const { fetch, exchanges } = recordingFetch();
    const patient = clientOf({ apiKey, retries: 1, maxRetryDelaySeconds: 120, fetch });
    expect((await patient.keySelf()).status).toBe("ACTIVE");
    const [refused, retried] = exchanges;
    expect(exchanges.map((e) => e.status)).toEqual([429, 200]);
    expect(refused?.retryAfter).toBeGreaterThan(0);
    // At least the header's value (a timer fires on the loop's clock, which may lag a few ms behind performance.now()).
    expect(waitAfter(refused as Exchange, retried) / ((refused?.retryAfter ?? 0) * 1000)).toBeGreaterThan(0.99);
  }, 150_000);

  test("behavior: a real 503 on a metered read is repeated after its Retry-After, and the call is charged once", async () => {
    const apiKey = await freeKey(1);
    const { fetch, exchanges } = recordingFetch();
    const viaProxy = clientOf({ baseUrl: proxy.url, apiKey, fetch });
    await proxy.arm({ fault: "503", path: "/v1/gas/fees", times: 1 });
    const gas = await viaProxy.gasFees();
    expect(BigInt(gas.data.gasPrice.wei)).toBeGreaterThan(0n);
    expect(await requestsTo("/v1/gas/fees")).toEqual(["503", "forwarded"]);
    const [refused, repeated] = exchanges;
    expect(refused).toMatchObject({ status: 503, retryAfter: 1 });
    expect(waitAfter(refused as Exchange, repeated) / 1000).toBeGreaterThan(0.99);
    expect((await clientOf({ apiKey }).keySelf()).credits.used).toBe(1);
  });

  test("behavior: on a 503 a read moves to the fallback URL; a write is not repeated", async () => {
    const viaProxy = clientOf({ baseUrl: proxy.url, fallbackUrl: running.service.baseUrl });
    await proxy.arm({ fault: "503", path: "/v1/plans", times: 1 });
    expect((await viaProxy.plans()).currency).toBe("USD");
    expect(await requestsTo("/v1/plans")).toEqual(["503"]);

    const apiKey = await freeKey(2);
    const writer = clientOf({ baseUrl: proxy.url, fallbackUrl: running.service.baseUrl, apiKey, retries: 3 });
    await proxy.arm({ fault: "503", path: "/v1/transaction/preflight", times: 1 });
    await expect(writer.preflight(preflightOf(manifest))).rejects.toBeInstanceOf(DataSourceUnavailableError);
    expect(await requestsTo("/v1/transaction/preflight")).toEqual(["503"]);
    expect((await clientOf({ apiKey }).keySelf()).credits.used).toBe(0);
  });

  test("behavior: a call whose answer is lost after it may have been charged is never repeated; a free read is", async () => {
    const apiKey = await freeKey(3);
    const viaProxy = clientOf({ baseUrl: proxy.url, apiKey, retries: 3 });
    await proxy.arm({ fault: "drop", path: "/v1/token/price", times: 1 });
    await expect(viaProxy.tokenPrice("WETH")).rejects.toMatchObject({ code: "CONNECTION_FAILED", status: 0 });
    expect(await requestsTo("/v1/token/price")).toEqual(["dropped"]);
    // Only this call's requests count (the proxy's log of the path is shared with the test before).
    const earlierPreflights = (await requestsTo("/v1/transaction/preflight")).length;
    await proxy.arm({ fault: "drop", path: "/v1/transaction/preflight", times: 1 });
    await expect(viaProxy.preflight(preflightOf(manifest))).rejects.toMatchObject({ code: "CONNECTION_FAILED" });
    expect((await requestsTo("/v1/transaction/preflight")).slice(earlierPreflights)).toEqual(["dropped"]);
    // The service served and charged both: repeating them would have charged twice.
    expect((await clientOf({ apiKey }).keySelf()).credits.used).toBe(2);

    await proxy.arm({ fault: "drop", path: "/v1/samples", times: 1 });
    expect((await viaProxy.samples()).samples.length).toBeGreaterThan(0);
    expect(await requestsTo("/v1/samples")).toEqual(["dropped", "forwarded"]);
  });

  test("behavior: an x402-paid call whose answer is lost is not repeated: the price moves once and stays counted against the caps", async () => {
    const payer = user(4);
    const paying = clientOf({ baseUrl: proxy.url, retries: 3, payment: { signer: payer.signer, maxPerCallUsdc: "0.01" } });
    const before = await usdcBalance(manifest, payer.address);
    await proxy.arm({ fault: "drop", path: "/v1/dex/metrics", header: "payment-signature", times: 1 });
    await expect(paying.dexMetrics({ pay: true })).rejects.toMatchObject({ code: "CONNECTION_FAILED" });
    // The unpaid request (answered 402) and the one paid request, whose answer was cut.
    expect(await requestsTo("/v1/dex/metrics")).toEqual(["forwarded", "dropped"]);
    expect(before - (await usdcBalance(manifest, payer.address as Address))).toBe(10_000n);
    expect(paying.spentAtomicUsdc()).toBe(10_000n);
  }, 120_000);
});
