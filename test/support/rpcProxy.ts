import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";

export type RpcProxyMode = "pass" | "down" | "alter-hash" | "lie-call" | "drop-broadcast-answer" | `inflate-transfer:${string}`;
export type RpcProxy = {
  url: string;
  setMode(mode: RpcProxyMode): Promise<void>;
  /** JSON-RPC requests (HTTP requests, a batch counting once) the proxy has received so far. */
  requests(): Promise<number>;
  /** Makes "latest" mean `block` for block reads through the proxy (a head that stays); null lets it go. */
  holdHead(block: number | null): Promise<void>;
  /** How many requests of each JSON-RPC method the proxy forwarded so far. */
  counts(): Promise<Record<string, number>>;
  stop(): Promise<void>;
};

const root = resolve(import.meta.dirname, "..", "..");

/** Starts test/support/rpcProxyProcess.ts as its own process in front of `target`. */
export async function startRpcProxy(target: string, mode: RpcProxyMode = "pass"): Promise<RpcProxy> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, "node_modules", ".bin", "tsx"), join(root, "test", "support", "rpcProxyProcess.ts"), target, mode],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const port = await new Promise<number>((done, fail) => {
    child.stdout?.on("data", (d: Buffer) => {
      const match = /listening (\d+)/.exec(d.toString());
      if (match?.[1]) done(Number(match[1]));
    });
    child.once("exit", (code) => fail(new Error(`rpc proxy exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async setMode(next) {
      await fetch(`${url}/__mode`, { method: "POST", body: JSON.stringify({ mode: next }) });
    },
    async requests() {
      return ((await (await fetch(`${url}/__requests`)).json()) as { requests: number }).requests;
    },
    async holdHead(block) {
      await fetch(`${url}/__hold`, { method: "POST", body: JSON.stringify({ block }) });
    },
    async counts() {
      return (await (await fetch(`${url}/__counts`)).json()) as Record<string, number>;
    },
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}
