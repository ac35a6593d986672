/** Where Ponder 0.17 keeps the address its own server binds: `globalThis.PONDER_COMMON.options`. */
type PonderProcess = { PONDER_COMMON?: { options?: { port?: unknown; hostname?: unknown } } };

/** The interface Ponder's own server (`/status`, `/metrics`, `/client`, ...) is confined to. */
export const indexerServerHost = "127.0.0.1";

/**
 * Moves Ponder's own HTTP server to 127.0.0.1:`port`. Ponder takes its port from PORT (the public
 * listener's) and binds after it has loaded the API file, reading these options then; so this, run from
 * the API file, is in time for `ponder start`, `serve` and `dev`. Throws (which stops Ponder) when the
 * options are not where Ponder 0.17 keeps them, rather than let Ponder's server take a public address.
 */
export function confineIndexerServer(port: number) {
  const options = (globalThis as PonderProcess).PONDER_COMMON?.options;
  if (typeof options?.port !== "number") {
    throw new Error("Ponder's server options are not at globalThis.PONDER_COMMON.options (Ponder 0.17): cannot confine its server");
  }
  options.port = port;
  options.hostname = indexerServerHost;
}
