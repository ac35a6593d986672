import { describe, expect, test } from "vitest";
import { createBlockCache } from "../../api/chain/createBlockCache";
import { failure, type Result, success } from "../../api/errors";
import { pinnedBlock } from "../support/observationBlock";

const at = (n: number) => pinnedBlock(n);

describe("createBlockCache", () => {
  test("default: concurrent and later requests at one block share one observation; another block observes anew", async () => {
    const cache = createBlockCache<number>({ maxEntries: 4 });
    let observed = 0;
    const observe = async (): Promise<Result<number>> => success(++observed);
    const burst = await Promise.all(Array.from({ length: 5 }, () => cache.share(at(1), observe)));
    expect(burst.map((b) => b.result)).toEqual(Array(5).fill(success(1)));
    expect(burst.filter((b) => !b.reused)).toHaveLength(1);
    expect((await cache.share(at(1), observe)).reused).toBe(true);
    expect(await cache.share(at(2), observe)).toEqual({ result: success(2), reused: false });
  });

  test("behavior: a refusal is not kept, so the next request at that block observes again", async () => {
    const cache = createBlockCache<number>({ maxEntries: 4 });
    const refused = await cache.share(at(1), async () => failure("DATA_SOURCE_UNAVAILABLE", "down"));
    expect(refused.result.ok).toBe(false);
    expect(cache.size()).toBe(0);
    expect(await cache.share(at(1), async () => success(7))).toEqual({ result: success(7), reused: false });
  });

  test("behavior: at most maxEntries blocks are kept, the least recently asked for leaving first", async () => {
    const cache = createBlockCache<number>({ maxEntries: 2 });
    for (const n of [1, 2]) await cache.share(at(n), async () => success(n));
    await cache.share(at(1), async () => success(-1));
    await cache.share(at(3), async () => success(3));
    expect(cache.size()).toBe(2);
    expect((await cache.share(at(1), async () => success(-1))).reused).toBe(true);
    expect(await cache.share(at(2), async () => success(20))).toEqual({ result: success(20), reused: false });
  });
});
