import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { freePort } from "../devnet/anvil";

const root = resolve(import.meta.dirname, "..");

/** The ceiling every listener figure is compared with: bench/bareHonoServer.ts in a process of its own, on a free port. */
export async function startBareHono(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, "node_modules", ".bin", "tsx"), "bench/bareHonoServer.ts", String(port)],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await new Promise<void>((ready, fail) => {
    child.stdout?.on("data", (d: Buffer) => d.toString().includes("listening") && ready());
    child.once("exit", (code) => fail(new Error(`bare Hono server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGINT");
      }),
  };
}
