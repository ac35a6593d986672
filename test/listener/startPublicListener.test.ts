import { Agent, get } from "node:http";
import { Hono } from "hono";
import { afterEach, describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "../../api/config";
import { confineIndexerServer } from "../../api/listener/confineIndexerServer";
import { keepAliveTimeoutMs, type PublicListener, startPublicListener } from "../../api/listener/startPublicListener";
import { freePort } from "../../devnet/anvil";

const answering = (text: string) => new Hono().get("/", (c) => c.text(text));

describe("startPublicListener", () => {
  const open: PublicListener[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((l) => l.close()));
  });

  test("behavior: serves the app on host:port, then the app `use` hands it", async () => {
    const port = await freePort();
    const listener = await startPublicListener({ host: "127.0.0.1", port, app: answering("first") });
    open.push(listener);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("first");
    listener.use(answering("second"));
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("second");
  });

  test("behavior: close frees the port", async () => {
    const port = await freePort();
    const listener = await startPublicListener({ host: "127.0.0.1", port, app: answering("up") });
    await fetch(`http://127.0.0.1:${port}/`);
    await listener.close();
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    open.push(await startPublicListener({ host: "127.0.0.1", port, app: answering("again") }));
  });

  test("behavior: close resolves only once the requests in flight are answered, on every call (a stopping replica drains)", async () => {
    const port = await freePort();
    let arrived = () => {};
    const reached = new Promise<void>((done) => (arrived = done));
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    const slow = new Hono().get("/", async (c) => {
      arrived();
      await held;
      return c.text("answered");
    });
    const listener = await startPublicListener({ host: "127.0.0.1", port, app: slow });
    const inFlight = fetch(`http://127.0.0.1:${port}/`);
    await reached;
    const settled: string[] = [];
    const first = listener.close().then(() => settled.push("first"));
    const second = listener.close().then(() => settled.push("second"));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(settled).toEqual([]);
    release();
    expect(await (await inFlight).text()).toBe("answered");
    await Promise.all([first, second]);
    expect(settled.sort()).toEqual(["first", "second"]);
  });

  test("behavior: an idle kept-alive connection outlives Node's 5-second default, so a client reusing it is not reset", async () => {
    const port = await freePort();
    open.push(await startPublicListener({ host: "127.0.0.1", port, app: answering("up") }));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const request = () =>
      new Promise<{ reused: boolean; body: string }>((done, fail) => {
        const req = get(`http://127.0.0.1:${port}/`, { agent }, (res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d.toString()));
          res.on("end", () => done({ reused: req.reusedSocket, body }));
        });
        req.once("error", fail);
      });
    try {
      expect(await request()).toEqual({ reused: false, body: "up" });
      // Past Node's default keepAliveTimeout (5 s), which closed this connection before.
      await new Promise((r) => setTimeout(r, 6_000));
      expect(await request()).toEqual({ reused: true, body: "up" });
      expect(keepAliveTimeoutMs).toBeGreaterThan(60_000);
    } finally {
      agent.destroy();
    }
  });

  test("error: a port in use rejects the start", async () => {
    const port = await freePort();
    open.push(await startPublicListener({ host: "127.0.0.1", port, app: answering("up") }));
    await expect(startPublicListener({ host: "127.0.0.1", port, app: answering("second") })).rejects.toThrow(/EADDRINUSE/);
  });
});

describe("confineIndexerServer", () => {
  const holder = globalThis as { PONDER_COMMON?: unknown };
  afterEach(() => {
    delete holder.PONDER_COMMON;
  });

  test("default: puts Ponder's server on 127.0.0.1 at the given port", () => {
    const options = { port: 42069, hostname: undefined as string | undefined };
    holder.PONDER_COMMON = { options };
    confineIndexerServer(42070);
    expect(options).toEqual({ port: 42070, hostname: "127.0.0.1" });
  });

  test("error: outside a Ponder process it throws rather than leave Ponder's server where it is", () => {
    expect(() => confineIndexerServer(42070)).toThrow(/PONDER_COMMON/);
  });
});

describe("INDEXER_PORT", () => {
  test("default: 42070, beside the API's 42069", () => {
    expect(loadConfig({})).toMatchObject({ port: 42069, indexerPort: 42070 });
    expect(loadConfig({ PORT: "8080", INDEXER_PORT: "9090" })).toMatchObject({ port: 8080, indexerPort: 9090 });
  });

  test("error: the API's own port is refused", () => {
    expect(() => loadConfig({ PORT: "8080", INDEXER_PORT: "8080" })).toThrow(ConfigError);
    expect(() => loadConfig({ INDEXER_PORT: "42069" })).toThrow(/INDEXER_PORT/);
  });
});
