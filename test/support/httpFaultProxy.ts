import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";

export type HttpFault = { fault: "503" | "drop"; path: string; header?: string; times: number };
export type SeenRequest = { method: string; path: string; at: number; outcome: "forwarded" | "503" | "dropped" };
export type HttpFaultProxy = {
  url: string;
  arm(fault: HttpFault): Promise<void>;
  /** Every request the proxy received, in order. */
  log(): Promise<SeenRequest[]>;
  stop(): Promise<void>;
};

const root = resolve(import.meta.dirname, "..", "..");

/** Starts test/support/httpFaultProxyProcess.ts as its own process in front of `target`. */
export async function startHttpFaultProxy(target: string): Promise<HttpFaultProxy> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, "node_modules", ".bin", "tsx"), join(root, "test", "support", "httpFaultProxyProcess.ts"), target],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<number>((done, fail) => {
    child.stdout?.on("data", (d: Buffer) => {
      const match = /listening (\d+)/.exec(d.toString());
      if (match?.[1]) done(Number(match[1]));
    });
    child.once("exit", (code) => fail(new Error(`the fault proxy exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async arm(fault) {
      await fetch(`${url}/__fault`, { method: "POST", body: JSON.stringify(fault) });
    },
    async log() {
      return (await (await fetch(`${url}/__log`)).json()) as SeenRequest[];
    },
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}
