import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, createPublicClient, erc20Abi, type Hex, http, maxUint256, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { loadConfig } from "../../api/config";
import { slipstreamPoolAddress, sortTokens, uniswapV3PoolAddress } from "../../base/poolAddress";
import { createDevnetClient, deployFixture } from "../../devnet/client";
import { artifactOf, compileFixtures } from "../../devnet/compile";
import type { Manifest, ManifestToken } from "../../devnet/manifest";
import { referenceRatio, sqrtPriceX96Of } from "../../devnet/seed/poolMath";
import { type Devnet, startDevnet } from "../../devnet/startDevnet";
import { devnetSwapRouterAbi } from "../../devnet/swapRouterAbi";
import { indexerPlan } from "../../src/config/indexerPlan";
import { chainTruth } from "../support/chainTruth";
import { type IndexedTables, readIndexedTables } from "../support/indexedTables";
import { type RpcProxy, startRpcProxy } from "../support/rpcProxy";
import { type RunningIndexer, startIndexer, waitForIndexed, waitForReady } from "../support/startIndexer";

/**
 * Two indexers on a devnet of their own, for what the derivation must survive: one reads through a
 * provider that answers every `eth_getCode` with no code (existence is the factories' word, not the code's),
 * with a tick bound the seeded pools just fit, then gains ticks past it; the other curates its pools with
 * INDEXER_POOLS alone (its V4 pools stay derived), one of them a Slipstream pool of a second CL factory.
 */
describe("pool verification through the factories (a devnet of its own)", () => {
  let dir: string;
  let devnet: Devnet | undefined;
  let manifest: Manifest;
  let proxy: RpcProxy | undefined;
  let derived: RunningIndexer | undefined;
  let curated: RunningIndexer | undefined;
  const created: { secondFactory?: Address; secondFactoryPool?: Address; afterStart?: Address; bounded?: Address } = {};
  let tickBound = 0;
  let boundedSpacing = 0;
  /** The derived indexer's tables once it stopped, and the bounded pool's ticks on chain then. */
  let derivedTables: IndexedTables | undefined;
  let boundedTicks: Awaited<ReturnType<ReturnType<typeof chainTruth>["ticks"]>> | undefined;
  /** The proxy's count of each JSON-RPC method once the derived indexer was ready. */
  let requestsAtReady: Record<string, number> = {};

  const token = (symbol: string): ManifestToken => {
    const found = manifest.tokens[symbol];
    if (!found) throw new Error(`no token ${symbol}`);
    return found;
  };
  const deployer = () => createDevnetClient(manifest.rpcUrl, manifest.accounts.deployer.privateKey);
  /** The WETH/USDC price as the seeded pools have it, for a pool created with token0/token1 sorted. */
  const wethUsdcSqrtPrice = () => {
    const [weth, usdc] = [token("WETH"), token("USDC")];
    const sorted = sortTokens(weth.address, usdc.address).map((a) => (a === weth.address ? weth : usdc)) as [ManifestToken, ManifestToken];
    return sqrtPriceX96Of(referenceRatio(...sorted));
  };
  /**
   * Positions far above the bounded pool's price, each initializing two new ticks, until it holds one more
   * tick than the bound (and one beyond): the block the last was mined in.
   */
  const mintPastTheBound = async (): Promise<bigint> => {
    const pool = manifest.pools.find((p) => p.address === created.bounded);
    if (!pool) throw new Error("no bounded pool");
    const account = manifest.accounts.users[6];
    if (!account) throw new Error("no user 6");
    const user = createDevnetClient(manifest.rpcUrl, account.privateKey);
    const router = manifest.contracts.swapRouter as Address;
    const hashes: Hex[] = [];
    for (const t of [pool.token0, pool.token1]) {
      hashes.push(await user.writeContract({ address: t, abi: erc20Abi, functionName: "approve", args: [router, maxUint256] }));
    }
    const [, tick] = (await user.readContract({
      address: pool.address,
      abi: artifactOf(compileFixtures(), "UniswapV3Pool").abi,
      functionName: "slot0",
    })) as readonly [bigint, number];
    const spacing = boundedSpacing;
    const above = Math.ceil(tick / spacing) * spacing + 1000 * spacing;
    const held = (await chainTruth(user).ticks({ ...pool, tickSpacing: spacing }, await user.getBlockNumber())).length;
    for (let i = 0; i < Math.ceil((tickBound - held) / 2) + 2; i++) {
      const lower = above + 2 * i * spacing;
      hashes.push(
        await user.writeContract({
          address: router,
          abi: devnetSwapRouterAbi,
          functionName: "mintV3",
          args: [pool.address, lower, lower + spacing, 10n ** 12n, account.address],
          gas: 1_000_000n,
        }),
      );
    }
    let last = 0n;
    for (const hash of hashes) {
      const receipt = await user.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      last = receipt.blockNumber > last ? receipt.blockNumber : last;
    }
    return last;
  };
  const writeManifestCopy = (name: string, copy: Manifest) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(copy));
    return path;
  };
  const ready = (indexer: RunningIndexer) => waitForReady(indexer, 240_000);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-pool-verification-"));
    devnet = await startDevnet({
      port: 0,
      blockTime: 1,
      traffic: false,
      seededState: inject("seededStatePath"),
      manifestPath: join(dir, "manifest.json"),
    });
    manifest = devnet.manifest;
    const client = deployer();
    const [firstCl] = manifest.dexes.slipstream;
    if (!firstCl) throw new Error("the devnet has no CL factory");

    // A second CL factory (Base has several), with a WETH/USDC pool at a tick spacing the first one also has.
    created.secondFactory = await deployFixture({ client, artifacts: compileFixtures() }, "SlipstreamCLFactory", [firstCl.implementation]);
    const [weth, usdc] = [token("WETH").address, token("USDC").address];
    const creation = await client.writeContract({
      address: created.secondFactory,
      abi: artifactOf(compileFixtures(), "SlipstreamCLFactory").abi,
      functionName: "createPool",
      args: [weth, usdc, 100, wethUsdcSqrtPrice()],
      gas: 6_000_000n,
    });
    expect((await client.waitForTransactionReceipt({ hash: creation })).status).toBe("success");
    created.secondFactoryPool = slipstreamPoolAddress({
      factory: created.secondFactory,
      implementation: firstCl.implementation,
      tokenA: weth,
      tokenB: usdc,
      tickSpacing: 100,
    });
    const curatedStart = (await client.getBlockNumber()) + 1n;

    // The tick bound: exactly the most initialized ticks a seeded concentrated pool holds at the start, so
    // every pool is read whole at start; the Uniswap V3 pool with the most then gains ticks past it.
    const truth = chainTruth(client);
    const stateBlock = BigInt(manifest.seededAtBlock - 1);
    const concentrated = [
      ...manifest.pools.filter((p) => p.tickSpacing !== undefined).map((p) => ({ ...p, tickSpacing: p.tickSpacing ?? null })),
      ...manifest.v4Pools.map((p) => ({ address: p.id, kind: p.kind, factory: p.poolManager, tickSpacing: p.key.tickSpacing })),
    ];
    const tickCounts = await Promise.all(concentrated.map(async (p) => ({ ...p, ticks: (await truth.ticks(p, stateBlock)).length })));
    tickBound = Math.max(...tickCounts.map((p) => p.ticks));
    const mostTicked = tickCounts.filter((p) => p.kind === "uniswap-v3").sort((a, b) => b.ticks - a.ticks)[0];
    created.bounded = mostTicked?.address;
    boundedSpacing = mostTicked?.tickSpacing ?? 0;

    proxy = await startRpcProxy(manifest.rpcUrl, "empty-code");
    const firstFactoryOnly = writeManifestCopy("lying-provider.json", { ...manifest, rpcUrl: proxy.url });
    const bothFactories = writeManifestCopy("two-cl-factories.json", {
      ...manifest,
      dexes: { ...manifest.dexes, slipstream: [firstCl, { ...firstCl, factory: created.secondFactory }] },
    });
    const v3WethUsdc = manifest.pools.find((p) => p.name === "uniswap-v3:WETH/USDC:500")?.address;
    [derived, curated] = await Promise.all([
      startIndexer({ manifestPath: firstFactoryOnly, env: { INDEXER_MAX_TICKS_PER_POOL: String(tickBound) } }),
      startIndexer({
        manifestPath: bothFactories,
        env: {
          INDEXER_START_BLOCK: String(curatedStart),
          INDEXER_POOLS: `slipstream:${created.secondFactoryPool},uniswap-v3:${v3WethUsdc}`,
        },
      }),
    ]);
    await ready(derived);
    requestsAtReady = await proxy.counts();
    await ready(curated);
  }, 600_000);

  afterAll(async () => {
    for (const i of [derived, curated]) {
      await i?.stop();
      await i?.cleanup();
    }
    await proxy?.stop();
    await devnet?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("behavior: a provider answering no code for every address changes nothing: each pool is found through its factory, at start and when created later", async () => {
    if (!derived || !proxy) throw new Error("no indexer");
    const client = deployer();
    const [weth, usdc] = [token("WETH").address, token("USDC").address];
    // The proxy does lie: a seeded pool has no code through it.
    const seeded = manifest.pools[0]?.address as Address;
    expect(await createPublicClient({ transport: http(proxy.url) }).getCode({ address: seeded })).toBeUndefined();

    // A pool created after the start at a watched candidate (Uniswap V3 WETH/USDC 1%): its first event registers it.
    const v3 = artifactOf(compileFixtures(), "UniswapV3Factory").abi;
    const creation = await client.writeContract({
      address: manifest.dexes.uniswapV3.factory,
      abi: v3,
      functionName: "createPool",
      args: [weth, usdc, 10_000],
      gas: 6_000_000n,
    });
    await client.waitForTransactionReceipt({ hash: creation });
    created.afterStart = uniswapV3PoolAddress({ ...manifest.dexes.uniswapV3, tokenA: weth, tokenB: usdc, fee: 10_000 });
    const initialized = await client.writeContract({
      address: created.afterStart,
      abi: artifactOf(compileFixtures(), "UniswapV3Pool").abi,
      functionName: "initialize",
      args: [wethUsdcSqrtPrice()],
      gas: 1_000_000n,
    });
    await client.waitForTransactionReceipt({ hash: initialized });
    const minted = await mintPastTheBound();
    await waitForIndexed(derived, minted);
    boundedTicks = await chainTruth(client).ticks(
      {
        address: created.bounded?.toLowerCase() as Address,
        kind: "uniswap-v3",
        factory: manifest.dexes.uniswapV3.factory,
        tickSpacing: boundedSpacing,
      },
      minted,
    );
    expect(await derived.stop()).toBe(0);

    const tables = await readIndexedTables(derived.backend, derived.schema);
    derivedTables = tables;
    // The chain's truth, read straight from the node: the planned candidates with code before the start block.
    const plan = indexerPlan(loadConfig({ DEVNET_MANIFEST: join(dir, "manifest.json") }));
    const stateBlock = BigInt(manifest.seededAtBlock - 1);
    const existing = [];
    for (const p of plan.pools.contracts) {
      if (await client.getCode({ address: p.address, blockNumber: stateBlock })) existing.push(p.address);
    }
    const v4 = manifest.v4Pools.filter((p) => p.key.hooks === zeroAddress && p.name !== "uniswap-v4:UNTA/UNTB:3000").map((p) => p.id);
    const byStatus = (status: string) => tables.candidates.filter((c) => c.status === status).map((c) => c.address);
    expect(byStatus("refused")).toEqual([]);
    expect(byStatus("indexed").sort()).toEqual([...existing, ...v4, created.afterStart].map((a) => a.toLowerCase()).sort());
    expect(tables.pools.map((p) => p.address).sort()).toEqual(byStatus("indexed").sort());
    expect(byStatus("watched")).toHaveLength(plan.pools.contracts.length + plan.pools.v4.length - existing.length - v4.length - 1);

    // Batched: fewer eth_calls to start than there are candidates (one each before), and no eth_getCode of a
    // pool: the one a start may send before /ready is the x402 escrow's code check, which runs beside it.
    expect(requestsAtReady.eth_getCode ?? 0).toBeLessThanOrEqual(1);
    expect(requestsAtReady.eth_call ?? 0).toBeLessThan(plan.pools.contracts.length + plan.pools.v4.length);
    console.info(`[poolVerification] requests to /ready: ${JSON.stringify(requestsAtReady)}`);
  }, 300_000);

  test("behavior: ticks gained past INDEXER_MAX_TICKS_PER_POOL are not stored; the pool is marked incomplete and its stored ticks stay exact", () => {
    if (!derivedTables || !created.bounded || !boundedTicks) throw new Error("the first test did not run");
    const row = derivedTables.pools.find((p) => p.address === created.bounded?.toLowerCase());
    expect(row).toMatchObject({ ticksIncomplete: true, tickCount: tickBound });
    const stored = derivedTables.ticks.filter((t) => t.pool === row?.address);
    expect(stored).toHaveLength(tickBound);
    // Every stored tick is the chain's, exactly; the chain has more.
    const onChain = new Map(boundedTicks.map((t) => [t.tick, t]));
    for (const t of stored) expect(t, `tick ${t.tick}`).toEqual(onChain.get(t.tick));
    expect(boundedTicks.length).toBeGreaterThan(tickBound);
    // Every other pool is within the bound, complete, its count its rows'.
    for (const p of derivedTables.pools.filter((p) => p.address !== row?.address)) {
      expect(p.ticksIncomplete, p.address).toBe(false);
      expect(p.tickCount, p.address).toBe(derivedTables.ticks.filter((t) => t.pool === p.address).length);
    }
  });

  test("behavior: INDEXER_POOLS alone curates the contract pools (one of a second CL factory, found there) and leaves the V4 pools derived", async () => {
    if (!curated || !created.secondFactory || !created.secondFactoryPool) throw new Error("no curated indexer");
    const head = await deployer().getBlockNumber();
    await waitForIndexed(curated, head);
    expect(await curated.stop()).toBe(0);
    const tables: IndexedTables = await readIndexedTables(curated.backend, curated.schema);
    const v3WethUsdc = manifest.pools.find((p) => p.name === "uniswap-v3:WETH/USDC:500")?.address.toLowerCase();
    const row = tables.pools.find((p) => p.address === created.secondFactoryPool?.toLowerCase());
    expect(row).toMatchObject({ kind: "slipstream", factory: created.secondFactory.toLowerCase(), tickSpacing: 100 });
    const contracts = tables.candidates.filter((c) => c.kind !== "uniswap-v4");
    expect(contracts.map((c) => [c.address, c.status]).sort()).toEqual(
      [
        [created.secondFactoryPool.toLowerCase(), "indexed"],
        [v3WethUsdc, "indexed"],
      ].sort(),
    );
    // The V4 candidates are the derived ones: those initialized indexed, the rest watched (not refused as a curated list's would be).
    const v4 = tables.candidates.filter((c) => c.kind === "uniswap-v4");
    const derivedV4 = manifest.v4Pools
      .filter((p) => p.key.hooks === zeroAddress && p.name !== "uniswap-v4:UNTA/UNTB:3000")
      .map((p) => p.id);
    expect(
      v4
        .filter((c) => c.status === "indexed")
        .map((c) => c.address as Hex)
        .sort(),
    ).toEqual([...derivedV4].sort());
    expect(v4.filter((c) => c.status === "refused")).toEqual([]);
    expect(v4.filter((c) => c.status === "watched").length).toBeGreaterThan(100);
  }, 120_000);
});
