import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { RpcProxyMode as Mode } from "./rpcProxy";

/**
 * A real JSON-RPC proxy process in front of anvil, for faults we cannot cause on anvil itself:
 * `pass` forwards, `down` answers 503, `alter-hash` rewrites every block hash it forwards (a provider
 * on another fork), `lie-call` answers every `eth_call` with true (0x…01: a liar that would make any
 * smart-wallet signature valid), `inflate-transfer:<amount>` rewrites the amount of every ERC-20
 * `Transfer` log in the receipts it forwards, `drop-broadcast-answer` forwards an `eth_sendRawTransaction`
 * and drops its answer (the connection is cut: a settlement whose outcome the sender cannot know),
 * `hold-broadcast-answer` does the same once `POST /__release` is called (`GET /__held` answers how many
 * it holds: a broadcast still in flight while other work completes; one held goes on being held when the
 * mode changes), `error-broadcast-answer` forwards an `eth_sendRawTransaction` and answers a JSON-RPC
 * internal error (a gateway that failed after it forwarded), `no-hash-broadcast-answer` the same with a
 * `null` result instead of the hash, `refuse-broadcast` answers one, without forwarding it, as a node
 * refuses a transaction its sender cannot pay gas for, `no-fill-transaction` answers
 * `eth_fillTransaction` as a node without it does (-32601) and forwards the rest, `refuse-state-reads`
 * answers every state-bearing read (`eth_getCode`, `eth_getStorageAt`, `eth_call`) with a provider's
 * limit error and forwards the rest (block reads: an observation pins, then its reads are cut; the
 * refused reads are counted too), `empty-code` answers every `eth_getCode` with `0x` (a provider that
 * wrongly says no contract is there).
 * The mode changes with `POST /__mode` and body
 * `{"mode": ...}`. `POST /__hold` with `{"block": n}` makes "latest" mean block n (a provider whose head
 * stays there; `null` lets it go). `GET /__requests` answers how many HTTP requests it received,
 * `GET /__counts` how many requests of each JSON-RPC method it forwarded.
 * Usage: tsx rpcProxyProcess.ts <targetUrl> <mode> [port]; prints `listening <port>` when ready (a
 * port given again brings a killed provider back at the same URL).
 */
type RpcMessage = { id?: unknown; method?: string; params?: unknown[]; result?: unknown };
const stateBearing = new Set(["eth_getCode", "eth_getStorageAt", "eth_call"]);
const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const [targetArg, initial, port] = process.argv.slice(2);
if (!targetArg) throw new Error("usage: rpcProxyProcess <targetUrl> [mode]");
const target: string = targetArg;
let mode: Mode = (initial as Mode | undefined) ?? "pass";
let requests = 0;
let heldBlock: number | null = null;
const counts: Record<string, number> = {};
/** The held broadcasts' releases (`hold-broadcast-answer`); one whose client hung up leaves. */
const held = new Set<() => void>();

/** Releases every held broadcast (its answer is then dropped). */
function releaseAll() {
  for (const release of held) release();
  held.clear();
}

/** Counts each request's method and, while a block is held, points "latest" block reads at it. */
function forwarded(body: string): string {
  let parsed: RpcMessage | RpcMessage[];
  try {
    parsed = JSON.parse(body) as RpcMessage | RpcMessage[];
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

/** One request through the proxy: a control path, or a JSON-RPC call forwarded as the mode says. */
async function answer(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString();
  if (req.url === "/__mode") {
    mode = (JSON.parse(body) as { mode: Mode }).mode;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ mode }));
    return;
  }
  if (req.url === "/__requests") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ requests }));
    return;
  }
  if (req.url === "/__hold") {
    heldBlock = (JSON.parse(body) as { block: number | null }).block;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ block: heldBlock }));
    return;
  }
  if (req.url === "/__held") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ held: held.size }));
    return;
  }
  if (req.url === "/__release") {
    releaseAll();
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
    return;
  }
  if (req.url === "/__counts") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(counts));
    return;
  }
  requests += 1;
  if (mode === "down") {
    res.writeHead(503).end("down");
    return;
  }
  if (mode === "no-fill-transaction" && body.includes('"eth_fillTransaction"')) {
    answerRpc(res, body, { error: { code: -32601, message: "the method eth_fillTransaction does not exist/is not available" } });
    return;
  }
  if (mode === "refuse-state-reads") {
    await refuseStateReads(res, body);
    return;
  }
  if (mode === "refuse-broadcast" && body.includes('"eth_sendRawTransaction"')) {
    answerRpc(res, body, { error: { code: -32003, message: "insufficient funds for gas * price + value" } });
    return;
  }
  const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: forwarded(body) });
  if ((mode === "error-broadcast-answer" || mode === "no-hash-broadcast-answer") && body.includes('"eth_sendRawTransaction"')) {
    await upstream.text();
    answerRpc(res, body, mode === "error-broadcast-answer" ? { error: { code: -32603, message: "internal error" } } : { result: null });
    return;
  }
  if ((mode === "drop-broadcast-answer" || mode === "hold-broadcast-answer") && body.includes('"eth_sendRawTransaction"')) {
    await upstream.text();
    // A client gone already (it gave up, or SIGTERM closed its connection) has no answer to hold.
    if (mode === "hold-broadcast-answer" && !req.socket.destroyed) {
      await new Promise<void>((release) => {
        const done = () => {
          held.delete(done);
          release();
        };
        held.add(done);
        res.once("close", done);
      });
    }
    res.destroy();
    return;
  }
  let text = await upstream.text();
  if (mode === "lie-call" || mode === "empty-code" || mode === "empty-overridden-call" || mode.startsWith("inflate-transfer:"))
    text = rewrite(body, text);
  if (mode === "alter-hash")
    text = text.replace(
      /"hash":"(0x[0-9a-f]{63})([0-9a-f])"/g,
      (_, head: string, last: string) => `"hash":"${head}${last === "0" ? "1" : "0"}"`,
    );
  res.writeHead(upstream.status, { "content-type": "application/json" }).end(text);
}

/** Answers the request in `body` (viem sends these methods alone, not in a batch) with `outcome`: an error or a result. */
function answerRpc(res: ServerResponse, body: string, outcome: { error: { code: number; message: string } } | { result: unknown }) {
  const { id } = JSON.parse(body) as RpcMessage;
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, ...outcome }));
}

/** `refuse-state-reads`: the state-bearing reads of a request (or batch) answered with a limit error, the others forwarded. */
async function refuseStateReads(res: ServerResponse, body: string) {
  const parsed = JSON.parse(body) as RpcMessage | RpcMessage[];
  const asked = ([] as RpcMessage[]).concat(parsed);
  const passed = asked.filter((r) => !stateBearing.has(r.method ?? ""));
  for (const refused of asked.filter((r) => stateBearing.has(r.method ?? ""))) {
    const method = refused.method ?? "";
    counts[method] = (counts[method] ?? 0) + 1;
  }
  const answers: RpcMessage[] = [];
  if (passed.length > 0) {
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: forwarded(JSON.stringify(passed)) };
    answers.push(...([] as RpcMessage[]).concat(JSON.parse(await (await fetch(target, init)).text())));
  }
  const byId = new Map(answers.map((a) => [JSON.stringify(a.id), a]));
  const merged = asked.map((r) =>
    stateBearing.has(r.method ?? "")
      ? { jsonrpc: "2.0", id: r.id, error: { code: -32005, message: "request limit exceeded" } }
      : byId.get(JSON.stringify(r.id)),
  );
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Array.isArray(parsed) ? merged : merged[0]));
}

// A failure (the node behind it stopped first, a client gone mid-request) is answered as a gateway would, never a crash.
const server = createServer((req, res) => {
  answer(req, res).catch(() => (res.headersSent ? res.destroy() : res.writeHead(502).end("upstream unreachable")));
});

/** Applies `lie-call`, `empty-code`, `empty-overridden-call` or `inflate-transfer` to the answers of the requests they concern. */
function rewrite(requestBody: string, responseText: string): string {
  const asked = ([] as RpcMessage[]).concat(JSON.parse(requestBody));
  const methods = new Map(asked.map((r) => [JSON.stringify(r.id), r.method]));
  // An eth_call whose state override places code (its third parameter): as a provider that ignores it would answer.
  const overridden = new Set(
    asked.filter((r) => r.method === "eth_call" && JSON.stringify(r.params?.[2] ?? {}).includes('"code"')).map((r) => JSON.stringify(r.id)),
  );
  const parsed = JSON.parse(responseText) as RpcMessage | RpcMessage[];
  for (const answer of ([] as RpcMessage[]).concat(parsed)) {
    const method = methods.get(JSON.stringify(answer.id));
    if (mode === "lie-call" && method === "eth_call") {
      answer.result = `0x${"0".repeat(63)}1`;
      delete (answer as { error?: unknown }).error;
    }
    if (mode === "empty-code" && method === "eth_getCode") answer.result = "0x";
    if (mode === "empty-overridden-call" && overridden.has(JSON.stringify(answer.id))) {
      answer.result = "0x";
      delete (answer as { error?: unknown }).error;
    }
    if (mode.startsWith("inflate-transfer:") && method === "eth_getTransactionReceipt" && answer.result) {
      const amount = BigInt(mode.slice("inflate-transfer:".length));
      for (const log of (answer.result as { logs?: { topics: string[]; data: string }[] }).logs ?? []) {
        if (log.topics[0] === transferTopic) log.data = `0x${amount.toString(16).padStart(64, "0")}`;
      }
    }
  }
  return JSON.stringify(parsed);
}

server.listen(Number(port ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => {
  // Open connections (a held broadcast's, one still waiting on the node) would keep the server from closing.
  releaseAll();
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
