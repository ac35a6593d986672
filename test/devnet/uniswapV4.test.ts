import { type Address, encodeAbiParameters, type Hex, keccak256, parseEventLogs, toEventSelector, zeroAddress } from "viem";
import { beforeAll, describe, expect, test } from "vitest";
import { UniswapV4PoolManagerAbi } from "../../abis/UniswapV4PoolManagerAbi";
import {
  baseUniswapV4PoolManager,
  decodeUniswapV4Slot0,
  type UniswapV4PoolKey,
  uniswapV4PoolId,
  uniswapV4PoolSlots,
  uniswapV4SwapAffectingHookFlags,
} from "../../base/uniswapV4";
import { devnetRoles } from "../../devnet/accounts";
import { artifactOf, compileFixtures } from "../../devnet/compile";
import { devnetSwapRouterAbi } from "../../devnet/swapRouterAbi";
import { chainTruth } from "../support/chainTruth";
import { testClient, testManifest } from "../support/devnet";
import { deployTestToken } from "../support/testToken";
import { minSqrtRatio, type ReferencePool, referenceSwap, sqrtRatioAtTick, ticksOfPositions } from "../support/uniswapV3Reference";

/** This file signs as users[5] only. */
const manifest = testManifest();
const user = testClient(manifest, devnetRoles.firstUser + 5);
const router = manifest.contracts.swapRouter as Address;
const truth = chainTruth(user);
const latest = () => user.getBlockNumber({ cacheTime: 0 });

/** topic0 of the PoolManager's events on Base. */
const mainnetTopics = {
  initialize: "0xdd466e674ea557f56295e2d0218a125ea4b4f0f6f3307b95f85e6110838d6438",
  modifyLiquidity: "0xf208f4912782fd25c7f114ca3723a2d5dd6f3bcc3ac8db5af63baa85f711d5ec",
  swap: "0x40e9cecb9f5f1f1c5b9c97dec2917b7ee92e57ba5563708daca94dd84ad7112f",
} as const;

/** The events' Solidity signatures as V4's IPoolManager declares them. */
const canonicalSignatures: Record<keyof typeof mainnetTopics, string> = {
  initialize:
    "Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)",
  modifyLiquidity:
    "ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)",
  swap: "Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)",
};

/** The test's own pool: native ETH against a fresh token, fee 0.25%, tick spacing 50, at price 1. */
const positions = [
  { tickLower: -500, tickUpper: 500, liquidity: 10n ** 21n },
  { tickLower: -100, tickUpper: 150, liquidity: 5n * 10n ** 21n },
  { tickLower: 50, tickUpper: 200, liquidity: 2n * 10n ** 21n },
];
const salt = (i: number): Hex => `0x${(i + 1).toString(16).padStart(64, "0")}`;
let key: UniswapV4PoolKey;
let id: Hex;
let mintLogs: ReturnType<typeof parseEventLogs<typeof UniswapV4PoolManagerAbi, true, "ModifyLiquidity">>;

const pool = () => ({ address: id, kind: "uniswap-v4", factory: baseUniswapV4PoolManager, tickSpacing: key.tickSpacing });

async function referencePoolAt(blockNumber: bigint): Promise<ReferencePool> {
  const { sqrtPriceX96, tick, liquidity } = await truth.poolState(pool(), blockNumber);
  if (sqrtPriceX96 === null || tick === null || liquidity === null) throw new Error("not a concentrated pool");
  const ticks = await truth.ticks(pool(), blockNumber);
  return {
    sqrtPriceX96,
    tick,
    liquidity,
    feePips: key.fee,
    tickSpacing: key.tickSpacing,
    liquidityNet: new Map(ticks.map((t) => [t.tick, t.liquidityNet])),
  };
}

/** A swap through the router, with the Swap event and what it cost the user in ETH (gas included). */
async function swapOnChain(zeroForOne: boolean, exactInput: boolean, amount: bigint, limit: bigint, value = 0n) {
  const before = await user.getBalance({ address: user.account.address });
  const hash = await user.writeContract({
    address: router,
    abi: devnetSwapRouterAbi,
    functionName: "swapV4Exact",
    args: [key, zeroForOne, exactInput, amount, limit, user.account.address],
    value,
    gas: 3_000_000n,
  });
  const receipt = await user.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  const [swap] = parseEventLogs({ abi: UniswapV4PoolManagerAbi, eventName: "Swap", logs: receipt.logs });
  if (!swap) throw new Error("no Swap event");
  const after = await user.getBalance({ address: user.account.address, blockNumber: receipt.blockNumber });
  return { ...swap.args, ethSpent: before - after - receipt.gasUsed * receipt.effectiveGasPrice, blockNumber: receipt.blockNumber };
}

beforeAll(async () => {
  const token = await deployTestToken(user, "TV", router);
  key = { currency0: zeroAddress, currency1: token, fee: 2500, tickSpacing: 50, hooks: zeroAddress };
  id = uniswapV4PoolId(key);
  const manager = { address: baseUniswapV4PoolManager, abi: artifactOf(compileFixtures(), "UniswapV4PoolManager").abi };
  await user.waitForTransactionReceipt({
    hash: await user.writeContract({ ...manager, functionName: "initialize", args: [key, 1n << 96n] }),
  });
  const logs = [];
  for (const [i, p] of positions.entries()) {
    const hash = await user.writeContract({
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "mintV4",
      args: [key, p.tickLower, p.tickUpper, p.liquidity, salt(i)],
      value: 10n ** 20n, // more ETH than any position takes: the router refunds the rest
    });
    const receipt = await user.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    logs.push(...receipt.logs);
  }
  mintLogs = parseEventLogs({ abi: UniswapV4PoolManagerAbi, eventName: "ModifyLiquidity", logs });
}, 60_000);

describe("the Uniswap V4 PoolManager fixture", () => {
  test("default: it sits at Base's PoolManager address, and its events carry mainnet's topic0", async () => {
    expect(await user.getCode({ address: baseUniswapV4PoolManager })).toBe(
      artifactOf(compileFixtures(), "UniswapV4PoolManager").deployedBytecode,
    );
    for (const [name, topic] of Object.entries(mainnetTopics)) {
      expect(toEventSelector(canonicalSignatures[name as keyof typeof mainnetTopics]), name).toBe(topic);
    }
    // Seeding initialized pools and added liquidity; the test's swaps below are checked by their decoded events.
    const logs = await user.getLogs({ address: baseUniswapV4PoolManager, fromBlock: 0n, toBlock: BigInt(manifest.seededAtBlock) });
    expect([...new Set(logs.map((l) => l.topics[0]))].sort()).toEqual([mainnetTopics.initialize, mainnetTopics.modifyLiquidity].sort());
    const swapEvent = UniswapV4PoolManagerAbi.find((item) => item.type === "event" && item.name === "Swap");
    expect(swapEvent && toEventSelector(swapEvent)).toBe(mainnetTopics.swap);
  });

  test("default: each seeded pool's id is keccak256(abi.encode(key)) and its Initialize event carries the key; one pool's hooks may change swaps", async () => {
    const logs = await user.getLogs({ address: baseUniswapV4PoolManager, fromBlock: 0n, toBlock: BigInt(manifest.seededAtBlock) });
    const initialized = parseEventLogs({ abi: UniswapV4PoolManagerAbi, eventName: "Initialize", logs });
    expect(manifest.v4Pools.map((p) => p.name).sort()).toEqual(
      ["uniswap-v4:ETH/USDC:500", "uniswap-v4:cbBTC/ETH:3000", "uniswap-v4:DEGEN/ETH:3000:hooked", "uniswap-v4:UNTA/UNTB:3000"].sort(),
    );
    for (const p of manifest.v4Pools) {
      const encoded = encodeAbiParameters(
        [{ type: "address" }, { type: "address" }, { type: "uint24" }, { type: "int24" }, { type: "address" }],
        [p.key.currency0, p.key.currency1, p.key.fee, p.key.tickSpacing, p.key.hooks],
      );
      expect(p.id).toBe(keccak256(encoded));
      const event = initialized.find((l) => l.args.id === p.id);
      expect(event?.args, p.name).toMatchObject({ ...p.key, id: p.id });
      const swapHooks = (BigInt(p.key.hooks) & BigInt(uniswapV4SwapAffectingHookFlags)) !== 0n;
      expect(swapHooks, p.name).toBe(p.name.endsWith(":hooked"));
    }
  });

  test("default: modifyLiquidity emits ModifyLiquidity from the router with its caller-derived salt; extsload reads the positions' ticks and the in-range liquidity", async () => {
    expect(mintLogs.map((l) => [l.args.id, l.args.sender, l.args.tickLower, l.args.tickUpper, l.args.liquidityDelta, l.args.salt])).toEqual(
      positions.map((p, i) => [
        id,
        router,
        p.tickLower,
        p.tickUpper,
        p.liquidity,
        keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [user.account.address, salt(i)])),
      ]),
    );
    const block = await latest();
    const ticks = await truth.ticks(pool(), block);
    expect(ticks.map(({ tick, liquidityGross, liquidityNet }) => [tick, liquidityGross, liquidityNet])).toEqual(
      ticksOfPositions(positions),
    );
    expect(ticks.map((t) => t.tick)).toEqual([-500, -100, 50, 150, 200, 500]);
    expect(await truth.poolState(pool(), block)).toMatchObject({ sqrtPriceX96: 1n << 96n, tick: 0, liquidity: 6n * 10n ** 21n });
    // The three extsload forms read the same words: slot0 alone, as a range, and in a list.
    const slots = uniswapV4PoolSlots(id);
    const manager = { address: baseUniswapV4PoolManager, abi: UniswapV4PoolManagerAbi, functionName: "extsload" } as const;
    const single = await user.readContract({ ...manager, args: [slots.slot0] });
    const range = await user.readContract({ ...manager, args: [slots.slot0, 4n] });
    const list = await user.readContract({ ...manager, args: [[slots.slot0, slots.liquidity]] });
    expect(decodeUniswapV4Slot0(single)).toEqual({ sqrtPriceX96: 1n << 96n, tick: 0, protocolFee: 0, lpFee: 2500 });
    expect([range[0], range[3]]).toEqual(list);
  });

  test("behavior: a native-ETH exact-input swap down across a tick moves exactly what V3's math predicts, with V4's signs", async () => {
    const state = await referencePoolAt(await latest());
    const amountIn = 4n * 10n ** 19n;
    const expected = referenceSwap(state, { zeroForOne: true, amountSpecified: amountIn, sqrtPriceLimitX96: minSqrtRatio + 1n });
    expect(expected.crossed).toEqual([-100]);
    const swap = await swapOnChain(true, true, amountIn, 0n, amountIn);
    // V4 emits the swapper's deltas: the negation of the pool's.
    expect([swap.amount0, swap.amount1, swap.sqrtPriceX96, swap.tick, swap.liquidity, swap.fee]).toEqual([
      -expected.amount0,
      -expected.amount1,
      expected.sqrtPriceX96,
      expected.tick,
      expected.liquidity,
      key.fee,
    ]);
    expect(swap.ethSpent).toBe(amountIn);
    expect(await user.getBalance({ address: router })).toBe(0n);
  });

  test("behavior: an exact-output swap up, stopped by its price limit, crosses ticks exactly as V3's math says and refunds the ETH it did not take", async () => {
    const state = await referencePoolAt(await latest());
    const limit = sqrtRatioAtTick(175);
    const wanted = 10n ** 21n; // more ETH than the move to the limit yields
    const expected = referenceSwap(state, { zeroForOne: false, amountSpecified: -wanted, sqrtPriceLimitX96: limit });
    expect(expected.crossed).toEqual([-100, 50, 150]);
    const swap = await swapOnChain(false, false, wanted, limit);
    expect([swap.amount0, swap.amount1, swap.sqrtPriceX96, swap.tick, swap.liquidity]).toEqual([
      -expected.amount0,
      -expected.amount1,
      limit,
      expected.tick,
      expected.liquidity,
    ]);
    // ETH out: the user received what the pool paid.
    expect(swap.ethSpent).toBe(-swap.amount0);
  });

  test("behavior: burnV4 clears the ticks no other position uses and pays the position's ETH and tokens back", async () => {
    const hash = await user.writeContract({
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "burnV4",
      args: [key, 50, 200, 2n * 10n ** 21n, salt(2)],
    });
    const receipt = await user.waitForTransactionReceipt({ hash });
    const [removed] = parseEventLogs({ abi: UniswapV4PoolManagerAbi, eventName: "ModifyLiquidity", logs: receipt.logs });
    expect(removed?.args).toMatchObject({ id, tickLower: 50, tickUpper: 200, liquidityDelta: -2n * 10n ** 21n });
    expect((await truth.ticks(pool(), receipt.blockNumber)).map((t) => t.tick)).toEqual([-500, -100, 150, 500]);
    expect(await user.getBalance({ address: router })).toBe(0n);
  });
});
