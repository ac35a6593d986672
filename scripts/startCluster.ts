import type { ChildProcess } from "node:child_process";
import { loadConfig } from "../api/config";
import { devnetAccount, devnetRoles } from "../devnet/accounts";
import { spawnPonder, stopPonder } from "./ponderProcess";
import { prepareChain } from "./prepareChain";

/**
 * `npm run start:cluster`: the scale-out mode on one machine. On DATABASE_URL (and REDIS_URL for shared
 * rate limits): the devnet when no Base RPC is configured, one indexer (`ponder start`, also serving the
 * API on PORT) and CLUSTER_REPLICAS API replicas (`ponder serve` over the indexer's schema) on PORT + 2i.
 * Every process names the same public origin (and the first replica as the fallback origin), so a
 * challenge signed through one is claimed through any. A process that exits is restarted (the indexer
 * once it has served). Ctrl-C stops all of it.
 */
async function main() {
  const config = loadConfig();
  if (config.database.kind !== "postgres") fail("the cluster's processes share one database: set DATABASE_URL (Postgres)");
  if (config.chain.kind !== "devnet" && config.x402.facilitatorPrivateKey) {
    fail("one x402 gas key cannot be shared by processes (nonces): set X402_FACILITATOR_URL for a cluster on Base");
  }
  if (!config.redisUrl) console.log("[cluster] REDIS_URL unset: each process counts its own per-minute rate limits");
  const replicaPorts = Array.from({ length: config.clusterReplicas }, (_, i) => ({
    port: config.port + 2 * (i + 1),
    indexerPort: config.indexerPort + 2 * (i + 1),
  }));
  const shared = {
    ...process.env,
    PUBLIC_URL: config.origins.public,
    FALLBACK_URL: config.origins.fallback ?? `http://${config.host}:${replicaPorts[0]?.port}`,
  };

  const devnet = await prepareChain(config, "cluster");
  let stopping = false;
  const indexer = superviseProcess(
    "indexer",
    () => spawnPonder("start", config.databaseSchema, { oldSpaceMb: config.ponderHeapMb, semiSpaceMb: config.ponderSemiSpaceMb }, shared),
    () => stopping,
  );
  console.log(`[cluster] indexer and API on http://${config.host}:${config.port}`);
  // An indexer that dies before it serves stops the cluster instead of leaving the wait below polling forever.
  const exitedBeforeServing = (code: number | null) => {
    stopping = true;
    console.error(`[cluster] the indexer exited (${code}) before serving`);
    void devnet?.stop().finally(() => process.exit(code ?? 1));
  };
  indexer.current().once("exit", exitedBeforeServing);
  await untilServing(`http://${config.host}:${config.port}/health`);
  indexer.current().off("exit", exitedBeforeServing);
  const supervised = [indexer];
  replicaPorts.forEach(({ port, indexerPort }, i) => {
    const facilitatorKey =
      config.chain.kind === "devnet"
        ? { X402_FACILITATOR_PRIVATE_KEY: devnetAccount(devnetRoles.firstReplicaFacilitator + i).privateKey }
        : {};
    const env = { ...shared, ...facilitatorKey, PORT: String(port), INDEXER_PORT: String(indexerPort) };
    supervised.push(
      superviseProcess(
        `replica ${i + 1}`,
        () =>
          spawnPonder(
            "serve",
            config.databaseSchema,
            { oldSpaceMb: config.ponderReplicaHeapMb, semiSpaceMb: config.ponderSemiSpaceMb },
            env,
          ),
        () => stopping,
      ),
    );
    console.log(`[cluster] replica ${i + 1} on http://${config.host}:${port}`);
  });

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(supervised.map((p) => stopPonder(p.current())));
    await devnet?.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  for (const p of supervised) p.onGiveUp(() => void stop(1));
}

/** A process restarted whenever it exits (not while the cluster stops), its restarts logged. */
type SupervisedProcess = { current(): ChildProcess; onGiveUp(handler: () => void): void };

/** Restarts that come this soon after a start count as a crash loop. */
const quickExitMs = 10_000;
/** Quick exits in a row after which the cluster stops instead of restarting again. */
const maxQuickExits = 5;

/**
 * Runs `start()` and starts it again a second after each exit, so a replica or the indexer that dies
 * (a crash, an OOM kill, an operator's kill) comes back on its own; five exits in a row within 10 s of
 * their start give up (a configuration that cannot run).
 */
function superviseProcess(name: string, start: () => ChildProcess, stopping: () => boolean): SupervisedProcess {
  let child = start();
  let startedAt = Date.now();
  let quickExits = 0;
  let giveUp = () => {};
  const watch = () =>
    child.once("exit", (code, signal) => {
      if (stopping()) return;
      quickExits = Date.now() - startedAt < quickExitMs ? quickExits + 1 : 0;
      if (quickExits >= maxQuickExits) {
        console.error(`[cluster] ${name} exited ${quickExits} times in a row within ${quickExitMs / 1000} s of starting: stopping`);
        giveUp();
        return;
      }
      console.log(`[cluster] ${name} exited (${code ?? signal}); restarting it`);
      setTimeout(() => {
        if (stopping()) return;
        child = start();
        startedAt = Date.now();
        watch();
      }, 1000);
    });
  watch();
  return { current: () => child, onGiveUp: (handler) => (giveUp = handler) };
}

/** Polls `url` until it answers (the indexer's API must be listening before replicas read its schema). */
async function untilServing(url: string) {
  for (;;) {
    const answered = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

function fail(message: string): never {
  console.error(`[cluster] ${message}`);
  process.exit(1);
}

main().catch((err) => {
  console.error("[cluster] failed:", err instanceof Error ? err.message : err);
  process.exit(1);
});
