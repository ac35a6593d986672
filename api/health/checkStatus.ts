import { sql } from "drizzle-orm";
import type { Address } from "viem";
import { probeProvider } from "../chain/probeProvider";
import type { RpcProvider } from "../chain/providers";
import type { IndexDb } from "../index/indexDb";
import { readChainHead } from "../index/readChainHead";
import type { AppStore } from "../store/createAppStore";
import type { Probe } from "./cacheProbes";
import type { StatusReport } from "./StatusReport";

export type CheckStatusDeps = {
  indexDb: IndexDb;
  /** The API's own store (keys, credits, intents). */
  appStore: AppStore;
  /** Where subscription payments go; null: purchases are unavailable. */
  payoutAddress: Address | null;
  providers: RpcProvider[];
  chainId: number;
  source: "devnet" | "base-mainnet";
  /** The index is stale when it is more blocks than this behind the providers' head. */
  maxIndexLagBlocks: number;
  now?: () => Date;
  /** How a provider is probed; default `probeProvider` (the status route shares it through `cacheProbes`). */
  probe?: Probe;
};

export const apiVersion = "2.2.0";

/** Live state of persistence, RPC trust and the index; `UNAVAILABLE` when persistence and RPC are both down. */
export async function checkStatus(deps: CheckStatusDeps): Promise<StatusReport> {
  const now = deps.now ?? (() => new Date());
  const probe = deps.probe ?? probeProvider;
  const [probes, head, appStore] = await Promise.all([
    Promise.all(deps.providers.map((p) => probe(p))),
    readIndexedHead(deps.indexDb, deps.chainId),
    probeAppStore(deps.appStore),
  ]);
  const up = probes.filter((p) => p.available);
  const trustLevel: StatusReport["rpc"]["trustLevel"] = up.some((p) => p.trusted)
    ? "TRUSTED_PRIMARY"
    : up.length >= 2
      ? "PUBLIC_QUORUM"
      : "INSUFFICIENT";
  const chainHeadBlock = up.length > 0 ? Math.max(...up.map((p) => p.blockNumber ?? 0)) : null;
  const lagBlocks = head.row && chainHeadBlock !== null ? Math.max(0, chainHeadBlock - Number(head.row.number)) : null;
  const stale = lagBlocks === null || lagBlocks > deps.maxIndexLagBlocks;
  const rpcAvailable = up.length > 0;
  const persistenceAvailable = head.available || appStore.available;
  const status =
    !rpcAvailable && !persistenceAvailable
      ? "UNAVAILABLE"
      : rpcAvailable && head.available && appStore.available && !stale && trustLevel !== "INSUFFICIENT"
        ? "OPERATIONAL"
        : "DEGRADED";

  return {
    status,
    apiVersion,
    checkedAt: now().toISOString(),
    chain: { chainId: deps.chainId, network: `eip155:${deps.chainId}`, source: deps.source },
    persistence: {
      indexStore: { available: head.available, latencyMs: head.latencyMs, ...(head.error ? { error: head.error } : {}) },
      appStore,
    },
    rpc: { available: rpcAvailable, trustLevel, providers: probes },
    index: {
      headBlock: head.row ? Number(head.row.number) : null,
      headBlockHash: head.row?.hash ?? null,
      headTimestamp: head.row ? new Date(Number(head.row.timestamp) * 1000).toISOString() : null,
      chainHeadBlock,
      lagBlocks,
      maxLagBlocks: deps.maxIndexLagBlocks,
      stale,
    },
    verdictQuality: trustLevel === "INSUFFICIENT" ? "UNVERIFIED" : "EVIDENCE_GRADE",
    paymentSettlement: {
      payoutAddress: deps.payoutAddress,
      // A USDC purchase settles from the indexed payments (fresh index) into the app store.
      subscriptionPayments: deps.payoutAddress && head.available && !stale && appStore.available ? "AVAILABLE" : "UNAVAILABLE",
      confirmationsRequired: 3,
      x402: "NOT_CONFIGURED",
    },
  };
}

async function probeAppStore(store: AppStore, timeoutMs = 2000): Promise<StatusReport["persistence"]["appStore"]> {
  const started = performance.now();
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), timeoutMs).unref());
  try {
    await Promise.race([store.ready.then(() => store.db.execute(sql`select 1`)), timeout]);
    return { available: true, latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { available: false, latencyMs: Math.round(performance.now() - started), error: "app store unreachable" };
  }
}

async function readIndexedHead(db: IndexDb, chainId: number) {
  const started = performance.now();
  try {
    const row = await readChainHead(db, chainId);
    return { available: true, latencyMs: Math.round(performance.now() - started), row };
  } catch {
    return { available: false, latencyMs: Math.round(performance.now() - started), row: null, error: "index store unreachable" };
  }
}
