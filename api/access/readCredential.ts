import type { Context } from "hono";
import { requestHeader } from "../http/requestHeader";

/** What a request presents in its headers (never its URL). */
export type PresentedCredential =
  | { kind: "apiKey"; rawKey: string }
  | {
      kind: "gateway";
      gatewayKey: string;
      proxySecret: string | null;
      user: string | null;
      subscription: string | null;
      host: string | null;
    }
  | { kind: "conflicting" }
  | { kind: "none" };

/**
 * Reads the credential headers: an API key in `x-api-key` or `Authorization: Bearer` (both present
 * must agree), else the marketplace gateway's `x-gateway-key` with its proxy headers.
 */
export function readCredential(c: Context): PresentedCredential {
  const header = (name: string) => requestHeader(c, name)?.trim() || null;
  const apiKey = header("x-api-key");
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(requestHeader(c, "authorization") ?? "")?.[1] ?? null;
  if (apiKey && bearer && apiKey !== bearer) return { kind: "conflicting" };
  const rawKey = apiKey ?? bearer;
  if (rawKey) return { kind: "apiKey", rawKey };
  const gatewayKey = header("x-gateway-key");
  if (gatewayKey) {
    return {
      kind: "gateway",
      gatewayKey,
      proxySecret: header("x-gateway-proxy-secret"),
      user: header("x-gateway-user"),
      subscription: header("x-gateway-subscription"),
      host: header("x-gateway-host"),
    };
  }
  return { kind: "none" };
}
