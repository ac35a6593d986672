import type { AppDb } from "../../api/store/createAppStore";

/**
 * `db` as the code under test sees it, with the `select` queries built on it counted (each key lookup
 * and epoch read is one): how a test tells a read made from one joined or skipped.
 */
export function countSelects(db: AppDb): { db: AppDb; reads: { count: number } } {
  const reads = { count: 0 };
  const counted = new Proxy(db, {
    get(target, property, receiver) {
      if (property === "select") reads.count += 1;
      return Reflect.get(target, property, receiver);
    },
  });
  return { db: counted, reads };
}
