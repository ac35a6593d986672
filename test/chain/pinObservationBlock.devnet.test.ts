import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createPinnedReader } from "../../api/chain/createPinnedReader";
import { pinObservationBlock } from "../../api/chain/pinObservationBlock";
import type { RpcProvider } from "../../api/chain/providers";
import { devnetProvider, publicDevnetProvider, testClient, testManifest } from "../support/devnet";
import { type RpcProxy, startRpcProxy } from "../support/rpcProxy";

const manifest = testManifest();
const client = testClient(manifest);
const proxies: RpcProxy[] = [];

beforeAll(async () => {
  for (let i = 0; i < 4; i++) proxies.push(await startRpcProxy(manifest.rpcUrl));
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.stop()));
});

const proxyAt = (i: number): RpcProxy => {
  const proxy = proxies[i];
  if (!proxy) throw new Error(`no rpc proxy ${i}`);
  return proxy;
};
const publicVia = (proxy: RpcProxy, i: number): RpcProvider => publicDevnetProvider(proxy.url, `public-${i}`);
const trustedDevnet = devnetProvider(manifest.rpcUrl);

async function withModes<T>(modes: ("pass" | "down" | "alter-hash")[], run: () => Promise<T>): Promise<T> {
  await Promise.all(modes.map((m, i) => proxies[i]?.setMode(m)));
  try {
    return await run();
  } finally {
    await Promise.all(proxies.map((p) => p.setMode("pass")));
  }
}

describe("pinObservationBlock", () => {
  test("default: a trusted primary alone pins the chain's block, evidence grade", async () => {
    const block = await pinObservationBlock({ providers: [trustedDevnet], chainId: 8453 });
    expect(block).toMatchObject({
      status: "PINNED",
      trustLevel: "TRUSTED_PRIMARY",
      evidenceGrade: true,
      agreement: 1,
      sampled: 1,
      providerName: "devnet",
    });
    const onChain = await client.getBlock({ blockNumber: BigInt(block.blockNumber ?? -1) });
    expect(block.blockHash).toBe(onChain.hash);
    expect(block.blockTag).toBe(`0x${onChain.number.toString(16)}`);
  });

  test("behavior: two agreeing public providers are a quorum", async () => {
    const block = await pinObservationBlock({ providers: [publicVia(proxyAt(0), 1), publicVia(proxyAt(1), 2)], chainId: 8453 });
    expect(block).toMatchObject({ status: "PINNED", trustLevel: "PUBLIC_QUORUM", evidenceGrade: true, agreement: 2, sampled: 2 });
  });

  test("behavior: one of three public providers down still leaves a quorum of two", async () => {
    const providers = [0, 1, 2].map((i) => publicVia(proxyAt(i), i));
    const block = await withModes(["down", "pass", "pass"], () => pinObservationBlock({ providers, chainId: 8453 }));
    expect(block).toMatchObject({ trustLevel: "PUBLIC_QUORUM", evidenceGrade: true, agreement: 2, sampled: 2 });
  });

  test("error: a single public provider is not evidence grade", async () => {
    const block = await pinObservationBlock({ providers: [publicVia(proxyAt(0), 1)], chainId: 8453 });
    expect(block).toMatchObject({ status: "PINNED", trustLevel: "UNVERIFIED", evidenceGrade: false, reason: "NO_PUBLIC_QUORUM" });
  });

  test("error: providers disagreeing on the block hash are UNVERIFIED, whichever answer is right", async () => {
    const providers = [0, 1, 2].map((i) => publicVia(proxyAt(i), i));
    const block = await withModes(["pass", "pass", "alter-hash"], () => pinObservationBlock({ providers, chainId: 8453 }));
    expect(block).toMatchObject({ trustLevel: "UNVERIFIED", evidenceGrade: false, reason: "PROVIDERS_DISAGREE_ON_BLOCK_HASH", sampled: 3 });
  });

  test("error: a trusted primary contradicted by a public provider is not evidence grade either", async () => {
    const block = await withModes(["alter-hash"], () =>
      pinObservationBlock({ providers: [trustedDevnet, publicVia(proxyAt(0), 1)], chainId: 8453 }),
    );
    expect(block).toMatchObject({ evidenceGrade: false, reason: "PROVIDERS_DISAGREE_ON_BLOCK_HASH", agreement: 1, sampled: 2 });
  });

  test("error: all providers down is UNPINNED with no block", async () => {
    const providers = [0, 1].map((i) => publicVia(proxyAt(i), i));
    const block = await withModes(["down", "down"], () => pinObservationBlock({ providers, chainId: 8453 }));
    expect(block).toMatchObject({
      status: "UNPINNED",
      blockNumber: null,
      blockHash: null,
      evidenceGrade: false,
      reason: "NO_PROVIDER_ANSWERED",
      sampled: 0,
    });
  });
});

describe("createPinnedReader", () => {
  test("default: reads in one batch at the pinned block hash and records every call", async () => {
    const block = await pinObservationBlock({ providers: [trustedDevnet], chainId: 8453 });
    const reader = createPinnedReader(block, [trustedDevnet]);
    const usdc = manifest.tokens.USDC?.address ?? manifest.contracts.plainToken;
    if (!usdc) throw new Error("no token fixture in the manifest");
    const [code, slot, call] = await reader.read([
      { kind: "code", address: usdc },
      { kind: "storage", address: usdc, slot: "0x0" },
      { kind: "call", to: usdc, data: "0x313ce567" },
    ]);
    expect(code).toEqual({
      ok: true,
      value: (await client.getCode({ address: usdc, blockNumber: BigInt(block.blockNumber ?? 0) }))?.toLowerCase(),
    });
    expect(slot?.ok).toBe(true);
    expect(call?.ok).toBe(true);
    const observation = reader.observation();
    expect(observation).toMatchObject({ pinnedBlockTag: block.blockTag, stateBearingCallCount: 3, failedReadCount: 0, roundTrips: 1 });
    expect(observation.calls.map((c) => c.method)).toEqual(["eth_getCode", "eth_getStorageAt", "eth_call"]);
    expect(observation.calls.every((c) => c.blockTag === block.blockTag && c.provider === "devnet")).toBe(true);
  });

  test("behavior: a reverting eth_call is an observation (REVERTED), not a failed read", async () => {
    const block = await pinObservationBlock({ providers: [trustedDevnet], chainId: 8453 });
    const reader = createPinnedReader(block, [trustedDevnet]);
    const target = manifest.contracts.plainToken ?? manifest.tokens.USDC?.address;
    if (!target) throw new Error("no token fixture in the manifest");
    // transfer(address,uint256) of more than the caller holds reverts.
    const data = `0xa9059cbb${"00".repeat(12)}${"11".repeat(20)}${"ff".repeat(32)}` as const;
    const [result] = await reader.read([{ kind: "call", to: target, data, from: manifest.accounts.users[11]?.address }]);
    expect(result).toMatchObject({ ok: false, reverted: true });
    expect(reader.observation()).toMatchObject({ failedReadCount: 0 });
    expect(reader.observation().calls[0]?.status).toBe("REVERTED");
  });

  test("behavior: a provider that goes down after pinning is replaced by one that agreed", async () => {
    const providers = [0, 1].map((i) => publicVia(proxyAt(i), i));
    const block = await pinObservationBlock({ providers, chainId: 8453 });
    const reader = createPinnedReader(block, providers);
    const [code] = await withModes(["down", "pass"], () =>
      reader.read([{ kind: "code", address: manifest.contracts.plainToken ?? manifest.accounts.deployer.address }]),
    );
    expect(code?.ok).toBe(true);
    expect(reader.observation().calls[0]?.provider).toBe("public-1");
    expect(reader.observation().roundTrips).toBe(2);
  });

  test("error: every read fails, without a round trip, when no block is pinned", async () => {
    const block = await withModes(["down"], () => pinObservationBlock({ providers: [publicVia(proxyAt(0), 0)], chainId: 8453 }));
    const reader = createPinnedReader(block, [publicVia(proxyAt(0), 0)]);
    const [code] = await reader.read([{ kind: "code", address: manifest.accounts.deployer.address }]);
    expect(code).toMatchObject({ ok: false, reverted: false, error: "no pinned block" });
    expect(reader.observation().roundTrips).toBe(0);
  });
});
