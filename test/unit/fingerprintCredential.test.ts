import { Agent, request } from "node:http";
import { Hono } from "hono";
import { afterEach, describe, expect, test } from "vitest";
import { fingerprintCredential, fingerprintPresented } from "../../api/access/fingerprintCredential";
import { nodeRequestOf } from "../../api/http/requestHeader";
import { type PublicListener, startPublicListener } from "../../api/listener/startPublicListener";
import { freePort } from "../../devnet/anvil";

/** What the connection of a request remembers, read through the symbol's description (it is not exported). */
function rememberedOn(socket: object | undefined): unknown {
  if (!socket) return undefined;
  const key = Object.getOwnPropertySymbols(socket).find((s) => s.description === "lastPresented");
  return key ? (socket as Record<symbol, unknown>)[key] : undefined;
}

/** An app answering, for the credential in `x-credential`, its fingerprint as presented and as computed afresh, and what the connection then remembers. */
const reporting = new Hono().get("/", (c) => {
  const credential = c.req.header("x-credential") ?? "";
  const presented = fingerprintPresented(c, credential);
  return c.json({
    presented,
    fresh: fingerprintCredential(credential),
    remembered: rememberedOn(nodeRequestOf(c)?.socket ?? undefined) ?? null,
  });
});

/** GET / with `credential` over `agent` (one keep-alive connection): the answer's JSON and the local port it went out from. */
function get(port: number, agent: Agent, credential: string) {
  return new Promise<{ body: { presented: string; fresh: string; remembered: unknown }; localPort: number }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/", agent, headers: { "x-credential": credential } }, (res) => {
      let text = "";
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () => resolve({ body: JSON.parse(text), localPort: req.socket?.localPort ?? 0 }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("fingerprintPresented", () => {
  const open: PublicListener[] = [];
  const agents: Agent[] = [];
  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.destroy();
    await Promise.all(open.splice(0).map((l) => l.close()));
  });

  test("behavior: on one keep-alive connection each request gets its own credential's fingerprint, whatever the connection presented before", async () => {
    const port = await freePort();
    open.push(await startPublicListener({ host: "127.0.0.1", port, app: reporting }));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    // Same length, differing in the last character only; then back to the first; then a longer one.
    const sequence = ["svc_test_aaaa1", "svc_test_aaaa1", "svc_test_aaaa2", "svc_test_aaaa1", "svc_test_aaaa1x", ""];
    const answers = [];
    for (const credential of sequence) answers.push(await get(port, agent, credential));
    expect(new Set(answers.map((a) => a.localPort)).size).toBe(1);
    for (const [i, { body }] of answers.entries()) {
      expect(body.presented, sequence[i]).toBe(body.fresh);
      expect(body.presented).toBe(fingerprintCredential(sequence[i] as string));
      // The connection remembers the last credential it presented, with its fingerprint.
      expect(body.remembered).toEqual({ credential: sequence[i], fingerprint: body.fresh });
    }
    expect(answers[0]?.body.presented).not.toBe(answers[2]?.body.presented);
  });

  test("behavior: a request not made by our listener (app.request, an MCP tool call's) is fingerprinted afresh", async () => {
    const res = await reporting.request("/", { headers: { "x-credential": "svc_test_b" } });
    const body = (await res.json()) as { presented: string; fresh: string; remembered: unknown };
    expect(body.presented).toBe(fingerprintCredential("svc_test_b"));
    expect(body.remembered).toBeNull();
  });

  test("property: fingerprints are 64 hex digits, equal for equal credentials and different for different ones", () => {
    const credentials = ["", "a", "b", "svc_live_x", "svc_live_y", "é", "e\u0301"];
    const fingerprints = credentials.map(fingerprintCredential);
    for (const f of fingerprints) expect(f).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(fingerprints).size).toBe(credentials.length);
    expect(fingerprintCredential("svc_live_x")).toBe(fingerprints[3]);
  });
});
