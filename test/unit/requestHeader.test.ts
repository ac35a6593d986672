import { connect } from "node:net";
import { Context, Hono } from "hono";
import { afterEach, describe, expect, test } from "vitest";
import { requestHeader } from "../../api/http/requestHeader";
import { type PublicListener, startPublicListener } from "../../api/listener/startPublicListener";
import { freePort } from "../../devnet/anvil";

/** Both readings of each named header: ours (Node's parse, under our listener) and Hono's (the request's WHATWG Headers). */
const reporting = (names: string[]) =>
  new Hono().get("/", (c) =>
    c.json(Object.fromEntries(names.map((name) => [name, { ours: requestHeader(c, name) ?? null, fetch: c.req.header(name) ?? null }]))),
  );

/** One raw HTTP/1.1 request (header lines exactly as given, repeats included), its answer's JSON body. */
async function rawGet(port: number, headerLines: string[]): Promise<Record<string, { ours: string | null; fetch: string | null }>> {
  const socket = connect(port, "127.0.0.1");
  socket.write(["GET / HTTP/1.1", "Host: 127.0.0.1", "Connection: close", ...headerLines, "", ""].join("\r\n"));
  let text = "";
  for await (const chunk of socket) text += chunk;
  return JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4));
}

describe("requestHeader", () => {
  const open: PublicListener[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((l) => l.close()));
  });

  test("behavior: under our Node listener it reads every header as the Fetch API does, repeated lines joined (Node's own `headers` keeps only the first Authorization)", async () => {
    const names = ["x-api-key", "authorization", "x-forwarded-for", "x-gateway-key"];
    const port = await freePort();
    open.push(await startPublicListener({ host: "127.0.0.1", port, app: reporting(names) }));
    const answers = await rawGet(port, [
      "X-Api-Key:  svc_test_a ",
      "authorization: Bearer svc_test_a",
      "Authorization: Bearer svc_test_b",
      "X-Forwarded-For: 10.0.0.1",
      "x-forwarded-for: 10.0.0.2, 10.0.0.3",
    ]);
    for (const name of names) expect(answers[name]?.ours, name).toBe(answers[name]?.fetch);
    expect(answers.authorization?.ours).toBe("Bearer svc_test_a, Bearer svc_test_b");
    expect(answers["x-forwarded-for"]?.ours).toBe("10.0.0.1, 10.0.0.2, 10.0.0.3");
    expect(answers["x-api-key"]?.ours).toBe("svc_test_a");
    expect(answers["x-gateway-key"]?.ours).toBeNull();
  });

  test("behavior: under our Node listener, reading a header (named in any case) does not build the request's WHATWG Headers (the cost it avoids)", async () => {
    // @hono/node-server builds a request's Headers on first use and keeps them under a symbol of its own.
    const built = (request: Request) => Object.getOwnPropertySymbols(request).some((s) => s.description === "headersKey");
    const port = await freePort();
    const app = new Hono().get("/", (c) => {
      const key = requestHeader(c, "X-Api-Key") ?? null;
      const before = built(c.req.raw);
      c.req.header("x-api-key");
      return c.json({ key, before, after: built(c.req.raw) });
    });
    open.push(await startPublicListener({ host: "127.0.0.1", port, app }));
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { "x-api-key": "svc_test_a" } });
    expect(await res.json()).toEqual({ key: "svc_test_a", before: false, after: true });
  });

  test("behavior: a request made in the app from another (an MCP tool call's, with the connection's env) is read from its own headers", async () => {
    const port = await freePort();
    const app = new Hono().get("/", (c) => {
      const call = new Context(new Request(c.req.url, { headers: { "x-api-key": "svc_test_tool_call" } }), { env: c.env });
      return c.json({ ours: requestHeader(call, "x-api-key") ?? null });
    });
    open.push(await startPublicListener({ host: "127.0.0.1", port, app }));
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { "x-api-key": "svc_test_connection" } });
    expect(await res.json()).toEqual({ ours: "svc_test_tool_call" });
  });

  test("behavior: without a Node request (app.request) it reads Hono's", async () => {
    const res = await reporting(["x-api-key"]).request("/", { headers: { "x-api-key": "svc_test_a" } });
    expect(await res.json()).toEqual({ "x-api-key": { ours: "svc_test_a", fetch: "svc_test_a" } });
  });
});
