/**
 * `derive` memoised per object (a snapshot of one indexed block, a reading of it): a figure every
 * request of that object shares is computed once, and is dropped with the object.
 */
export function oncePer<K extends object, T>(derive: (key: K) => T): (key: K) => T {
  const derived = new WeakMap<K, T>();
  return (key) => {
    if (!derived.has(key)) derived.set(key, derive(key));
    return derived.get(key) as T;
  };
}
