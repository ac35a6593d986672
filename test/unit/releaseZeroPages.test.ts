import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { releaseZeroPages, releaseZeroPagesOf } from "../../api/store/releaseZeroPages";
import { residentSetSizes } from "../../bench/residentSetSizes";

const notBuilt = "native/ is not built: npm install builds it (node-gyp: a C compiler, make and python3)";
const pageSize = 4096;

type WebAssemblyMemory = { new (descriptor: { initial: number }): { buffer: ArrayBuffer } };
/** A WebAssembly memory of `pages` 64-KB pages: page-aligned private memory, as PGlite's is (the project's TypeScript libs leave WebAssembly's types out). */
const webAssemblyMemory = (pages: number): ArrayBuffer =>
  new (globalThis as unknown as { WebAssembly: { Memory: WebAssemblyMemory } }).WebAssembly.Memory({ initial: pages }).buffer;

/** This process's resident set in bytes, as the kernel counts it (to 0.1 MB). */
const residentBytes = () => (residentSetSizes({ self: process.pid }).self ?? Number.NaN) * 2 ** 20;
const sumOfRows = async (db: PGlite) =>
  (
    await db.query<{ n: number; s: string; h: string }>(
      "SELECT count(*)::int AS n, sum(x)::text AS s, md5(string_agg(y, ',' ORDER BY x)) AS h FROM t",
    )
  ).rows[0];

describe.runIf(process.platform === "linux")("releaseZeroPagesOf: the native addon on a WebAssembly memory", () => {
  test("behavior: it gives back exactly the pages that hold only zeros, the runs at both ends included, and leaves every other byte as it was", () => {
    const memory = webAssemblyMemory(4); // 256 KB: 64 pages of 4 KB
    const bytes = new Uint8Array(memory);
    expect(releaseZeroPagesOf(memory), notBuilt).toBe(bytes.length);
    bytes[10 * pageSize + 123] = 7; // one page in the middle
    bytes[bytes.length - 1] = 9; // the last page
    bytes.fill(0xff, 20 * pageSize, 22 * pageSize); // two whole pages
    const copy = bytes.slice();
    expect(releaseZeroPagesOf(memory)).toBe(bytes.length - 4 * pageSize);
    expect(bytes).toEqual(copy);
  });

  test("behavior: the pages it gives back leave the resident set, and read as zeros when used again", () => {
    const memory = webAssemblyMemory(1024); // 64 MB
    const bytes = new Uint8Array(memory);
    bytes.fill(0); // written, so resident, though it holds zeros
    const residentBefore = residentBytes();
    expect(releaseZeroPagesOf(memory)).toBe(bytes.length);
    expect(residentBefore - residentBytes()).toBeGreaterThan(bytes.length * 0.8);
    expect(bytes.every((b) => b === 0)).toBe(true);
  });
});

describe.runIf(process.platform === "linux")("releaseZeroPages on a PGlite instance", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec("CREATE TABLE t (x int PRIMARY KEY, y text); INSERT INTO t SELECT g, md5(g::text) FROM generate_series(1, 50000) g;");
  });
  afterAll(() => db?.close());

  test("behavior: it gives back the 100+ MB that PGlite's start left holding zeros, and every row reads the same", async () => {
    const before = await sumOfRows(db);
    const residentBefore = residentBytes();
    const released = releaseZeroPages(db);
    expect(released, notBuilt).toBeTypeOf("number");
    const dropped = residentBefore - residentBytes();
    expect(dropped).toBeGreaterThan(100 * 2 ** 20);
    // It counts every zero page, resident or not: the resident set drops by at most that.
    expect(released).toBeGreaterThanOrEqual(dropped);
    expect(await sumOfRows(db)).toEqual(before);
    expect(before).toMatchObject({ n: 50000, s: "1250025000" });
  });

  test("behavior: the instance writes and reads after it as before, and what it wrote since survives a second call", async () => {
    await db.exec("INSERT INTO t SELECT g, md5(g::text) FROM generate_series(50001, 150000) g;");
    const written = await sumOfRows(db);
    expect(written).toMatchObject({ n: 150000, s: String((150000 * 150001) / 2) });
    releaseZeroPages(db);
    expect(await sumOfRows(db)).toEqual(written);
  });

  test("behavior: an instance that has not started has no memory to scan: undefined, nothing thrown", async () => {
    const starting = new PGlite({ dataDir: "memory://" });
    try {
      expect(releaseZeroPages(starting)).toBeUndefined();
    } finally {
      await starting.close();
    }
  });
});
