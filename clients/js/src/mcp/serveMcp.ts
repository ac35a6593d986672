import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createClient } from "../createClient.js";
import { createMcpServer } from "./createMcpServer.js";
import type { McpConfig } from "./readMcpConfig.js";

/**
 * Serves the service's tools over this process's standard input and output until the MCP client closes
 * them: with the configured API key, or paying each call with x402 from the configured private key.
 */
export async function serveMcp({ client: options, payment }: McpConfig): Promise<void> {
  const signer = payment ? (await import("viem/accounts")).privateKeyToAccount(payment.privateKey) : undefined;
  const client = createClient({
    ...options,
    ...(payment && signer ? { payment: { signer, maxPerCallUsdc: payment.maxPerCallUsdc, maxTotalUsdc: payment.maxTotalUsdc } } : {}),
  });
  // Standard output carries MCP messages only: anything else the command says goes to standard error.
  serveStdio(() => createMcpServer({ client, pay: signer !== undefined }), {
    onerror: (error) => console.error(`base-capability mcp: ${error.message}`),
  });
}
