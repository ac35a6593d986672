import type { Context } from "hono";
import type { ServiceOrigins } from "../config";

/** The configured origin a request reached us through: the fallback host's when its Host names it, else the public one. */
export function requestOrigin(c: Context, origins: ServiceOrigins): string {
  const host = c.req.header("host") ?? new URL(c.req.url).host;
  return origins.fallback && new URL(origins.fallback).host === host ? origins.fallback : origins.public;
}
