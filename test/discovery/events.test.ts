import { describe, expect, test } from "vitest";
import { ProductCta, ProductPage } from "../../api/events/ProductEvent";
import { backendNames, captureLogs, post } from "../access/support";
import { testManifest } from "../support/devnet";
import { grown, operatorTotals, useDiscoveryBackend } from "./support";

const manifest = testManifest();

/** Bodies `POST /v1/events` refuses with 400: unknown events, fields and values, free text and identifiers. */
const malformed: [string, unknown][] = [
  ["empty object", {}],
  ["unknown event", { event: "purchaseCompleted", page: "home" }],
  ["missing page", { event: "pageViewed" }],
  ["unknown page", { event: "pageViewed", page: "pricing" }],
  ["page in other case", { event: "pageViewed", page: "HOME" }],
  ["page with spaces", { event: "pageViewed", page: " home" }],
  ["free-text page", { event: "pageViewed", page: "my favourite page" }],
  ["missing cta", { event: "ctaClicked", page: "home" }],
  ["free-text cta", { event: "ctaClicked", page: "home", cta: "clicked the big blue button" }],
  ["cta on a page view", { event: "pageViewed", page: "home", cta: "getFreeKey" }],
  ["a wallet", { event: "pageViewed", page: "home", wallet: "0x90F79bf6EB2c4f870365E785982E1f101E93b906" }],
  ["a contract address", { event: "ctaClicked", page: "home", cta: "runDemoAudit", address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }],
  ["an API key", { event: "pageViewed", page: "home", apiKey: "svc_test_1111111111111111111111111111111111111111111" }],
  ["an IP", { event: "pageViewed", page: "home", ip: "203.0.113.7" }],
  ["a user agent", { event: "pageViewed", page: "home", userAgent: "Mozilla/5.0" }],
  ["a referrer", { event: "pageViewed", page: "home", referrer: "https://example.com/" }],
  ["a session id", { event: "pageViewed", page: "home", sessionId: "abc123" }],
  ["a timestamp", { event: "pageViewed", page: "home", at: "2026-01-01T00:00:00Z" }],
  ["a number for the page", { event: "pageViewed", page: 1 }],
  ["an array of events", [{ event: "pageViewed", page: "home" }]],
  ["a string", "pageViewed"],
  ["null", null],
];

describe.each(backendNames)("POST /v1/events on %s", (name) => {
  const suite = useDiscoveryBackend(manifest, name);

  test("default: a page view and a click are 202 with no body, and arrive as today's counters", async () => {
    const before = await operatorTotals(suite.app);
    const viewed = await post(suite.app, "/v1/events", { event: "pageViewed", page: "home" });
    expect(viewed.status).toBe(202);
    expect(await viewed.text()).toBe("");
    for (let i = 0; i < 3; i++) {
      expect((await post(suite.app, "/v1/events", { event: "ctaClicked", page: "docs", cta: "getFreeKey" })).status).toBe(202);
    }
    expect(grown(before, await operatorTotals(suite.app))).toEqual({
      "EVENT pageViewed home": 1,
      "EVENT ctaClicked docs getFreeKey": 3,
    });
  });

  test("behavior: every published page and call to action is accepted", async () => {
    for (const page of ProductPage.options) {
      expect((await post(suite.app, "/v1/events", { event: "pageViewed", page })).status).toBe(202);
      for (const cta of ProductCta.options)
        expect((await post(suite.app, "/v1/events", { event: "ctaClicked", page, cta })).status).toBe(202);
    }
  });

  test("error: unknown fields, values, free text and identifiers are 400 and count nothing", async () => {
    const before = await operatorTotals(suite.app);
    for (const [label, body] of malformed) {
      const res = await post(suite.app, "/v1/events", body);
      expect(res.status, label).toBe(400);
      expect(await res.json(), label).toMatchObject({ error: "INVALID_BODY", message: expect.any(String) });
    }
    const notJson = await suite.app.request("/v1/events", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{event:",
    });
    expect(notJson.status).toBe(400);
    const form = await suite.app.request("/v1/events", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "event=pageViewed",
    });
    expect(form.status).toBe(400);
    const padded = await post(suite.app, "/v1/events", { event: "pageViewed", page: "home", pad: "x".repeat(2000) });
    expect(padded.status).toBe(413);
    expect(grown(before, await operatorTotals(suite.app))).toEqual({});
  });

  test("behavior: nothing identifying reaches the store or the logs (address, user agent, referrer)", async () => {
    const logs = captureLogs();
    const canaries = { "x-forwarded-for": "203.0.113.77", "user-agent": "ua-canary-5d1f", referer: "https://referrer-canary.example/p" };
    try {
      expect((await post(suite.app, "/v1/events", { event: "pageViewed", page: "home" }, canaries)).status).toBe(202);
      expect((await post(suite.app, "/v1/events", { event: "pageViewed", page: "home", wallet: "0xcanary" }, canaries)).status).toBe(400);
      await operatorTotals(suite.app);
    } finally {
      logs.restore();
    }
    const stored = await suite.backend.dump();
    for (const canary of [...Object.values(canaries), "203.0.113", "0xcanary"]) {
      expect(stored.includes(canary), canary).toBe(false);
      expect(logs.text().includes(canary), canary).toBe(false);
    }
  });
});
