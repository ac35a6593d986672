import { createServer } from "node:http";

/**
 * A real JSON-RPC proxy process in front of anvil, for faults we cannot cause on anvil itself:
 * `pass` forwards, `down` answers 503, `alter-hash` rewrites every block hash it forwards (a provider
 * on another fork). The mode changes with `POST /__mode` and body `{"mode": ...}`. `POST /__hold` with
 * `{"block": n}` makes "latest" mean block n (a provider whose head stays there; `null` lets it go);
 * `GET /__counts` answers how many requests of each JSON-RPC method it forwarded.
 * Usage: tsx rpcProxyProcess.ts <targetUrl> <mode>; prints `listening <port>` when ready.
 */
type Mode = "pass" | "down" | "alter-hash";
type JsonRpcRequest = { method?: string; params?: unknown[] };
const [target, initial] = process.argv.slice(2);
if (!target) throw new Error("usage: rpcProxyProcess <targetUrl> [mode]");
let mode: Mode = (initial as Mode | undefined) ?? "pass";
let heldBlock: number | null = null;
const counts: Record<string, number> = {};

/** Counts each request's method and, while a block is held, points "latest" block reads at it. */
function forwarded(body: string): string {
  let parsed: JsonRpcRequest | JsonRpcRequest[];
  try {
    parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[];
  } catch {
    return body;
  }
  for (const request of Array.isArray(parsed) ? parsed : [parsed]) {
    const method = request.method ?? "";
    counts[method] = (counts[method] ?? 0) + 1;
    if (heldBlock !== null && method === "eth_getBlockByNumber" && request.params?.[0] === "latest") {
      request.params[0] = `0x${heldBlock.toString(16)}`;
    }
  }
  return JSON.stringify(parsed);
}

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString();
  if (req.url === "/__mode") {
    mode = (JSON.parse(body) as { mode: Mode }).mode;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ mode }));
    return;
  }
  if (req.url === "/__hold") {
    heldBlock = (JSON.parse(body) as { block: number | null }).block;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ block: heldBlock }));
    return;
  }
  if (req.url === "/__counts") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(counts));
    return;
  }
  if (mode === "down") {
    res.writeHead(503).end("down");
    return;
  }
  const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: forwarded(body) });
  let text = await upstream.text();
  if (mode === "alter-hash")
    text = text.replace(
      /"hash":"(0x[0-9a-f]{63})([0-9a-f])"/g,
      (_, head: string, last: string) => `"hash":"${head}${last === "0" ? "1" : "0"}"`,
    );
  res.writeHead(upstream.status, { "content-type": "application/json" }).end(text);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
