import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, describe, expect, test, vi } from "vitest";
import { createRateLimits } from "../../api/access/createRateLimits";
import { createApp } from "../../api/app";
import { errorCodes } from "../../api/errors";
import type { IndexDb } from "../../api/index/indexDb";
import type { AppDb } from "../../api/store/createAppStore";
import { testAccessServices, unlimitedRates } from "../support/access";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";

const manifest = testManifest();
const pglite = new PGlite();
const indexDb = drizzle(pglite) as unknown as IndexDb;
const app = createApp(testAppParameters(manifest, indexDb));
afterAll(() => pglite.close());

const post = (path: string, body: string, type = "application/json") =>
  app.request(path, { method: "POST", headers: { "content-type": type }, body });
const wallet = manifest.accounts.deployer.address;
/** A JSON body sent as a stream, with no Content-Length: only the cap while reading can refuse it. */
const postStream = (body: ReadableStream<Uint8Array>) =>
  app.request("/v1/subscribe/free/challenge", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    duplex: "half",
  } as RequestInit);

describe("the one error shape, through createApp", () => {
  test("default: a valid JSON body reaches the route", async () => {
    const res = await post("/v1/subscribe/free/challenge", JSON.stringify({ userWallet: wallet }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "CHALLENGE_ISSUED", claimWith: "POST /v1/subscribe/free/claim" });
  });

  test("error: unknown route is 404 JSON", async () => {
    const res = await app.request("/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "NOT_FOUND", message: "no route GET /v1/nothing-here" });
  });

  test("error: wrong method is 405 JSON with Allow", async () => {
    const res = await app.request("/v1/subscribe/free/challenge");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toMatchObject({ error: "METHOD_NOT_ALLOWED" });
    const audit = await app.request(`/v1/audit/${wallet}`, { method: "DELETE" });
    expect(audit.status).toBe(405);
    expect(audit.headers.get("allow")).toBe("GET, HEAD");
  });

  test("error: malformed JSON is 400 MALFORMED_JSON", async () => {
    const res = await post("/v1/subscribe/free/challenge", '{"userWallet": ');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "MALFORMED_JSON" });
  });

  test("error: a body the schema refuses is 400 INVALID_BODY naming the field", async () => {
    const res = await post("/v1/subscribe/free/challenge", JSON.stringify({ userWallet: "0x12", extra: 1 }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; issues: { path: string }[] };
    expect(body.error).toBe("INVALID_BODY");
    expect(body.issues.map((i) => i.path)).toContain("userWallet");
  });

  test("error: a path parameter the schema refuses is 400 INVALID_ADDRESS", async () => {
    const res = await app.request("/v1/demo/audit/0x1234");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "INVALID_ADDRESS" });
  });

  test("error (regression, found by property tests): a short or non-hex mixed-case address is 400, not 500", async () => {
    for (const bad of ["0xAbC", `0x${"Zz".repeat(20)}`]) {
      expect((await app.request(`/v1/demo/audit/${bad}`)).status, bad).toBe(400);
      expect((await post("/v1/subscribe/free/challenge", JSON.stringify({ userWallet: bad }))).status, bad).toBe(400);
    }
  });

  test("error: a non-JSON content type is 400 UNSUPPORTED_CONTENT_TYPE", async () => {
    const res = await post("/v1/subscribe/free/challenge", JSON.stringify({ userWallet: wallet }), "text/plain");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "UNSUPPORTED_CONTENT_TYPE" });
  });

  test("error: a body over 64 KiB is 413 BODY_TOO_LARGE, by its Content-Length or by its stream", async () => {
    const big = JSON.stringify({ userWallet: wallet, pad: "x".repeat(70_000) });
    const declared = await app.request("/v1/subscribe/free/challenge", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(big.length) },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: "BODY_TOO_LARGE", maxBytes: 65_536 });
    // Multi-byte characters: the cap counts bytes, not characters (30,000 'é' are 60,000 bytes).
    const streamed = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ userWallet: wallet, pad: "é".repeat(33_000) })));
        controller.close();
      },
    });
    expect((await postStream(streamed)).status).toBe(413);
  });

  test("behavior: CORS: any origin may read every answer (errors included) and its service headers; preflights are answered", async () => {
    for (const [path, status] of [
      ["/v1/plans", 200],
      ["/v1/keys/self", 401],
      ["/v1/nowhere", 404],
      [`/v1/audit/${wallet}`, 402],
    ] as const) {
      const res = await app.request(path, { headers: { origin: "https://app.example" } });
      expect(res.status, path).toBe(status);
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(res.headers.get("access-control-expose-headers"), path).toContain("x-credits-remaining");
    }
    const preflight = await app.request("/v1/audit/0x0000000000000000000000000000000000000001", {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("x-api-key");
    expect(preflight.headers.get("access-control-max-age")).toBe("86400");
  });

  test("behavior: unknown query parameters are ignored; a credential-shaped one is 401 whatever its value", async () => {
    expect((await app.request("/v1/plans?foo=1&page=2")).status).toBe(200);
    const names = ["api_key", "apikey", "apiKey", "API-KEY", "key", "token", "access_token", "x-api-key", "secret", "auth"];
    const values = ["", "abc", "svc_test_1111111111111111111111111111111111111111111"];
    for (const name of [...names, "authorization", "bearer", "credential", "password", "signature", "jwt", "session"]) {
      for (const value of values) {
        const res = await app.request(`/v1/plans?${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
        expect(res.status, `${name}=${value}`).toBe(401);
        expect(await res.json()).toMatchObject({ error: "CREDENTIAL_IN_QUERY" });
      }
    }
    // Array or object syntax does not hide a name (regression, found by property tests).
    for (const disguised of ["api_key[]", "auth[token]", "key%5B0%5D", "x[api_key]"])
      expect((await app.request(`/v1/plans?${disguised}=x`)).status, disguised).toBe(401);
    // A key-shaped value under any name, on any route.
    expect((await app.request("/v1/status?q=svc_live_abc")).status).toBe(401);
  });

  test("behavior: a 200 MB streamed body is refused after reading little more than the cap", async () => {
    let pulled = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(32);
    const huge = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 200 * chunk.length) return controller.close();
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    expect((await postStream(huge)).status).toBe(413);
    // The stream is cancelled at the cap: a few chunks were read (stream buffering), not 200.
    expect(pulled).toBeLessThanOrEqual(4 * chunk.length);
  });

  test("error: an unexpected fault is 500 INTERNAL_ERROR without its detail, and is logged", async () => {
    // A real store whose schema was never migrated: the query fails with an error that is no outage.
    const unmigrated = new PGlite();
    const store = { db: drizzle(unmigrated) as unknown as AppDb, ready: Promise.resolve(), close: () => unmigrated.close() };
    const broken = createApp(testAppParameters(manifest, indexDb, testAccessServices(manifest, indexDb, { store })));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await broken.request("/v1/subscribe/free/challenge", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userWallet: wallet }),
    });
    const logCalls = logged.mock.calls.length;
    logged.mockRestore();
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: "INTERNAL_ERROR", message: "the service failed to answer this request" });
    expect(text).not.toContain("intent");
    expect(logCalls).toBe(1);
    await store.close();
  });

  test("behavior: every error code has one status, and retryable codes say so in the body", async () => {
    for (const [code, spec] of Object.entries(errorCodes)) expect(spec.status, code).toBeGreaterThanOrEqual(400);
    const rateLimits = createRateLimits({ perMinute: { ...unlimitedRates, PUBLIC: 1 } });
    const limited = createApp(testAppParameters(manifest, indexDb, testAccessServices(manifest, indexDb, { rateLimits })));
    expect((await limited.request("/v1/plans")).status).toBe(200);
    const res = await limited.request("/v1/plans");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(await res.json()).toMatchObject({ error: "RATE_LIMITED", retryable: true });
  });
});
