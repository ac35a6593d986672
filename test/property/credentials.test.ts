import { createHash } from "node:crypto";
import fc from "fast-check";
import type { Context } from "hono";
import { Hono } from "hono";
import { afterAll, describe, expect, test } from "vitest";
import { readCredential } from "../../api/access/readCredential";
import { rejectQueryCredentials } from "../../api/access/rejectQueryCredentials";
import { ApiError } from "../../api/errors";
import { routes } from "../../api/routes/routeList";
import { testAccessServices } from "../support/access";
import { anyString, credentialName, headerValue, namesNoCredential, percentEncode, wellFormed } from "./arbitraries";
import { propertyApp, readAnswer, undocumentedAnswer } from "./support";

/**
 * Property tests of the credential parsers a caller feeds: the credential headers (`readCredential`) and
 * the refusal of credentials in the query string (`rejectQueryCredentials`), alone and through createApp.
 * Cases per property are stated at each `numRuns`; its tests take 3-4 s on an idle 2-core machine, 8-12 s
 * with two CPU hogs and the other property files beside them.
 */

const credentialHeaders = [
  "x-api-key",
  "authorization",
  "x-gateway-key",
  "x-gateway-proxy-secret",
  "x-gateway-user",
  "x-gateway-subscription",
  "x-gateway-host",
];

/**
 * A Context whose only parts readCredential uses are `req.raw` (a request our listener did not make)
 * and `req.header(name)`: any string, even one no HTTP stack would carry.
 */
const headerContext = (headers: Record<string, string | undefined>) =>
  ({ req: { raw: {}, header: (name: string) => headers[name.toLowerCase()] } }) as unknown as Context;

/** Header values as callers send them: arbitrary, empty, blank, Bearer-shaped, key-shaped. */
const credentialHeaderValue = (value: fc.Arbitrary<string>) =>
  fc.option(
    fc.oneof(
      value,
      fc.constantFrom(
        "",
        " ",
        "\t",
        "Bearer",
        "Bearer ",
        "bearer  x ",
        "Basic abc",
        "svc_test_1111111111111111111111111111111111111111111",
      ),
      value.map((v) => `Bearer ${v}`),
      value.map((v) => `BEARER\t${v}  `),
    ),
    { nil: undefined },
  );

const headerRecord = (value: fc.Arbitrary<string>) =>
  fc.record(
    Object.fromEntries(credentialHeaders.map((h) => [h, credentialHeaderValue(value)])) as Record<string, fc.Arbitrary<string | undefined>>,
  );

describe("readCredential, alone", () => {
  test("behavior: never throws, and what it reads follows from the headers (1,000 cases of arbitrary strings)", () => {
    fc.assert(
      fc.property(headerRecord(anyString(80)), (headers) => {
        const credential = readCredential(headerContext(headers));
        const apiKey = headers["x-api-key"]?.trim() || null;
        const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? "")?.[1] ?? null;
        switch (credential.kind) {
          case "conflicting":
            expect(apiKey !== null && bearer !== null && apiKey !== bearer).toBe(true);
            break;
          case "apiKey":
            expect(credential.rawKey.length).toBeGreaterThan(0);
            expect(credential.rawKey).toBe(credential.rawKey.trim());
            expect([apiKey, bearer]).toContain(credential.rawKey);
            break;
          case "gateway":
            expect(apiKey ?? bearer).toBeNull();
            expect(credential.gatewayKey).toBe(headers["x-gateway-key"]?.trim());
            break;
          case "none":
            expect(apiKey ?? bearer ?? (headers["x-gateway-key"]?.trim() || null)).toBeNull();
        }
      }),
      { numRuns: 1000 },
    );
  });

  test("behavior: through Hono, header values as fetch carries them never throw (300 cases)", async () => {
    const app = new Hono().get("/", (c) => c.json(readCredential(c)));
    await fc.assert(
      fc.asyncProperty(headerRecord(headerValue()), async (headers) => {
        const sent = Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
        const res = await app.request("/", { headers: sent });
        expect(res.status).toBe(200);
        const credential = (await res.json()) as { kind: string };
        expect(["apiKey", "gateway", "conflicting", "none"]).toContain(credential.kind);
      }),
      { numRuns: 300 },
    );
  });
});

describe("rejectQueryCredentials, alone", () => {
  const middleware = rejectQueryCredentials();
  /** What the middleware does with `url`: "next", "refused", or the unexpected error it threw. */
  const run = async (url: string) => {
    let passed = false;
    try {
      await middleware({ req: { url } } as unknown as Context, async () => {
        passed = true;
      });
    } catch (err) {
      if (err instanceof ApiError && err.code === "CREDENTIAL_IN_QUERY") return "refused";
      return err;
    }
    return passed ? "next" : "neither";
  };

  test("behavior: any string after `?` never throws anything but CREDENTIAL_IN_QUERY (1,000 cases)", async () => {
    await fc.assert(
      fc.asyncProperty(anyString(300), async (query) => {
        expect(["next", "refused"]).toContain(await run(`http://127.0.0.1/v1/plans?${query}`));
      }),
      { numRuns: 1000 },
    );
  });

  test("behavior: a refusal always names something credential-like; a query of plain names and values passes (1,000 cases)", async () => {
    const pair = fc.tuple(anyString(30), anyString(30));
    await fc.assert(
      fc.asyncProperty(fc.array(pair, { maxLength: 6 }), async (pairs) => {
        const query = pairs.map(([n, v]) => `${percentEncode(n)}=${percentEncode(v)}`).join("&");
        const outcome = await run(`http://127.0.0.1/v1/plans?${query}`);
        expect(["next", "refused"]).toContain(outcome);
        const credentialLike = pairs.some(([n, v]) => !namesNoCredential(wellFormed(n)) || /svc_(live|test)_/i.test(wellFormed(v)));
        if (!credentialLike) expect(outcome).toBe("next");
      }),
      { numRuns: 1000 },
    );
  });
});

describe("credentials in the URL and in headers, through createApp", () => {
  const { app, manifest, indexDb, close } = propertyApp();
  afterAll(close);
  const address = manifest.accounts.deployer.address;

  const paths = ["/v1/plans", "/v1/keys/self", `/v1/audit/${address}`, `/v1/demo/audit/${address}`, "/v1/nothing-here", "/health"];
  const plainParam = fc
    .tuple(anyString(20), anyString(20))
    .map(([n, v]) => [wellFormed(n), wellFormed(v)] as const)
    .filter(([n, v]) => namesNoCredential(n) && !/svc_(live|test)_/i.test(v));

  test("error: a parameter named like a credential (any case, `-`/`_`/`.` anywhere, any value, any route) is 401 CREDENTIAL_IN_QUERY (300 cases)", async () => {
    await fc.assert(
      fc.asyncProperty(
        credentialName,
        anyString(40),
        fc.array(plainParam, { maxLength: 3 }),
        fc.nat(),
        fc.constantFrom(...paths),
        fc.constantFrom("GET", "POST", "DELETE"),
        async (name, value, others, at, path, method) => {
          const params = others.map(([n, v]) => `${percentEncode(n)}=${percentEncode(v)}`);
          params.splice(at % (params.length + 1), 0, `${percentEncode(name, at % 3 === 0)}=${percentEncode(value)}`);
          const answer = await readAnswer(await app.request(`${path}?${params.join("&")}`, { method }));
          expect(answer.status, `${name}: ${answer.text}`).toBe(401);
          expect(answer.body).toMatchObject({ error: "CREDENTIAL_IN_QUERY" });
        },
      ),
      { numRuns: 300 },
    );
  });

  test("behavior: parameters whose names and values name no credential are ignored: GET /v1/plans is 200 (200 cases)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(plainParam, { minLength: 1, maxLength: 5 }), async (pairs) => {
        const query = pairs.map(([n, v]) => `${percentEncode(n)}=${percentEncode(v)}`).join("&");
        const answer = await readAnswer(await app.request(`/v1/plans?${query}`));
        expect(answer.status, `?${query}: ${answer.text}`).toBe(200);
      }),
      { numRuns: 200 },
    );
  });

  test("behavior: an arbitrary query string on GET /v1/plans is 200 or 401 CREDENTIAL_IN_QUERY, never anything else (300 cases)", async () => {
    const rawQuery = fc.oneof(
      fc.tuple(anyString(200), fc.boolean()).map(([s, all]) => percentEncode(s, all)),
      fc.string({ unit: fc.constantFrom(..."abkeytons_-.=&%+;#?/ 0123456789ABCDEFxX~!'()*"), maxLength: 80 }),
      fc.string({ maxLength: 120 }),
    );
    await fc.assert(
      fc.asyncProperty(rawQuery, async (query) => {
        const answer = await readAnswer(await app.request(`/v1/plans?${query}`));
        expect(undocumentedAnswer(answer, routes.plans), `?${query}`).toBeNull();
        expect([200, 401]).toContain(answer.status);
      }),
      { numRuns: 300 },
    );
  });

  test("behavior: arbitrary credential headers on keyed routes are answered with the routes' own codes, never 500 (200 cases)", async () => {
    const gatewayDigest = createHash("sha256").update("the-gateway-proxy-secret-of-this-test").digest("hex");
    const { app: gatewayApp, close: closeGateway } = propertyApp({
      ...testAccessServices(manifest, indexDb, { gatewayProxySecretSha256: gatewayDigest }),
    });
    try {
      await fc.assert(
        fc.asyncProperty(
          headerRecord(headerValue(80)),
          fc.constantFrom(
            { route: routes.keySelf, path: "/v1/keys/self", method: "GET" },
            { route: routes.audit, path: `/v1/audit/${address}`, method: "GET" },
            { route: routes.preflight, path: "/v1/transaction/preflight", method: "POST" },
          ),
          async (headers, { route, path, method }) => {
            const sent = Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
            const res = await gatewayApp.request(path, {
              method,
              headers: { ...sent, "content-type": "application/json" },
              body: method === "POST" ? "{}" : undefined,
            });
            const answer = await readAnswer(res);
            expect(undocumentedAnswer(answer, route), JSON.stringify(sent)).toBeNull();
            expect(answer.status).not.toBe(200);
          },
        ),
        { numRuns: 200 },
      );
    } finally {
      await closeGateway();
    }
  });
});

describe("found by the properties above (open)", () => {
  const { app, close } = propertyApp();
  afterAll(close);

  // Was: the refusal compared the whole normalized name with credential words at its end, so array or
  // index syntax after the name (`api_key[]`, `access_token[0]`) let a credential-named parameter through.
  test("regression: a credential name with array or index syntax (api_key[], access_token[0]) is 401 CREDENTIAL_IN_QUERY", async () => {
    for (const name of ["api_key[]", "access_token[0]", "x-api-key[]", "token[]", "client_secret[x]"]) {
      const res = await app.request(`/v1/plans?${encodeURIComponent(name)}=gw-0123456789abcdef`);
      expect(res.status, name).toBe(401);
    }
  });
});
