import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRateLimits } from "../../api/access/createRateLimits";
import { type Backend, openBackend } from "../access/support";
import { unlimitedRates, viaTestProxy } from "../support/access";
import { testManifest } from "../support/devnet";
import { discoveryApp } from "./support";

const manifest = testManifest();
const budget = 3;
const claim = { intentId: "int_000000000000000000000000", signature: `0x${"11".repeat(65)}` };

/** Every keyless route the spec gives a 429, with a request for it (valid or not: the limit comes first). */
const keylessRoutes: [string, string, unknown?][] = [
  ["GET", "/v1/status"],
  ["GET", "/v1/stats"],
  ["POST", "/v1/events", { event: "pageViewed", page: "home" }],
  ["GET", "/v1/plans"],
  ["GET", "/v1/samples"],
  ["GET", "/v1/sample?name=gas-fees"],
  ["GET", "/v1/demo/audit/0x1234"],
  ["POST", "/v1/subscribe/free/challenge", { userWallet: "0x12" }],
  ["POST", "/v1/subscribe/free/claim", claim],
  ["POST", "/v1/subscribe/intents", { tier: "GOLD" }],
  ["POST", "/v1/subscribe/crypto", { ...claim, txHash: `0x${"ab".repeat(32)}` }],
  ["POST", "/v1/keys/recovery/challenge", { userWallet: "0x12" }],
  ["POST", "/v1/keys/recovery/claim", claim],
];

describe("keyless routes are limited per client address", () => {
  let backend: Backend;
  let app: ReturnType<typeof discoveryApp>["app"];
  beforeAll(async () => {
    backend = await openBackend("pglite");
    ({ app } = discoveryApp(manifest, backend, { rateLimits: createRateLimits({ perMinute: { ...unlimitedRates, PUBLIC: budget } }) }));
  });
  afterAll(() => backend.close());

  const send = (method: string, path: string, body: unknown, ip: string) =>
    app.request(
      path,
      {
        method,
        headers: { "x-forwarded-for": ip, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      viaTestProxy,
    );

  test.each(keylessRoutes.map(([method, path, body], i) => [`${method} ${path}`, method, path, body, i] as const))(
    "behavior: %s, flooded from one /64, is 429 with an integer Retry-After and the JSON error; another /64 is not",
    async (_name, method, path, body, i) => {
      const network = `2001:db8:${(i + 1).toString(16)}`;
      for (let n = 0; n < budget; n++) {
        const res = await send(method, path, body, `${network}:0::${n + 1}`);
        expect(res.status, `${path} request ${n + 1}`).not.toBe(429);
      }
      const refused = await send(method, path, body, `${network}:0:ffff::1`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(await refused.json()).toMatchObject({ error: "RATE_LIMITED", message: expect.any(String) });
      expect((await send(method, path, body, `${network}:1::1`)).status).not.toBe(429);
    },
  );
});
