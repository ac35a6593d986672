#!/usr/bin/env node
import { runMcpCommand } from "./mcp/runMcpCommand.js";

const usage = `usage: base-capability mcp
  A local MCP server over stdio with the service's tools. Environment:
  BASE_CAPABILITY_URL (required), BASE_CAPABILITY_FALLBACK_URL, BASE_CAPABILITY_API_KEY,
  or BASE_CAPABILITY_PRIVATE_KEY with BASE_CAPABILITY_MAX_USDC_PER_CALL (and BASE_CAPABILITY_MAX_USDC_TOTAL) to pay per call.`;

const [command] = process.argv.slice(2);
if (command === "mcp") {
  process.exitCode = await runMcpCommand(process.env);
} else {
  console.error(usage);
  process.exitCode = 2;
}
