import type { Context } from "ponder:registry";
import { poolCandidate } from "ponder:schema";
import type { Hex } from "viem";
import type { PlannedPool } from "./config/plannedPools";
import { plan } from "./plan";
import { created, type NewPool, registerPool } from "./registerPool";
import { verifyPool } from "./verifyPool";

const plannedByAddress = new Map<string, PlannedPool>(plan.pools.contracts.map((p) => [p.address.toLowerCase(), p]));

/** A pool's state as its first event gives it: Sync's reserves, or Initialize's price (no liquidity yet). */
type FirstState = Pick<NewPool, "reserve0" | "reserve1"> | Pick<NewPool, "sqrtPriceX96" | "tick" | "liquidity">;

/**
 * The first event of a pool at a watched candidate's address (absent at start, so created since): the pool
 * is verified at that block (verifyPool.ts) and registered with the state the event carries, which is its
 * whole state (nothing came before it). Its candidate row then says indexed or refused, so that no later
 * event verifies it again. Nothing happens for an address that is not a watched candidate.
 */
export async function registerWatchedPool(
  context: Context,
  event: { log: { address: Hex }; block: { number: bigint; timestamp: bigint } },
  state: FirstState,
): Promise<void> {
  const key = { chainId: context.chain.id, address: event.log.address };
  const planned = plannedByAddress.get(event.log.address.toLowerCase());
  if (!planned || (await context.db.find(poolCandidate, key))?.status !== "watched") return;
  const verified = await verifyPool(context.client, planned, event.block.number);
  const registered = verified.ok && (await registerPool(context, { ...verified.identity, ...created(event, verified.identity), ...state }));
  const reason = registered ? null : verified.ok ? "it holds no verified tracked token" : verified.reason;
  if (!registered) console.warn(`[indexer] derived ${planned.kind} pool ${planned.address} refused at its first event: ${reason}`);
  await context.db.update(poolCandidate, key).set({ status: registered ? "indexed" : "refused", reason });
}
