import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { describe, expect, test } from "vitest";
import { probeProvider } from "../../api/chain/probeProvider";
import { listWhaleSignals } from "../../api/market/listWhaleSignals";
import { createReadMarket, marketRules } from "../../api/market/readMarket";
import { chainHead, trackedToken } from "../../ponder.schema";
import { testClient, testManifest } from "../support/devnet";
import { seedMarketIndex } from "../support/marketIndex";

const manifest = testManifest();
const client = testClient(manifest);
const providers = [{ name: "devnet", url: manifest.rpcUrl, trusted: true }];

/** The market over an index written from the chain's reads, at the chain's head. */
async function marketAtHead(indexHeadTtlMs?: number) {
  const pglite = new PGlite();
  const index = await seedMarketIndex(pglite, manifest);
  const readMarket = createReadMarket({
    indexDb: index.indexDb,
    chainId: 8453,
    providers,
    readHead: probeProvider,
    maxIndexLagBlocks: 10,
    rules: marketRules(50_000, 86_400),
    indexHeadTtlMs,
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
    const shared = await marketAtHead(3_600_000);
    const fresh = await marketAtHead(0);
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
