import { setTimeout as sleep } from "node:timers/promises";
import { type Address, erc20Abi, maxUint256, zeroAddress } from "viem";
import { createDevnetClient, type DevnetClient } from "./client";
import type { Manifest, ManifestPool, ManifestToken, ManifestV4Pool } from "./manifest";
import { unitsForUsd } from "./seed/prices";
import { nativeEth } from "./seed/tokens";
import { devnetSwapRouterAbi } from "./swapRouterAbi";
import { type ConcentratedPool, createPositionCycle } from "./trafficPositions";
import { createTrafficSender, type TrafficCall } from "./trafficSender";

/**
 * Sizes of the generated traffic in USD at the reference prices. Ordinary swaps and transfers stay at or
 * below `ordinaryMax`; whale transfers are worth at least `whaleMin`: the indexer's whale threshold
 * belongs between the two.
 */
export const trafficSizesUsd = {
  swap: { min: 100, max: 20_000 },
  transfer: { min: 10, max: 10_000 },
  ordinaryMax: 20_000,
  whaleMin: 1_500_000,
} as const;

/** The whale transfers, in turn, in base units (each worth at least trafficSizesUsd.whaleMin). */
export const whaleTransfers = [
  { symbol: "USDC", amount: 1_500_000n * 10n ** 6n },
  { symbol: "WETH", amount: 500n * 10n ** 18n },
  { symbol: "cbBTC", amount: 17n * 10n ** 8n },
  { symbol: "USDT", amount: 1_500_000n * 10n ** 6n },
  { symbol: "DAI", amount: 1_500_000n * 10n ** 18n },
] as const;

export type TrafficParameters = {
  /** Pause between ticks (after each tick's transactions are mined). Default 1000 ms. */
  intervalMs?: number;
  /** Every this many ticks, one whale transfer. Default 10. */
  whaleEvery?: number;
  /** Every this many ticks, the next step of the position cycle (devnet/trafficPositions.ts). Default 2. */
  positionEvery?: number;
  /** Who receives the transfers. Default: the manifest's users. */
  recipients?: Address[];
  /** Aborting it stops the traffic like stop(). */
  signal?: AbortSignal;
  log?: (message: string) => void;
};

const swapsPerTick = 3;
const transfersPerTick = 2;
const swapGas = 600_000n;
const transferGas = 120_000n;
/** Past this net USD flow into one side of a pool, swaps there only go the other way. */
const maxNetFlowUsd = 60_000;

/**
 * Drives market activity from the manifest's traffic account: each tick a few swaps in random pools
 * (Uniswap V4 pools of tracked tokens and ETH included) and directions (leaning against each pool's net
 * flow so prices wander without drifting away), ordinary transfers of tracked tokens to the recipients,
 * every `positionEvery` ticks a step of the position cycle (a position opened, a tick crossed both ways,
 * the position closed), and every `whaleEvery` ticks a whale transfer. A reverted or failed transaction
 * is logged and the traffic goes on.
 */
export function startTraffic(manifest: Manifest, options: TrafficParameters = {}): { stop(): Promise<void> } {
  const { intervalMs = 1000, whaleEvery = 10, positionEvery = 2, log = (m: string) => console.warn(m) } = options;
  const recipients = options.recipients ?? manifest.accounts.users.map((u) => u.address);
  const client = createDevnetClient(manifest.rpcUrl, manifest.accounts.traffic.privateKey);
  const sender = createTrafficSender(client, log);
  const plan = createPlanner(manifest, client, recipients);
  const halt = new AbortController();
  if (options.signal?.aborted) halt.abort();
  options.signal?.addEventListener("abort", () => halt.abort(), { once: true });

  const running = (async () => {
    await sender.sendBatch(await plan.approvals(client));
    for (let tick = 1; !halt.signal.aborted; tick++) {
      // The position step first: its price limits come from the price it has just read.
      const position = tick % positionEvery === 0 ? await plan.positions.next() : undefined;
      const calls = [...(position ? [position] : []), ...plan.swaps(), ...plan.transfers()];
      if (tick % whaleEvery === 0) calls.push(plan.whale(tick / whaleEvery));
      await sender.sendBatch(calls);
      await sleep(intervalMs, undefined, { signal: halt.signal }).catch(() => undefined);
    }
  })().catch((error) => log(`traffic stopped: ${error instanceof Error ? error.message : String(error)}`));

  return {
    async stop() {
      halt.abort();
      await running;
    },
  };
}

/** What each tick sends, chosen at random from the manifest's pools, tokens and recipients. */
export function createPlanner(manifest: Manifest, client: DevnetClient, recipients: Address[]) {
  const trader = client.account.address;
  const router = swapRouterOf(manifest);
  if (recipients.length === 0) throw new Error("traffic needs at least one recipient");
  const tokens = Object.values(manifest.tokens);
  const tokenAt = new Map([...tokens, nativeEth].map((t) => [t.address, t]));
  const netFlowUsd = new Map<string, number>();
  // V4 pools whose currencies are tracked tokens or ETH: the traffic account holds nothing else.
  const v4Pools = manifest.v4Pools.filter((p) => tokenAt.has(p.key.currency0) && tokenAt.has(p.key.currency1));
  const markets: (ManifestPool | ManifestV4Pool)[] = [...manifest.pools, ...v4Pools];

  const tokenOf = (address: Address): ManifestToken => {
    const token = tokenAt.get(address);
    if (!token) throw new Error(`pool token ${address} is not in the manifest`);
    return token;
  };

  function swap(pool: ManifestPool | ManifestV4Pool): TrafficCall {
    const usd = randomBetween(trafficSizesUsd.swap.min, trafficSizesUsd.swap.max);
    const net = netFlowUsd.get(pool.name) ?? 0;
    const zeroForOne = Math.random() < 0.5 - Math.max(-0.5, Math.min(0.5, net / maxNetFlowUsd / 2));
    netFlowUsd.set(pool.name, net + (zeroForOne ? usd : -usd));
    const [token0, token1] = pool.kind === "uniswap-v4" ? [pool.key.currency0, pool.key.currency1] : [pool.token0, pool.token1];
    const tokenIn = tokenOf(zeroForOne ? token0 : token1);
    const amountIn = unitsForUsd(tokenIn, usd);
    const label = `swap of ${tokenIn.symbol} on ${pool.name}`;
    const common = { label, address: router, abi: devnetSwapRouterAbi, gas: swapGas };
    if (pool.kind === "uniswap-v4") {
      const value = tokenIn.address === zeroAddress ? amountIn : undefined;
      return { ...common, functionName: "swapV4", args: [pool.key, zeroForOne, amountIn, 0n, trader], ...(value ? { value } : {}) };
    }
    if (pool.kind === "uniswap-v3" || pool.kind === "slipstream") {
      return { ...common, functionName: "swapV3", args: [pool.address, zeroForOne, amountIn, 0n, trader] };
    }
    const functionName = pool.kind === "uniswap-v2" ? "swapV2" : "swapAerodrome";
    return { ...common, functionName, args: [pool.address, tokenIn.address, amountIn, 0n, trader] };
  }

  function transfer(token: ManifestToken, amount: bigint, label: string, to = pick(recipients)): TrafficCall {
    return {
      label,
      address: token.address,
      abi: erc20Abi,
      functionName: "transfer",
      args: [to, amount],
      gas: transferGas,
    };
  }

  return {
    /** Lets the router spend every token the trader holds, where it cannot yet. */
    async approvals(client: ReturnType<typeof createDevnetClient>): Promise<TrafficCall[]> {
      const calls: TrafficCall[] = [];
      for (const token of tokens) {
        const allowance = await client.readContract({
          address: token.address,
          abi: erc20Abi,
          functionName: "allowance",
          args: [trader, router],
        });
        if (allowance < maxUint256 / 2n) {
          calls.push({
            label: `approval of ${token.symbol}`,
            address: token.address,
            abi: erc20Abi,
            functionName: "approve",
            args: [router, maxUint256],
            gas: transferGas,
          });
        }
      }
      return calls;
    },
    swaps: (count = swapsPerTick) => Array.from({ length: count }, () => swap(pick(markets))),
    positions: createPositionCycle(client, { pools: concentratedPools(manifest, v4Pools), router, trader, tokenOf }),
    transfers: (count = transfersPerTick) =>
      Array.from({ length: count }, () => {
        const token = pick(tokens);
        const usd = randomBetween(trafficSizesUsd.transfer.min, trafficSizesUsd.transfer.max);
        return transfer(token, unitsForUsd(token, usd), `transfer of ${token.symbol}`);
      }),
    /** A payment of `usd` in USDC to the manifest's payout address (a paid call of the service). */
    payment: (usd: number): TrafficCall => {
      const usdc = manifest.tokens.USDC;
      if (!usdc) throw new Error("the manifest has no USDC");
      return transfer(usdc, unitsForUsd(usdc, usd), "payment", manifest.payoutAddress);
    },
    whale: (n: number) => {
      const whaleSpec = whaleTransfers[(n - 1) % whaleTransfers.length] ?? whaleTransfers[0];
      const token = manifest.tokens[whaleSpec.symbol];
      if (!token) throw new Error(`whale token ${whaleSpec.symbol} is not in the manifest`);
      return transfer(token, whaleSpec.amount, `whale transfer of ${token.symbol}`);
    },
  };
}

/** The V3 pools and the given V4 pools, with their tick spacings. */
function concentratedPools(manifest: Manifest, v4Pools: ManifestV4Pool[]): ConcentratedPool[] {
  const v3 = manifest.pools.flatMap((pool) => (pool.tickSpacing === undefined ? [] : [{ pool, tickSpacing: pool.tickSpacing }]));
  return [...v3, ...v4Pools.map((pool) => ({ pool, tickSpacing: pool.key.tickSpacing }))];
}

function swapRouterOf(manifest: Manifest): Address {
  const router = manifest.contracts.swapRouter;
  if (!router) throw new Error("the manifest has no swapRouter contract");
  return router;
}

function pick<T>(items: readonly T[]): T {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

function randomBetween(min: number, max: number): number {
  return min + Math.random() * (max - min);
}
