import { createServer, request } from "node:http";

/**
 * A real HTTP proxy process in front of the service, for the faults a client must survive and that the
 * service does not cause on demand: `POST /__fault` with `{"fault": "503" | "drop", "path": prefix,
 * "header"?: name, "times": n}` arms a fault for the next n requests whose path starts with `path` (and
 * that carry `header`, when given): `503` answers 503 `DATA_SOURCE_UNAVAILABLE` with `Retry-After: 1`
 * without forwarding; `drop` forwards, reads the service's whole answer (the call was served, and
 * charged), then cuts the connection. `GET /__log` answers every request seen: method, path, what was done.
 * Usage: tsx httpFaultProxyProcess.ts <targetUrl>; prints `listening <port>` when ready.
 */
type Fault = { fault: "503" | "drop"; path: string; header?: string; times: number };
type Seen = { method: string; path: string; at: number; outcome: "forwarded" | "503" | "dropped" };
const [target] = process.argv.slice(2);
if (!target) throw new Error("usage: httpFaultProxyProcess <targetUrl>");
const upstream = new URL(target);
const faults: Fault[] = [];
const log: Seen[] = [];

/** The armed fault this request meets (one of its times is used), or undefined. */
function faultFor(path: string, headers: Record<string, unknown>): Fault | undefined {
  const fault = faults.find((f) => f.times > 0 && path.startsWith(f.path) && (!f.header || headers[f.header.toLowerCase()] !== undefined));
  if (fault) fault.times -= 1;
  return fault;
}

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const path = req.url ?? "/";
  if (path === "/__fault") {
    faults.push(JSON.parse(body.toString()) as Fault);
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
    return;
  }
  if (path === "/__log") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(log));
    return;
  }
  const seen: Seen = { method: req.method ?? "GET", path, at: Date.now(), outcome: "forwarded" };
  log.push(seen);
  const fault = faultFor(path, req.headers);
  if (fault?.fault === "503") {
    seen.outcome = "503";
    const answer = { error: "DATA_SOURCE_UNAVAILABLE", message: "the fault proxy answered 503", retryable: true };
    res.writeHead(503, { "content-type": "application/json", "retry-after": "1" }).end(JSON.stringify(answer));
    return;
  }
  const forwarded = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } },
    async (answer) => {
      if (fault?.fault === "drop") {
        for await (const _ of answer);
        seen.outcome = "dropped";
        res.socket?.destroy();
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forwarded.on("error", () => res.socket?.destroy());
  forwarded.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
