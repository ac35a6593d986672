import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { freePort } from "../../devnet/anvil";

export type ApiReplica = {
  baseUrl: string;
  /** Sends `signal` and resolves once the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
};

const root = resolve(import.meta.dirname, "..", "..");

/**
 * Starts test/support/apiReplicaProcess.ts on a free port with `env` (DATABASE_URL, DEVNET_MANIFEST,
 * ...), in one process (tsx as a loader, not its CLI, which would run it in a child that signals do
 * not reach when they kill).
 */
export async function startApiReplica(env: Record<string, string>): Promise<ApiReplica> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", join(root, "test", "support", "apiReplicaProcess.ts")], {
    cwd: root,
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((ready, fail) => {
    const seen = (d: Buffer) => {
      output += d.toString();
      if (output.includes("[api] listening on")) ready();
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.once("exit", (code) => fail(new Error(`API replica exited with ${code}:\n${output.slice(-2000)}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    kill: (signal) =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", () => done());
        child.kill(signal);
      }),
  };
}
