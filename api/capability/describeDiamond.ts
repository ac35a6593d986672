import { type Address, type Hex, hexToBytes, isAddressEqual } from "viem";
import type { PinnedRead, PinnedReader } from "../chain/createPinnedReader";
import { codeNode } from "./codeNode";
import type { DecodeLoupeFacetsReturnType } from "./decodeLoupeFacets";
import type { ObservationLimits } from "./observationLimits";
import type { DiamondResolution } from "./Resolution";

export type DescribeDiamondParameters = {
  reader: PinnedReader;
  /** The loupe's `facets()` answer, deduplicated and within the limits. */
  loupe: DecodeLoupeFacetsReturnType;
  /** What `facetAddress(selector)` answered (zero address: none), whether it failed, and ERC-165 for the loupe. */
  loupeAnswers: { facetAddress: Address | null; facetAddressFailed: boolean; supportsLoupe: boolean };
  selector: Hex | undefined;
  /** Every code read so far by lowercase address, in reading order; the facets' codes are added to it. */
  read: Map<string, Hex>;
  limits: ObservationLimits;
};

export type DescribeDiamondReturnType = {
  diamond: DiamondResolution;
  /** `DIAMOND_FACET_LIMIT: ...` and `DIAMOND_SELECTOR_LIMIT: ...` when the loupe listed more than the limits keep. */
  limitReasons: string[];
};

/**
 * Reads the code of each distinct facet (at most `limits.diamondFacets`, the selected facet first, codes
 * already read not again) in one batch, and describes the Diamond: its facets with their selectors, and
 * the facet that serves `selector` (by `facetAddress(selector)`, else by the facets' selector lists).
 */
export async function describeDiamond({
  reader,
  loupe,
  loupeAnswers,
  selector,
  read,
  limits,
}: DescribeDiamondParameters): Promise<DescribeDiamondReturnType> {
  const wanted = selector?.toLowerCase() as Hex | undefined;
  const fromLoupe = loupeAnswers.facetAddress;
  const { facets, facetsLeftOut } = withSelectedFacet(loupe, fromLoupe, wanted, limits.diamondFacets);

  const unread = new Map<string, Address>();
  for (const address of fromLoupe ? [fromLoupe, ...facets.map((f) => f.facetAddress)] : facets.map((f) => f.facetAddress)) {
    const key = address.toLowerCase();
    if (!read.has(key)) unread.set(key, address);
  }
  const answers = await reader.read([...unread.values()].map((address): PinnedRead => ({ kind: "code", address })));
  for (const [i, key] of [...unread.keys()].entries()) {
    const answer = answers[i];
    if (answer?.ok) read.set(key, answer.value);
  }

  const described = facets.map((f) => {
    const code = read.get(f.facetAddress.toLowerCase());
    return { ...codeNode(f.facetAddress, code === undefined ? null : hexToBytes(code)), selectors: f.functionSelectors };
  });
  const fromList = wanted ? (described.find((f) => f.selectors.includes(wanted))?.address ?? null) : null;
  const limitReasons: string[] = [];
  if (facetsLeftOut) {
    limitReasons.push(
      `DIAMOND_FACET_LIMIT: the loupe lists more than ${limits.diamondFacets} distinct facets; ${described.length} were read`,
    );
  }
  if (loupe.selectorsLeftOut) {
    limitReasons.push(
      `DIAMOND_SELECTOR_LIMIT: the loupe lists more than ${limits.loupeSelectors} selectors; ${limits.loupeSelectors} were taken`,
    );
  }
  return {
    diamond: {
      supportsInterface: loupeAnswers.supportsLoupe,
      usedFacetsFallback: wanted !== undefined && loupeAnswers.facetAddressFailed && fromList !== null,
      facetCount: described.length,
      selectorCount: described.reduce((n, f) => n + f.selectors.length, 0),
      selector: wanted ?? null,
      selectedFacet: fromLoupe ?? fromList,
      facets: described,
    },
    limitReasons,
  };
}

/** The loupe's facets with the one `facetAddress(selector)` named, within `maxFacets` (it displaces the last). */
function withSelectedFacet(
  loupe: DecodeLoupeFacetsReturnType,
  selected: Address | null,
  wanted: Hex | undefined,
  maxFacets: number,
): { facets: DecodeLoupeFacetsReturnType["facets"]; facetsLeftOut: boolean } {
  if (!selected || loupe.facets.some((f) => isAddressEqual(f.facetAddress, selected))) return loupe;
  const kept = loupe.facets.length >= maxFacets ? loupe.facets.slice(0, maxFacets - 1) : loupe.facets;
  return {
    facets: [...kept, { facetAddress: selected, functionSelectors: wanted ? [wanted] : [] }],
    facetsLeftOut: loupe.facetsLeftOut || kept.length < loupe.facets.length,
  };
}
