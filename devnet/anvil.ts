import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { baseChainId } from "../base/baseChain";
import { devnetAccountCount } from "./accounts";

export type AnvilParameters = {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  chainId?: number;
  /**
   * Another node's state at one block to start from (anvil's fork mode): a private copy of a seeded devnet
   * that a test may change without changing it for the other files of the run.
   */
  fork?: { rpcUrl: string; blockNumber: number };
  /** A state file anvil wrote (`anvil_dumpState`, unzipped) to start from: its blocks, logs and accounts. */
  loadState?: string;
  /**
   * Where anvil writes its state as it stops, with the states of its last `recentStates` blocks (it keeps no
   * older ones, so the file stays about 50 MB): a node that loads it answers calls at those blocks too, as
   * the indexer's planning does at the block before the seeded one. `anvil_dumpState` holds the head's alone.
   */
  dumpStateOnExit?: { path: string; recentStates: number };
};

export type Anvil = {
  rpcUrl: string;
  port: number;
  stop(): Promise<void>;
};

/** Path of the anvil binary shipped by the npm package `@foundry-rs/anvil` for this platform. */
export function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const pkg = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
  return join(dirname(pkg), "bin", "anvil");
}

/**
 * Ports this process has handed out: the OS may offer a port just closed again, and two servers given the
 * same one collide (a cluster once got PORT = INDEXER_PORT and refused to start).
 */
const handedOutPorts = new Set<number>();

/** A free TCP port on 127.0.0.1, never one this process has handed out before. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (!handedOutPorts.has(port)) {
      handedOutPorts.add(port);
      return port;
    }
  }
}

function anyFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * Starts anvil on 127.0.0.1 as Base (chain `baseChainId`) under Prague rules (EIP-7702), mining on every
 * transaction (seeding is fast that way; `evm_setIntervalMining` turns on timed blocks later), and
 * resolves once it answers JSON-RPC.
 */
export async function startAnvil({
  port = 0,
  chainId = baseChainId,
  fork,
  loadState,
  dumpStateOnExit,
}: AnvilParameters = {}): Promise<Anvil> {
  const chosen = port === 0 ? await freePort() : port;
  const args = [
    "--accounts",
    String(devnetAccountCount),
    "--host",
    "127.0.0.1",
    "--port",
    String(chosen),
    "--chain-id",
    String(chainId),
    "--hardfork",
    "prague",
  ];
  // Larger code than the 24 KiB limit is allowed on the devnet so real-world-sized fixtures deploy.
  args.push("--code-size-limit", "100000");
  if (fork) args.push("--fork-url", fork.rpcUrl, "--fork-block-number", String(fork.blockNumber));
  if (loadState) args.push("--load-state", loadState);
  if (dumpStateOnExit) {
    const { path, recentStates } = dumpStateOnExit;
    args.push("--dump-state", path, "--preserve-historical-states", "--prune-history", String(recentStates));
  }
  const child = spawn(anvilBinary(), args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const rpcUrl = `http://127.0.0.1:${chosen}`;
  await waitForRpc(rpcUrl, child, () => stderr);
  // A node writing its state as it stops gets longer before it is killed (50 MB take a fraction of a second quiet).
  return { rpcUrl, port: chosen, stop: () => stopChild(child, dumpStateOnExit ? 60_000 : 3000) };
}

async function waitForRpc(rpcUrl: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`anvil did not answer at ${rpcUrl} within 20 s: ${stderr()}`);
}

function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), graceMs).unref();
  });
}
