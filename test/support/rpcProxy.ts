import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";

export type RpcProxyMode =
  | "pass"
  | "down"
  | "alter-hash"
  | "lie-call"
  | "drop-broadcast-answer"
  | "hold-broadcast-answer"
  | "error-broadcast-answer"
  | "no-hash-broadcast-answer"
  | "refuse-broadcast"
  | "no-fill-transaction"
  | "refuse-state-reads"
  | "empty-code"
  | "empty-overridden-call"
  | `inflate-transfer:${string}`;
export type RpcProxy = {
  url: string;
  setMode(mode: RpcProxyMode): Promise<void>;
  /** JSON-RPC requests (HTTP requests, a batch counting once) the proxy has received so far. */
  requests(): Promise<number>;
  /** Makes "latest" mean `block` for block reads through the proxy (a head that stays); null lets it go. */
  holdHead(block: number | null): Promise<void>;
  /** How many requests of each JSON-RPC method the proxy forwarded so far. */
  counts(): Promise<Record<string, number>>;
  /** How many broadcasts `hold-broadcast-answer` holds now; `release` drops their answers. */
  held(): Promise<number>;
  release(): Promise<void>;
  stop(): Promise<void>;
  /** Kills the process outright (SIGKILL: a provider that vanishes mid-request). */
  kill(): Promise<void>;
};

const root = resolve(import.meta.dirname, "..", "..");

/** Starts test/support/rpcProxyProcess.ts as its own process in front of `target` (on `port`, or a free one). */
export async function startRpcProxy(target: string, mode: RpcProxyMode = "pass", port?: number): Promise<RpcProxy> {
  const child: ChildProcess = spawn(
    process.execPath,
    // One process (tsx as a loader, not its CLI, which runs the script in a child): a SIGKILL stops the proxy itself.
    ["--import", "tsx", join(root, "test", "support", "rpcProxyProcess.ts"), target, mode, ...(port === undefined ? [] : [String(port)])],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const listening = await new Promise<number>((done, fail) => {
    child.stdout?.on("data", (d: Buffer) => {
      const match = /listening (\d+)/.exec(d.toString());
      if (match?.[1]) done(Number(match[1]));
    });
    child.once("exit", (code) => fail(new Error(`rpc proxy exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${listening}`;
  const signal = (name: NodeJS.Signals) =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      // A proxy that does not stop when asked is killed: a test's teardown never waits on it.
      const unstopped = setTimeout(() => child.kill("SIGKILL"), 5_000);
      child.once("exit", () => {
        clearTimeout(unstopped);
        done();
      });
      child.kill(name);
    });
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
    async held() {
      return ((await (await fetch(`${url}/__held`)).json()) as { held: number }).held;
    },
    async release() {
      await fetch(`${url}/__release`, { method: "POST" });
    },
    stop: () => signal("SIGTERM"),
    kill: () => signal("SIGKILL"),
  };
}
