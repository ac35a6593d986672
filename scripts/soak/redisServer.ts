import { type ChildProcess, spawn } from "node:child_process";

/** A redis-server of the soak's own (nothing kept on disk), which it stops and starts as a fault. */
export type RedisServer = {
  url: string;
  /** Kills the server (SIGKILL): clients see their connections drop and every command fail. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: rate-limit counters start over). */
  start(): Promise<void>;
  stop(): Promise<void>;
};

/** Runs Debian's `redis-server` on `port` (loopback only, no persistence). */
export async function startRedisServer(port: number): Promise<RedisServer> {
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    child = started;
    await new Promise<void>((ready, fail) => {
      let output = "";
      started.stdout?.on("data", (d: Buffer) => {
        output += d.toString();
        if (output.includes("Ready to accept connections")) ready();
      });
      started.once("exit", (code) => fail(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`)));
    });
  };
  const signal = (name: NodeJS.Signals) =>
    new Promise<void>((done) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", () => done());
      child.kill(name);
    });
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill: () => signal("SIGKILL"), start, stop: () => signal("SIGTERM") };
}
