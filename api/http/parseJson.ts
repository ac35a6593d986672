import type { Context } from "hono";
import type { z } from "zod";
import { badRequest } from "../errors";

/** Largest request body any JSON route accepts. */
export const maxJsonBodyBytes = 64 * 1024;

/**
 * Reads the request body as JSON and validates it with `schema`. Malformed JSON, a wrong content
 * type, an oversized body, or a body the schema refuses are all 400s that say which.
 */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw badRequest("UNSUPPORTED_CONTENT_TYPE", "the body must be JSON with content-type application/json");
  }
  const text = await c.req.text();
  if (text.length > maxJsonBodyBytes) {
    throw badRequest("BODY_TOO_LARGE", `the body must be at most ${maxJsonBodyBytes} bytes`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest("MALFORMED_JSON", "the body is not valid JSON");
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    throw badRequest("INVALID_BODY", describeIssues(result.error), {
      issues: result.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
    });
  }
  return result.data;
}

/** Validates a path or query value with `schema`, as a 400 naming the parameter. */
export function parseParam<S extends z.ZodType>(name: string, value: unknown, schema: S, code = "INVALID_PARAMETER"): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(code, `${name}: ${result.error.issues[0]?.message ?? "invalid"}`);
  return result.data;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length > 0 ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
    .join("; ");
}
