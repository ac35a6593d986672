import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { FreeChallengeBody, RecoveryChallengeBody } from "../../api/routes/accessRequests";
import { routes } from "../../api/routes/routeList";
import { anyString, headerValue, hexBytes, hexDigits } from "./arbitraries";
import { propertyApp, readAnswer, undocumentedAnswer } from "./support";

/**
 * Property tests of the JSON bodies of the two challenge routes (no credential): arbitrary JSON values,
 * arbitrary strings and arbitrary content types never get a 500, and every refusal is one of the route's
 * documented codes in the one error shape. Cases per property are stated at each `numRuns`; its tests take
 * 3-4 s on an idle 2-core machine, 8-12 s with two CPU hogs and the other property files beside them (a
 * valid body stores an intent in the in-memory app store).
 */

const { app, manifest, close } = propertyApp();
afterAll(close);

const challengeRoutes = [
  { route: routes.freeChallenge, schema: FreeChallengeBody },
  { route: routes.recoveryChallenge, schema: RecoveryChallengeBody },
] as const;

/** Addresses as callers send them: valid (random wallets, so the open-intent cap is never met), near misses, junk. */
const walletish = fc.oneof(
  hexBytes(20, 20).map((h) => `0x${h}`),
  hexDigits(0, 44).map((h) => `0x${h}`),
  anyString(50),
  fc.constant(manifest.accounts.deployer.address),
);
const hashish = fc.oneof(
  hexBytes(32, 32).map((h) => `0x${h}`),
  hexDigits(0, 70).map((h) => `0x${h}`),
  anyString(70),
);
/** Keys that reach into prototypes, and the schemas' own keys. */
const trickyKey = fc.constantFrom("__proto__", "constructor", "prototype", "toString", "userWallet", "txHash", "", " userWallet");

/** Objects near the schemas: the right keys with near-miss values, extra and prototype-reaching keys, nesting. */
const nearSchema = fc
  .tuple(
    fc.option(fc.oneof(walletish, fc.jsonValue({ maxDepth: 1 })), { nil: undefined }),
    fc.option(fc.oneof(hashish, fc.jsonValue({ maxDepth: 1 })), { nil: undefined }),
    fc.dictionary(fc.oneof(trickyKey, fc.string({ maxLength: 10 })), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  )
  .map(([userWallet, txHash, extra]) => {
    // JSON.parse makes `__proto__` an own key; build the text so it is one here too.
    const entries = [
      ...(userWallet === undefined ? [] : [["userWallet", userWallet]]),
      ...(txHash === undefined ? [] : [["txHash", txHash]]),
      ...Object.entries(extra),
    ];
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`;
  });

/** Content types: JSON ones (parameters, case, suffixes), near misses, and arbitrary header values. */
const contentType = fc.oneof(
  fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "APPLICATION/JSON",
    "application/merge-patch+json",
    "application/json;charset=latin1",
    "application/jsonp",
    "application/json-seq",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "text/plain",
    "text/json",
    "json",
    "",
  ),
  headerValue(60),
  headerValue(20).map((v) => `application/${v}json`),
  headerValue(20).map((v) => `application/json${v}`),
);

/** A body text: JSON of any value, near-schema JSON, or any string at all. */
const bodyText = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v) ?? "null"),
  nearSchema,
  anyString(300),
  fc.constantFrom("", " ", "null", "{}", "[]", '{"userWallet":', "\uFEFF{}", '{"userWallet":"0x0000000000000000000000000000000000000001"}'),
);

/** The parsed body when it is JSON, else undefined. */
const parsedJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const post = (path: string, body: string, type: string | undefined) =>
  app.request(path, { method: "POST", headers: type === undefined ? {} : { "content-type": type }, body });

describe("POST /v1/subscribe/free/challenge and /v1/keys/recovery/challenge, through createApp", () => {
  test("behavior: any JSON value as the body is a documented answer, never a 500; a 2xx only for a body the schema accepts (300 cases)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...challengeRoutes),
        fc.oneof(fc.jsonValue(), nearSchema.map(parsedJson)),
        async ({ route, schema }, value) => {
          const text = JSON.stringify(value) ?? "null";
          const answer = await readAnswer(await post(route.path, text, "application/json"));
          expect(undocumentedAnswer(answer, route), text).toBeNull();
          if (answer.status < 300) expect(schema.safeParse(value).success, text).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("behavior: any string as the body is a documented answer, never a 500 (300 cases)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...challengeRoutes), bodyText, async ({ route }, text) => {
        const answer = await readAnswer(await post(route.path, text, "application/json"));
        expect(undocumentedAnswer(answer, route), text).toBeNull();
        if (parsedJson(text) === undefined) expect(answer.body).toMatchObject({ error: "MALFORMED_JSON" });
      }),
      { numRuns: 300 },
    );
  });

  test("behavior: any content type, with any body, is a documented answer, never a 500 (300 cases)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...challengeRoutes),
        fc.option(contentType, { nil: undefined }),
        bodyText,
        async ({ route }, type, text) => {
          const answer = await readAnswer(await post(route.path, text, type));
          expect(undocumentedAnswer(answer, route), `${type}: ${text}`).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  test("behavior: a valid body is taken under any content type the service reads as JSON, and refused as UNSUPPORTED_CONTENT_TYPE under any other (200 cases)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...challengeRoutes), hexBytes(20, 20), contentType, async ({ route }, wallet, type) => {
        const text = JSON.stringify({ userWallet: `0x${wallet}` });
        const answer = await readAnswer(await post(route.path, text, type));
        expect(undocumentedAnswer(answer, route), type).toBeNull();
        if (answer.status >= 300) expect(answer.body, JSON.stringify(type)).toMatchObject({ error: "UNSUPPORTED_CONTENT_TYPE" });
      }),
      { numRuns: 200 },
    );
  });
});
