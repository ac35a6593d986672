import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { IndexDb } from "../../api/index/indexDb";
import { readChainHead } from "../../api/index/readChainHead";
import { readPaymentsByTxHash } from "../../api/index/readPayments";
import { readPoolCandidateCounts } from "../../api/index/readPoolCandidateCounts";
import { readPools } from "../../api/index/readPools";
import { readPoolTicks } from "../../api/index/readPoolTicks";
import { readSwapVolumes } from "../../api/index/readSwapVolumes";
import { readTrackedTokens } from "../../api/index/readTrackedTokens";
import { readWhaleTransfers } from "../../api/index/readWhaleTransfers";
import { chainHead, payment, pool, poolCandidate, poolTick, swap, trackedToken, whaleTransfer } from "../../ponder.schema";
import { createIndexTables } from "../support/marketIndex";

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

beforeAll(() => createIndexTables(pglite));
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

  test("readPools: the chain's pools", async () => {
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
    const rows = await readPools(indexDb, 8453);
    expect(rows.find((p) => p.address === address(0x10))).toMatchObject({ reserve0: 10n, reserve1: 20n, blockNumber: 5n, hooks: null });
  });

  test("readPoolCandidateCounts: the chain's planned pools by outcome, zero for an outcome none has", async () => {
    expect(await readPoolCandidateCounts(indexDb, 8453)).toEqual({ indexed: 0, watched: 0, refused: 0 });
    const candidate = (chainId: number, n: number, status: "indexed" | "watched" | "refused") => ({
      chainId,
      address: address(n),
      kind: "uniswap-v3" as const,
      status,
      reason: status === "refused" ? "wrong tokens" : null,
    });
    await db
      .insert(poolCandidate)
      .values([
        candidate(8453, 0x20, "indexed"),
        candidate(8453, 0x21, "watched"),
        candidate(8453, 0x22, "watched"),
        candidate(otherChain, 0x23, "refused"),
      ]);
    expect(await readPoolCandidateCounts(indexDb, 8453)).toEqual({ indexed: 1, watched: 2, refused: 0 });
  });

  test("readPoolTicks: the chain's initialized ticks by pool, ascending, signed net liquidity kept", async () => {
    const tick = (chainId: number, poolNumber: number, t: number, net: bigint) => ({
      chainId,
      pool: address(poolNumber),
      tick: t,
      liquidityNet: net,
      liquidityGross: net < 0n ? -net : net,
    });
    await db
      .insert(poolTick)
      .values([tick(8453, 0x11, 60, -5n), tick(8453, 0x11, -60, 5n), tick(8453, 0x12, 0, 7n), tick(otherChain, 0x11, 0, 1n)]);
    const ticks = await readPoolTicks(indexDb, 8453);
    expect([...ticks.keys()].sort()).toEqual([address(0x11), address(0x12)]);
    expect(ticks.get(address(0x11))?.map((t) => [t.tick, t.liquidityNet])).toEqual([
      [-60, 5n],
      [60, -5n],
    ]);
  });

  test("readSwapVolumes: per pool, both tokens' in plus out of the swaps after a time, and their count", async () => {
    const row = (blockNumber: bigint, poolNumber: number, timestamp: bigint, chainId = 8453) => ({
      chainId,
      blockNumber,
      logIndex: 0,
      pool: address(poolNumber),
      timestamp,
      amount0In: 10n,
      amount1In: 0n,
      amount0Out: 0n,
      amount1Out: 30n,
    });
    await db
      .insert(swap)
      .values([row(1n, 0x10, 100n), row(2n, 0x10, 200n), row(3n, 0x10, 300n), row(4n, 0x11, 300n), row(5n, 0x10, 300n, otherChain)]);
    const volumes = await readSwapVolumes(indexDb, 8453, 100n);
    expect(volumes.get(address(0x10))).toEqual({ volume0: 20n, volume1: 60n, swaps: 2 });
    expect(volumes.get(address(0x11))).toEqual({ volume0: 10n, volume1: 30n, swaps: 1 });
    expect(volumes.size).toBe(2);
  });

  test("readTrackedTokens: the chain's tokens, verified and refused", async () => {
    await db.insert(trackedToken).values([
      {
        chainId: 8453,
        address: usdc,
        symbol: "USDC",
        decimals: 6,
        status: "verified",
        reason: null,
        whaleThreshold: 1n,
        transfersFromBlock: 0n,
      },
      {
        chainId: 8453,
        address: dai,
        symbol: "DAI",
        decimals: null,
        status: "refused",
        reason: "no code",
        whaleThreshold: 1n,
        transfersFromBlock: 0n,
      },
      {
        chainId: otherChain,
        address: weth,
        symbol: "WETH",
        decimals: 18,
        status: "verified",
        reason: null,
        whaleThreshold: 1n,
        transfersFromBlock: 0n,
      },
    ]);
    const tokens = await readTrackedTokens(indexDb, 8453);
    expect(tokens.map((t) => [t.symbol, t.status]).sort()).toEqual([
      ["DAI", "refused"],
      ["USDC", "verified"],
    ]);
  });

  test("readWhaleTransfers: the chain's transfers in a block range, newest first, at most `limit`", async () => {
    await db
      .insert(whaleTransfer)
      .values([
        whaleRow(8453, 10n, 0),
        whaleRow(8453, 20n, 0),
        whaleRow(8453, 20n, 3),
        whaleRow(8453, 30n, 1),
        whaleRow(otherChain, 40n, 0),
      ]);
    const recent = await readWhaleTransfers(indexDb, 8453, { fromBlock: 20n, toBlock: 30n, limit: 50 });
    expect(recent.map((w) => [w.blockNumber, w.logIndex])).toEqual([
      [30n, 1],
      [20n, 3],
      [20n, 0],
    ]);
    expect(await readWhaleTransfers(indexDb, 8453, { fromBlock: 20n, toBlock: 30n, limit: 2 })).toEqual(recent.slice(0, 2));
    expect((await readWhaleTransfers(indexDb, 8453, { fromBlock: 10n, toBlock: 20n, limit: 50 })).map((w) => w.blockNumber)).toEqual([
      20n,
      20n,
      10n,
    ]);
  });
});
