import type { MarketSnapshot } from "./buildMarketSnapshot";

/** `derive` memoised per snapshot: a figure every request of one indexed block shares is computed once. */
export function oncePerSnapshot<T>(derive: (snapshot: MarketSnapshot) => T): (snapshot: MarketSnapshot) => T {
  const derived = new WeakMap<MarketSnapshot, T>();
  return (snapshot) => {
    if (!derived.has(snapshot)) derived.set(snapshot, derive(snapshot));
    return derived.get(snapshot) as T;
  };
}
