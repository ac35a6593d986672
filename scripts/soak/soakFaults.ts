import pg from "pg";
import type { RpcProxy } from "../../test/support/rpcProxy";
import type { RedisServer } from "./redisServer";

/** One fault of the soak: what it breaks, and what makes it whole again (or undefined: it heals by itself). */
export type Fault = {
  name: string;
  inject(): Promise<void>;
  lift?: () => Promise<void>;
};

export type SoakFaultTargets = {
  /** The three providers the replicas read the chain through; the first is killed, the second lies. */
  providers: { proxy: () => RpcProxy; restart(): Promise<void> }[];
  databaseUrl: string;
  redis: RedisServer;
  /** Kills process `which` (the cluster's supervisor starts it again). */
  killProcess(which: "replica" | "indexer"): Promise<void>;
};

/**
 * The soak's faults, each caused for real: a provider process killed and restarted, a provider answering
 * another fork's block hashes, every Postgres connection of the service terminated, Redis killed and
 * started again, an API replica killed (SIGINT: what an orchestrator's stop sends; its supervisor restarts
 * it) and the indexer killed outright (SIGKILL). The reorg of a young payment is run apart (soak.ts).
 */
export function soakFaults(t: SoakFaultTargets): Fault[] {
  const [first, second] = t.providers;
  if (!first || !second) throw new Error("the soak needs three providers");
  return [
    { name: "rpcProviderKilled", inject: () => first.proxy().kill(), lift: () => first.restart() },
    { name: "rpcProvidersDisagree", inject: () => second.proxy().setMode("alter-hash"), lift: () => second.proxy().setMode("pass") },
    { name: "postgresConnectionsKilled", inject: () => terminateBackends(t.databaseUrl) },
    { name: "redisStopped", inject: () => t.redis.kill(), lift: () => t.redis.start() },
    { name: "replicaKilled", inject: () => t.killProcess("replica") },
    { name: "indexerKilled", inject: () => t.killProcess("indexer") },
  ];
}

/** pg_terminate_backend on every other connection to the database of `databaseUrl`. */
async function terminateBackends(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
  } finally {
    await client.end();
  }
}
