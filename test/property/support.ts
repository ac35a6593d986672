import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { createApp } from "../../api/app";
import { type ErrorCode, errorCodes } from "../../api/errors";
import type { IndexDb } from "../../api/index/indexDb";
import type { RouteDefinition } from "../../api/routes/defineRoute";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";

/** createApp with real dependencies against the test devnet (an empty PGlite index), as test/api/errors.test.ts builds it. */
export function propertyApp(overrides: Parameters<typeof testAppParameters>[2] = {}) {
  const manifest = testManifest();
  const pglite = new PGlite();
  const indexDb = drizzle(pglite) as unknown as IndexDb;
  const app = createApp(testAppParameters(manifest, indexDb, overrides));
  return { app, manifest, indexDb, close: () => pglite.close() };
}

/** What an answer was, for a property's failure message. */
export type Answer = { status: number; body: unknown; text: string };

/** Reads an answer whole (its text, and the JSON it holds when it is JSON). */
export async function readAnswer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

/**
 * Why `answer` breaks the one error shape (`{error, message}` with a known code whose status is the
 * answer's, `retryable: true` on a retryable code), or null when it keeps it; 2xx answers are not errors.
 */
export function errorShapeProblem(answer: Answer): string | null {
  if (answer.status < 400) return null;
  const body = answer.body as Record<string, unknown> | undefined;
  if (typeof body !== "object" || body === null) return `status ${answer.status} without a JSON object: ${answer.text.slice(0, 200)}`;
  if (typeof body.error !== "string" || typeof body.message !== "string") return `no {error, message}: ${answer.text.slice(0, 200)}`;
  const spec = errorCodes[body.error as ErrorCode];
  if (!spec) return `unknown error code ${body.error}`;
  if (spec.status !== answer.status) return `${body.error} answered with ${answer.status}, its status is ${spec.status}`;
  if (spec.retryable && body.retryable !== true) return `${body.error} is retryable but does not say so`;
  return null;
}

/**
 * Why `answer` is not one the route table documents for `route` (a success status of its entry, or an
 * error code of its list in the one error shape), or null. `alsoAllowed`: codes the app answers before
 * any route is matched (404 NOT_FOUND, 405 METHOD_NOT_ALLOWED for a path that leaves the route).
 */
export function undocumentedAnswer(answer: Answer, route: RouteDefinition, alsoAllowed: readonly ErrorCode[] = []): string | null {
  if (answer.status < 400) {
    return Object.keys(route.responses).includes(String(answer.status))
      ? null
      : `${route.name} answered ${answer.status}: ${answer.text.slice(0, 200)}`;
  }
  const shape = errorShapeProblem(answer);
  if (shape) return shape;
  const code = (answer.body as { error: ErrorCode }).error;
  return route.errors.includes(code) || alsoAllowed.includes(code)
    ? null
    : `${route.name} answered ${code}, not in its route table entry: ${answer.text.slice(0, 300)}`;
}
