/**
 * Backfill throughput of the indexer: a devnet holding over 100,000 swap and transfer events (many swaps and
 * transfers per block, sent in JSON-RPC batches with automine off), indexed by our handlers and by no-op
 * handlers over the same chain and the same warm RPC cache, then the index's lag behind the head under the
 * traffic generator. Plain script: `npm run bench:indexer` (PGlite; Postgres when DATABASE_URL is set).
 * BENCH_BLOCKS (20) of BENCH_SWAPS_PER_BLOCK (1,000) swaps and BENCH_TRANSFERS_PER_BLOCK (1,800)
 * transfers; BENCH_WARMUP (1) runs of our handlers that fill the RPC cache before BENCH_ROUNDS (3) of
 * both, the best of each kept; BENCH_LAG_SECONDS (20) of lag sampling. Tiny (the smoke test):
 * BENCH_BLOCKS=1 BENCH_SWAPS_PER_BLOCK=10 BENCH_TRANSFERS_PER_BLOCK=10 BENCH_WARMUP=0 BENCH_ROUNDS=1
 * BENCH_LAG_SECONDS=1.
 * Prints its figures, then as its last line one JSON object: {"ratio", "eventsPerSecond", "lagBlocks"}
 * (`indexerFigures` in bench/benchFigures.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Address, encodeFunctionData, erc20Abi, type Hex, maxUint256, parseUnits } from "viem";
import { freePort } from "../devnet/anvil";
import { createDevnetClient } from "../devnet/client";
import type { Manifest } from "../devnet/manifest";
import { unitsForUsd } from "../devnet/seed/prices";
import { seededStateFromEnv } from "../devnet/seededState";
import { startDevnet } from "../devnet/startDevnet";
import { devnetSwapRouterAbi } from "../devnet/swapRouterAbi";
import { startTraffic } from "../devnet/traffic";
import { createThrowawayDatabase } from "../test/support/postgres";
import { indexerFigures, printFigures } from "./benchFigures";
import { indexLag } from "./indexLag";

const root = resolve(import.meta.dirname, "..");
const blocks = Number(process.env.BENCH_BLOCKS ?? 20);
const swapsPerBlock = Number(process.env.BENCH_SWAPS_PER_BLOCK ?? 1000);
const transfersPerBlock = Number(process.env.BENCH_TRANSFERS_PER_BLOCK ?? 1800);
const warmups = Number(process.env.BENCH_WARMUP ?? 1);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const lagSeconds = Number(process.env.BENCH_LAG_SECONDS ?? 20);

type Backfill = { events: number; ms: number };
type Ponder = { baseUrl: string; backfill: Promise<Backfill>; stop(): Promise<void> };

const work = mkdtempSync(join(tmpdir(), "svc-bench-indexer-"));
const manifestPath = join(work, "manifest.json");
const devnet = await startDevnet({
  port: 0,
  blockTime: 0,
  traffic: false,
  seededState: seededStateFromEnv(),
  manifestPath,
});
const cleanups: (() => Promise<void>)[] = [async () => devnet.stop(), async () => rmSync(work, { recursive: true, force: true })];
try {
  const generated = await generateBlocks(devnet.manifest);
  console.log(`chain: ${generated.transactions} transactions in ${blocks} blocks, ${generated.logs} logs`);

  const storage = await benchStorage();
  cleanups.unshift(storage.cleanup);
  const noopRoot = writeNoopApp();
  for (let warmup = 1; warmup <= warmups; warmup++) {
    const warm = startPonder(root, `bench_warm_${warmup}`, storage.env);
    console.log(`warm-up (fills the RPC cache): ${summary(await warm.backfill)}`);
    await warm.stop();
  }

  const best = { ours: Number.POSITIVE_INFINITY, noop: Number.POSITIVE_INFINITY, events: 0 };
  let ours: Ponder | undefined;
  cleanups.unshift(async () => ours?.stop());
  for (let round = 1; round <= rounds; round++) {
    const noop = startPonder(noopRoot, `bench_noop_${round}`, storage.env);
    const noopRun = await noop.backfill;
    await noop.stop();
    ours = startPonder(root, `bench_ours_${round}`, storage.env);
    const oursRun = await ours.backfill;
    // The last run stays up for the lag measurement.
    if (round < rounds) await ours.stop();
    console.log(`round ${round}: no-op handlers ${summary(noopRun)}; our handlers ${summary(oursRun)}`);
    if (oursRun.events !== noopRun.events) throw new Error(`the two runs indexed ${oursRun.events} and ${noopRun.events} events`);
    best.noop = Math.min(best.noop, noopRun.ms);
    best.ours = Math.min(best.ours, oursRun.ms);
    best.events = oursRun.events;
  }
  if (!ours) throw new Error("no round ran");

  const lag = await measureLag(devnet.manifest, ours);
  console.log(`lag behind the head under traffic over ${lagSeconds} s: max ${lag.max} blocks, mean ${lag.mean.toFixed(2)}`);

  const eventsPerSecond = Math.round((best.events / best.ours) * 1000);
  const noopEventsPerSecond = Math.round((best.events / best.noop) * 1000);
  console.log(`best of ${rounds}: ours ${eventsPerSecond} events/s, no-op ${noopEventsPerSecond} events/s (${storage.name})`);
  printFigures(indexerFigures, { ratio: Number((eventsPerSecond / noopEventsPerSecond).toFixed(3)), eventsPerSecond, lagBlocks: lag.max });
} finally {
  for (const cleanup of cleanups) await cleanup().catch((err) => console.error(`cleanup: ${err}`));
}

/**
 * Swaps in every pool (alternating directions, $1,000 each, so prices stay put) and transfers of every
 * tracked token, plus one whale transfer and one payment per block, then 40 empty blocks so that all of
 * it is final for Ponder (Base's finality is 30 blocks) and indexed as backfill.
 */
async function generateBlocks(manifest: Manifest): Promise<{ transactions: number; logs: number }> {
  const client = createDevnetClient(manifest.rpcUrl, manifest.accounts.deployer.privateKey);
  const router = manifest.contracts.swapRouter as Address;
  const senders = [manifest.accounts.traffic.address, ...manifest.accounts.users.map((u) => u.address)];
  const tokens = Object.values(manifest.tokens);
  const usdc = manifest.tokens.USDC?.address as Address;
  const nonces = new Map<Address, number>();
  for (const sender of senders) nonces.set(sender, await client.getTransactionCount({ address: sender }));
  // anvil's accounts are unlocked: it signs, and explicit nonces let one batch carry many per sender.
  const tx = (from: Address, to: Address, data: Hex, gas: number) => {
    const nonce = nonces.get(from) ?? 0;
    nonces.set(from, nonce + 1);
    return { method: "eth_sendTransaction", params: [{ from, to, data, gas: `0x${gas.toString(16)}`, nonce: `0x${nonce.toString(16)}` }] };
  };
  const transfer = (from: Address, token: Address, to: Address, amount: bigint) =>
    tx(from, token, encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, amount] }), 100_000);

  await client.setAutomine(false);
  await client.request({ method: "evm_setBlockGasLimit", params: ["0x3b9aca00"] } as never);
  await rpcBatch(
    manifest.rpcUrl,
    senders.flatMap((s) =>
      tokens.map((t) =>
        tx(s, t.address, encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [router, maxUint256] }), 100_000),
      ),
    ),
  );
  await client.request({ method: "evm_mine", params: [] } as never);

  let transactions = 0;
  let logs = 0;
  for (let b = 0; b < blocks; b++) {
    const calls = [];
    for (let i = 0; i < swapsPerBlock; i++) {
      const pool = manifest.pools[i % manifest.pools.length];
      const from = senders[(i + b) % senders.length];
      if (!pool || !from) throw new Error("no pool or sender");
      const zeroForOne = Math.floor(i / manifest.pools.length) % 2 === b % 2;
      const tokenIn = tokens.find((t) => t.address === (zeroForOne ? pool.token0 : pool.token1));
      if (!tokenIn) throw new Error(`no token for ${pool.name}`);
      const amountIn = unitsForUsd(tokenIn, 1000);
      const data =
        pool.kind === "uniswap-v3" || pool.kind === "slipstream"
          ? encodeFunctionData({ abi: devnetSwapRouterAbi, functionName: "swapV3", args: [pool.address, zeroForOne, amountIn, 0n, from] })
          : encodeFunctionData({
              abi: devnetSwapRouterAbi,
              functionName: pool.kind === "uniswap-v2" ? "swapV2" : "swapAerodrome",
              args: [pool.address, tokenIn.address, amountIn, 0n, from],
            });
      calls.push(tx(from, router, data, 600_000));
    }
    for (let i = 0; i < transfersPerBlock; i++) {
      const token = tokens[i % tokens.length];
      const from = senders[(i + 7 * b) % senders.length];
      const to = senders[(i + 7 * b + 1) % senders.length];
      if (!token || !from || !to) throw new Error("no token or account");
      calls.push(transfer(from, token.address, to, unitsForUsd(token, 500)));
    }
    const [whale, payer] = [senders[b % senders.length], senders[(b + 1) % senders.length]] as [Address, Address];
    calls.push(transfer(whale, usdc, payer, parseUnits("2000000", 6)), transfer(payer, usdc, manifest.payoutAddress, parseUnits("25", 6)));
    for (let i = 0; i < calls.length; i += 500) await rpcBatch(manifest.rpcUrl, calls.slice(i, i + 500));
    await client.request({ method: "evm_mine", params: [] } as never);
    const block = await client.getBlock();
    transactions += block.transactions.length;
    logs += (await client.getLogs({ fromBlock: block.number, toBlock: block.number })).length;
  }
  await client.request({ method: "anvil_mine", params: ["0x28"] } as never);
  return { transactions, logs };
}

async function rpcBatch(url: string, calls: { method: string; params: unknown[] }[]): Promise<void> {
  const body = calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call }));
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const failed = ((await res.json()) as { error?: { message: string } }[]).find((r) => r.error);
  if (failed) throw new Error(`batch call failed: ${failed.error?.message}`);
}

/** Postgres (a throwaway database) when DATABASE_URL is set, else a PGlite folder; shared by every run. */
async function benchStorage(): Promise<{ name: string; env: Record<string, string>; cleanup(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const db = await createThrowawayDatabase(process.env.DATABASE_URL);
    return { name: "Postgres", env: { DATABASE_URL: db.url }, cleanup: db.drop };
  }
  const directory = join(work, "pglite");
  mkdirSync(directory, { recursive: true });
  return { name: "PGlite", env: { DATABASE_URL: "", PGLITE_DIR: directory }, cleanup: async () => {} };
}

/**
 * The same Ponder app with every handler a no-op: our config and schema, and one empty function for each
 * name our src/ registers, in a folder of its own (Ponder takes src/ from its --root).
 */
function writeNoopApp(): string {
  const dir = join(work, "noop");
  mkdirSync(join(dir, "src", "api"), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  const names = new Set<string>();
  for (const file of readdirSync(join(root, "src"))) {
    if (!file.endsWith(".ts")) continue;
    for (const match of readFileSync(join(root, "src", file), "utf8").matchAll(/ponder\.on\("([^"]+)"/g)) if (match[1]) names.add(match[1]);
  }
  writeFileSync(join(dir, "ponder.config.ts"), `export { default } from ${JSON.stringify(join(root, "ponder.config.ts"))};\n`);
  writeFileSync(join(dir, "ponder.schema.ts"), `export * from ${JSON.stringify(join(root, "ponder.schema.ts"))};\n`);
  writeFileSync(
    join(dir, "src", "noop.ts"),
    `import { ponder } from "ponder:registry";\nfor (const name of ${JSON.stringify([...names])}) ponder.on(name as never, async () => {});\n`,
  );
  writeFileSync(join(dir, "src", "api", "index.ts"), `import { Hono } from "hono";\nexport default new Hono();\n`);
  return dir;
}

/**
 * `ponder start` in `appRoot`; `backfill` resolves with the events and milliseconds of its backfill.
 * PORT and INDEXER_PORT are free ports (PORT overrides Ponder's `--port`): our app's API file puts the
 * public listener on PORT and Ponder's own server (`/status`, `baseUrl`) on INDEXER_PORT.
 */
function startPonder(appRoot: string, schema: string, env: Record<string, string>): Ponder {
  const portsPromise = Promise.all([freePort(), freePort()]);
  let child: ChildProcess | undefined;
  let baseUrl = "";
  const backfill = portsPromise.then(
    ([port, indexerPort]) =>
      new Promise<Backfill>((done, fail) => {
        baseUrl = `http://127.0.0.1:${indexerPort}`;
        child = spawn(
          process.execPath,
          [
            join(root, "node_modules", ".bin", "ponder"),
            "--root",
            appRoot,
            "--log-format",
            "json",
            "start",
            "--schema",
            schema,
            "--hostname",
            "127.0.0.1",
          ],
          {
            cwd: appRoot,
            env: { ...process.env, DEVNET_MANIFEST: manifestPath, PORT: String(port), INDEXER_PORT: String(indexerPort), ...env },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let events = 0;
        let tail = "";
        let pending = "";
        child.stderr?.on("data", (d: Buffer) => (tail = (tail + d.toString()).slice(-4000)));
        child.stdout?.on("data", (d: Buffer) => {
          const lines = (pending + d.toString()).split("\n");
          pending = lines.pop() ?? "";
          for (const line of lines) {
            tail = (tail + line).slice(-4000);
            const log = parseLog(line);
            if (log?.msg === "Indexed block range") events += Number(log.event_count ?? 0);
            if (log?.msg === "Completed backfill indexing across all chains") done({ events, ms: Number(log.duration) });
          }
        });
        child.once("exit", (code) => fail(new Error(`ponder exited with ${code}:\n${tail}`)));
      }),
  );
  return {
    get baseUrl() {
      return baseUrl;
    },
    backfill,
    stop: () =>
      new Promise<void>((done) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return done();
        child.removeAllListeners("exit");
        child.once("exit", () => done());
        child.kill("SIGINT");
        setTimeout(() => child?.kill("SIGKILL"), 15_000).unref();
      }),
  };
}

function parseLog(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function summary(run: Backfill): string {
  return `${run.events} events in ${run.ms} ms (${Math.round((run.events / run.ms) * 1000)} events/s)`;
}

/**
 * Blocks the index trails the head, sampled every 250 ms while the traffic generator runs on 1 s blocks,
 * from the moment the index has caught up with the head after its backfill.
 */
async function measureLag(manifest: Manifest, ponder: Ponder): Promise<{ max: number; mean: number }> {
  const client = createDevnetClient(manifest.rpcUrl, manifest.accounts.deployer.privateKey);
  const lag = () => indexLag(client, `${ponder.baseUrl}/status`);
  await client.setIntervalMining({ interval: 1 });
  for (const deadline = Date.now() + 60_000; (await lag()) > 0; await sleep(250)) {
    if (Date.now() > deadline) throw new Error("the index did not reach the head within 60 s of its backfill");
  }
  const traffic = startTraffic(manifest, { intervalMs: 500, log: () => {} });
  const samples: number[] = [];
  try {
    for (const until = Date.now() + lagSeconds * 1000; Date.now() < until; await sleep(250)) samples.push(await lag());
  } finally {
    await traffic.stop();
  }
  return { max: Math.max(...samples), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}
