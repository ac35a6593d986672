import { z } from "zod";
import { WireAddress } from "../http/params";

/** What kind of indirection a hop is; `NONE` when the address executes its own code. */
export const ProxyType = z.enum([
  "EIP7702_DELEGATED_ACCOUNT",
  "EIP1167_CLONE",
  "EIP2535_DIAMOND",
  "EIP1967_TRANSPARENT",
  "EIP1967_UUPS",
  "EIP1967_PROXY",
  "EIP1967_BEACON",
  "IMMUTABLE_BEACON_PROXY",
  "EIP1822_PROXIABLE",
  "ZEPPELINOS_PROXY",
  "SAFE_PROXY",
  "UNKNOWN_DELEGATING",
  "NONE",
]);
export type ProxyType = z.infer<typeof ProxyType>;

/** How a hop of the path was established. */
export const Via = z.enum([
  "EIP7702_DELEGATION_DESIGNATOR",
  "EIP1167_EMBEDDED_ADDRESS",
  "EIP2535_FACETS_SELECTOR",
  "EIP1967_IMPLEMENTATION_SLOT",
  "EIP1967_BEACON_SLOT",
  "IMMUTABLE_BEACON_ADDRESS",
  "BEACON_IMPLEMENTATION_CALL",
  "EIP1822_PROXIABLE_SLOT",
  "ZEPPELINOS_IMPLEMENTATION_SLOT",
  "SAFE_SINGLETON_SLOT",
]);
export type Via = z.infer<typeof Via>;

/** One address on the path and its runtime code at the pinned block. */
export const CodeNode = z.strictObject({
  address: WireAddress,
  bytecodeAvailable: z.boolean(),
  bytecodeSizeBytes: z.int().nonnegative(),
  runtimeBytecodeHash: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/)
    .nullable(),
});
export type CodeNode = z.infer<typeof CodeNode>;

export const PathHop = z.strictObject({ from: WireAddress, to: WireAddress, via: Via, blockTag: z.string() });
export type PathHop = z.infer<typeof PathHop>;

export const DiamondFacet = CodeNode.extend({ selectors: z.array(z.string().regex(/^0x[0-9a-f]{8}$/)) });

export const DiamondResolution = z.strictObject({
  /** The Diamond answers ERC-165 for IDiamondLoupe (0x48e2b093). */
  supportsInterface: z.boolean(),
  /** The facet was found in facets() because facetAddress(selector) failed. */
  usedFacetsFallback: z.boolean(),
  facetCount: z.int().nonnegative(),
  selectorCount: z.int().nonnegative(),
  selector: z.string().nullable(),
  selectedFacet: WireAddress.nullable(),
  facets: z.array(DiamondFacet),
});
export type DiamondResolution = z.infer<typeof DiamondResolution>;

/** COMPLETE: followed to the executing code; INCOMPLETE: stopped, `reason` says where and why; NOT_A_CONTRACT: no code. */
export const ResolutionStatus = z.enum(["COMPLETE", "INCOMPLETE", "NOT_A_CONTRACT"]);
export type ResolutionStatus = z.infer<typeof ResolutionStatus>;

/** The `resolution` record on the wire. */
export const ResolutionRecord = z.strictObject({
  status: ResolutionStatus,
  resolutionComplete: z.boolean(),
  proxyType: ProxyType,
  proxyTypes: z.array(ProxyType),
  /** A stable code, a colon, and the detail: `EIP2535_DIAMOND: ...`, `DELEGATECALL_TARGET_UNRESOLVED: ...`. */
  reason: z.string(),
  path: z.array(PathHop),
  nodes: z.array(CodeNode),
  diamond: DiamondResolution.nullable(),
});
export type ResolutionRecord = z.infer<typeof ResolutionRecord>;

/** The resolution with where a call executes: the last implementation, or the selected facet. */
export type Resolution = ResolutionRecord & {
  executionTarget: `0x${string}`;
  implementation: `0x${string}` | null;
  facet: `0x${string}` | null;
};
