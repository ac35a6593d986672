/**
 * Whether an error means the app store cannot be reached (connection refused or lost, server shutting
 * down or out of connections, PGlite closed), as opposed to a bug: the former is a 503, never a 500.
 */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (/^E(CONN|TIMEDOUT|HOSTUNREACH|NOTFOUND|PIPE|AI_AGAIN)/.test(code) || /^(08|53|57P)/.test(code)))
      return true;
    if (
      /PGlite is clos(ed|ing)|Connection terminated|Cannot use a pool after calling end|timeout exceeded when trying to connect/i.test(
        e.message,
      )
    )
      return true;
    if (e instanceof AggregateError && e.errors.some(isStoreUnavailable)) return true;
  }
  return false;
}
