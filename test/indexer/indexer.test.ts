import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, encodeFunctionData, erc20Abi, type Hex, maxUint256, parseEventLogs, parseUnits, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { UniswapV2PairAbi } from "../../abis/UniswapV2PairAbi";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import { UniswapV4PoolManagerAbi } from "../../abis/UniswapV4PoolManagerAbi";
import { aerodromePoolAddress, sortTokens, uniswapV3PoolAddress } from "../../base/poolAddress";
import { type UniswapV4PoolKey, uniswapV4PoolId } from "../../base/uniswapV4";
import { createDevnetClient } from "../../devnet/client";
import { artifactOf, compileFixtures } from "../../devnet/compile";
import type { Manifest, ManifestPool, ManifestToken, ManifestV4Pool } from "../../devnet/manifest";
import { approxSqrtRatioAtTick, referenceRatio, sqrtPriceX96Of } from "../../devnet/seed/poolMath";
import { seedPositions } from "../../devnet/seed/positions";
import { unitsForUsd } from "../../devnet/seed/prices";
import { type Devnet, startDevnet } from "../../devnet/startDevnet";
import { devnetSwapRouterAbi } from "../../devnet/swapRouterAbi";
import { startTraffic } from "../../devnet/traffic";
import { chainTruth, eventKey, swapKey } from "../support/chainTruth";
import { type IndexedTables, type PoolRow, readIndexedTables } from "../support/indexedTables";
import { testBackends } from "../support/postgres";
import { type RunningIndexer, startIndexer, waitFor, waitForIndexed, waitForReady } from "../support/startIndexer";

const backends = testBackends().map((name) =>
  name === "pglite" ? { name: "PGlite", databaseUrl: undefined } : { name: "Postgres", databaseUrl: process.env.DATABASE_URL },
);

/** Windows short enough that pruning happens within the test. */
const volumeWindowSeconds = 12n;
const whaleWindowSeconds = 20n;
const pruneIntervalBlocks = 3n;
const windows = {
  INDEXER_VOLUME_WINDOW_SECONDS: String(volumeWindowSeconds),
  INDEXER_WHALE_WINDOW_SECONDS: String(whaleWindowSeconds),
  INDEXER_PRUNE_INTERVAL_BLOCKS: String(pruneIntervalBlocks),
};

describe.each(backends)("the indexer on its own devnet ($name)", ({ databaseUrl }) => {
  let dir: string;
  let devnet: Devnet | undefined;
  let manifest: Manifest;
  let client: ReturnType<typeof createDevnetClient>;
  let indexer: RunningIndexer | undefined;
  let curated: RunningIndexer | undefined;
  let traffic: { stop(): Promise<void> } | undefined;
  /** Pools created once the indexers were ready (createPoolsAfterStart). */
  let createdAfterStart: Address[] = [];
  const seen: { payment?: Hex; reorgedPayment?: Hex; replacementPayment?: Hex; reorgedSwap?: string; whale?: Hex; small?: Hex } = {};

  const pool = (name: string): ManifestPool => {
    const found = manifest.pools.find((p) => p.name === name);
    if (!found) throw new Error(`no pool ${name}`);
    return found;
  };
  const v4Pool = (name: string): ManifestV4Pool => {
    const found = manifest.v4Pools.find((p) => p.name === name);
    if (!found) throw new Error(`no V4 pool ${name}`);
    return found;
  };
  /** An INDEXER_V4_POOLS entry: the pool id and the key it hashes from. */
  const v4Entry = (key: UniswapV4PoolKey, id = uniswapV4PoolId(key)) =>
    [id, key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks].join(":");
  const tokenOf = (symbol: string): ManifestToken => {
    const found = manifest.tokens[symbol];
    if (!found) throw new Error(`no token ${symbol}`);
    return found;
  };
  const token = (symbol: string): Address => tokenOf(symbol).address;
  const user = (i: number) => {
    const account = manifest.accounts.users[i];
    if (!account) throw new Error(`no user ${i}`);
    return { ...account, client: createDevnetClient(manifest.rpcUrl, account.privateKey) };
  };
  /** Waits until every running indexer has indexed `block` (failing only when one stops making progress). */
  const indexedUpTo = (block: bigint, ...indexers: RunningIndexer[]) => Promise.all(indexers.map((i) => waitForIndexed(i, block)));
  const running = () => [indexer, curated].filter((i): i is RunningIndexer => i !== undefined);

  /**
   * Pools created after the indexers started, at derived candidate addresses with no pool at the start:
   * Uniswap V3 WETH/USDC 1% (its first event an Initialize) and Aerodrome volatile AERO/USDT (a Sync),
   * each funded and traded once. Their addresses.
   */
  const createPoolsAfterStart = async (): Promise<Address[]> => {
    const creator = user(5);
    const router = manifest.contracts.swapRouter as Address;
    // Sent in nonce order without waiting, so that each block takes several; explicit gas limits (no
    // estimate against a pool not created yet; an estimate on the interval-mined devnet also fell short on
    // a clone's first swap).
    const sent: { name: string; hash: Hex }[] = [];
    const send = async (request: Parameters<typeof creator.client.writeContract>[0]) => {
      const gas = request.functionName === "createPool" ? 6_000_000n : 1_000_000n;
      sent.push({ name: request.functionName, hash: await creator.client.writeContract({ gas, ...request }) });
    };
    const abiOf = (name: string) => artifactOf(compileFixtures(), name).abi;
    for (const symbol of ["WETH", "USDC", "AERO", "USDT"]) {
      await send({ address: token(symbol), abi: erc20Abi, functionName: "approve", args: [router, maxUint256] });
    }
    const [weth, usdc] = [token("WETH"), token("USDC")];
    await send({
      address: manifest.dexes.uniswapV3.factory,
      abi: abiOf("UniswapV3Factory"),
      functionName: "createPool",
      args: [weth, usdc, 10_000],
    });
    const v3 = uniswapV3PoolAddress({ ...manifest.dexes.uniswapV3, tokenA: weth, tokenB: usdc, fee: 10_000 });
    const v3Tokens = sortTokens(weth, usdc).map((a) => (a === weth ? tokenOf("WETH") : tokenOf("USDC"))) as [ManifestToken, ManifestToken];
    const sqrtPriceX96 = sqrtPriceX96Of(referenceRatio(...v3Tokens));
    await send({ address: v3, abi: abiOf("UniswapV3Pool"), functionName: "initialize", args: [sqrtPriceX96] });
    for (const p of seedPositions(sqrtPriceX96, 200, v3Tokens, { tvlUsd: 1_000_000, stable: false })) {
      await send({
        address: router,
        abi: devnetSwapRouterAbi,
        functionName: "mintV3",
        args: [v3, p.tickLower, p.tickUpper, p.liquidity, creator.address],
      });
    }
    await send({
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "swapV3",
      args: [v3, true, unitsForUsd(v3Tokens[0], 5_000), 0n, creator.address],
    });

    const [aero, usdt] = [tokenOf("AERO"), tokenOf("USDT")];
    await send({
      address: manifest.dexes.aerodrome.factory,
      abi: abiOf("AerodromePoolFactory"),
      functionName: "createPool",
      args: [aero.address, usdt.address, false],
    });
    const aerodrome = aerodromePoolAddress({ ...manifest.dexes.aerodrome, tokenA: aero.address, tokenB: usdt.address, stable: false });
    const [token0, token1] = sortTokens(aero.address, usdt.address).map((a) => (a === aero.address ? aero : usdt)) as [
      ManifestToken,
      ManifestToken,
    ];
    await send({
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "addLiquidity",
      args: [aerodrome, unitsForUsd(token0, 500_000), unitsForUsd(token1, 500_000), creator.address],
    });
    await send({
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "swapAerodrome",
      args: [aerodrome, aero.address, unitsForUsd(aero, 5_000), 0n, creator.address],
    });
    for (const { name, hash } of sent) expect((await creator.client.waitForTransactionReceipt({ hash })).status, name).toBe("success");
    return [v3, aerodrome];
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-indexer-test-"));
    const manifestPath = join(dir, "manifest.json");
    devnet = await startDevnet({ port: 0, blockTime: 1, traffic: false, seededState: inject("seededStatePath"), manifestPath });
    manifest = devnet.manifest;
    client = createDevnetClient(manifest.rpcUrl, manifest.accounts.deployer.privateKey);
    traffic = startTraffic(manifest, { intervalMs: 100, whaleEvery: 3, log: () => {} });
    const bogus = user(11).address;
    [indexer, curated] = await Promise.all([
      startIndexer({
        manifestPath,
        databaseUrl,
        env: {
          ...windows,
          // Wrong decimals, a wrong address (another ERC-20), and an address without code.
          INDEXER_TOKENS: `USDT:${token("USDT")}:18,EURC:${manifest.contracts.plainToken}:18,BOGUS:${bogus}:18`,
          INDEXER_WHALE_THRESHOLDS: "BOGUS=1",
        },
      }),
      startIndexer({
        manifestPath,
        databaseUrl,
        env: {
          ...windows,
          INDEXER_POOLS: [
            `uniswap-v2:${pool("uniswap-v2:WETH/USDC").address}`,
            `uniswap-v3:${pool("uniswap-v3:WETH/USDC:500").address}`,
            `aerodrome-volatile:${pool("aerodrome-volatile:WETH/USDC").address}`,
            `aerodrome-stable:${pool("aerodrome-stable:USDC/USDT").address}`,
            // Refused: a V2 pair as a V3 pool, a stable pool as volatile, a V3 pool as Slipstream's, an EOA.
            `uniswap-v3:${pool("uniswap-v2:cbBTC/USDC").address}`,
            `aerodrome-volatile:${pool("aerodrome-stable:USDC/DAI").address}`,
            `slipstream:${pool("uniswap-v3:cbBTC/USDC:500").address}`,
            `uniswap-v2:${bogus}`,
          ].join(","),
          INDEXER_V4_POOLS: [
            v4Entry(v4Pool("uniswap-v4:ETH/USDC:500").key),
            v4Entry(v4Pool("uniswap-v4:DEGEN/ETH:3000:hooked").key),
            // Refused: no tracked token, and a key no pool was initialized with.
            v4Entry(v4Pool("uniswap-v4:UNTA/UNTB:3000").key),
            v4Entry({ ...v4Pool("uniswap-v4:ETH/USDC:500").key, fee: 3000, tickSpacing: 60 }),
          ].join(","),
        },
      }),
    ]);
    // Two indexers start at once; on a loaded 2-core machine (load average 16) the first took over 90 s.
    for (const i of running()) await waitForReady(i, 180_000);
    createdAfterStart = await createPoolsAfterStart();
  }, 300_000);

  afterAll(async () => {
    await traffic?.stop();
    for (const i of running()) {
      await i.stop();
      await i.cleanup();
    }
    await devnet?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("behavior: a USDC payment to the payout address is indexed; a reorged-out payment and swap disappear", async () => {
    const live = running();
    await waitFor(
      "traffic",
      () => client.getBlockNumber(),
      (n) => n >= BigInt(manifest.seededAtBlock + 15),
      60_000,
    );
    await traffic?.stop();
    traffic = undefined;
    const usdc = token("USDC");
    const pay = (from: ReturnType<typeof user>, amount: string) =>
      from.client.writeContract({
        address: usdc,
        abi: erc20Abi,
        functionName: "transfer",
        args: [manifest.payoutAddress, parseUnits(amount, 6)],
      });

    const payer = user(0);
    seen.payment = await pay(payer, "25");
    const paid = await payer.client.waitForTransactionReceipt({ hash: seen.payment });
    await indexedUpTo(paid.blockNumber, ...live);
    if (indexer?.backend.kind === "postgres") {
      const { payments } = await readIndexedTables(indexer.backend, indexer.schema);
      expect(payments.find((p) => p.txHash === seen.payment)).toMatchObject({
        blockNumber: paid.blockNumber,
        blockHash: paid.blockHash,
        from: payer.address.toLowerCase(),
        to: manifest.payoutAddress.toLowerCase(),
        amount: 25_000_000n,
      });
    }

    // A payment and a swap, then a reorg that replaces their blocks with one holding another payment.
    const trader = user(1);
    const weth = token("WETH");
    const router = manifest.contracts.swapRouter as Address;
    const approval = await trader.client.writeContract({
      address: weth,
      abi: erc20Abi,
      functionName: "approve",
      args: [router, maxUint256],
    });
    await trader.client.waitForTransactionReceipt({ hash: approval });
    seen.reorgedPayment = await pay(trader, "7");
    const swapped = await trader.client.writeContract({
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "swapV2",
      args: [pool("uniswap-v2:WETH/USDC").address, weth, parseUnits("1", 18), 0n, trader.address],
      gas: 600_000n,
    });
    const receipts = await Promise.all([seen.reorgedPayment, swapped].map((hash) => trader.client.waitForTransactionReceipt({ hash })));
    const swapLog = parseEventLogs({ abi: UniswapV2PairAbi, eventName: "Swap", logs: receipts[1]?.logs ?? [] })[0];
    if (!swapLog) throw new Error("the swap emitted no Swap event");
    seen.reorgedSwap = swapKey(swapLog);
    const [first = 0n, last = 0n] = receipts.map((r) => r.blockNumber).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    await indexedUpTo(last, ...live);
    if (indexer?.backend.kind === "postgres") {
      const before = await readIndexedTables(indexer.backend, indexer.schema);
      expect(before.payments.map((p) => p.txHash)).toContain(seen.reorgedPayment);
      expect(before.swaps.map(swapKey)).toContain(seen.reorgedSwap);
    }

    const head = await client.getBlockNumber();
    const depth = Number(head - first) + 1;
    // Within Base's 30-block finality, which Ponder follows (the blocks mined while these were indexed: a few
    // quiet, a dozen beside other work).
    expect(depth).toBeLessThan(30);
    const replacement = {
      from: trader.address,
      to: usdc,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [manifest.payoutAddress, parseUnits("9", 6)] }),
      gas: "0x30000",
    };
    await client.request({ method: "anvil_reorg", params: [depth, [[replacement, 0]]] } as never);
    for (const i of live)
      await waitFor(
        "the reorg",
        async () => i.reorgCount(),
        (n) => n >= 1,
        30_000,
        i,
      );
    await indexedUpTo(head + 1n, ...live);
    const replaced = await client.getTransactionReceipt({ hash: seen.reorgedPayment }).catch(() => undefined);
    expect(replaced).toBeUndefined();
    const replacementLogs = await chainTruth(client).transfers([usdc], first, head + 1n, manifest.payoutAddress);
    seen.replacementPayment = replacementLogs.find((l) => l.amount === 9_000_000n)?.txHash;
    expect(seen.replacementPayment).toBeDefined();
    if (indexer?.backend.kind === "postgres") {
      const after = await readIndexedTables(indexer.backend, indexer.schema);
      expect(after.payments.map((p) => p.txHash)).not.toContain(seen.reorgedPayment);
      expect(after.payments.map((p) => p.txHash)).toContain(seen.replacementPayment);
      expect(after.swaps.map(swapKey)).not.toContain(seen.reorgedSwap);
    }
  }, 300_000);

  test("behavior: a whale-sized transfer is indexed by the time the chain is 2 blocks past it; at the threshold counts, one unit below does not", async () => {
    if (!indexer) throw new Error("no indexer");
    const live = indexer;
    const usdc = token("USDC");
    const [whaleFrom, smallFrom] = [user(2), user(3)];
    // USDC's threshold on the devnet is 1,000,000 USDC: the rule is "at or above".
    const threshold = parseUnits("1000000", 6);
    const boundary: Record<"at" | "below" | "above", Hex> = {} as Record<"at" | "below" | "above", Hex>;
    // Timed blocks stop, so "2 blocks" is a count and not a time: the transfers' block and two more are
    // mined, nothing after, and the indexer must index that block with no further block to wait for.
    await client.request({ method: "evm_setIntervalMining", params: [0] } as never);
    await client.request({ method: "evm_setAutomine", params: [false] } as never);
    try {
      for (const [name, amount] of [
        ["at", threshold],
        ["below", threshold - 1n],
        ["above", threshold + 1n],
      ] as const) {
        boundary[name] = await whaleFrom.client.writeContract({
          address: usdc,
          abi: erc20Abi,
          functionName: "transfer",
          args: [smallFrom.address, amount],
        });
      }
      seen.whale = await whaleFrom.client.writeContract({
        address: usdc,
        abi: erc20Abi,
        functionName: "transfer",
        args: [smallFrom.address, parseUnits("2000000", 6)],
      });
      seen.small = await smallFrom.client.writeContract({
        address: usdc,
        abi: erc20Abi,
        functionName: "transfer",
        args: [whaleFrom.address, parseUnits("100", 6)],
      });
      await client.request({ method: "evm_mine", params: [] } as never);
      const mined = await whaleFrom.client.waitForTransactionReceipt({ hash: seen.whale });
      await client.request({ method: "anvil_mine", params: ["0x2"] } as never);
      await waitForIndexed(live, mined.blockNumber);
      expect(await client.getBlockNumber()).toBe(mined.blockNumber + 2n);
    } finally {
      await client.request({ method: "evm_setIntervalMining", params: [1] } as never);
    }
    if (indexer.backend.kind === "postgres") {
      const { whales } = await readIndexedTables(indexer.backend, indexer.schema);
      const hashes = whales.map((w) => w.txHash);
      expect(hashes).toContain(seen.whale);
      expect(hashes).not.toContain(seen.small);
      expect(hashes).toContain(boundary.at);
      expect(hashes).toContain(boundary.above);
      expect(hashes).not.toContain(boundary.below);
    }
  }, 300_000);

  test("default: after the traffic, pools (those created after the start included), volumes, swaps, whales and payments equal the canonical chain's", async () => {
    if (!indexer || !curated) throw new Error("no indexer");
    traffic = startTraffic(manifest, { intervalMs: 100, whaleEvery: 3, log: () => {} });
    const from = await client.getBlockNumber();
    await waitFor(
      "more traffic",
      () => client.getBlockNumber(),
      (n) => n >= from + 3n,
      20_000,
    );
    await traffic.stop();
    traffic = undefined;
    const truth = chainTruth(client);
    const router = manifest.contracts.swapRouter as Address;
    const crossings = [
      await swapAcrossNextTick(user(4), router, truth, { kind: "uniswap-v3", pool: pool("uniswap-v3:WETH/USDC:500") }),
      await swapAcrossNextTick(user(4), router, truth, { kind: "uniswap-v4", pool: v4Pool("uniswap-v4:ETH/USDC:500") }),
    ];
    await indexedUpTo(await client.getBlockNumber(), indexer, curated);
    for (const i of [indexer, curated]) expect(await i.stop()).toBe(0);

    const tables = await readIndexedTables(indexer.backend, indexer.schema);
    const head = tables.head?.number ?? 0n;
    expect(head).toBeGreaterThan(BigInt(manifest.seededAtBlock));

    // Each crossing swap changed the in-range liquidity; the index recorded the swap and holds the chain's state after it.
    for (const crossing of crossings) {
      expect(crossing.liquidityAfter, crossing.address).not.toBe(crossing.liquidityBefore);
      expect(tables.swaps.map(swapKey)).toContain(crossing.swap);
      const row = poolRowOf(tables, crossing.address);
      expect(row.liquidity).toBe((await truth.poolState(row, head)).liquidity);
    }

    // Tokens: the three misconfigured ones are refused with a reason; the others are verified.
    const status = Object.fromEntries(tables.tokens.map((t) => [t.symbol, t]));
    expect(status.USDT).toMatchObject({ status: "refused", decimals: 6, reason: expect.stringContaining("decimals") });
    expect(status.EURC).toMatchObject({ status: "refused", decimals: 18, reason: expect.stringContaining("PLAIN") });
    expect(status.BOGUS).toMatchObject({ status: "refused", decimals: null, reason: expect.stringContaining("no ERC-20") });
    const verified = tables.tokens.filter((t) => t.status === "verified");
    expect(verified.map((t) => t.symbol).sort()).toEqual(["AERO", "DEGEN", "TOSHI", "USDC", "VIRTUAL", "WETH", "DAI", "cbBTC"].sort());

    // Pools: every candidate derived from the DEX deployments and the tracked tokens that exists: every
    // devnet pool but EURC's (its tracked address is another token here), the hookless V4 pools of tracked
    // tokens (native ETH as WETH; hooked and untracked ones are no candidates), and the two created after
    // the start, registered from their first event; state, ticks and volume as the chain has them.
    const derivedV4 = manifest.v4Pools.filter((p) => p.key.hooks === zeroAddress && p.name !== "uniswap-v4:UNTA/UNTB:3000");
    const eurc = manifest.tokens.EURC?.address;
    const derived = manifest.pools.filter((p) => p.token0 !== eurc && p.token1 !== eurc);
    expect(tables.pools.map((p) => p.address).sort()).toEqual(
      [...derived.map((p) => p.address), ...createdAfterStart, ...derivedV4.map((p) => p.id)].map((a) => a.toLowerCase()).sort(),
    );
    // Each candidate's outcome: the indexed ones are the pools; the rest had no pool (watched), none refused.
    const indexed = tables.candidates.filter((c) => c.status === "indexed").map((c) => c.address);
    expect(indexed.sort()).toEqual(tables.pools.map((p) => p.address).sort());
    expect(tables.candidates.filter((c) => c.status === "refused")).toEqual([]);
    expect(tables.candidates.filter((c) => c.status === "watched").length).toBeGreaterThan(500);
    expect(indexer.output()).toMatch(/\[indexer\] UniswapV3Pool: \d+ planned pools at block \d+: \d+ indexed, \d+ watched, 0 refused/);
    for (const p of derivedV4) {
      expect(poolRowOf(tables, p.id)).toMatchObject({
        kind: "uniswap-v4",
        factory: p.poolManager.toLowerCase(),
        token0: zeroAddress,
        token1: p.key.currency1.toLowerCase(),
        fee: p.key.fee,
        tickSpacing: p.key.tickSpacing,
        hooks: p.key.hooks.toLowerCase(),
      });
    }
    await expectPoolsMatchChain(tables, truth, head, BigInt(manifest.seededAtBlock));

    // Whale candidates: exactly the verified tokens' transfers at or above threshold within the window.
    // Prunes run every interval from the pools' start block, the seeded block.
    const lastPrune = head - ((head - BigInt(manifest.seededAtBlock)) % pruneIntervalBlocks);
    const whaleCutoff = (await truth.timestampOf(lastPrune)) - whaleWindowSeconds;
    const thresholds = new Map(verified.map((t) => [t.address, t.whaleThreshold]));
    const transfers = await truth.transfers([...thresholds.keys()], BigInt(manifest.seededAtBlock + 1), head);
    const expectedWhales = transfers.filter(
      (t) => t.amount >= (thresholds.get(t.token.toLowerCase() as Address) ?? maxUint256) && t.timestamp > whaleCutoff,
    );
    expect(tables.whales.map(eventKey).sort()).toEqual(expectedWhales.map(eventKey).sort());
    expect(tables.whales.map((w) => w.txHash)).toContain(seen.whale);
    expect(tables.whales.map((w) => w.txHash)).not.toContain(seen.small);
    expect(tables.whales.every((w) => thresholds.has(w.token))).toBe(true);

    // Payments: every USDC transfer to the payout address on the canonical chain, none of the reorged one.
    const payments = await truth.transfers([token("USDC")], 0n, head, manifest.payoutAddress);
    expect(tables.payments.map(eventKey).sort()).toEqual(payments.map(eventKey).sort());
    for (const p of payments) {
      expect(tables.payments.find((row) => eventKey(row) === eventKey(p))).toEqual({
        id: eventKey(p),
        txHash: p.txHash,
        logIndex: p.logIndex,
        blockNumber: p.blockNumber,
        blockHash: p.blockHash,
        timestamp: p.timestamp,
        from: p.from.toLowerCase(),
        to: p.to.toLowerCase(),
        amount: p.amount,
      });
    }
    expect(tables.payments.map((p) => p.txHash)).toEqual(expect.arrayContaining([seen.payment, seen.replacementPayment]));
    expect(tables.payments.map((p) => p.txHash)).not.toContain(seen.reorgedPayment);
    expect(tables.swaps.map(swapKey)).not.toContain(seen.reorgedSwap);
  }, 300_000);

  test("behavior: curated pools are verified against their factory and read at the start block; wrong ones are refused", async () => {
    if (!curated) throw new Error("no curated indexer");
    const tables = await readIndexedTables(curated.backend, curated.schema);
    const expected = ["uniswap-v2:WETH/USDC", "uniswap-v3:WETH/USDC:500", "aerodrome-volatile:WETH/USDC", "aerodrome-stable:USDC/USDT"].map(
      pool,
    );
    const expectedV4 = ["uniswap-v4:ETH/USDC:500", "uniswap-v4:DEGEN/ETH:3000:hooked"].map(v4Pool);
    expect(tables.pools.map((p) => [p.address, p.kind]).sort()).toEqual(
      [...expected.map((p) => [p.address.toLowerCase(), p.kind]), ...expectedV4.map((p) => [p.id, "uniswap-v4"])].sort(),
    );
    expect(curated.output().match(/curated .* refused/g)).toHaveLength(6);
    expect(curated.output()).toMatch(/curated uniswap-v4 pool 0x[0-9a-f]{64} refused: it holds no verified tracked token/);
    expect(curated.output()).toMatch(/curated uniswap-v4 pool 0x[0-9a-f]{64} refused: the PoolManager holds no such pool/);
    const head = tables.head?.number ?? 0n;
    // The seeded positions were minted up to the start block: ticks minted before it came from the read of
    // the state before it, the ETH/USDC V4 position minted in it (the seeding's last transaction) from its
    // event, applied once (the tick comparison below would see it twice).
    const truth = chainTruth(client);
    const inStartBlock = await client.getLogs({
      address: manifest.contracts.poolManager,
      event: UniswapV4PoolManagerAbi[1],
      args: { id: v4Pool("uniswap-v4:ETH/USDC:500").id },
      fromBlock: BigInt(manifest.seededAtBlock),
      toBlock: BigInt(manifest.seededAtBlock),
    });
    expect(inStartBlock).toHaveLength(1);
    for (const p of tables.pools.filter((row) => row.tickSpacing !== null)) {
      const atStart = await truth.ticks(p, BigInt(manifest.seededAtBlock));
      expect(atStart.length, p.address).toBeGreaterThanOrEqual(6);
      const indexed = new Set(tables.ticks.filter((t) => t.pool === p.address).map((t) => t.tick));
      expect(
        atStart.filter((t) => !indexed.has(t.tick)),
        p.address,
      ).toEqual([]);
    }
    // This runs after the traffic stopped, on a busy machine possibly more than a window later: the
    // volumes must still equal the chain's, but may all have expired.
    await expectPoolsMatchChain(tables, truth, head, BigInt(manifest.seededAtBlock), { requireKeptVolume: false });
  }, 60_000);
});

function poolRowOf(tables: IndexedTables, address: string): PoolRow {
  const row = tables.pools.find((p) => p.address === address.toLowerCase());
  if (!row) throw new Error(`pool ${address} is not indexed`);
  return row;
}

/**
 * Swaps `pool`'s price up to just past its next initialized tick above the price (walking the chain's tick
 * bitmap), as `trader`: a swap that crosses a tick. Returns the swap's key and the in-range liquidity
 * before and after.
 */
async function swapAcrossNextTick(
  trader: { address: Address; client: ReturnType<typeof createDevnetClient> },
  router: Address,
  truth: ReturnType<typeof chainTruth>,
  target: { kind: "uniswap-v3"; pool: ManifestPool } | { kind: "uniswap-v4"; pool: ManifestV4Pool },
) {
  const { client } = trader;
  const row = {
    address: target.kind === "uniswap-v4" ? target.pool.id : target.pool.address,
    kind: target.kind,
    factory: target.kind === "uniswap-v4" ? target.pool.poolManager : target.pool.factory,
    tickSpacing: target.kind === "uniswap-v4" ? target.pool.key.tickSpacing : (target.pool.tickSpacing ?? null),
  };
  const block = await client.getBlockNumber();
  const before = await truth.poolState(row, block);
  const next = (await truth.ticks(row, block)).map((t) => t.tick).find((t) => t > (before.tick ?? 0));
  if (next === undefined) throw new Error(`no initialized tick above the price of ${row.address}`);
  const limit = approxSqrtRatioAtTick(next + 1);
  const token1 = target.kind === "uniswap-v4" ? target.pool.key.currency1 : target.pool.token1;
  await client.waitForTransactionReceipt({
    hash: await client.writeContract({ address: token1, abi: erc20Abi, functionName: "approve", args: [router, maxUint256] }),
  });
  const amount = 10n ** 30n; // stops at the limit long before
  const hash =
    target.kind === "uniswap-v4"
      ? await client.writeContract({
          address: router,
          abi: devnetSwapRouterAbi,
          functionName: "swapV4Exact",
          args: [target.pool.key, false, true, amount, limit, trader.address],
          gas: 2_000_000n,
        })
      : await client.writeContract({
          address: router,
          abi: devnetSwapRouterAbi,
          functionName: "swapV3Exact",
          args: [target.pool.address, false, true, amount, limit, trader.address],
          gas: 2_000_000n,
        });
  const receipt = await client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  const after = await truth.poolState(row, receipt.blockNumber);
  expect(after.tick ?? 0).toBeGreaterThanOrEqual(next);
  const [swapLog] =
    target.kind === "uniswap-v4"
      ? parseEventLogs({ abi: UniswapV4PoolManagerAbi, eventName: "Swap", logs: receipt.logs })
      : parseEventLogs({ abi: UniswapV3PoolAbi, eventName: "Swap", logs: receipt.logs });
  if (!swapLog) throw new Error("the crossing swap emitted no Swap event");
  return {
    address: row.address,
    swap: swapKey({ blockNumber: receipt.blockNumber, logIndex: swapLog.logIndex }),
    liquidityBefore: before.liquidity,
    liquidityAfter: after.liquidity,
  };
}

/**
 * Every pool's state equals the chain's at the block it was observed at (and at the indexed head: it is
 * the latest); its volume is the sum of the chain's swaps in the window of the last prune (at the last
 * block `pruneOffset` modulo the interval); the swap table holds exactly those swaps.
 */
async function expectPoolsMatchChain(
  tables: IndexedTables,
  truth: ReturnType<typeof chainTruth>,
  head: bigint,
  pruneOffset: bigint,
  { requireKeptVolume = true } = {},
) {
  const lastPrune = head - ((head - pruneOffset) % pruneIntervalBlocks);
  const cutoff = (await truth.timestampOf(lastPrune)) - volumeWindowSeconds;
  const swaps = await truth.swaps(tables.pools, head);
  const kept = [];
  for (const pool of tables.pools) {
    const stored = {
      reserve0: pool.reserve0,
      reserve1: pool.reserve1,
      sqrtPriceX96: pool.sqrtPriceX96,
      liquidity: pool.liquidity,
      tick: pool.tick,
    };
    expect(stored, `${pool.kind} ${pool.address} at block ${pool.blockNumber}`).toEqual(await truth.poolState(pool, pool.blockNumber));
    expect(stored, `${pool.kind} ${pool.address} at the head`).toEqual(await truth.poolState(pool, head));
    // A concentrated pool's ticks: exactly the chain's initialized ticks, with their liquidity.
    if (pool.tickSpacing !== null) {
      const byTick = (a: { tick: number }, b: { tick: number }) => a.tick - b.tick;
      const chainTicks = await truth.ticks(pool, head);
      expect(tables.ticks.filter((t) => t.pool === pool.address).sort(byTick), `ticks of ${pool.address}`).toEqual(chainTicks.sort(byTick));
    }
    // A prune with nothing to expire leaves volumeSince behind: no swap then lies between it and the cutoff.
    const ofPool = swaps.filter((s) => s.pool.toLowerCase() === pool.address);
    expect(pool.volumeSince, `volumeSince of ${pool.address}`).toBeLessThanOrEqual(cutoff);
    expect(ofPool.filter((s) => s.timestamp > pool.volumeSince && s.timestamp <= cutoff)).toEqual([]);
    const inWindow = ofPool.filter((s) => s.timestamp > cutoff);
    expect(pool.volume0, `volume0 of ${pool.address}`).toBe(inWindow.reduce((sum, s) => sum + s.amount0In + s.amount0Out, 0n));
    expect(pool.volume1, `volume1 of ${pool.address}`).toBe(inWindow.reduce((sum, s) => sum + s.amount1In + s.amount1Out, 0n));
    kept.push(...inWindow);
  }
  expect(tables.swaps.map(swapKey).sort()).toEqual(kept.map(swapKey).sort());
  // The windows were short enough to prune, long enough to keep the last traffic.
  expect(swaps.some((s) => s.timestamp <= cutoff)).toBe(true);
  if (requireKeptVolume) expect(tables.pools.some((p) => p.volume0 > 0n)).toBe(true);
}
