import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "../../api/config";
import { acceptsJsonOrSse } from "../../api/mcp/mountMcpRoutes";

describe("MCP configuration", () => {
  test("default: the service's own origins are allowed, 1,000 streams; per address 300 requests a minute and 10 streams", () => {
    expect(loadConfig({}).mcp).toEqual({
      allowedOrigins: ["http://127.0.0.1:42069"],
      maxStreams: 1000,
      requestsPerMinute: 300,
      maxStreamsPerClient: 10,
      streamIdleMs: 300_000,
      maxQueuedBytes: 1_048_576,
    });
    expect(loadConfig({ PUBLIC_URL: "https://api.example.com", FALLBACK_URL: "https://fallback.example" }).mcp.allowedOrigins).toEqual([
      "https://api.example.com",
      "https://fallback.example",
    ]);
  });

  test("args: MCP_ALLOWED_ORIGINS adds origins (a trailing slash dropped, duplicates once); MCP_MAX_SSE_STREAMS and the per-address bounds are set", () => {
    const config = loadConfig({
      PUBLIC_URL: "https://api.example.com",
      MCP_ALLOWED_ORIGINS: "https://app.example/, https://api.example.com",
      MCP_MAX_SSE_STREAMS: "50",
      MCP_REQUESTS_PER_MINUTE: "120",
      MCP_MAX_SSE_STREAMS_PER_CLIENT: "3",
      MCP_SSE_IDLE_SECONDS: "60",
      MCP_SSE_MAX_QUEUED_BYTES: "65536",
    });
    expect(config.mcp).toEqual({
      allowedOrigins: ["https://api.example.com", "https://app.example"],
      maxStreams: 50,
      requestsPerMinute: 120,
      maxStreamsPerClient: 3,
      streamIdleMs: 60_000,
      maxQueuedBytes: 65_536,
    });
  });

  test("error: an origin with a path, a non-http scheme, or a zero bound stops the process", () => {
    for (const bad of [
      { MCP_ALLOWED_ORIGINS: "https://app.example/path" },
      { MCP_ALLOWED_ORIGINS: "ftp://app.example" },
      { MCP_MAX_SSE_STREAMS: "0" },
      { MCP_REQUESTS_PER_MINUTE: "0" },
      { MCP_SSE_MAX_QUEUED_BYTES: "1024" },
    ]) {
      expect(() => loadConfig(bad), JSON.stringify(bad)).toThrow(ConfigError);
    }
  });
});

describe("the Accept rule of POST /mcp", () => {
  test("behavior: JSON, an event stream or a wildcard passes; no header passes; neither, or q=0, does not", () => {
    for (const accept of [
      undefined,
      "",
      "application/json",
      "text/event-stream",
      "*/*",
      "application/*",
      "text/html, application/json;q=0.5",
    ]) {
      expect(acceptsJsonOrSse(accept), String(accept)).toBe(true);
    }
    for (const accept of ["text/html", "image/png, text/plain", "application/json;q=0", "application/xml"]) {
      expect(acceptsJsonOrSse(accept), accept).toBe(false);
    }
  });
});
