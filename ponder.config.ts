import { createConfig, factory } from "ponder";
import { type Address, zeroAddress } from "viem";
import { AerodromePoolAbi } from "./abis/AerodromePoolAbi";
import { AerodromePoolFactoryAbi } from "./abis/AerodromePoolFactoryAbi";
import { Erc20Abi } from "./abis/Erc20Abi";
import { UniswapV2FactoryAbi } from "./abis/UniswapV2FactoryAbi";
import { UniswapV2PairAbi } from "./abis/UniswapV2PairAbi";
import { UniswapV3FactoryAbi } from "./abis/UniswapV3FactoryAbi";
import { UniswapV3PoolAbi } from "./abis/UniswapV3PoolAbi";
import { UniswapV4PoolManagerAbi } from "./abis/UniswapV4PoolManagerAbi";
import { loadConfig } from "./api/config";
import type { IndexedPoolKind } from "./src/config/indexerEnv";
import { indexerPlan } from "./src/config/indexerPlan";
import { indexerRpc, indexerRpcUrls } from "./src/config/indexerRpc";
import { recentStartBlock } from "./src/config/recentStartBlock";

const config = loadConfig();
const plan = indexerPlan(config);
const rpcUrls = indexerRpcUrls(config.chain);
const recent =
  plan.startBlocks.pools === undefined || plan.startBlocks.transfers === undefined
    ? await recentStartBlock(rpcUrls, Math.max(plan.volumeWindowSeconds, plan.whaleWindowSeconds))
    : undefined;
const poolsStart = plan.startBlocks.pools ?? recent;
const transfersStart = plan.startBlocks.transfers ?? recent;
const paymentsStart = plan.startBlocks.payments ?? recent;

/** Mainnet: the curated pools of these kinds. Ponder wants at least one address; the zero address emits no logs. */
function curated(...kinds: IndexedPoolKind[]): Address[] {
  const pools = plan.pools.discovery === "list" ? plan.pools.curated.filter((p) => kinds.includes(p.kind)) : [];
  return pools.length > 0 ? pools.map((p) => p.address) : [zeroAddress];
}
const discovered = plan.pools.discovery === "factory";
/** Mainnet: the curated V4 pools, by id. Every V4 pool lives in the PoolManager: only their events are fetched. */
const curatedV4Ids = plan.pools.discovery === "list" ? plan.pools.curatedV4.map((p) => p.id) : [];
const v4Events = ["Initialize", "ModifyLiquidity", "Swap"] as const;

export default createConfig({
  database:
    config.database.kind === "postgres"
      ? { kind: "postgres", connectionString: config.database.url }
      : { kind: "pglite", directory: config.database.directory },
  chains: {
    base: {
      id: plan.chainId,
      rpc: indexerRpc(config.chain),
      pollingInterval: config.chain.kind === "devnet" ? 250 : 1_000,
    },
  },
  // Setup handlers run in this order: the token checks first, then the curated pools that need them.
  contracts: {
    TrackedToken: { chain: "base", abi: Erc20Abi, address: plan.tokens.map((t) => t.address), startBlock: transfersStart },
    PayoutUsdc: {
      chain: "base",
      abi: Erc20Abi,
      address: plan.usdc,
      filter: { event: "Transfer", args: { to: plan.payoutAddress } },
      startBlock: paymentsStart,
    },
    UniswapV2Factory: { chain: "base", abi: UniswapV2FactoryAbi, address: plan.factories.uniswapV2, startBlock: poolsStart },
    UniswapV3Factory: { chain: "base", abi: UniswapV3FactoryAbi, address: plan.factories.uniswapV3, startBlock: poolsStart },
    AerodromeFactory: { chain: "base", abi: AerodromePoolFactoryAbi, address: plan.factories.aerodrome, startBlock: poolsStart },
    UniswapV2Pair: {
      chain: "base",
      abi: UniswapV2PairAbi,
      address: discovered
        ? factory({ address: plan.factories.uniswapV2, event: UniswapV2FactoryAbi[0], parameter: "pair" })
        : curated("uniswap-v2"),
      startBlock: poolsStart,
    },
    UniswapV3Pool: {
      chain: "base",
      abi: UniswapV3PoolAbi,
      address: discovered
        ? factory({ address: plan.factories.uniswapV3, event: UniswapV3FactoryAbi[0], parameter: "pool" })
        : curated("uniswap-v3", "slipstream"),
      startBlock: poolsStart,
    },
    AerodromePool: {
      chain: "base",
      abi: AerodromePoolAbi,
      address: discovered
        ? factory({ address: plan.factories.aerodrome, event: AerodromePoolFactoryAbi[0], parameter: "pool" })
        : curated("aerodrome-volatile", "aerodrome-stable"),
      startBlock: poolsStart,
    },
    UniswapV4PoolManager: {
      chain: "base",
      abi: UniswapV4PoolManagerAbi,
      address: discovered || curatedV4Ids.length > 0 ? plan.poolManager : zeroAddress,
      filter: curatedV4Ids.length > 0 ? v4Events.map((event) => ({ event, args: { id: curatedV4Ids } })) : undefined,
      startBlock: poolsStart,
    },
  },
  blocks: {
    ChainHead: { chain: "base", startBlock: "latest", interval: 1 },
    Prune: { chain: "base", startBlock: poolsStart, interval: plan.pruneIntervalBlocks },
  },
});
