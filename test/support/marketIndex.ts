import type { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { AerodromePoolAbi } from "../../abis/AerodromePoolAbi";
import type { IndexDb } from "../../api/index/indexDb";
import type { Manifest, ManifestPool } from "../../devnet/manifest";
import { chainHead, pool, poolCandidate, trackedToken } from "../../ponder.schema";
import { testClient } from "./devnet";

/** Ponder's market tables as the indexer creates them (hex: text, bigint: numeric(78)), for tests that write rows themselves. */
export async function createIndexTables(pglite: PGlite): Promise<void> {
  await pglite.exec(`
    CREATE TABLE chain_head (chain_id integer PRIMARY KEY, number numeric(78) NOT NULL, hash text NOT NULL, timestamp numeric(78) NOT NULL);
    CREATE TABLE payment (id text PRIMARY KEY, chain_id integer NOT NULL, tx_hash text NOT NULL, log_index integer NOT NULL,
      block_number numeric(78) NOT NULL, block_hash text NOT NULL, timestamp numeric(78) NOT NULL, "from" text NOT NULL, "to" text NOT NULL,
      amount numeric(78) NOT NULL);
    CREATE TABLE pool (chain_id integer NOT NULL, address text NOT NULL, kind text NOT NULL, factory text NOT NULL, token0 text NOT NULL,
      token1 text NOT NULL, fee integer, tick_spacing integer, hooks text, reserve0 numeric(78), reserve1 numeric(78), sqrt_price_x_96 numeric(78), liquidity numeric(78),
      tick integer, tick_count integer NOT NULL DEFAULT 0, ticks_incomplete boolean NOT NULL DEFAULT false, block_number numeric(78) NOT NULL, volume0 numeric(78) NOT NULL, volume1 numeric(78) NOT NULL,
      volume_since numeric(78) NOT NULL, PRIMARY KEY (chain_id, address));
    CREATE TABLE pool_candidate (chain_id integer NOT NULL, address text NOT NULL, kind text NOT NULL, status text NOT NULL, reason text,
      PRIMARY KEY (chain_id, address));
    CREATE TABLE pool_tick (chain_id integer NOT NULL, pool text NOT NULL, tick integer NOT NULL, liquidity_net numeric(78) NOT NULL,
      liquidity_gross numeric(78) NOT NULL, PRIMARY KEY (chain_id, pool, tick));
    CREATE TABLE swap (chain_id integer NOT NULL, block_number numeric(78) NOT NULL, log_index integer NOT NULL, pool text NOT NULL,
      timestamp numeric(78) NOT NULL, amount0_in numeric(78) NOT NULL, amount1_in numeric(78) NOT NULL, amount0_out numeric(78) NOT NULL,
      amount1_out numeric(78) NOT NULL, PRIMARY KEY (chain_id, block_number, log_index));
    CREATE TABLE tracked_token (chain_id integer NOT NULL, address text NOT NULL, symbol text NOT NULL, decimals integer, status text NOT NULL,
      reason text, whale_threshold numeric(78) NOT NULL, transfers_from_block numeric(78) NOT NULL, PRIMARY KEY (chain_id, address));
    CREATE TABLE whale_transfer (chain_id integer NOT NULL, tx_hash text NOT NULL, log_index integer NOT NULL, token text NOT NULL,
      block_number numeric(78) NOT NULL, timestamp numeric(78) NOT NULL, "from" text NOT NULL, "to" text NOT NULL, amount numeric(78) NOT NULL,
      PRIMARY KEY (chain_id, tx_hash, log_index));`);
}

/** The manifest's constant-product pools (Uniswap V2 and Aerodrome): their state is their reserves. */
export function constantProductPools(manifest: Manifest): ManifestPool[] {
  return manifest.pools.filter((p) => p.kind === "uniswap-v2" || p.kind === "aerodrome-volatile" || p.kind === "aerodrome-stable");
}

/**
 * An index of the test devnet's market as Ponder would hold it, written here from the chain's own reads:
 * its tokens (verified), its constant-product pools with their reserves (each an indexed candidate), and the current head. Enough for
 * the market routes to answer 200 without running Ponder. `syncHead()` moves the head to the chain's.
 */
export async function seedMarketIndex(pglite: PGlite, manifest: Manifest): Promise<{ indexDb: IndexDb; syncHead(): Promise<void> }> {
  const db = drizzle(pglite);
  const client = testClient(manifest);
  await createIndexTables(pglite);
  await db.insert(trackedToken).values(
    Object.values(manifest.tokens).map((t) => ({
      chainId: 8453,
      address: t.address.toLowerCase() as `0x${string}`,
      symbol: t.symbol,
      decimals: t.decimals,
      status: "verified" as const,
      reason: null,
      whaleThreshold: 10n ** BigInt(t.decimals + 6),
      transfersFromBlock: 0n,
    })),
  );
  const block = await client.getBlock();
  for (const p of constantProductPools(manifest)) {
    const [reserve0, reserve1] = await client.readContract({
      address: p.address,
      abi: AerodromePoolAbi,
      functionName: "getReserves",
      blockNumber: block.number,
    });
    await db.insert(pool).values({
      chainId: 8453,
      address: p.address.toLowerCase() as `0x${string}`,
      kind: p.kind,
      factory: p.factory.toLowerCase() as `0x${string}`,
      token0: p.token0.toLowerCase() as `0x${string}`,
      token1: p.token1.toLowerCase() as `0x${string}`,
      reserve0,
      reserve1,
      blockNumber: block.number,
      volume0: 0n,
      volume1: 0n,
      volumeSince: 0n,
    });
    await db
      .insert(poolCandidate)
      .values({ chainId: 8453, address: p.address.toLowerCase() as `0x${string}`, kind: p.kind, status: "indexed" });
  }
  const syncHead = async () => {
    const head = await client.getBlock();
    await db.delete(chainHead);
    await db.insert(chainHead).values({ chainId: 8453, number: head.number, hash: head.hash, timestamp: head.timestamp });
  };
  await syncHead();
  return { indexDb: db as unknown as IndexDb, syncHead };
}
