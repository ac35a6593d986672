import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { describe, expect, test } from "vitest";
import { probeProvider, type ReadHead } from "../../api/chain/probeProvider";
import { listWhaleSignals } from "../../api/market/listWhaleSignals";
import { quoteTokenPrice } from "../../api/market/quoteTokenPrice";
import { createReadMarket, marketRules } from "../../api/market/readMarket";
import { chainHead, trackedToken } from "../../ponder.schema";
import { devnetProvider, testClient, testManifest } from "../support/devnet";
import { seedMarketIndex } from "../support/marketIndex";

const manifest = testManifest();
const client = testClient(manifest);
const providers = [devnetProvider(manifest.rpcUrl)];

/** The market over an index written from the chain's reads, at the chain's head. */
async function marketAtHead(sharing: { indexHeadTtlMs?: number; chainHeadTtlMs?: number } = {}, readHead: ReadHead = probeProvider) {
  const pglite = new PGlite();
  const index = await seedMarketIndex(pglite, manifest);
  const readMarket = createReadMarket({
    indexDb: index.indexDb,
    chainId: 8453,
    providers,
    readHead,
    maxIndexLagBlocks: 10,
    rules: marketRules(50_000, 86_400),
    ...sharing,
  });
  return { ...index, db: drizzle(pglite), readMarket };
}

describe("readMarket and the whale window", () => {
  test("error: an index head at the chain's height but with another hash (a reorg not followed yet) is refused", async () => {
    const { db, readMarket, syncHead } = await marketAtHead();
    await syncHead();
    const head = await client.getBlock();
    await db.update(chainHead).set({ hash: `0x${"ab".repeat(32)}` });
    const refused = await readMarket();
    // Another file may have mined meanwhile: then the head is behind, not forked, and still served (within the bound).
    if ((await client.getBlockNumber({ cacheTime: 0 })) === head.number) {
      expect(refused).toMatchObject({ ok: false, code: "DATA_SOURCE_UNAVAILABLE" });
      expect(refused.ok ? "" : refused.message).toMatch(/reorg/);
    }
    await syncHead();
    expect((await readMarket()).ok).toBe(true);
  });

  test("behavior: one read of the index head serves every request for indexHeadTtlMs, then it is read afresh", async () => {
    const shared = await marketAtHead({ indexHeadTtlMs: 3_600_000 });
    const fresh = await marketAtHead({ indexHeadTtlMs: 0 });
    // Other files mine meanwhile (one mines 31 blocks at once): the index follows the chain just before it is read.
    await shared.syncHead();
    const first = await shared.readMarket();
    if (!first.ok) throw new Error(first.message);
    const headBlock = first.value.provenance.index?.headBlock;
    await client.mine({ blocks: 1 });
    await shared.syncHead();
    await fresh.syncHead();
    const again = await shared.readMarket();
    const moved = await fresh.readMarket();
    if (!again.ok || !moved.ok) throw new Error("the market could not be read");
    expect(again.value.provenance.index?.headBlock).toBe(headBlock);
    expect(moved.value.provenance.index?.headBlock).toBeGreaterThan(headBlock ?? Number.MAX_SAFE_INTEGER);
  });

  test("behavior: within indexHeadTtlMs one pin of the chain head serves every request: the same reading, and the same price answer object", async () => {
    let headReads = 0;
    const counted: ReadHead = (provider, tag) => {
      headReads += 1;
      return probeProvider(provider, tag);
    };
    const shared = await marketAtHead({ indexHeadTtlMs: 3_600_000 }, counted);
    await shared.syncHead();
    const [first, second] = await Promise.all([shared.readMarket(), shared.readMarket()]);
    const third = await shared.readMarket();
    expect(first.ok).toBe(true);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(headReads).toBe(1);
    const weth = await quoteTokenPrice(shared.readMarket, "WETH");
    if (!weth.ok || !first.ok) throw new Error("WETH could not be priced");
    expect(weth.value.provenance).toBe(first.value.provenance);
    expect(await quoteTokenPrice(shared.readMarket, "weth")).toBe(weth);
    expect(await quoteTokenPrice(shared.readMarket, "USDC")).not.toBe(weth);

    // Without a TTL each request pins the head anew: another reading, another answer object with the same figures.
    headReads = 0;
    const fresh = await marketAtHead({ indexHeadTtlMs: 0 }, counted);
    await fresh.syncHead();
    const a = await quoteTokenPrice(fresh.readMarket, "WETH");
    const b = await quoteTokenPrice(fresh.readMarket, "WETH");
    expect(headReads).toBe(2);
    expect(b).not.toBe(a);
    if (!a.ok || !b.ok) throw new Error("WETH could not be priced");
    expect(b.value.pools).toEqual(a.value.pools);
  });

  test("behavior: under one shared pin of the chain head, a new snapshot of the index is a new reading", async () => {
    const market = await marketAtHead({ indexHeadTtlMs: 0, chainHeadTtlMs: 3_600_000 });
    await market.syncHead();
    const first = await market.readMarket();
    await client.mine({ blocks: 1 });
    await market.syncHead();
    const second = await market.readMarket();
    if (!first.ok || !second.ok) throw new Error("the market could not be read");
    expect(second.value.provenance.observationBlock).toBe(first.value.provenance.observationBlock);
    expect(second).not.toBe(first);
    expect(second.value.provenance.index?.headBlock).toBeGreaterThan(first.value.provenance.index?.headBlock ?? Number.MAX_SAFE_INTEGER);
  });

  test("behavior: the whale window never reaches before the first indexed block, and says so exactly", async () => {
    const { db, indexDb, readMarket, syncHead } = await marketAtHead();
    await syncHead();
    const head = await client.getBlockNumber({ cacheTime: 0 });
    await db.update(trackedToken).set({ transfersFromBlock: head - 3n });
    const result = await listWhaleSignals({ readMarket, indexDb, chainId: 8453, windowBlocks: 43_200 });
    if (!result.ok) throw new Error(result.message);
    expect(result.value.window.fromBlock).toBe(Number(head) - 3);
    expect(result.value.window.blocks).toBe(result.value.window.toBlock - result.value.window.fromBlock + 1);
    // Signals are kept per snapshot of one market reader: another window is another reader's.
    const other = await marketAtHead();
    await other.db.update(trackedToken).set({ transfersFromBlock: head - 3n });
    const narrow = await listWhaleSignals({ readMarket: other.readMarket, indexDb: other.indexDb, chainId: 8453, windowBlocks: 2 });
    if (!narrow.ok) throw new Error(narrow.message);
    expect(narrow.value.window.fromBlock).toBe(narrow.value.window.toBlock - 1);
  });
});
