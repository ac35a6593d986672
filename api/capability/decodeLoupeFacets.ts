import { type Address, getAddress, type Hex } from "viem";

export type DecodeLoupeFacetsParameters = {
  /** The ABI-encoded answer of `facets()`: `(address facetAddress, bytes4[] functionSelectors)[]`. */
  data: Hex;
  /** Distinct facets kept; later ones are left out. */
  maxFacets: number;
  /** Selectors kept, all facets together; later ones are left out. */
  maxSelectors: number;
};

export type LoupeFacet = { facetAddress: Address; functionSelectors: Hex[] };

/** The distinct facets in loupe order (a repeated address adds its selectors to the first), and what was left out. */
export type DecodeLoupeFacetsReturnType = {
  facets: LoupeFacet[];
  /** The answer names more distinct facets than `maxFacets`. */
  facetsLeftOut: boolean;
  /** The kept facets list more selectors than `maxSelectors`. */
  selectorsLeftOut: boolean;
};

const wordChars = 64;

/**
 * Reads a loupe `facets()` answer without decoding more than the limits keep: one pass over the entries,
 * facets deduplicated by address, selectors taken up to `maxSelectors` (a facet listing a million
 * selectors costs no more than one listing `maxSelectors`). Null when the answer is not that ABI shape.
 */
export function decodeLoupeFacets({ data, maxFacets, maxSelectors }: DecodeLoupeFacetsParameters): DecodeLoupeFacetsReturnType | null {
  const hex = data.slice(2);
  if (hex.length % wordChars !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const size = hex.length / 2;
  // An offset or length is a uint256 that must point inside the answer: anything wider is malformed.
  const readSize = (at: number): number | null => {
    if (at < 0 || at + 32 > size) return null;
    const word = hex.slice(at * 2, at * 2 + wordChars);
    if (!/^0{52}/.test(word)) return null;
    const value = Number.parseInt(word.slice(52), 16);
    return value <= size ? value : null;
  };

  const array = readSize(0);
  const count = array === null ? null : readSize(array);
  if (array === null || count === null || array + 32 + count * 32 > size) return null;
  const heads = array + 32;

  const byAddress = new Map<string, LoupeFacet>();
  let selectorsTaken = 0;
  let facetsLeftOut = false;
  let selectorsLeftOut = false;
  for (let i = 0; i < count; i++) {
    const offset = readSize(heads + i * 32);
    if (offset === null) return null;
    const entry = heads + offset;
    const selectorsOffset = readSize(entry + 32);
    if (selectorsOffset === null) return null;
    const key = `0x${hex.slice(entry * 2 + 24, entry * 2 + wordChars)}`.toLowerCase();
    let facet = byAddress.get(key);
    if (facet === undefined) {
      if (byAddress.size >= maxFacets) {
        facetsLeftOut = true;
        continue;
      }
      facet = { facetAddress: getAddress(key), functionSelectors: [] };
      byAddress.set(key, facet);
    }
    const list = entry + selectorsOffset;
    const length = readSize(list);
    if (length === null || list + 32 + length * 32 > size) return null;
    const taken = Math.min(length, maxSelectors - selectorsTaken);
    if (taken < length) selectorsLeftOut = true;
    for (let j = 0; j < taken; j++) {
      const at = (list + 32 + j * 32) * 2;
      facet.functionSelectors.push(`0x${hex.slice(at, at + 8).toLowerCase()}`);
    }
    selectorsTaken += taken;
  }
  return { facets: [...byAddress.values()], facetsLeftOut, selectorsLeftOut };
}
