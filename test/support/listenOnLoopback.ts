import type { Server } from "node:http";

/** `server` listening on a free loopback port: its URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}/`;
}

/** Closes `server` and every connection it holds; nothing when there is none. */
export async function closeServer(server: Server | undefined): Promise<void> {
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done) ?? done(undefined));
}
