import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { handleError, methodNotAllowedOrNotFound } from "../../api/http/errorHandling";
import { parseJson } from "../../api/http/parseJson";

/** A small app wired exactly as createApp wires its routes, with a JSON route and a route that throws. */
function appUnderTest() {
  const logged: unknown[] = [];
  const app = new Hono();
  app.post("/v1/echo", async (c) => c.json(await parseJson(c, z.object({ n: z.number().int() }).strict())));
  app.get("/v1/boom", () => {
    throw new Error("secret detail");
  });
  app.all("*", methodNotAllowedOrNotFound(app));
  app.onError((err, c) => handleError(err, c, (_m, e) => logged.push(e)));
  return { app, logged };
}

const json = (body: string, type = "application/json") => ({ method: "POST", headers: { "content-type": type }, body });

describe("the one error shape", () => {
  test("default: a valid JSON body reaches the handler", async () => {
    const res = await appUnderTest().app.request("/v1/echo", json('{"n": 3}'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ n: 3 });
  });

  test("error: unknown route is 404 JSON", async () => {
    const res = await appUnderTest().app.request("/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "NOT_FOUND", message: "no route GET /v1/nothing-here" });
  });

  test("error: wrong method is 405 JSON with Allow", async () => {
    const res = await appUnderTest().app.request("/v1/echo");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toMatchObject({ error: "METHOD_NOT_ALLOWED" });
  });

  test("error: malformed JSON is 400 MALFORMED_JSON", async () => {
    const res = await appUnderTest().app.request("/v1/echo", json('{"n": '));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "MALFORMED_JSON" });
  });

  test("error: a body the schema refuses is 400 INVALID_BODY naming the field", async () => {
    const res = await appUnderTest().app.request("/v1/echo", json('{"n": "x", "extra": 1}'));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; issues: { path: string }[] };
    expect(body.error).toBe("INVALID_BODY");
    expect(body.issues.map((i) => i.path)).toContain("n");
  });

  test("error: a non-JSON content type is 400", async () => {
    const res = await appUnderTest().app.request("/v1/echo", json('{"n": 1}', "text/plain"));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "UNSUPPORTED_CONTENT_TYPE" });
  });

  test("error: an oversized body is 400 BODY_TOO_LARGE", async () => {
    const res = await appUnderTest().app.request("/v1/echo", json(JSON.stringify({ n: 1, pad: "x".repeat(70_000) })));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "BODY_TOO_LARGE" });
  });

  test("error: a thrown error is 500 INTERNAL_ERROR without its detail, and is logged", async () => {
    const { app, logged } = appUnderTest();
    const res = await app.request("/v1/boom");
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: "INTERNAL_ERROR", message: "the service failed to answer this request" });
    expect(text).not.toContain("secret detail");
    expect(logged).toHaveLength(1);
  });
});
