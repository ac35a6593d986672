import type { PublicListener } from "./startPublicListener";

/** Closes the listener on SIGINT or SIGTERM, beside Ponder's own shutdown on the same signals. */
export function closeOnShutdown(listener: PublicListener) {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void listener.close());
}
