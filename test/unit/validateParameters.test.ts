import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import type { AccessEnv } from "../../api/access/AccessControlParameters";
import { handleError } from "../../api/http/errorHandling";
import { validateParameters } from "../../api/http/validateParameters";

/** An app whose one route echoes what `validateParameters` handed it. */
function echoing(schemas: Parameters<typeof validateParameters>[0]) {
  const app = new Hono<AccessEnv>();
  app.get("/items/:address", validateParameters(schemas), (c) =>
    c.json({ param: schemas.params ? c.req.valid("param" as never) : null, query: schemas.query ? c.req.valid("query" as never) : null }),
  );
  app.onError((err, c) => handleError(err, c));
  return app;
}

describe("validateParameters", () => {
  const params = z.object({ address: z.string().regex(/^0x[0-9a-f]{4}$/) });
  const query = z.object({
    days: z.coerce.number().int().max(30).default(7),
    order: z.enum(["asc", "desc"]).optional(),
    tag: z.array(z.string()).optional(),
  });

  test("behavior: the handler reads the schemas' output (decoded, coerced, defaulted), not the raw strings", async () => {
    const app = echoing({ params, query });
    expect(await (await app.request("/items/0x%61bcd")).json()).toEqual({ param: { address: "0xabcd" }, query: { days: 7 } });
    expect(await (await app.request("/items/0xabcd?days=12&order=asc&tag=a&tag=b")).json()).toEqual({
      param: { address: "0xabcd" },
      query: { days: 12, order: "asc", tag: ["a", "b"] },
    });
    // A route with path parameters only ignores its query.
    expect(await (await echoing({ params }).request("/items/0xabcd?days=x")).json()).toEqual({ param: { address: "0xabcd" }, query: null });
  });

  test("error: a path parameter named address is 400 INVALID_ADDRESS, any other refusal 400 INVALID_PARAMETER naming it", async () => {
    const app = echoing({ params, query });
    const badAddress = await app.request("/items/0xzz");
    expect(badAddress.status).toBe(400);
    expect(await badAddress.json()).toMatchObject({ error: "INVALID_ADDRESS" });
    const badDays = await app.request("/items/0xabcd?days=31");
    expect(badDays.status).toBe(400);
    expect(await badDays.json()).toMatchObject({ error: "INVALID_PARAMETER", message: expect.stringContaining("days") });
  });

  test("error: a repeated query parameter reaches the schema as its list of values (refused where one value is expected)", async () => {
    const res = await echoing({ query }).request("/items/0xabcd?days=1&days=2");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "INVALID_PARAMETER", message: expect.stringContaining("days") });
  });
});
