import type { Address } from "viem";
import { describe, expect, test } from "vitest";
import { AuditResponse } from "../../api/capability/AuditResponse";
import { auditContract } from "../../api/capability/auditContract";
import { observationLimits } from "../../api/capability/observationLimits";
import { preflightTransaction, TransactionPreflightRequest } from "../../api/capability/preflightTransaction";
import { TransactionPreflightResponse } from "../../api/capability/TransactionPreflightResponse";
import type { RpcObservation } from "../../api/chain/ObservationBlock";
import { maxRuntimeCodeBytes } from "../../devnet/seed/capabilities";
import { devnetProvider, testManifest } from "../support/devnet";

const manifest = testManifest();
const devnet = devnetProvider(manifest.rpcUrl);
const deps = { providers: [devnet], chainId: 8453 };
const named = (name: string): Address => {
  const address = manifest.contracts[name];
  if (!address) throw new Error(`no fixture ${name}`);
  return address;
};

async function audit(name: string) {
  const result = await auditContract(deps, named(name));
  if (!result.ok) throw new Error(`audit of ${name} failed: ${result.message}`);
  return AuditResponse.parse(result.value);
}

/** The addresses eth_getCode was asked for, in order. */
const codeReads = (rpc: RpcObservation) => rpc.calls.filter((c) => c.method === "eth_getCode").map((c) => c.target);

describe("observation limits on loupes that answer beyond them", () => {
  test("behavior: 300 distinct facets (333 entries) read 256 of them, each once, and say DIAMOND_FACET_LIMIT", async () => {
    const a = await audit("fanoutDiamond");
    expect(a.resolution).toMatchObject({ status: "INCOMPLETE", resolutionComplete: false, proxyType: "EIP2535_DIAMOND" });
    expect(a.resolution.reason).toMatch(/^DIAMOND_FACET_LIMIT: /);
    const facets = a.resolution.diamond?.facets ?? [];
    expect(facets).toHaveLength(observationLimits.diamondFacets);
    expect(new Set(facets.map((f) => f.address)).size).toBe(observationLimits.diamondFacets);

    const reads = codeReads(a.rpcObservation);
    // The Diamond's own code, then 256 facets: every address once (the mint facet is listed twice).
    expect(reads).toHaveLength(1 + observationLimits.diamondFacets);
    expect(new Set(reads).size).toBe(reads.length);
    expect(reads).toContain(named("diamondMintFacet"));
    expect(reads).not.toContain(named("diamondPauseFacet"));
    expect(facets.find((f) => f.address === named("diamondMintFacet"))?.selectors).toEqual([
      "0xfa000000",
      "0xfa000001",
      "0xfa000012",
      "0xfa000013",
    ]);

    // What was read is dissected; the 300th facet (the pause facet) is not guessed at.
    expect(a.detectedCapabilities).toContain("MINT_SELECTOR");
    expect(a.detectedCapabilities).not.toContain("PAUSE_SELECTOR");
    expect(a.score.deductions.find((d) => d.type === "INCOMPLETE_RESOLUTION")?.evidence).toMatch(/^DIAMOND_FACET_LIMIT/);
    // A bounded answer: measured 278 KB (257 dissections, most of them of empty code).
    expect(JSON.stringify(a).length).toBeLessThan(512 * 1024);
  });

  test("behavior: a preflight to the 300th facet's selector reads and dissects that facet first", async () => {
    const request = TransactionPreflightRequest.parse({ chainId: 8453, to: named("fanoutDiamond"), data: "0xfa000298" });
    const result = await preflightTransaction(deps, request);
    if (!result.ok) throw new Error(result.message);
    const p = TransactionPreflightResponse.parse(result.value);
    expect(p.resolvedFacet).toBe(named("diamondPauseFacet"));
    expect(p.resolution.reason).toMatch(/^DIAMOND_FACET_LIMIT: .*EIP2535_DIAMOND: selector 0xfa000298 is served by/);
    expect(p.resolution.diamond?.facets).toHaveLength(observationLimits.diamondFacets);
    expect(p.capabilityEvidence).toMatchObject({ sourceAddress: named("diamondPauseFacet"), executionRole: "SELECTED_DIAMOND_FACET" });
    expect(p.capabilityEvidence?.dissection.detectedCapabilities).toContain("PAUSE_SELECTOR");
    const reads = codeReads(p.rpcObservation);
    expect(reads.slice(0, 2)).toEqual([named("fanoutDiamond"), named("diamondPauseFacet")]);
    expect(reads).toHaveLength(1 + observationLimits.diamondFacets);
  });

  test("behavior: a facet listing 20,000 selectors gives 4,096 of them and says DIAMOND_SELECTOR_LIMIT", async () => {
    const a = await audit("wideFacetDiamond");
    expect(a.resolution.status).toBe("INCOMPLETE");
    expect(a.resolution.reason).toMatch(/^DIAMOND_SELECTOR_LIMIT: /);
    expect(a.resolution.diamond).toMatchObject({ facetCount: 1, selectorCount: observationLimits.loupeSelectors });
    expect(a.detectedCapabilities).toContain("MINT_SELECTOR");
  });

  test("behavior: 180 maximum-size facets are dissected up to 4 MiB, and the rest say BYTECODE_BUDGET_EXCEEDED", async () => {
    const a = await audit("heavyFacetDiamond");
    expect(a.resolution.status).toBe("INCOMPLETE");
    expect(a.resolution.reason).toMatch(/^BYTECODE_BUDGET_EXCEEDED: /);
    expect(codeReads(a.rpcObservation)).toHaveLength(1 + 180);
    const dissectedBytes = a.dissections.reduce((n, d) => n + d.dissection.bytecodeSizeBytes, 0);
    expect(dissectedBytes).toBeLessThanOrEqual(observationLimits.dissectedBytecodeBytes);
    const diamondBytes = a.resolution.nodes[0]?.bytecodeSizeBytes ?? 0;
    const facetsThatFit = Math.floor((observationLimits.dissectedBytecodeBytes - diamondBytes) / maxRuntimeCodeBytes);
    expect(a.dissections).toHaveLength(1 + facetsThatFit);
    // Every facet is still reported as read (size and hash), only not dissected.
    expect(a.resolution.diamond?.facets.every((f) => f.bytecodeSizeBytes === maxRuntimeCodeBytes && f.runtimeBytecodeHash)).toBe(true);
  });

  test("default: the six-facet Diamond stays COMPLETE, every facet read once and dissected", async () => {
    const a = await audit("diamond");
    expect(a.resolution).toMatchObject({ status: "COMPLETE", resolutionComplete: true });
    expect(a.resolution.reason).toMatch(/^EIP2535_DIAMOND: 6 facets/);
    const reads = codeReads(a.rpcObservation);
    expect(reads).toHaveLength(7);
    expect(new Set(reads).size).toBe(7);
    expect(a.dissections.filter((d) => d.executionRole === "DIAMOND_FACET")).toHaveLength(6);
  });
});
