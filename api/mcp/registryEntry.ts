import type { ServiceOrigins } from "../config";
import { site } from "../routes/site";
import { mcpServerInfo } from "./createMcpServerFactory";
import { mcpEndpoints, mcpServerDescription } from "./mcpEndpoints";
import { stdioEnvironment, stdioPackage } from "./stdioPackage";

/** The official MCP registry's server.json schema this entry follows (a copy: docs/schemas/mcp-registry-server-2025-12-11.schema.json). */
export const registrySchemaUrl = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** The header a remote client is configured with: the paid tools' API key (x402 is paid per call, not configured). */
const apiKeyHeader = {
  name: "x-api-key",
  description: "An API key: each paid tool call spends one of its credits. Without one, paid tools return their x402 payment requirements",
  isRequired: false,
  isSecret: true,
};

/**
 * The server's entry for the official MCP registry (GET /.well-known/mcp/server.json, what `mcp-publisher
 * publish` sends) as reached at `origin`: the remote endpoints of the server card, and the stdio package
 * (clients/mcp), under its `mcpName` (the registry checks an npm package by it).
 */
export function registryEntry(origin: string, origins: ServiceOrigins) {
  // The stdio command's fallback for idempotent reads: the deployment's other origin, if it has two.
  const fallback = origin === origins.public ? origins.fallback : origins.public;
  return {
    $schema: registrySchemaUrl,
    name: stdioPackage.mcpName,
    title: mcpServerInfo.title,
    description: mcpServerDescription,
    version: mcpServerInfo.version,
    websiteUrl: `${origin}${site.path}`,
    remotes: mcpEndpoints(origin).map(({ type, url }) => ({ type, url, headers: [apiKeyHeader] })),
    packages: [
      {
        registryType: "npm",
        identifier: stdioPackage.name,
        version: stdioPackage.version,
        runtimeHint: "npx",
        transport: { type: "stdio" },
        environmentVariables: stdioEnvironment(origin, fallback),
      },
    ],
  };
}
