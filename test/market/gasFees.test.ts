import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { type Address, parseEther, parseGwei } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GasPriceOracleAbi } from "../../abis/GasPriceOracleAbi";
import { createApp } from "../../api/app";
import type { RpcProvider } from "../../api/chain/providers";
import type { IndexDb } from "../../api/index/indexDb";
import { assembleObserveGasFees } from "../../api/market/assembleObserveGasFees";
import { GasFees, type WeiAmount } from "../../api/market/GasFees";
import { feeHistoryBlocks, type ObserveGasFeesParameters, observeGasFees, priorityFeePercentiles } from "../../api/market/observeGasFees";
import { basePredeploys } from "../../base/baseChain";
import { createDevnetClient } from "../../devnet/client";
import { devnetL1FeeParameters } from "../../devnet/seed/gasPriceOracle";
import { testAppParameters, testMarketParameters } from "../support/app";
import { devnetProvider, testManifest } from "../support/devnet";
import { type RpcProxy, type RpcProxyMode, startRpcProxy } from "../support/rpcProxy";

type App = ReturnType<typeof createApp>;
const manifest = testManifest();
const oracle = manifest.contracts.gasPriceOracle as Address;
/** A wallet of this file's own, funded here: its transactions give the fee window tips of several sizes. */
const senderKey = generatePrivateKey();
const client = createDevnetClient(manifest.rpcUrl, senderKey);
const pglite = new PGlite();
const indexDb = drizzle(pglite) as unknown as IndexDb;
const app = createApp(testAppParameters(manifest, indexDb));
const proxies: RpcProxy[] = [];

/** A free key of a fresh wallet (each has 10 credits a day): challenge, personal_sign, claim. */
async function freeKey(on: App = app): Promise<string> {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const post = (path: string, body: unknown) =>
    on.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const { intent } = (await (await post("/v1/subscribe/free/challenge", { userWallet: wallet.address })).json()) as {
    intent: { intentId: string; messageToSign: string };
  };
  const signature = await wallet.signMessage({ message: intent.messageToSign });
  return ((await (await post("/v1/subscribe/free/claim", { intentId: intent.intentId, signature })).json()) as { apiKey: string }).apiKey;
}

async function proxy(mode: RpcProxyMode = "pass"): Promise<RpcProxy> {
  const started = await startRpcProxy(manifest.rpcUrl, mode);
  proxies.push(started);
  return started;
}

/** An app whose market routes read from `providers` (and whose other parts are the test devnet's). */
function appReading(providers: RpcProvider[], gasFees: Partial<ObserveGasFeesParameters> = {}): App {
  const market = testMarketParameters(providers, indexDb, manifest.dexes);
  return createApp(testAppParameters(manifest, indexDb, { market: { ...market, gasFees: { ...market.gasFees, ...gasFees } } }));
}

const exact = (amount: WeiAmount) => [BigInt(amount.wei), parseGwei(amount.gwei)];
const readOracle = async (
  functionName: "l1BaseFee" | "blobBaseFee" | "baseFeeScalar" | "blobBaseFeeScalar" | "decimals",
  blockNumber: bigint,
): Promise<bigint> => BigInt(await client.readContract({ address: oracle, abi: GasPriceOracleAbi, functionName, blockNumber }));

beforeAll(async () => {
  await client.setBalance({ address: client.account.address, value: parseEther("10") });
  // Transactions with tips of 1 to 5 gwei, one block each (the test devnet mines on each transaction).
  for (let tip = 1n; tip <= 5n; tip++) {
    const hash = await client.sendTransaction({
      to: client.account.address,
      maxPriorityFeePerGas: parseGwei(tip.toString()),
      maxFeePerGas: parseGwei("50"),
    });
    await client.waitForTransactionReceipt({ hash });
  }
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.stop()));
  await pglite.close();
});

describe("GET /v1/gas/fees on the devnet", () => {
  test("default: every figure equals the chain's own answer at the pinned block, with the block range and provenance", async () => {
    const key = await freeKey();
    // Another test file may mine meanwhile: compare only an answer whose block stayed the head throughout.
    for (let attempt = 1; ; attempt++) {
      const head = await client.getBlock({ blockTag: "latest" });
      const res = await app.request("/v1/gas/fees", { headers: { "x-api-key": key } });
      expect(res.status).toBe(200);
      const body = GasFees.parse(await res.json());
      const [gasPrice, history, still] = await Promise.all([
        client.getGasPrice(),
        client.getFeeHistory({ blockCount: feeHistoryBlocks, blockNumber: head.number, rewardPercentiles: [...priorityFeePercentiles] }),
        client.getBlock({ blockTag: "latest" }),
      ]);
      if (still.hash !== head.hash || body.provenance.observationBlock.blockHash !== head.hash) {
        expect(attempt, "the head kept moving").toBeLessThan(5);
        continue;
      }

      expect(exact(body.gasPrice)).toEqual([gasPrice, gasPrice]);
      expect(exact(body.baseFee.observationBlock)).toEqual([head.baseFeePerGas, head.baseFeePerGas]);
      const next = history.baseFeePerGas[feeHistoryBlocks] as bigint;
      expect(exact(body.baseFee.nextBlock)).toEqual([next, next]);

      const { priorityFees } = body;
      expect(priorityFees).toMatchObject({ toBlock: Number(head.number), blockCount: feeHistoryBlocks });
      expect(priorityFees.fromBlock).toBe(Number(head.number) - feeHistoryBlocks + 1);
      expect(priorityFees.fromBlock).toBe(Number(history.oldestBlock));
      const rewards = history.reward ?? [];
      expect(priorityFees.blocks.map((b) => b.priorityFeesWei.map(BigInt))).toEqual(rewards);
      expect(priorityFees.blocks.map((b) => BigInt(b.baseFeePerGasWei))).toEqual(history.baseFeePerGas.slice(0, feeHistoryBlocks));
      // The median of each percentile over the 20 blocks: the two middle ones' mean, rounded down.
      priorityFeePercentiles.forEach((percentile, i) => {
        const sorted = rewards.map((row) => row[i] as bigint).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const median = ((sorted[9] as bigint) + (sorted[10] as bigint)) / 2n;
        expect(priorityFees.percentiles[i]?.percentile).toBe(percentile);
        expect(exact(priorityFees.percentiles[i] as WeiAmount)).toEqual([median, median]);
      });
      // Our own transactions' tips are in the window: the percentiles are not all zero.
      expect(rewards.flat().some((r) => r >= parseGwei("1"))).toBe(true);
      const ratios = history.gasUsedRatio;
      expect(body.gasUsedRatio).toEqual({
        min: Math.min(...ratios),
        mean: ratios.reduce((a, b) => a + b, 0) / ratios.length,
        max: Math.max(...ratios),
      });

      const l1 = body.l1DataFee;
      // The devnet's own GasPriceOracle, placed at the predeploy's address.
      expect([l1.oracle, oracle]).toEqual([basePredeploys.gasPriceOracle, basePredeploys.gasPriceOracle]);
      const [l1BaseFee, blobBaseFee, baseFeeScalar, blobBaseFeeScalar, decimals] = await Promise.all([
        readOracle("l1BaseFee", head.number),
        readOracle("blobBaseFee", head.number),
        readOracle("baseFeeScalar", head.number),
        readOracle("blobBaseFeeScalar", head.number),
        readOracle("decimals", head.number),
      ]);
      expect(exact(l1.l1BaseFee)).toEqual([l1BaseFee, devnetL1FeeParameters.l1BaseFee]);
      expect(exact(l1.blobBaseFee)).toEqual([blobBaseFee, devnetL1FeeParameters.blobBaseFee]);
      expect([l1.baseFeeScalar, l1.blobBaseFeeScalar, l1.decimals]).toEqual([baseFeeScalar, blobBaseFeeScalar, decimals].map(String));
      const size = BigInt(l1.upperBoundExample.unsignedTxSizeBytes);
      const bound = await client.readContract({
        address: oracle,
        abi: GasPriceOracleAbi,
        functionName: "getL1FeeUpperBound",
        args: [size],
        blockNumber: head.number,
      });
      expect(exact(l1.upperBoundExample.l1FeeUpperBound)).toEqual([bound, bound]);
      // Fjord's formula, computed here from the parameters: the fixture is the predeploy's arithmetic.
      const txSize = size + 68n;
      const estimated = -42_585_600n + 836_500n * (txSize + txSize / 255n + 16n);
      const floored = estimated < 100_000_000n ? 100_000_000n : estimated;
      expect(bound).toBe((floored * (BigInt(baseFeeScalar) * 16n * l1BaseFee + BigInt(blobBaseFeeScalar) * blobBaseFee)) / 10n ** 12n);

      expect(body.provenance).toMatchObject({ source: "RPC", index: null });
      expect(body.provenance.observationBlock).toMatchObject({
        status: "PINNED",
        blockNumber: Number(head.number),
        blockHash: head.hash,
        trustLevel: "TRUSTED_PRIMARY",
        evidenceGrade: true,
        providerName: "devnet",
      });
      expect(body.reads).toEqual({ providers: ["devnet"], reused: false });
      expect(res.headers.get("x-service-rpc-provider")).toBe("devnet");
      expect(res.headers.get("x-service-trust-level")).toBe("TRUSTED_PRIMARY");
      expect(res.headers.get("x-credits-remaining")).toBe("9");
      return;
    }
  });

  test("behavior: credits, payment and query parameters: a credit per answer, 402 without a key, 401 for a bad key or a credential in the URL, unknown parameters ignored", async () => {
    const key = await freeKey();
    const ask = (query: string, headers: Record<string, string> = { "x-api-key": key }) => app.request(`/v1/gas/fees${query}`, { headers });
    const first = await ask("");
    const unknown = await ask("?foo=1&blocks=5");
    expect([first.status, unknown.status]).toEqual([200, 200]);
    // The unknown parameters change nothing: the same window, and a credit like any answer.
    expect(GasFees.parse(await unknown.json()).priorityFees.blockCount).toBe(feeHistoryBlocks);
    expect(Number(unknown.headers.get("x-credits-remaining"))).toBe(Number(first.headers.get("x-credits-remaining")) - 1);

    const unpaid = await ask("", {});
    expect(unpaid.status).toBe(402);
    expect(await unpaid.json()).toMatchObject({ error: "PAYMENT_REQUIRED" });
    const wrong = await ask("", { "x-api-key": "svc_test_1111111111111111111111111111111111111111111" });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: "INVALID_API_KEY" });
    for (const query of [`?api_key=${key}`, "?token=abc", `?foo=${key}`]) {
      const leaked = await ask(query);
      expect(leaked.status, query).toBe(401);
      expect(await leaked.json()).toMatchObject({ error: "CREDENTIAL_IN_QUERY" });
    }
    const plans = (await (await app.request("/v1/plans")).json()) as { credits: { route: string; credits: number }[] };
    expect(plans.credits).toContainEqual({ route: "GET /v1/gas/fees", credits: 1 });
  });

  test("behavior: requests at one pinned block share one set of reads; a new block means new reads", async () => {
    const through = await proxy();
    // The head holds still and the clock moves only when the test says so: nothing races a busy machine.
    await through.holdHead(Number(await client.getBlockNumber({ cacheTime: 0 })));
    let now = new Date();
    const deps = assembleObserveGasFees({
      providers: [devnetProvider(through.url, "proxied")],
      chainId: 8453,
      blockTimeMs: 2000,
      now: () => now,
    });
    const observe = async () => {
      const result = await observeGasFees(deps);
      if (!result.ok) throw new Error(result.message);
      return result.value;
    };
    const requestsDuring = async <T>(run: () => Promise<T>) => {
      const before = await through.counts();
      const value = await run();
      const after = await through.counts();
      const delta = (m: string) => (after[m] ?? 0) - (before[m] ?? 0);
      return { value, heads: delta("eth_getBlockByNumber"), gasPrices: delta("eth_gasPrice"), calls: delta("eth_call") };
    };

    const burst = await requestsDuring(() => Promise.all(Array.from({ length: 10 }, observe)));
    const again = await requestsDuring(observe);
    // One pin (one head read) and one batch (its two head checks, one eth_gasPrice, six oracle calls) for all eleven.
    expect(burst).toMatchObject({ heads: 3, gasPrices: 1, calls: 6 });
    expect(again).toMatchObject({ heads: 0, gasPrices: 0, calls: 0 });
    expect(new Set(burst.value.map((v) => v.provenance.observationBlock.blockHash)).size).toBe(1);
    expect(burst.value.filter((v) => !v.reads.reused)).toHaveLength(1);
    expect(again.value.reads.reused).toBe(true);
    expect(again.value.provenance.observationBlock.blockHash).toBe(burst.value[0]?.provenance.observationBlock.blockHash);

    await client.mine({ blocks: 1 });
    const mined = Number(await client.getBlockNumber({ cacheTime: 0 }));
    await through.holdHead(mined);
    now = new Date(now.getTime() + 1001);
    const next = await requestsDuring(observe);
    expect(next).toMatchObject({ heads: 3, gasPrices: 1, calls: 6 });
    expect(next.value.provenance.observationBlock.blockNumber).toBe(mined);
    expect(next.value.reads.reused).toBe(false);
    expect(deps.cache.size()).toBe(2);
    await through.holdHead(null);
  });

  test("behavior: a head that moves on between the pin and the reads is pinned afresh: the answer names the block it was read at", async () => {
    const now = new Date();
    // Another test file mining twice within one read would make it HEAD_MOVED: the scenario is then run again.
    for (let attempt = 1; ; attempt++) {
      const deps = assembleObserveGasFees({
        providers: [devnetProvider(manifest.rpcUrl)],
        chainId: 8453,
        blockTimeMs: 2000,
        now: () => now,
      });
      // The shared head read remembers block N; then block N+1 is mined before the gas figures are read.
      const remembered = await deps.readHead(deps.providers[0] as RpcProvider);
      await client.mine({ blocks: 1 });
      const result = await observeGasFees(deps);
      if (!result.ok && result.details?.reason === "HEAD_MOVED" && attempt < 3) continue;
      if (!result.ok) throw new Error(result.message);
      const block = result.value.provenance.observationBlock;
      expect(remembered.available && block.blockNumber !== null && block.blockNumber > remembered.number).toBe(true);
      expect(result.value.priorityFees.toBlock).toBe(block.blockNumber);
      const header = await client.getBlock({ blockNumber: BigInt(block.blockNumber as number) });
      expect(block.blockHash).toBe(header.hash);
      expect(BigInt(result.value.baseFee.observationBlock.wei)).toBe(header.baseFeePerGas);
      return;
    }
  });
});

describe("GET /v1/gas/fees when the chain cannot be read at evidence grade: 503, never a partial answer", () => {
  let key = "";
  beforeAll(async () => {
    key = await freeKey();
  });
  const refusal = async (providers: RpcProvider[]) => {
    const res = await appReading(providers).request("/v1/gas/fees", { headers: { "x-api-key": key } });
    return { res, body: (await res.json()) as { error: string; message: string; reason: string; retryable: boolean } };
  };

  test("error: the only provider down: NO_PROVIDER_ANSWERED, no credit charged", async () => {
    const down = await proxy("down");
    const { res, body } = await refusal([{ name: "primary:down", url: down.url, trusted: true }]);
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ error: "DATA_SOURCE_UNAVAILABLE", reason: "NO_PROVIDER_ANSWERED", retryable: true });
    expect(body.message).toMatch(/no Base RPC provider answered/);
    expect(res.headers.get("x-service-rpc-provider")).toBe("none");
    expect(res.headers.get("x-service-trust-level")).toBe("UNVERIFIED");
    expect(res.headers.get("x-credits-remaining")).toBe("10");
  });

  test("error: a trusted primary that lies about block hashes: its reads at the hash fail and the answer says which", async () => {
    const liar = await proxy("alter-hash");
    const { res, body } = await refusal([{ name: "primary:liar", url: liar.url, trusted: true }]);
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ error: "DATA_SOURCE_UNAVAILABLE", reason: "READ_FAILED" });
    expect(body.message).toMatch(/at block \d+ .*primary:liar: GasPriceOracle l1BaseFee\(\) failed: rpc error/);
    expect(res.headers.get("x-service-rpc-provider")).toBe("primary:liar");
  });

  test.each([
    ["on another fork", "PROVIDERS_DISAGREE_ON_BLOCK_HASH", "alter-hash", "UNVERIFIED"],
    ["agreeing on the block but not on the readings", "PROVIDERS_DISAGREE_ON_READINGS", "lie-call", "PUBLIC_QUORUM"],
  ] as const)("error: two public providers, one %s: %s", async (_what, reason, mode, trustLevel) => {
    const [honest, liar] = [await proxy(), await proxy(mode)];
    const { res, body } = await refusal([
      { name: "public-1:honest", url: honest.url, trusted: false },
      { name: "public-2:liar", url: liar.url, trusted: false },
    ]);
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ error: "DATA_SOURCE_UNAVAILABLE", reason });
    expect(res.headers.get("x-service-trust-level")).toBe(trustLevel);
  });

  test("default: two honest public providers are a quorum: 200, read by both", async () => {
    const [one, two] = [await proxy(), await proxy()];
    const res = await appReading([
      { name: "public-1:one", url: one.url, trusted: false },
      { name: "public-2:two", url: two.url, trusted: false },
    ]).request("/v1/gas/fees", { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    const body = GasFees.parse(await res.json());
    expect(body.reads.providers).toEqual(["public-1:one", "public-2:two"]);
    expect(body.provenance.observationBlock.trustLevel).toBe("PUBLIC_QUORUM");
    expect(res.headers.get("x-service-trust-level")).toBe("PUBLIC_QUORUM");
  });
});
