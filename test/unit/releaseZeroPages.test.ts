import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { releaseZeroPages } from "../../api/store/releaseZeroPages";

/** This process's resident set in bytes, as the kernel counts it. */
const residentBytes = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1]) * 1024;
const sumOfRows = async (db: PGlite) =>
  (
    await db.query<{ n: number; s: string; h: string }>(
      "SELECT count(*)::int AS n, sum(x)::text AS s, md5(string_agg(y, ',' ORDER BY x)) AS h FROM t",
    )
  ).rows[0];

describe("releaseZeroPages on a PGlite instance (the native addon npm install builds)", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec("CREATE TABLE t (x int PRIMARY KEY, y text); INSERT INTO t SELECT g, md5(g::text) FROM generate_series(1, 50000) g;");
  });
  afterAll(() => db?.close());

  test("behavior: it gives back the 100+ MB that PGlite's start left holding zeros, the process's resident set drops by about as much, and every row reads the same", async () => {
    const before = await sumOfRows(db);
    const residentBefore = residentBytes();
    const released = releaseZeroPages(db);
    const dropped = residentBefore - residentBytes();
    expect(dropped).toBeGreaterThan(100 * 2 ** 20);
    // It counts every zero page, resident or not: the resident set drops by at most that.
    expect(released).toBeGreaterThanOrEqual(dropped);
    expect(await sumOfRows(db)).toEqual(before);
    expect(before).toMatchObject({ n: 50000, s: "1250025000" });
  });

  test("behavior: the instance writes and reads after it as before, and a second call finds the pages written since no longer zero", async () => {
    releaseZeroPages(db);
    await db.exec("INSERT INTO t SELECT g, md5(g::text) FROM generate_series(50001, 150000) g;");
    expect(await sumOfRows(db)).toMatchObject({ n: 150000, s: String((150000 * 150001) / 2) });
    const again = releaseZeroPages(db) as number;
    const fresh = await PGlite.create();
    try {
      // What the inserts wrote stays resident: a second call gives back less than a fresh instance's first.
      expect(again).toBeLessThan(releaseZeroPages(fresh) as number);
    } finally {
      await fresh.close();
    }
  });

  test("behavior: an instance that has not started has no memory to scan: undefined, nothing thrown", () => {
    expect(releaseZeroPages(new PGlite({ dataDir: "memory://" }))).toBeUndefined();
  });
});
