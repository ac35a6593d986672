import type { ClientParameters } from "../createClient.js";
import { usdcToAtomic } from "../payWithX402.js";
import type { Hex } from "../types.js";

/** What the `mcp` command is configured with, from its environment. */
export type McpConfig = {
  client: Omit<ClientParameters, "payment">;
  /** Pay per call with x402 (only without an API key). */
  payment: { privateKey: Hex; maxPerCallUsdc: string; maxTotalUsdc?: string } | null;
};

/** The environment variables the `mcp` command reads (documented in the README). */
export const mcpEnv = {
  baseUrl: "BASE_CAPABILITY_URL",
  fallbackUrl: "BASE_CAPABILITY_FALLBACK_URL",
  apiKey: "BASE_CAPABILITY_API_KEY",
  privateKey: "BASE_CAPABILITY_PRIVATE_KEY",
  maxPerCallUsdc: "BASE_CAPABILITY_MAX_USDC_PER_CALL",
  maxTotalUsdc: "BASE_CAPABILITY_MAX_USDC_TOTAL",
} as const;

/** The command's configuration, or why it cannot run (a message for its standard error). */
export function readMcpConfig(env: Readonly<Record<string, string | undefined>>): McpConfig | { error: string } {
  const read = (name: keyof typeof mcpEnv) => env[mcpEnv[name]]?.trim() || undefined;
  const baseUrl = read("baseUrl");
  if (!baseUrl || !URL.canParse(baseUrl)) return { error: `${mcpEnv.baseUrl} must be the service's URL, e.g. https://api.example.com` };
  const fallbackUrl = read("fallbackUrl");
  if (fallbackUrl && !URL.canParse(fallbackUrl)) return { error: `${mcpEnv.fallbackUrl} is not a URL` };
  const apiKey = read("apiKey");
  const client = { baseUrl, ...(fallbackUrl ? { fallbackUrl } : {}), ...(apiKey ? { apiKey } : {}) };
  const privateKey = read("privateKey");
  if (!privateKey || apiKey) return { client, payment: null };
  if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey)) return { error: `${mcpEnv.privateKey} must be 0x and 64 hex digits` };
  // Paying needs an explicit cap: a tool call never spends more than its user agreed to.
  const maxPerCallUsdc = read("maxPerCallUsdc");
  if (!maxPerCallUsdc || !isUsdcAmount(maxPerCallUsdc)) {
    return { error: `${mcpEnv.maxPerCallUsdc} must be a USDC amount (e.g. 0.02) to pay with ${mcpEnv.privateKey}` };
  }
  const maxTotalUsdc = read("maxTotalUsdc");
  if (maxTotalUsdc && !isUsdcAmount(maxTotalUsdc)) return { error: `${mcpEnv.maxTotalUsdc} must be a USDC amount, e.g. 1` };
  return { client, payment: { privateKey: privateKey as Hex, maxPerCallUsdc, ...(maxTotalUsdc ? { maxTotalUsdc } : {}) } };
}

function isUsdcAmount(value: string): boolean {
  try {
    usdcToAtomic(value);
    return true;
  } catch {
    return false;
  }
}
