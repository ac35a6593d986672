import { readMcpConfig } from "./readMcpConfig.js";

/**
 * Runs the stdio MCP server configured by `env` (the `mcp` command of this package's `base-capability` bin,
 * and the whole of the `@base-capability/mcp` package): its exit code when it ends at once, `undefined` while
 * the server runs (until the MCP client closes standard input).
 */
export async function runMcpCommand(env: Readonly<Record<string, string | undefined>>): Promise<number | undefined> {
  const config = readMcpConfig(env);
  if ("error" in config) {
    console.error(`base-capability mcp: ${config.error}`);
    return 2;
  }
  // Loaded here: the MCP SDK (and viem, to pay) are optional peer dependencies of the library, and
  // dependencies of @base-capability/mcp.
  const loaded = await import("./serveMcp.js").catch((error: { code?: string; message: string }) => error);
  if ("code" in loaded && loaded.code === "ERR_MODULE_NOT_FOUND") {
    console.error(
      `base-capability mcp needs @modelcontextprotocol/server beside this package (or run @base-capability/mcp): ${loaded.message}`,
    );
    return 1;
  }
  if (!("serveMcp" in loaded)) throw loaded;
  await loaded.serveMcp(config);
  return undefined;
}
