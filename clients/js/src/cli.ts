#!/usr/bin/env node
import { readMcpConfig } from "./mcp/readMcpConfig.js";

const usage = `usage: base-capability mcp
  A local MCP server over stdio with the service's six tools. Environment:
  BASE_CAPABILITY_URL (required), BASE_CAPABILITY_FALLBACK_URL, BASE_CAPABILITY_API_KEY,
  or BASE_CAPABILITY_PRIVATE_KEY with BASE_CAPABILITY_MAX_USDC_PER_CALL (and BASE_CAPABILITY_MAX_USDC_TOTAL) to pay per call.`;

/** Runs the command; its exit code when it ends at once (the MCP server otherwise runs until stdin closes). */
async function main([command]: string[]): Promise<number | undefined> {
  if (command !== "mcp") {
    console.error(usage);
    return 2;
  }
  const config = readMcpConfig(process.env);
  if ("error" in config) {
    console.error(`base-capability mcp: ${config.error}`);
    return 2;
  }
  // Loaded here: the MCP SDK (and viem, to pay) are optional peer dependencies of the library.
  const loaded = await import("./mcp/serveMcp.js").catch((error: { code?: string; message: string }) => error);
  if ("code" in loaded && loaded.code === "ERR_MODULE_NOT_FOUND") {
    console.error(`base-capability mcp needs @modelcontextprotocol/server beside this package: ${loaded.message}`);
    return 1;
  }
  if (!("serveMcp" in loaded)) throw loaded;
  await loaded.serveMcp(config);
  return undefined;
}

process.exitCode = await main(process.argv.slice(2));
