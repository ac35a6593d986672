import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { type PresentedCredential, readCredential } from "../../api/access/readCredential";
import { rejectQueryCredentials } from "../../api/access/rejectQueryCredentials";
import { ApiError } from "../../api/errors";

/** What `readCredential` makes of a request carrying `headers`. */
async function presented(headers: Record<string, string>): Promise<PresentedCredential> {
  let seen: PresentedCredential | undefined;
  const app = new Hono().get("/", (c) => {
    seen = readCredential(c);
    return c.body(null, 204);
  });
  await app.request("/", { headers });
  if (!seen) throw new Error("handler did not run");
  return seen;
}

const key = "svc_live_0123456789abcdef0123456789abcdef";
const other = "svc_live_fedcba9876543210fedcba9876543210";

describe("readCredential", () => {
  test("an API key in x-api-key, trimmed", async () => {
    expect(await presented({ "x-api-key": `  ${key} ` })).toEqual({ kind: "apiKey", rawKey: key });
  });

  test("an API key as Authorization: Bearer, the scheme in any case, any whitespace around the token", async () => {
    for (const authorization of [`Bearer ${key}`, `bearer ${key}`, `BEARER \t${key}  `]) {
      expect(await presented({ authorization }), authorization).toEqual({ kind: "apiKey", rawKey: key });
    }
  });

  test("both headers naming the same key are one key; naming two keys is a conflict", async () => {
    expect(await presented({ "x-api-key": key, authorization: `Bearer ${key}` })).toEqual({ kind: "apiKey", rawKey: key });
    expect(await presented({ "x-api-key": key, authorization: `Bearer ${other}` })).toEqual({ kind: "conflicting" });
  });

  test("an Authorization header that is not exactly `Bearer <one token>` is no credential", async () => {
    for (const authorization of [
      `Basic ${key}`,
      `XBearer ${key}`,
      `Bearer${key}`,
      "Bearer ",
      `Bearer ${key} ${other}`,
      `Token Bearer ${key}`,
    ]) {
      expect(await presented({ authorization }), authorization).toEqual({ kind: "none" });
    }
  });

  test("a malformed Authorization does not hide a valid x-api-key, nor conflict with it", async () => {
    expect(await presented({ "x-api-key": key, authorization: `Basic ${other}` })).toEqual({ kind: "apiKey", rawKey: key });
  });

  test("a blank x-api-key is absent: the Bearer token is the key", async () => {
    expect(await presented({ "x-api-key": "   ", authorization: `Bearer ${key}` })).toEqual({ kind: "apiKey", rawKey: key });
  });

  test("the gateway's key with its proxy headers (trimmed; blank or missing ones are null)", async () => {
    expect(
      await presented({
        "x-gateway-key": " gw-key ",
        "x-gateway-proxy-secret": "proxy-secret",
        "x-gateway-user": "user-7",
        "x-gateway-subscription": " sub-9 ",
        "x-gateway-host": "api.example.test",
      }),
    ).toEqual({
      kind: "gateway",
      gatewayKey: "gw-key",
      proxySecret: "proxy-secret",
      user: "user-7",
      subscription: "sub-9",
      host: "api.example.test",
    });
    expect(await presented({ "x-gateway-key": "gw-key", "x-gateway-user": "  " })).toEqual({
      kind: "gateway",
      gatewayKey: "gw-key",
      proxySecret: null,
      user: null,
      subscription: null,
      host: null,
    });
  });

  test("an API key wins over the gateway's headers; a blank gateway key is none", async () => {
    expect(await presented({ "x-api-key": key, "x-gateway-key": "gw-key" })).toEqual({ kind: "apiKey", rawKey: key });
    expect(await presented({ "x-gateway-key": " ", "x-gateway-user": "user-7" })).toEqual({ kind: "none" });
    expect(await presented({})).toEqual({ kind: "none" });
  });
});

/** The status and error code a request to `path` gets behind `rejectQueryCredentials`. */
async function answer(path: string): Promise<{ status: number; code?: string }> {
  const app = new Hono();
  app.use(rejectQueryCredentials());
  app.get("*", (c) => c.body(null, 204));
  app.onError((err, c) => c.json({ error: err instanceof ApiError ? err.code : "OTHER" }, err instanceof ApiError ? err.status : 500));
  const response = await app.request(path);
  return response.status === 204
    ? { status: 204 }
    : { status: response.status, code: ((await response.json()) as { error: string }).error };
}

/** The message of the refusal of `path`. */
async function refusalMessage(path: string): Promise<string> {
  const app = new Hono();
  app.use(rejectQueryCredentials());
  app.get("*", (c) => c.body(null, 204));
  let message = "";
  app.onError((err, c) => {
    message = err.message;
    return c.body(null, 401);
  });
  await app.request(path);
  return message;
}

const refused = { status: 401, code: "CREDENTIAL_IN_QUERY" };
const passed = { status: 204 };

describe("rejectQueryCredentials", () => {
  test("a request without a credential in its query passes, also when its path ends like a credential's name", async () => {
    for (const path of ["/", "/keys", "/v1/token", "/capabilities?page=2&sort=asc", "/x?"]) {
      expect(await answer(path), path).toEqual(passed);
    }
  });

  test("a parameter named like a credential is refused, whatever its case and separators", async () => {
    for (const name of [
      "api_key",
      "apiKey",
      "API-KEY",
      "x.api.key",
      "key",
      "keys",
      "access_token",
      "tokens",
      "client_secret",
      "secrets",
      "auth",
      "authorization",
      "bearer",
      "credential",
      "credentials",
      "password",
      "passwd",
      "signature",
      "jwt",
      "session",
    ]) {
      expect(await answer(`/capabilities?page=1&${name}=abc`), name).toEqual(refused);
    }
  });

  test("trailing separators do not disguise a credential's name", async () => {
    for (const name of ["key_", "token-", "secret.", "auth%20", "api_key_-."]) {
      expect(await answer(`/capabilities?${name}=abc`), name).toEqual(refused);
    }
  });

  test("array and object syntax hides no credential name, before, inside or after the brackets", async () => {
    for (const name of [
      "api_key[]",
      "key[0]",
      "access_token[x]",
      "x[api_key]",
      "auth[token]",
      "filter[page][secret]",
      "api[]key",
      "a[b]]token",
      "[token]",
    ]) {
      expect(await answer(`/capabilities?${encodeURIComponent(name)}=abc`), name).toEqual(refused);
    }
    for (const name of ["page[0]", "filter[status]", "sort[]", "keyring[x]", "q[tokenizer]", "x[]y"]) {
      expect(await answer(`/capabilities?${encodeURIComponent(name)}=1`), name).toEqual(passed);
    }
  });

  test("a name that only contains a credential word, not ending with it, passes", async () => {
    for (const name of ["keyring", "tokenizer", "author_id", "sessions_count", "signatures_page"]) {
      expect(await answer(`/capabilities?${name}=1`), name).toEqual(passed);
    }
  });

  test("a value or a name shaped like one of our keys is refused, in any case", async () => {
    expect(await answer(`/capabilities?q=${key}`)).toEqual(refused);
    expect(await answer("/capabilities?q=SVC_TEST_abc")).toEqual(refused);
    expect(await answer("/capabilities?svc_test_abc")).toEqual(refused);
    expect(await answer("/capabilities?q=svc_prod_abc")).toEqual(passed);
  });

  test("only the query is read: a key after `#` is not a parameter", async () => {
    expect(await answer(`/capabilities?page=1#q=${key}`)).toEqual(passed);
  });

  test("only the query is read: a key-shaped path segment is the router's business (404), not a query credential", async () => {
    expect(await answer("/keys/svc_live_abc?page=1")).toEqual(passed);
  });

  test("the refusal says where a key belongs and that the leaked one must be rotated", async () => {
    const message = await refusalMessage("/capabilities?api_key=abc");
    expect(message).toContain("only in headers (x-api-key or Authorization: Bearer)");
    expect(message).toContain("revoke or recover it now");
  });
});
