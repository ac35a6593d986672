import { type Address, decodeFunctionResult, encodeFunctionResult, getAddress, type Hex, padHex } from "viem";
import { describe, expect, it } from "vitest";
import { DiamondLoupeAbi } from "../../abis/DiamondLoupeAbi";
import { decodeLoupeFacets } from "../../api/capability/decodeLoupeFacets";

const facetAt = (i: number): Address => getAddress(padHex(`0x${(0xfacade00 + i).toString(16)}`, { size: 20 }));
const selector = (i: number): Hex => `0x${(0xa0000000 + i).toString(16)}`;
const answer = (facets: { facetAddress: Address; functionSelectors: Hex[] }[]): Hex =>
  encodeFunctionResult({ abi: DiamondLoupeAbi, functionName: "facets", result: facets });
const unlimited = { maxFacets: 1_000, maxSelectors: 100_000 };

describe("decodeLoupeFacets", () => {
  it("default: reads what viem decodes from a loupe answer", () => {
    const facets = [0, 1, 2].map((i) => ({ facetAddress: facetAt(i), functionSelectors: [selector(2 * i), selector(2 * i + 1)] }));
    const data = answer(facets);
    expect(decodeLoupeFacets({ data, ...unlimited })).toEqual({
      facets: decodeFunctionResult({ abi: DiamondLoupeAbi, functionName: "facets", data }),
      facetsLeftOut: false,
      selectorsLeftOut: false,
    });
  });

  it("behavior: a repeated facet address is one facet, at its first place, with the selectors of every entry", () => {
    const data = answer([
      { facetAddress: facetAt(0), functionSelectors: [selector(0)] },
      { facetAddress: facetAt(1), functionSelectors: [selector(1)] },
      { facetAddress: facetAt(0), functionSelectors: [selector(2)] },
    ]);
    expect(decodeLoupeFacets({ data, ...unlimited })?.facets).toEqual([
      { facetAddress: facetAt(0), functionSelectors: [selector(0), selector(2)] },
      { facetAddress: facetAt(1), functionSelectors: [selector(1)] },
    ]);
  });

  it("behavior: past maxFacets distinct facets the rest are left out, but repeats of kept ones still count", () => {
    const entries = Array.from({ length: 10 }, (_, i) => ({ facetAddress: facetAt(i), functionSelectors: [selector(i)] }));
    entries.push({ facetAddress: facetAt(1), functionSelectors: [selector(99)] });
    const decoded = decodeLoupeFacets({ data: answer(entries), maxFacets: 4, maxSelectors: 100 });
    expect(decoded?.facetsLeftOut).toBe(true);
    expect(decoded?.facets.map((f) => f.facetAddress)).toEqual([0, 1, 2, 3].map(facetAt));
    expect(decoded?.facets[1]?.functionSelectors).toEqual([selector(1), selector(99)]);
  });

  it("behavior: a facet listing a million selectors gives maxSelectors of them", () => {
    const million = 1_000_000;
    // ABI by hand (viem would take long to encode it): offset, one entry, its offset, address, selectors offset, length, words.
    const word = (n: number) => n.toString(16).padStart(64, "0");
    const data =
      `0x${word(32)}${word(1)}${word(32)}${facetAt(0).slice(2).toLowerCase().padStart(64, "0")}${word(64)}${word(million)}${`deadbeef${"0".repeat(56)}`.repeat(million)}` as Hex;
    const decoded = decodeLoupeFacets({ data, maxFacets: 256, maxSelectors: 4096 });
    expect(decoded?.selectorsLeftOut).toBe(true);
    expect(decoded?.facets[0]?.functionSelectors).toHaveLength(4096);
    expect(decoded?.facets[0]?.functionSelectors[4095]).toBe("0xdeadbeef");
  });

  it("error: an answer that is not the loupe's ABI shape is null", () => {
    const data = answer([{ facetAddress: facetAt(0), functionSelectors: [selector(0)] }]);
    expect(decodeLoupeFacets({ data: "0x", ...unlimited })).toBeNull();
    expect(decodeLoupeFacets({ data: data.slice(0, -64) as Hex, ...unlimited })).toBeNull();
    expect(decodeLoupeFacets({ data: `0x${"f".repeat(64)}`, ...unlimited })).toBeNull();
    expect(decodeLoupeFacets({ data: `${data}0`, ...unlimited })).toBeNull();
  });
});
