import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createKeyHasher, rememberKeyHashes } from "../../api/keys/createKeyHasher";

const pepper = "test-pepper-0123456789abcdef0123456789abcdef";
const hmac = (rawKey: string) => createHmac("sha256", pepper).update(rawKey).digest("hex");

/** `createKeyHasher(pepper)`, counting its calls. */
function countedHasher() {
  const hash = createKeyHasher(pepper);
  const counted = {
    calls: 0,
    hash: (rawKey: string) => {
      counted.calls += 1;
      return hash(rawKey);
    },
  };
  return counted;
}

describe("createKeyHasher and rememberKeyHashes", () => {
  test("behavior: the hash is HMAC-SHA256 under the pepper, remembered or not", () => {
    const counted = countedHasher();
    const remembered = rememberKeyHashes(counted.hash, 50);
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { minLength: 1, maxLength: 80 }), (rawKeys) => {
        for (const rawKey of [...rawKeys, ...rawKeys]) {
          expect(createKeyHasher(pepper)(rawKey)).toBe(hmac(rawKey));
          expect(remembered(rawKey)).toBe(hmac(rawKey));
        }
      }),
      { numRuns: 200 },
    );
  });

  test("behavior: a raw key is hashed once while it is among the maxEntries asked for most recently; the least recent is forgotten first", () => {
    const counted = countedHasher();
    const remembered = rememberKeyHashes(counted.hash, 3);
    for (const rawKey of ["a", "b", "c", "a", "b", "c"]) remembered(rawKey);
    expect(counted.calls).toBe(3);
    // Asked for again, "a" is now the most recent: "d" makes "b" (the least recent) go, not "a".
    remembered("a");
    remembered("d");
    expect(counted.calls).toBe(4);
    expect(remembered("a")).toBe(hmac("a"));
    expect(counted.calls).toBe(4);
    expect(remembered("b")).toBe(hmac("b"));
    expect(counted.calls).toBe(5);
    // "b" took the place of "c", the least recent of a, c, d.
    remembered("a");
    remembered("d");
    expect(counted.calls).toBe(5);
    remembered("c");
    expect(counted.calls).toBe(6);
  });
});
