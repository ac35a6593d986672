import { errorFromResponse, RateLimitedError, retryAfterSeconds, ServiceError } from "./errors.js";

/**
 * How a call may be repeated:
 * - `read`: a free GET; repeated after any failure, and moved to the fallback URL.
 * - `metered`: a GET that costs a credit; the service charges only a 2xx, so it is repeated (and moved)
 *   after a refusal (429, 502/503/504) or a connection that never opened, never after a lost answer.
 * - `write`: a POST; repeated only after a 429 or a connection that never opened, never moved.
 */
export type CallKind = "read" | "metered" | "write";

export type RequestParameters = {
  baseUrl: string;
  fallbackUrl: string | undefined;
  timeoutMs: number;
  retries: number;
  /** A longer `Retry-After` is not waited for: the RateLimitedError is thrown at once. */
  maxRetryDelaySeconds: number;
  fetch: typeof fetch;
};

export type Call = { kind: CallKind; method: "GET" | "POST"; path: string; headers: Record<string, string>; body?: unknown };

/** Sends `call`, repeating and moving to the fallback URL by its kind; answers a 2xx Response or throws a ServiceError. */
export async function request(options: RequestParameters, call: Call): Promise<Response> {
  let base = options.baseUrl;
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= options.retries;
    const sent = await send(options, base, call);
    if (sent instanceof Response) {
      if (sent.ok) return sent;
      const error = errorFromResponse(sent.status, await readErrorBody(sent), sent.headers);
      if (last) throw error;
      if (error instanceof RateLimitedError) {
        if (error.retryAfter > options.maxRetryDelaySeconds) throw error;
        await sleep(error.retryAfter * 1000);
        continue;
      }
      if (!gatewayStatuses.has(sent.status) || call.kind === "write") throw error;
      if (options.fallbackUrl && base !== options.fallbackUrl) base = options.fallbackUrl;
      else await sleep((retryAfterSeconds(sent.headers) ?? 0.25 * 2 ** attempt) * 1000);
      continue;
    }
    const repeatable = call.kind === "read" || sent.code === "CONNECTION_REFUSED";
    if (last || !repeatable) throw sent;
    if (call.kind !== "write" && options.fallbackUrl && base !== options.fallbackUrl) base = options.fallbackUrl;
  }
}

const gatewayStatuses = new Set([502, 503, 504]);

async function send(options: RequestParameters, base: string, call: Call): Promise<Response | ServiceError> {
  const headers: Record<string, string> = { accept: "application/json", ...call.headers };
  if (call.body !== undefined) headers["content-type"] = "application/json";
  try {
    return await options.fetch(new URL(call.path, base), {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    return transportError(error, base, options.timeoutMs);
  }
}

/** Why no answer came: the connection never opened (nothing was sent), a timeout, or another failure. */
export function transportError(error: unknown, base: string, timeoutMs: number): ServiceError {
  const name = (error as { name?: string }).name;
  if (name === "TimeoutError" || name === "AbortError") {
    return new ServiceError("TIMEOUT", `no answer from ${base} within ${timeoutMs} ms`, 0);
  }
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  const refused = cause === "ECONNREFUSED" || cause === "ENOTFOUND" || cause === "EAI_AGAIN";
  return new ServiceError(refused ? "CONNECTION_REFUSED" : "CONNECTION_FAILED", `${base}: ${String(error)}`, 0, { cause });
}

/** The body as JSON; an empty body is undefined. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError("INVALID_RESPONSE", `HTTP ${response.status}: the answer is not JSON`, response.status);
  }
}

/** An error answer's body: JSON, or undefined when a proxy answered with something else. */
export async function readErrorBody(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text());
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
