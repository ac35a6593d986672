import { readFileSync } from "node:fs";
import { z } from "zod";

/** The fields of the stdio package's package.json that the registry entry names. */
const StdioPackageJson = z.object({
  name: z.string(),
  version: z.string(),
  /** The server's name in the MCP registry: the registry checks a listed npm package by this field. */
  mcpName: z.string(),
});

/**
 * The server's stdio package (clients/mcp: `npx @base-capability/mcp`, the JS client's MCP command with the
 * MCP SDK and x402 as dependencies, so it starts as listed): read from its package.json, so the registry
 * entry names the package, version and mcpName that npm holds.
 */
export const stdioPackage = StdioPackageJson.parse(
  JSON.parse(readFileSync(new URL("../../clients/mcp/package.json", import.meta.url), "utf8")),
);

/**
 * The stdio command's environment (clients/js/README.md, "Stdio MCP command"; clients/mcp/README.md), as the registry describes a
 * package's inputs. `origin` and `fallback` are this deployment's: the entry points the command at it.
 */
export function stdioEnvironment(origin: string, fallback: string | undefined) {
  return [
    { name: "BASE_CAPABILITY_URL", description: "The service's origin", isRequired: true, value: origin },
    ...(fallback ? [{ name: "BASE_CAPABILITY_FALLBACK_URL", description: "A replica for idempotent reads", value: fallback }] : []),
    { name: "BASE_CAPABILITY_API_KEY", description: "An API key: each paid tool call spends one of its credits", isSecret: true },
    {
      name: "BASE_CAPABILITY_PRIVATE_KEY",
      description: "Without an API key: a wallet (0x and 64 hex digits) that pays each call with x402, in USDC on Base",
      isSecret: true,
    },
    {
      name: "BASE_CAPABILITY_MAX_USDC_PER_CALL",
      description: "Required to pay with the wallet: the most one call may pay, e.g. 0.02",
      format: "number",
    },
    { name: "BASE_CAPABILITY_MAX_USDC_TOTAL", description: "The most the command pays while it runs", format: "number" },
  ];
}
