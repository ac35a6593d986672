import { hash, randomBytes } from "node:crypto";
import type { Socket } from "node:net";
import type { Context } from "hono";
import { nodeRequestOf } from "../http/requestHeader";

/** This process's salt: a fingerprint means nothing outside it. */
const salt = randomBytes(32).toString("hex");

/**
 * A credential as this process's memories of credentials know it: SHA-256 under a salt that lives only
 * in this process's memory (a map key compared for equality, never shown or stored: no MAC is needed).
 * The failed-authentication guard remembers credentials by it, and the key hashes are remembered under
 * it; neither keeps a credential itself (an open connection keeps its last one: `fingerprintPresented`).
 */
export function fingerprintCredential(credential: string): string {
  return hash("sha256", salt + credential);
}

const lastPresented = Symbol("lastPresented");

type RememberingSocket = Socket & { [lastPresented]?: { credential: string; fingerprint: string } };

/**
 * `fingerprintCredential` of a credential the request presents, remembered on the request's connection
 * for its next request that presents the same credential: a client's keep-alive connection sends its
 * key with every call, and the SHA-256 (the first of a request's crypto calls) cost the keyed price
 * route about 5 µs an answer under load (docs/operations.md#the-market-route). The two are compared in
 * constant time, since a load balancer's connection carries many clients' requests; a connection holds
 * only the last credential it presented, until it closes. A request not made by our listener (an MCP
 * tool call's, `app.request`) is fingerprinted afresh.
 */
export function fingerprintPresented(c: Context, credential: string): string {
  const socket = nodeRequestOf(c)?.socket as RememberingSocket | null | undefined;
  const last = socket?.[lastPresented];
  if (last && sameInConstantTime(last.credential, credential)) return last.fingerprint;
  const fingerprint = fingerprintCredential(credential);
  if (socket) socket[lastPresented] = { credential, fingerprint };
  return fingerprint;
}

/** Whether `a` and `b` are the same text, in a time that depends on their lengths only. */
function sameInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
