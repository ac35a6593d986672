import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { mcp, mcpMessages, mcpSse } from "./mcpRoutes";

/** The 2026-era revision the v2 server packages negotiate (they do not export their list of it). */
const modernProtocolVersions = ["2026-07-28"] as const;

/**
 * What the server does, in one sentence: the server card and the registry entry both say it, so it fits the
 * registry's bound on `description` (100 characters).
 */
export const mcpServerDescription = "Static bytecode capability observations of Base contracts and sourced Base market data";

/**
 * The remote endpoints of the server at `origin`, with the protocol versions each speaks: the server card lists
 * them and the registry entry is built from them, so the two cannot name different URLs.
 */
export function mcpEndpoints(origin: string) {
  return [
    {
      type: "streamable-http",
      url: `${origin}${mcp.path}`,
      protocolVersions: [...modernProtocolVersions, ...SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= "2025-03-26")],
    },
    {
      type: "sse",
      url: `${origin}${mcpSse.path}`,
      messagesUrl: `${origin}${mcpMessages.path}`,
      protocolVersions: ["2024-11-05"],
    },
  ] as const;
}
