/** The app store could not be opened or migrated: requests that need it wait for `ready`, then fail with this. */
export class StoreNotReadyError extends Error {
  override name = "StoreNotReadyError";
}

/** Stores seen ready. */
const opened = new WeakSet<Promise<void>>();

/**
 * Waits for the app store's migrations; a store that cannot be opened is a StoreNotReadyError (503).
 * Once it has been seen ready, undefined: a metered call checks it twice, and each check made a
 * promise (`.catch`) and took turns of the microtask queue to settle it.
 */
export function awaitStore(ready: Promise<void>): Promise<void> | undefined {
  if (opened.has(ready)) return undefined;
  return ready.then(
    () => {
      opened.add(ready);
    },
    (cause) => {
      throw new StoreNotReadyError("the app store could not be opened", { cause });
    },
  );
}

/**
 * Whether an error means the app store cannot be reached (connection refused or lost, server shutting
 * down or out of connections, PGlite closed), as opposed to a bug: the former is a 503, never a 500.
 */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof StoreNotReadyError) return true;
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
