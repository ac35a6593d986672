import { type Address, encodeFunctionData, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AuditResponse, ScoreResponse } from "../../api/capability/AuditResponse";
import { auditContract, scoreContract } from "../../api/capability/auditContract";
import { preflightTransaction, TransactionPreflightRequest } from "../../api/capability/preflightTransaction";
import { TransactionPreflightResponse } from "../../api/capability/TransactionPreflightResponse";
import { devnetProvider, publicDevnetProvider, testClient, testManifest } from "../support/devnet";
import { type RpcProxy, startRpcProxy } from "../support/rpcProxy";

const manifest = testManifest();
const devnet = devnetProvider(manifest.rpcUrl);
const deps = { providers: [devnet], chainId: 8453 };
const named = (name: string): Address => {
  const address = manifest.contracts[name] ?? manifest.tokens[name]?.address;
  if (!address) throw new Error(`no fixture ${name}`);
  return address;
};
const mint = (to: Address) =>
  encodeFunctionData({ abi: parseAbi(["function mint(address,uint256)"]), functionName: "mint", args: [to, 1n] });

async function audit(name: string) {
  const result = await auditContract(deps, named(name));
  if (!result.ok) throw new Error(`audit of ${name} failed: ${result.message}`);
  // Every real answer must match the published schema exactly (strict objects: no missing, no extra field).
  return AuditResponse.parse(result.value);
}

describe("auditContract", () => {
  test("default: the plain ERC-20 shows no selected pattern and scores 100", async () => {
    const a = await audit("plainToken");
    expect(a).toMatchObject({
      isContract: true,
      capabilityScore: 100,
      capabilityRating: "MINIMAL_SURFACE",
      notASafetyGuarantee: true,
      evidenceGrade: true,
      evidenceStatus: "VERIFIED",
    });
    expect(a.capabilities).toEqual([]);
    expect(a.limitations.length).toBeGreaterThanOrEqual(3);
  });

  test("behavior: SELFDESTRUCT and DELEGATECALL are observed where present and not in PUSH data", async () => {
    expect((await audit("selfDestructor")).detectedCapabilities).toContain("SELFDESTRUCT_OPCODE");
    expect((await audit("delegateCaller")).detectedCapabilities).toContain("DELEGATECALL_OPCODE");
    const trap = await audit("pushDataTrap");
    expect(trap.detectedCapabilities).not.toContain("SELFDESTRUCT_OPCODE");
    expect(trap.detectedCapabilities).not.toContain("DELEGATECALL_OPCODE");
  });

  test("behavior: the Diamond lists its facets and the mint facet's MINT_SELECTOR, scored with the breakdown", async () => {
    const a = await audit("diamond");
    expect(a.resolution.proxyType).toBe("EIP2535_DIAMOND");
    const mintCapability = a.capabilities.find((c) => c.type === "MINT_SELECTOR");
    expect(mintCapability).toMatchObject({
      selectorHex: "0x40c10f19",
      sourceAddress: named("diamondMintFacet"),
      executionRole: "DIAMOND_FACET",
    });
    expect(a.score.deductions.map((d) => d.type)).toEqual(
      expect.arrayContaining(["MINT_SELECTOR", "UPGRADE_SELECTOR", "UPGRADEABLE_PROXY"]),
    );
    expect(a.capabilityScore).toBe(100 - a.score.deductions.reduce((s, d) => s + d.points, 0));
    // Pin, one hop, the facets' code: three round trips in all.
    expect(a.rpcObservation.roundTrips).toBeLessThanOrEqual(2);
  });

  test("behavior: USDC behind its zeppelinos proxy shows the implementation's mint, pause and blacklist selectors", async () => {
    const a = await audit("USDC");
    expect(a.resolvedImplementation).toBe(named("usdcImplementation"));
    expect(a.detectedCapabilities).toEqual(expect.arrayContaining(["MINT_SELECTOR", "PAUSE_SELECTOR", "BLACKLIST_SELECTOR"]));
    expect(a.capabilities.find((c) => c.type === "MINT_SELECTOR")?.executionRole).toBe("IMPLEMENTATION");
  });

  test("behavior: an address with no code is reported as not a contract, not as an error", async () => {
    const result = await auditContract(deps, "0x000000000000000000000000000000000000bEEF");
    expect(result.ok && AuditResponse.parse(result.value)).toMatchObject({
      isContract: false,
      capabilityRating: "NOT_A_CONTRACT",
      capabilityScore: 100,
    });
  });

  test("behavior: score agrees with the audit's index", async () => {
    const [a, s] = await Promise.all([audit("transparentProxy"), scoreContract(deps, named("transparentProxy"))]);
    if (!s.ok) throw new Error(s.message);
    ScoreResponse.parse(s.value);
    expect(s.value.capabilityScore).toBe(a.capabilityScore);
    expect(s.ok && s.value.deductions.map((d) => d.type).sort()).toEqual(a.score.deductions.map((d) => d.type).sort());
  });
});

describe("preflightTransaction", () => {
  test("default: mint on the Diamond selects the mint facet, with every evidence field", async () => {
    const owner = manifest.accounts.deployer.address;
    const request = TransactionPreflightRequest.parse({ chainId: 8453, to: named("diamond"), data: mint(owner), from: owner });
    const result = await preflightTransaction(deps, request);
    if (!result.ok) throw new Error(result.message);
    const p = TransactionPreflightResponse.parse(result.value);
    expect(p).toMatchObject({
      status: "SUCCESS",
      operation: "TRANSACTION_PREFLIGHT_OBSERVATION",
      selectorHex: "0x40c10f19",
      surfaceTarget: named("diamond"),
      resolvedExecutionTarget: named("diamondMintFacet"),
      resolvedFacet: named("diamondMintFacet"),
      evidenceGrade: true,
      evidenceStatus: "VERIFIED",
      reason: "PINNED_TRANSACTION_OBSERVATION",
      effectiveTrust: "TRUSTED_PRIMARY",
      notASafetyGuarantee: true,
      reachability: "NOT_ESTABLISHED",
      conclusion: null,
    });
    expect(p.completeResolutionPath).toEqual([
      { from: named("diamond"), to: named("diamondMintFacet"), via: "EIP2535_FACETS_SELECTOR", blockTag: p.observationBlock.blockTag },
    ]);
    expect(p.resolution).toMatchObject({ status: "COMPLETE", resolutionComplete: true, proxyType: "EIP2535_DIAMOND" });
    expect(p.resolution.diamond).toMatchObject({
      selector: "0x40c10f19",
      selectedFacet: named("diamondMintFacet"),
      usedFacetsFallback: false,
    });
    expect(p.capabilityEvidence).toMatchObject({
      sourceAddress: named("diamondMintFacet"),
      executionRole: "SELECTED_DIAMOND_FACET",
      transactionSelector: "0x40c10f19",
    });
    expect(p.capabilityEvidence?.dissection.capabilities).toContainEqual(
      expect.objectContaining({ type: "MINT_SELECTOR", confidence: "MEDIUM", selectorHex: "0x40c10f19" }),
    );
    expect(p.bytecodeHashes.facetBytecodeHash).toBe(p.bytecodeHashes.finalTargetBytecodeHash);
    expect(p.bytecodeHashes.facetBytecodeHashes.length).toBe(p.resolution.diamond?.facetCount);
    expect(p.simulationObservation).toMatchObject({
      attempted: true,
      outcome: "SUCCEEDED",
      trusted: true,
      evidenceOnly: true,
      blockTag: p.observationBlock.blockTag,
    });
    expect(p.observationBlock).toMatchObject({
      status: "PINNED",
      chainId: 8453,
      network: "eip155:8453",
      agreement: 1,
      sampled: 1,
      providerName: "devnet",
    });
    expect(p.rpcObservation.failedReadCount).toBe(0);
    expect(p.limitations.some((l) => /eth_call/.test(l))).toBe(true);
  });

  test("behavior: the same mint from a non-owner is observed as REVERTED at the pinned block", async () => {
    const stranger = manifest.accounts.users[11]?.address;
    if (!stranger) throw new Error("no test user 11");
    const request = TransactionPreflightRequest.parse({ chainId: 8453, to: named("diamond"), data: mint(stranger), from: stranger });
    const result = await preflightTransaction(deps, request);
    expect(result.ok && result.value.simulationObservation.outcome).toBe("REVERTED");
  });

  test("behavior: a requested past block is pinned exactly", async () => {
    const head = Number(await testClient(manifest).getBlockNumber());
    const request = TransactionPreflightRequest.parse({
      chainId: 8453,
      to: named("plainToken"),
      data: "0x18160ddd",
      blockNumber: head - 1,
    });
    const result = await preflightTransaction(deps, request);
    expect(result.ok && result.value.observationBlock.blockNumber).toBe(head - 1);
  });

  test("error: a future block is refused, not guessed", async () => {
    const request = TransactionPreflightRequest.parse({ chainId: 8453, to: named("plainToken"), blockNumber: 10_000_000 });
    const result = await preflightTransaction(deps, request);
    expect(result).toMatchObject({ ok: false, code: "INVALID_BLOCK_NUMBER" });
  });

  test("error: the request schema is strict", () => {
    expect(TransactionPreflightRequest.safeParse({ chainId: 1, to: named("diamond") }).success).toBe(false);
    expect(TransactionPreflightRequest.safeParse({ chainId: 8453, to: "0x1234" }).success).toBe(false);
    expect(TransactionPreflightRequest.safeParse({ chainId: 8453, to: named("diamond"), data: "0x123" }).success).toBe(false);
    expect(TransactionPreflightRequest.safeParse({ chainId: 8453, to: named("diamond"), extra: 1 }).success).toBe(false);
    expect(TransactionPreflightRequest.safeParse({ chainId: 8453, to: named("diamond"), value: "12" }).success).toBe(false);
  });
});

describe("faults through real RPC proxy processes", () => {
  const proxies: RpcProxy[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) proxies.push(await startRpcProxy(manifest.rpcUrl));
  });
  afterAll(() => Promise.all(proxies.map((p) => p.stop())));
  const publicProviders = () => proxies.map((p, i) => publicDevnetProvider(p.url, `public-${i}`));

  test("behavior: one provider down still gives an evidence-grade audit", async () => {
    await proxies[0]?.setMode("down");
    const result = await auditContract({ providers: publicProviders(), chainId: 8453 }, named("diamond"));
    await proxies[0]?.setMode("pass");
    expect(result.ok && result.value).toMatchObject({ evidenceGrade: true, effectiveTrust: "PUBLIC_QUORUM" });
    expect(result.ok && result.value.capabilityScore).not.toBeNull();
  });

  test("error: providers disagreeing on the block hash give UNVERIFIED with a null score", async () => {
    await proxies[2]?.setMode("alter-hash");
    const result = await auditContract({ providers: publicProviders(), chainId: 8453 }, named("diamond"));
    await proxies[2]?.setMode("pass");
    expect(result.ok && AuditResponse.parse(result.value)).toMatchObject({
      capabilityRating: "UNVERIFIED",
      capabilityScore: null,
      evidenceGrade: false,
      evidenceStatus: "UNVERIFIED",
    });
  });

  test("error: every provider down is a failure value (503 at the route), never a guessed answer", async () => {
    await Promise.all(proxies.map((p) => p.setMode("down")));
    const result = await auditContract({ providers: publicProviders(), chainId: 8453 }, named("diamond"));
    await Promise.all(proxies.map((p) => p.setMode("pass")));
    expect(result).toMatchObject({
      ok: false,
      code: "DATA_SOURCE_UNAVAILABLE",
      details: { observationBlock: { reason: "NO_PROVIDER_ANSWERED" } },
    });
  });
});
