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
 * challenge signed through one is claimed through any. Ctrl-C stops all of it.
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
  const processes: ChildProcess[] = [spawnPonder("start", config.databaseSchema, shared)];
  let replicasStarted = false;
  console.log(`[cluster] indexer and API on http://${config.host}:${config.port}`);
  // An indexer that dies before it serves stops the cluster instead of leaving the wait below polling forever.
  processes[0]?.once("exit", (code) => {
    if (!replicasStarted) {
      console.error(`[cluster] the indexer exited (${code}) before serving`);
      void devnet?.stop().finally(() => process.exit(code ?? 1));
    }
  });
  await untilServing(`http://${config.host}:${config.port}/health`);
  replicasStarted = true;
  replicaPorts.forEach(({ port, indexerPort }, i) => {
    const facilitatorKey =
      config.chain.kind === "devnet"
        ? { X402_FACILITATOR_PRIVATE_KEY: devnetAccount(devnetRoles.firstReplicaFacilitator + i).privateKey }
        : {};
    processes.push(
      spawnPonder("serve", config.databaseSchema, { ...shared, ...facilitatorKey, PORT: String(port), INDEXER_PORT: String(indexerPort) }),
    );
    console.log(`[cluster] replica ${i + 1} on http://${config.host}:${port}`);
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(processes.map(stopPonder));
    await devnet?.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  // The indexer is the cluster; a replica that dies is reported and may be restarted by hand (`ponder serve`).
  processes[0]?.on("exit", (code) => void stop(code ?? 1));
  for (const [i, replica] of processes.slice(1).entries()) {
    replica.on("exit", (code) => {
      if (!stopping) console.log(`[cluster] replica ${i + 1} exited (${code})`);
    });
  }
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
