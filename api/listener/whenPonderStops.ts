/** Where Ponder 0.17 keeps the shutdown of the API file it loaded: `globalThis.PONDER_COMMON.apiShutdown`. */
type PonderProcess = { PONDER_COMMON?: { apiShutdown?: { add?: (callback: () => Promise<unknown>) => void } } };

/**
 * Runs `callback` when Ponder stops (or, in dev mode, reloads) the API file: its shutdown awaits the
 * callback (up to its 5-second grace) before the process exits. Throws when Ponder 0.17's shutdown is
 * not there, rather than let leased credits be dropped unnoticed at every stop.
 */
export function whenPonderStops(callback: () => Promise<unknown>) {
  const shutdown = (globalThis as PonderProcess).PONDER_COMMON?.apiShutdown;
  if (typeof shutdown?.add !== "function") {
    throw new Error("Ponder's API shutdown is not at globalThis.PONDER_COMMON.apiShutdown (Ponder 0.17)");
  }
  shutdown.add(() =>
    callback().catch((error: unknown) => console.error("[api] at shutdown:", error instanceof Error ? error.message : error)),
  );
}
