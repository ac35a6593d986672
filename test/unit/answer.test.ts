import { getRequestListener } from "@hono/node-server";
import { Hono, type MiddlewareHandler } from "hono";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ApiError } from "../../api/errors";
import { answer, answerHeader, answerHeaders, beforeAnswer, buildAnswer } from "../../api/http/answer";
import { handleError } from "../../api/http/errorHandling";
import { type PublicListener, startPublicListener } from "../../api/listener/startPublicListener";
import { freePort } from "../../devnet/anvil";

/** Middleware adding two headers (one of them in mixed case) to the answer, as the access middleware does. */
const addsHeaders: MiddlewareHandler = (c, next) => {
  answerHeader(c, "X-RateLimit-Remaining", "7");
  answerHeader(c, "x-shared", "from middleware");
  return next();
};

function appWith(...middleware: MiddlewareHandler[]) {
  const app = new Hono();
  app.onError((err, c) => handleError(err, c, () => {}));
  app.use(answerHeaders(), ...middleware);
  return app;
}

const nativeResponse = globalThis.Response;
// @hono/node-server puts its own Response in the global scope when a listener is made (a lightweight
// one that keeps its body and headers as given): our listener's answers are of that class.
getRequestListener(() => new Response());
const nodeServerResponse = globalThis.Response;
globalThis.Response = nativeResponse;

describe.each([
  ["the native Response", nativeResponse],
  ["@hono/node-server's Response", nodeServerResponse],
])("answer, with %s", (_, responseClass) => {
  beforeAll(() => {
    globalThis.Response = responseClass;
  });
  afterAll(() => {
    globalThis.Response = nativeResponse;
  });

  test("behavior: an answer built by `answer` has the middleware's headers and its own, its own winning, names lowercase", async () => {
    const app = appWith(addsHeaders).get("/", (c) =>
      answer(c, "{}", 201, { "X-Shared": "from handler", "Content-Type": "application/json" }),
    );
    const res = await app.request("/");
    expect(res.status).toBe(201);
    expect(Object.fromEntries(res.headers)).toEqual({
      "x-ratelimit-remaining": "7",
      "x-shared": "from handler",
      "content-type": "application/json",
    });
  });

  test("behavior: an answer built otherwise (c.json, a thrown error, no route, HEAD) gets the middleware's headers where it sets none itself", async () => {
    const app = appWith(addsHeaders)
      .get("/json", (c) => c.json({}, 200, { "x-shared": "from handler" }))
      .get("/error", () => {
        throw new ApiError("RATE_LIMITED", "slow down", {}, { "Retry-After": "3" });
      });
    const json = await app.request("/json");
    expect(json.headers.get("x-ratelimit-remaining")).toBe("7");
    expect(json.headers.get("x-shared")).toBe("from handler");
    const error = await app.request("/error");
    expect(error.status).toBe(429);
    expect(error.headers.get("retry-after")).toBe("3");
    expect(error.headers.get("x-shared")).toBe("from middleware");
    expect((await app.request("/none")).headers.get("x-ratelimit-remaining")).toBe("7");
    // Hono answers HEAD with a Response made from the GET answer's headers.
    const head = await app.request("/json", { method: "HEAD" });
    expect(head.headers.get("x-ratelimit-remaining")).toBe("7");
    expect(head.headers.get("x-shared")).toBe("from handler");
  });

  test("behavior: built otherwise without a body (204), with a body of no content type, or as an event stream (passed on as it flows, never read whole), each gets the middleware's headers", async () => {
    const app = appWith(addsHeaders)
      .get("/none", (c) => c.body(null, 204))
      .get("/raw", (c) => c.body(new TextEncoder().encode("raw")))
      .get("/events", () => {
        // One event, then the stream stays open, as a live event stream does.
        const events = new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(new TextEncoder().encode("data: first\n\n")),
        });
        return new Response(events, { headers: { "content-type": "text/event-stream; charset=utf-8" } });
      });
    const none = await app.request("/none");
    expect([none.status, await none.text(), none.headers.get("x-shared")]).toEqual([204, "", "from middleware"]);
    const raw = await app.request("/raw");
    expect([raw.status, await raw.text(), raw.headers.get("x-shared")]).toEqual([200, "raw", "from middleware"]);
    const events = await app.request("/events");
    expect(events.headers.get("x-shared")).toBe("from middleware");
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: first\n\n");
    await reader.cancel();
  });

  test("behavior: the step of `beforeAnswer` runs once, with the status, before `answer` builds: its header is in the answer, its Response replaces it", async () => {
    const seen: number[] = [];
    const metered =
      (replace: boolean): MiddlewareHandler =>
      async (c, next) => {
        const settle = beforeAnswer(c, async (status) => {
          seen.push(status);
          answerHeader(c, "x-after-step", String(status));
          return replace ? c.json({ replaced: true }, 402) : undefined;
        });
        await next();
        const late = await settle(c.res.status);
        if (late) c.res = late;
      };
    const kept = await appWith(metered(false))
      .get("/", (c) => answer(c, "ok", 200, {}))
      .request("/");
    expect(await kept.text()).toBe("ok");
    expect(kept.headers.get("x-after-step")).toBe("200");
    expect(seen).toEqual([200]);
    const replaced = await appWith(metered(true))
      .get("/", (c) => answer(c, "ok", 203, {}))
      .request("/");
    expect(replaced.status).toBe(402);
    expect(await replaced.json()).toEqual({ replaced: true });
    expect(replaced.headers.get("x-after-step")).toBe("203");
    expect(seen).toEqual([200, 203]);
  });

  test("behavior: without `answer`, the middleware runs the step on the built answer after the handler", async () => {
    const seen: number[] = [];
    const app = appWith(async (c, next) => {
      const settle = beforeAnswer(c, async (status) => {
        seen.push(status);
        answerHeader(c, "x-after-step", "late");
        return undefined;
      });
      await next();
      await settle(c.res.status);
      await settle(c.res.status);
    }).get("/", (c) => c.text("ok", 404));
    const res = await app.request("/");
    expect(res.status).toBe(404);
    expect(res.headers.get("x-after-step")).toBe("late");
    expect(seen).toEqual([404]);
  });
});

describe("answers through our listener", () => {
  let listener: PublicListener | undefined;
  afterAll(() => listener?.close());

  test("behavior: built by `answer` or by c.json, GET and HEAD carry the middleware's headers, and GET its length (not chunked)", async () => {
    const app = appWith(addsHeaders)
      .get("/answer", (c) => answer(c, '{"a":1}', 200, { "content-type": "application/json", "x-service-a": "1" }))
      .get("/json", (c) => c.json({ b: 2 }))
      // An answer built, then replaced by a refusal: the refusal has none of the first answer's own headers.
      .get("/replaced", (c) => {
        buildAnswer(c, "{}", 200, { "x-service-a": "1" });
        return buildAnswer(c, '{"error":"X"}', 402, { "content-type": "application/json" });
      });
    const port = await freePort();
    listener = await startPublicListener({ host: "127.0.0.1", port, app });
    for (const path of ["/answer", "/json"]) {
      const got = await fetch(`http://127.0.0.1:${port}${path}`);
      const body = await got.text();
      expect(got.headers.get("x-ratelimit-remaining"), path).toBe("7");
      expect(got.headers.get("content-length"), path).toBe(String(Buffer.byteLength(body)));
      expect(got.headers.get("transfer-encoding"), path).toBeNull();
      const head = await fetch(`http://127.0.0.1:${port}${path}`, { method: "HEAD" });
      expect(head.headers.get("x-ratelimit-remaining"), `HEAD ${path}`).toBe("7");
      expect(head.headers.get("x-shared"), `HEAD ${path}`).toBe("from middleware");
    }
    const replaced = await fetch(`http://127.0.0.1:${port}/replaced`);
    expect(replaced.status).toBe(402);
    expect(replaced.headers.get("x-service-a")).toBeNull();
    expect(replaced.headers.get("x-ratelimit-remaining")).toBe("7");
  });
});
