import type { CreditService } from "../access/createCreditService";
import type { Config } from "../config";
import type { IndexDb } from "../index/indexDb";
import { onePerProcess } from "../memo/onePerProcess";
import { createServerApp } from "../server";
import { closeOnShutdown } from "./closeOnShutdown";
import { type PublicListener, startPublicListener } from "./startPublicListener";

/**
 * Serves the API (with its probes) on HOST:PORT from our own listener, started once per process (a
 * reloaded API file swaps in its new app). Resolves once the port is bound, with the listener and the
 * app's credit service: the caller drains the one and gives the other's leased credits back when the
 * process stops.
 */
export async function listenPublicApi(indexDb: IndexDb, config: Config): Promise<{ credits: CreditService; listener: PublicListener }> {
  const { app, credits } = createServerApp(indexDb, config);
  const listener = await onePerProcess("publicListener", () =>
    startPublicListener({ host: config.host, port: config.port, app }).then((started) => {
      closeOnShutdown(started);
      console.log(`[api] listening on http://${config.host}:${config.port}`);
      return started;
    }),
  );
  listener.use(app);
  return { credits, listener };
}
