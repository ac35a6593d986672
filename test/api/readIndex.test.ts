import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { type Address, getAddress, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { IndexDb } from "../../api/index/indexDb";
import { readChainHead } from "../../api/index/readChainHead";
import { readPaymentsByTxHash } from "../../api/index/readPayments";
import { readPairPools, readPools } from "../../api/index/readPools";
import { readWhaleTransfers } from "../../api/index/readWhaleTransfers";
import { chainHead, payment, pool, whaleTransfer } from "../../ponder.schema";

const pglite = new PGlite();
const db = drizzle(pglite);
const indexDb = db as unknown as IndexDb;
const otherChain = 10;

/** A lowercase address (as Ponder stores hex) ending in `n`. */
const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const weth = address(0xaa);
const usdc = address(0xbb);
const dai = address(0xcc);
const txHash = `0x${"ab".repeat(32)}` as Hex;

const poolRow = (chainId: number, n: number, kind: (typeof pool.$inferInsert)["kind"], token0: Address, token1: Address) => ({
  chainId,
  address: address(n),
  kind,
  factory: address(1),
  token0,
  token1,
  reserve0: 10n,
  reserve1: 20n,
  blockNumber: 5n,
  volume0: 0n,
  volume1: 0n,
  volumeSince: 0n,
});

const whaleRow = (chainId: number, blockNumber: bigint, logIndex: number) => ({
  chainId,
  txHash: `0x${blockNumber.toString(16).padStart(64, "0")}` as Hex,
  logIndex,
  token: usdc,
  blockNumber,
  timestamp: 1_000n + blockNumber * 2n,
  from: address(2),
  to: address(3),
  amount: 2_000_000n * 10n ** 6n,
});

beforeAll(async () => {
  await pglite.exec(`
    CREATE TABLE chain_head (chain_id integer PRIMARY KEY, number numeric(78) NOT NULL, hash text NOT NULL, timestamp numeric(78) NOT NULL);
    CREATE TABLE payment (id text PRIMARY KEY, chain_id integer NOT NULL, tx_hash text NOT NULL, log_index integer NOT NULL,
      block_number numeric(78) NOT NULL, block_hash text NOT NULL, timestamp numeric(78) NOT NULL, "from" text NOT NULL, "to" text NOT NULL,
      amount numeric(78) NOT NULL);
    CREATE TABLE pool (chain_id integer NOT NULL, address text NOT NULL, kind text NOT NULL, factory text NOT NULL, token0 text NOT NULL,
      token1 text NOT NULL, fee integer, tick_spacing integer, hooks text, reserve0 numeric(78), reserve1 numeric(78), sqrt_price_x_96 numeric(78), liquidity numeric(78),
      tick integer, block_number numeric(78) NOT NULL, volume0 numeric(78) NOT NULL, volume1 numeric(78) NOT NULL,
      volume_since numeric(78) NOT NULL, PRIMARY KEY (chain_id, address));
    CREATE TABLE whale_transfer (chain_id integer NOT NULL, tx_hash text NOT NULL, log_index integer NOT NULL, token text NOT NULL,
      block_number numeric(78) NOT NULL, timestamp numeric(78) NOT NULL, "from" text NOT NULL, "to" text NOT NULL, amount numeric(78) NOT NULL,
      PRIMARY KEY (chain_id, tx_hash, log_index));`);
});
afterAll(() => pglite.close());

describe("reads of the indexed tables", () => {
  test("readChainHead: null before the first block, then the chain's own head", async () => {
    expect(await readChainHead(indexDb, 8453)).toBeNull();
    await db.insert(chainHead).values([
      { chainId: 8453, number: 100n, hash: `0x${"01".repeat(32)}`, timestamp: 1_700_000_000n },
      { chainId: otherChain, number: 900n, hash: `0x${"02".repeat(32)}`, timestamp: 1_700_000_500n },
    ]);
    expect(await readChainHead(indexDb, 8453)).toEqual({
      chainId: 8453,
      number: 100n,
      hash: `0x${"01".repeat(32)}`,
      timestamp: 1_700_000_000n,
    });
  });

  test("readPaymentsByTxHash: every transfer of the transaction on the chain, whatever the hash's case", async () => {
    const row = (chainId: number, logIndex: number) => ({
      id: `${txHash}-${logIndex}-${chainId}`,
      chainId,
      txHash,
      logIndex,
      blockNumber: 90n,
      blockHash: `0x${"03".repeat(32)}` as Hex,
      timestamp: 1_699_999_980n,
      from: address(4),
      to: address(5),
      amount: 9_000_000n,
    });
    await db.insert(payment).values([row(8453, 1), row(8453, 2), row(otherChain, 1)]);
    const rows = await readPaymentsByTxHash(indexDb, 8453, txHash.toUpperCase().replace("0X", "0x") as Hex);
    expect(rows.map((r) => r.logIndex).sort()).toEqual([1, 2]);
    expect(await readPaymentsByTxHash(indexDb, 8453, `0x${"cd".repeat(32)}`)).toEqual([]);
  });

  test("readPools and readPairPools: the chain's pools; a pair in either order and of the given kinds", async () => {
    await db
      .insert(pool)
      .values([
        poolRow(8453, 0x10, "uniswap-v2", weth, usdc),
        poolRow(8453, 0x11, "uniswap-v3", usdc, weth),
        poolRow(8453, 0x12, "aerodrome-stable", weth, usdc),
        poolRow(8453, 0x13, "uniswap-v2", weth, dai),
        poolRow(otherChain, 0x14, "uniswap-v2", weth, usdc),
      ]);
    expect((await readPools(indexDb, 8453)).map((p) => p.address).sort()).toEqual([
      address(0x10),
      address(0x11),
      address(0x12),
      address(0x13),
    ]);
    const pair = await readPairPools(indexDb, 8453, { tokens: [getAddress(usdc), getAddress(weth)], kinds: ["uniswap-v2", "uniswap-v3"] });
    expect(pair.map((p) => p.address).sort()).toEqual([address(0x10), address(0x11)]);
    expect(pair.find((p) => p.address === address(0x10))).toMatchObject({ reserve0: 10n, reserve1: 20n, blockNumber: 5n });
  });

  test("readWhaleTransfers: the chain's transfers since a time, newest first, at most `limit`", async () => {
    await db
      .insert(whaleTransfer)
      .values([
        whaleRow(8453, 10n, 0),
        whaleRow(8453, 20n, 0),
        whaleRow(8453, 20n, 3),
        whaleRow(8453, 30n, 1),
        whaleRow(otherChain, 40n, 0),
      ]);
    const since = whaleRow(8453, 20n, 0).timestamp;
    const recent = await readWhaleTransfers(indexDb, 8453, { since, limit: 50 });
    expect(recent.map((w) => [w.blockNumber, w.logIndex])).toEqual([
      [30n, 1],
      [20n, 3],
      [20n, 0],
    ]);
    expect(await readWhaleTransfers(indexDb, 8453, { since, limit: 2 })).toEqual(recent.slice(0, 2));
  });
});
