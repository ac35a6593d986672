import { sql } from "drizzle-orm";
import type { Address } from "viem";
import { pinObservationBlock } from "../chain/pinObservationBlock";
import { type ProviderHead, probeProvider, type ReadHead } from "../chain/probeProvider";
import type { RpcProvider } from "../chain/providers";
import type { IndexDb } from "../index/indexDb";
import { readChainHead } from "../index/readChainHead";
import type { AppStore } from "../store/createAppStore";
import type { FacilitatorReadiness, X402Facilitator } from "../x402/X402Facilitator";
import type { ProviderProbe, StatusReport } from "./StatusReport";

export type CheckStatusParameters = {
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
  /** How a provider's head is read; default `probeProvider` (the status route shares it through `shareHeadReads`). */
  readHead?: ReadHead;
  /** The facilitator of per-call x402 payments; null when x402 is not offered. */
  x402Facilitator: Pick<X402Facilitator, "kind" | "readiness"> | null;
};

export const apiVersion = "2.2.0";

/**
 * Live state of persistence, RPC trust and the index; `UNAVAILABLE` when persistence and RPC are both
 * down. RPC trust is judged by the rule audits pin their block by (`pinObservationBlock`): a trusted
 * primary, or public providers agreeing on a block hash; anything less is UNVERIFIED.
 */
export async function checkStatus(deps: CheckStatusParameters): Promise<StatusReport> {
  const now = deps.now ?? (() => new Date());
  const readHead = deps.readHead ?? probeProvider;
  const [heads, pinned, head, appStore, facilitator] = await Promise.all([
    Promise.all(deps.providers.map((p) => readHead(p))),
    pinObservationBlock({ providers: deps.providers, chainId: deps.chainId, now, readHead }),
    readIndexedHead(deps.indexDb, deps.chainId),
    probeAppStore(deps.appStore),
    deps.x402Facilitator?.readiness() ?? null,
  ]);
  const probes = heads.map(toProbe);
  const up = heads.flatMap((h) => (h.available ? [h] : []));
  const { trustLevel } = pinned;
  const chainHeadBlock = up.length > 0 ? Math.max(...up.map((h) => h.number)) : null;
  const lagBlocks = head.row && chainHeadBlock !== null ? Math.max(0, chainHeadBlock - Number(head.row.number)) : null;
  const stale = lagBlocks === null || lagBlocks > deps.maxIndexLagBlocks;
  const rpcAvailable = up.length > 0;
  const persistenceAvailable = head.available || appStore.available;
  const x402Reason = facilitator ? x402Unready(facilitator, deps.x402Facilitator?.kind, pinned.evidenceGrade, appStore.available) : null;
  const status =
    !rpcAvailable && !persistenceAvailable
      ? "UNAVAILABLE"
      : rpcAvailable && head.available && appStore.available && !stale && pinned.evidenceGrade && x402Reason === null
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
    rpc: { available: rpcAvailable, trustLevel, reason: pinned.reason, providers: probes },
    index: {
      headBlock: head.row ? Number(head.row.number) : null,
      headBlockHash: head.row?.hash ?? null,
      headTimestamp: head.row ? new Date(Number(head.row.timestamp) * 1000).toISOString() : null,
      chainHeadBlock,
      lagBlocks,
      maxLagBlocks: deps.maxIndexLagBlocks,
      stale,
    },
    verdictQuality: pinned.evidenceGrade ? "EVIDENCE_GRADE" : "UNVERIFIED",
    paymentSettlement: {
      payoutAddress: deps.payoutAddress,
      // A USDC purchase settles from the indexed payments (fresh index) into the app store.
      subscriptionPayments: deps.payoutAddress && head.available && !stale && appStore.available ? "AVAILABLE" : "UNAVAILABLE",
      confirmationsRequired: 3,
      x402: facilitator === null ? "NOT_CONFIGURED" : x402Reason ? "UNAVAILABLE" : "AVAILABLE",
      x402Facilitator: deps.x402Facilitator?.kind ?? null,
      x402Reason,
    },
  };
}

/**
 * Why a configured facilitator cannot settle now, or null: its own readiness, then (in process: it
 * settles through our providers) the chain at evidence grade, then the app store that records payments.
 */
function x402Unready(
  readiness: FacilitatorReadiness,
  kind: X402Facilitator["kind"] | undefined,
  evidenceGrade: boolean,
  appStoreAvailable: boolean,
): string | null {
  if (!readiness.ready) return readiness.reason;
  if (kind === "IN_PROCESS" && !evidenceGrade) return "CHAIN_NOT_EVIDENCE_GRADE";
  return appStoreAvailable ? null : "APP_STORE_UNAVAILABLE";
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

function toProbe(head: ProviderHead): ProviderProbe {
  const base = { name: head.provider.name, trusted: head.provider.trusted, latencyMs: head.latencyMs };
  return head.available
    ? { ...base, available: true, blockNumber: head.number }
    : { ...base, available: false, blockNumber: null, error: head.error };
}
