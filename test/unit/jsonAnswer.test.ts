import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { answerJson } from "../../api/http/jsonAnswer";

describe("answerJson", () => {
  test("behavior: a shared answer is sent as its JSON with the given status and headers; its text is made once", async () => {
    const answer = { price: "2500.5", pools: [{ dex: "UNISWAP_V3", depthUsd: "1000" }], note: 'quote " and \u2028' };
    const other = { price: "1" };
    let serve: object = answer;
    const app = new Hono();
    app.get("/", (c) => answerJson(c, serve, { headers: { "X-Service-Trust-Level": "TRUSTED_PRIMARY" }, shared: true }));
    const first = await app.request("/");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json");
    expect(first.headers.get("x-service-trust-level")).toBe("TRUSTED_PRIMARY");
    expect(await first.text()).toBe(JSON.stringify(answer));
    // The text was kept for this object: a change after it was answered (which callers never make) is not seen.
    answer.price = "1";
    expect(await (await app.request("/")).text()).toBe(JSON.stringify({ ...answer, price: "2500.5" }));
    serve = other;
    expect(await (await app.request("/")).json()).toEqual(other);
  });

  test("behavior: an answer not shared is sent as the value's JSON as it is now, with the given status and headers", async () => {
    const value = { status: "UP", n: 1 };
    const app = new Hono().get("/", (c) => answerJson(c, value, { status: 202, headers: { "X-Service-RPC-Provider": "devnet" } }));
    const first = await app.request("/");
    expect(first.status).toBe(202);
    expect(first.headers.get("content-type")).toBe("application/json");
    expect(first.headers.get("x-service-rpc-provider")).toBe("devnet");
    expect(await first.json()).toEqual({ status: "UP", n: 1 });
    value.n = 2;
    expect(await (await app.request("/")).json()).toEqual({ status: "UP", n: 2 });
  });
});
