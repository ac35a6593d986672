import { type Address, erc20Abi, type Hex, numberToHex, pad, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mappingKey } from "../../api/market/readSimulationPools";
import { ladderBound, simulateTrade, simulationPeer, simulationPlan, simulationTrader } from "../../api/market/simulateTrade";
import { TradeSimulationResponse } from "../../api/market/TradeSimulationResponse";
import { type Anvil, startAnvil } from "../../devnet/anvil";
import { createDevnetClient } from "../../devnet/client";
import { artifactOf, compileFixtures } from "../../devnet/compile";
import type { Manifest, SimulationFixture } from "../../devnet/manifest";
import { devnetSwapRouterAbi } from "../../devnet/swapRouterAbi";
import { devnetProvider, testManifest } from "../support/devnet";
import { startRpcProxy } from "../support/rpcProxy";
import { currencyNotSettledSelector, expectedCosts, figureOf, figuresEqualParameters, simulationParameters } from "../support/simulation";

// A private fork of the seeded devnet: the replays below are real transactions, and one test pauses a token.
let fork: Anvil;
let manifest: Manifest;
beforeAll(async () => {
  const shared = testManifest();
  fork = await startAnvil({ fork: { rpcUrl: shared.rpcUrl, blockNumber: shared.seededAtBlock } });
  manifest = { ...shared, rpcUrl: fork.rpcUrl };
});
afterAll(() => fork?.stop());

async function simulate(address: Address) {
  return simulateTrade(simulationParameters(manifest, [devnetProvider(manifest.rpcUrl, "fork")]), { address });
}

async function simulated(fixture: SimulationFixture): Promise<TradeSimulationResponse> {
  const result = await simulate(fixture.address);
  if (!result.ok) throw new Error(`${fixture.name}: ${result.code} ${result.message}`);
  // The answer as the route serves it: exactly its schema's fields.
  return TradeSimulationResponse.parse(result.value);
}

const userOf = (index: number) => {
  const user = manifest.accounts.users[index];
  if (!user) throw new Error(`no devnet user ${index}`);
  return user;
};
const fixture = (name: string): SimulationFixture => {
  const found = manifest.simulationTokens.find((f) => f.name === name);
  if (!found) throw new Error(`no simulation fixture ${name}`);
  return found;
};

describe("simulateTrade on the devnet's fixtures (a fork)", () => {
  test("every figure of every trading fixture equals its parameters, in two round trips after the pin", async () => {
    for (const name of [
      "plain",
      "buySellTax",
      "transferTax",
      "rebasing",
      "pausable",
      "concentratedPlain",
      "concentratedBuyTax",
      "v4BuyTax",
    ]) {
      const f = fixture(name);
      const answer = await simulated(f);
      const costs = expectedCosts(f);
      expect([answer.evidenceStatus, answer.conclusion, answer.rpcObservation.roundTrips], name).toEqual(["VERIFIED", null, 2]);
      expect(
        answer.figures.map((x) => x.outcome),
        name,
      ).toEqual(Array(5).fill("SUCCEEDED"));
      for (const step of ["BUY_SMALL", "BUY_LARGE"] as const) expect(figureOf(answer, step).costBps, `${name} ${step}`).toBe(costs.buy);
      expect(figureOf(answer, "TRANSFER").costBps, name).toBe(costs.transfer);
      for (const step of ["SELL_SMALL", "SELL_LARGE"] as const) {
        expect(figureOf(answer, step).tokenShortfallBps, `${name} ${step}`).toBe(costs.sellShortfall);
      }
      // The small sell's quote-side cost is the token's take too (the curve's effect of the smaller input is below half a bp there).
      expect(figureOf(answer, "SELL_SMALL").costBps, name).toBe(costs.sellShortfall);
      expect(answer.tradeLimits, name).toEqual([]);
      expect(figuresEqualParameters(f, answer), name).toBe(true);
      for (const x of answer.figures) {
        expect([x.pool, x.blockNumber], name).toEqual([answer.pool?.address, answer.observationBlock.blockNumber]);
        expect(x.gasUsed, name).toBeGreaterThan(20_000);
      }
    }
  });

  test("the deepest pool is taken across quotes and named with its depth, thin pools flagged", async () => {
    const f = fixture("plain");
    const answer = await simulated(f);
    const weth = f.pools.find((p) => p.quote === "WETH");
    expect(answer.pool?.address).toBe(weth?.address);
    expect(answer.poolsConsidered.map((p) => p.address).sort()).toEqual(f.pools.map((p) => p.address).sort());
    // $1.5M of WETH: √1.02 − 1 of it moves the price 2%, below the $50k floor.
    expect(answer.pool?.depthUsd).toBeCloseTo(1_500_000 * (Math.sqrt(1.02) - 1), 0);
    expect(answer.pool?.belowDepthFloor).toBe(true);
    expect(answer.amounts).toMatchObject({ smallUsd: 100, largeUsd: 10_000 });
  });

  test("concentrated pools (Uniswap V3 against USDC, Slipstream against WETH, a hookless V4 pool against USDC) are derived, ranked by in-range liquidity and traded through", async () => {
    for (const [name, dex, quote] of [
      ["concentratedPlain", "uniswap-v3", "USDC"],
      ["concentratedBuyTax", "slipstream", "WETH"],
      ["v4BuyTax", "uniswap-v4", "USDC"],
    ] as const) {
      const f = fixture(name);
      const answer = await simulated(f);
      const concentrated = f.pools.find((p) => p.kind === dex);
      expect([answer.pool?.address, answer.pool?.dex, answer.pool?.quote.symbol], name).toEqual([concentrated?.address, dex, quote]);
      expect(answer.poolsConsidered.map((p) => p.address).sort(), name).toEqual(f.pools.map((p) => p.address).sort());
      // One full-range position of $1.5M a side: its virtual reserves are its reserves.
      expect(answer.pool?.quoteReserveUsd, name).toBeCloseTo(1_500_000, -3);
      expect(answer.rpcObservation.roundTrips, name).toBe(2);
      expect(figuresEqualParameters(f, answer), name).toBe(true);
    }
  });

  test("a token keeping part of its sells, traded through a Uniswap V3 pool: the sells revert with the pool's IIA, for real too", async () => {
    const f = fixture("concentratedSellTax");
    const answer = await simulated(f);
    expect(answer.pool?.dex).toBe("uniswap-v3");
    expect(answer.figures.map((x) => [x.step, x.outcome, x.costBps])).toEqual([
      ["BUY_SMALL", "SUCCEEDED", 0],
      ["TRANSFER", "SUCCEEDED", 0],
      ["SELL_SMALL", "REVERTED", null],
      ["BUY_LARGE", "SUCCEEDED", 0],
      ["SELL_LARGE", "REVERTED", null],
    ]);
    expect(figureOf(answer, "SELL_SMALL").revert).toMatchObject({ kind: "ERROR_STRING", message: "IIA" });
    expect(figuresEqualParameters(f, answer)).toBe(true);
    // The same sell sent as a transaction by a real holder (not the token's owner, whom it exempts), through
    // the devnet's router, reverts as observed.
    const owner = createDevnetClient(manifest.rpcUrl, manifest.accounts.deployer.privateKey);
    const holder = createDevnetClient(manifest.rpcUrl, userOf(7).privateKey);
    const router = manifest.contracts.swapRouter as Address;
    const amount = 10n ** 20n;
    const mined = async (hash: Hex) => (await owner.waitForTransactionReceipt({ hash })).status;
    expect(
      await mined(
        await owner.writeContract({ address: f.address, abi: erc20Abi, functionName: "transfer", args: [holder.account.address, amount] }),
      ),
    ).toBe("success");
    expect(
      await mined(await holder.writeContract({ address: f.address, abi: erc20Abi, functionName: "approve", args: [router, amount] })),
    ).toBe("success");
    const zeroForOne = BigInt(f.address) < BigInt(answer.pool?.quote.address ?? 0);
    const sell = {
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "swapV3",
      args: [answer.pool?.address as Address, zeroForOne, amount, 0n, holder.account.address],
    } as const;
    // For the same reason: the pool's own message, then mined as a revert.
    await expect(holder.simulateContract(sell)).rejects.toThrow(/IIA/);
    expect(await mined(await holder.writeContract({ ...sell, gas: 1_000_000n }))).toBe("reverted");
  });

  test("a token keeping part of its sells, traded through a Uniswap V4 pool: the PoolManager's unlock reverts them (CurrencyNotSettled)", async () => {
    const f = fixture("v4SellTax");
    const answer = await simulated(f);
    expect([answer.pool?.dex, answer.pool?.quote.symbol, answer.pool?.uniswapV4?.fee, answer.pool?.uniswapV4?.tickSpacing]).toEqual([
      "uniswap-v4",
      "WETH",
      500,
      10,
    ]);
    expect(answer.figures.map((x) => x.outcome)).toEqual(["SUCCEEDED", "SUCCEEDED", "REVERTED", "SUCCEEDED", "REVERTED"]);
    expect(figureOf(answer, "SELL_SMALL").revert).toMatchObject({ kind: "CUSTOM_ERROR", selector: currencyNotSettledSelector });
    expect(figuresEqualParameters(f, answer)).toBe(true);
  });

  test("sells that revert for everyone but an allowlist: the revert decoded, buys observed", async () => {
    const answer = await simulated(fixture("sellAllowlist"));
    expect(answer.figures.map((x) => [x.step, x.outcome])).toEqual([
      ["BUY_SMALL", "SUCCEEDED"],
      ["TRANSFER", "SUCCEEDED"],
      ["SELL_SMALL", "REVERTED"],
      ["BUY_LARGE", "SUCCEEDED"],
      ["SELL_LARGE", "REVERTED"],
    ]);
    expect(figureOf(answer, "SELL_SMALL").revert).toMatchObject({ kind: "ERROR_STRING", message: "sells restricted" });
    // Small and large sells both fail: no limit to ladder for.
    expect(answer.tradeLimits).toEqual([]);
    expect(figuresEqualParameters(fixture("sellAllowlist"), answer)).toBe(true);
  });

  test("a maximum transaction: the larger buy reverts and the ladder finds the limit to the token unit (a V2 and a V3 pool)", async () => {
    for (const [name, dex] of [
      ["maxTx", "uniswap-v2"],
      ["concentratedMaxTx", "uniswap-v3"],
    ] as const) {
      const f = fixture(name);
      const answer = await simulated(f);
      expect(answer.pool?.dex, name).toBe(dex);
      expect([figureOf(answer, "BUY_SMALL").outcome, figureOf(answer, "BUY_LARGE").outcome], name).toEqual(["SUCCEEDED", "REVERTED"]);
      const [limit] = answer.tradeLimits;
      expect(limit, name).toMatchObject({ side: "BUY", largestSucceeded: f.traps.maxTxAmount, ladderBound });
      expect(BigInt(limit?.smallestFailed ?? 0) - BigInt(limit?.largestSucceeded ?? 0), name).toBe(10n ** 18n);
      expect(limit?.probes, name).toBeLessThanOrEqual(ladderBound);
      expect(figuresEqualParameters(f, answer), name).toBe(true);
    }
  });

  test("a replay of the same trades as real transactions on the fork agrees with the simulation", async () => {
    const client = createDevnetClient(manifest.rpcUrl, userOf(6).privateKey);
    const simulator = { address: simulationTrader, abi: artifactOf(compileFixtures(), "TradeSimulator").abi };
    for (const name of ["buySellTax", "transferTax", "rebasing", "maxTx", "concentratedPlain", "concentratedBuyTax", "v4BuyTax"]) {
      const f = fixture(name);
      const answer = await simulated(f);
      const { pool, amounts, funding } = answer;
      if (!pool || !amounts || !funding) throw new Error(`${name}: no simulation`);
      // The same placement as the override, made for real: the helper's code, the trader's quote balance.
      const code = (await client.getCode({ address: simulationTrader })) ?? "0x";
      if (code === "0x") {
        const runtime = artifactOf(compileFixtures(), "TradeSimulator").deployedBytecode;
        await client.setCode({ address: simulationTrader, bytecode: runtime });
        await client.setCode({ address: simulationPeer, bytecode: runtime });
      }
      await client.setStorageAt({
        address: funding.quoteToken,
        index: mappingKey(simulationTrader, funding.balanceSlot),
        value: pad(numberToHex(BigInt(amounts.largeIn) * 4n)),
      });
      const plan = simulationPlan({
        pool,
        token: f.address,
        smallIn: BigInt(amounts.smallIn),
        largeIn: BigInt(amounts.largeIn),
        unit: 10n ** 18n,
        stepGas: 2_000_000,
      });
      const transact = async (functionName: string, args: readonly unknown[]) => {
        const hash = await client.writeContract({ ...simulator, functionName, args, gas: 3_000_000n } as never);
        return client.waitForTransactionReceipt({ hash });
      };
      const tokenBalance = (holder: Address) =>
        client.readContract({ address: f.address, abi: erc20Abi, functionName: "balanceOf", args: [holder] });
      const transfersTo = (logs: readonly { address: Address; data: Hex; topics: readonly Hex[] }[], to: Address) =>
        parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: logs as never })
          .filter((l) => l.address.toLowerCase() === f.address.toLowerCase() && l.args.to === to)
          .reduce((sum, l) => sum + l.args.value, 0n);

      const traderBefore = await tokenBalance(simulationTrader);
      const buy = await transact("buy", [plan, plan.smallIn]);
      expect(buy.status, name).toBe("success");
      const bought = (await tokenBalance(simulationTrader)) - traderBefore;
      expect(bought, name).toBe(BigInt(figureOf(answer, "BUY_SMALL").received));
      // The logs say the same where balances are not rebased.
      if (f.traps.rebaseBps === 0) expect(transfersTo(buy.logs, simulationTrader), name).toBe(bought);

      const peerBefore = await tokenBalance(simulationPeer);
      expect((await transact("send", [plan, bought])).status, name).toBe("success");
      expect((await tokenBalance(simulationPeer)) - peerBefore, name).toBe(BigInt(figureOf(answer, "TRANSFER").received));

      const usdcBefore = await client.readContract({
        address: plan.quote,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [simulationPeer],
      });
      const sell = await transact("sellThroughPeer", [plan]);
      expect(sell.status, name).toBe("success");
      const usdcAfter = await client.readContract({
        address: plan.quote,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [simulationPeer],
      });
      expect(usdcAfter - usdcBefore, name).toBe(BigInt(figureOf(answer, "SELL_SMALL").received));

      const large = await transact("buy", [plan, plan.largeIn]);
      expect(large.status === "success" ? "SUCCEEDED" : "REVERTED", name).toBe(figureOf(answer, "BUY_LARGE").outcome);
    }
  });

  test("a paused token: the buy reverts, observed with its data", async () => {
    const f = fixture("pausable");
    const owner = createDevnetClient(manifest.rpcUrl, manifest.accounts.deployer.privateKey);
    const hash = await owner.writeContract({
      address: f.address,
      abi: artifactOf(compileFixtures(), "SimFixtureToken").abi,
      functionName: "setPaused",
      args: [true],
    } as never);
    await owner.waitForTransactionReceipt({ hash });
    const answer = await simulated(f);
    expect(answer.figures.map((x) => x.outcome)).toEqual(["REVERTED", "NOT_ATTEMPTED", "NOT_ATTEMPTED", "REVERTED", "NOT_ATTEMPTED"]);
    // The pair wraps the token's own "paused" in its transfer check, as Uniswap V2's TRANSFER_FAILED does.
    expect(figureOf(answer, "BUY_SMALL").revert).toMatchObject({ kind: "ERROR_STRING", message: "transfer failed" });
  });

  test("no pool is DATA_SOURCE_UNAVAILABLE naming the reason; an account without code is UNVERIFIED", async () => {
    const noPool = await simulate(manifest.contracts.multicall3 as Address);
    expect(noPool).toMatchObject({ ok: false, code: "DATA_SOURCE_UNAVAILABLE" });
    expect(noPool.ok ? "" : noPool.message).toMatch(/^no pool: /);
    const account = await simulate(userOf(0).address);
    expect(account.ok && [account.value.evidenceStatus, account.value.reason, account.value.figures]).toEqual([
      "UNVERIFIED",
      "NOT_A_CONTRACT",
      [],
    ]);
    expect(TradeSimulationResponse.safeParse(account.ok && account.value).success).toBe(true);
  });

  test("a provider that ignores the simulator's code override (its call answers 0x): UNVERIFIED, never a throw", async () => {
    const proxy = await startRpcProxy(manifest.rpcUrl, "empty-overridden-call");
    try {
      const deps = simulationParameters(manifest, [devnetProvider(proxy.url, "no-overrides")]);
      const result = await simulateTrade(deps, { address: fixture("plain").address });
      expect(result.ok && [result.value.evidenceStatus, result.value.reason, result.value.figures]).toEqual([
        "UNVERIFIED",
        "UNVERIFIED_OBSERVATION: MALFORMED_RESULT",
        [],
      ]);
      expect(TradeSimulationResponse.safeParse(result.ok && result.value).success).toBe(true);
    } finally {
      await proxy.stop();
    }
  });
});
