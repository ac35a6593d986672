import { createConfig } from "ponder";
import { type Address, zeroAddress } from "viem";
import { AerodromePoolAbi } from "./abis/AerodromePoolAbi";
import { Erc20Abi } from "./abis/Erc20Abi";
import { UniswapV2PairAbi } from "./abis/UniswapV2PairAbi";
import { UniswapV3PoolAbi } from "./abis/UniswapV3PoolAbi";
import { UniswapV4PoolManagerAbi } from "./abis/UniswapV4PoolManagerAbi";
import { loadConfig } from "./api/config";
import { indexerPlan } from "./src/config/indexerPlan";
import { indexerRpc, indexerRpcUrls } from "./src/config/indexerRpc";
import { addressesOf, type logSourceKinds } from "./src/config/plannedPools";
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

/** A source's pool addresses. Ponder wants at least one address; the zero address emits no logs. */
function addresses(source: keyof typeof logSourceKinds): Address[] {
  const listed = addressesOf(plan.pools, source);
  return listed.length > 0 ? listed : [zeroAddress];
}
/** Every V4 pool lives in the PoolManager: only the planned ids' events are fetched (a topic filter). */
const v4Ids = plan.pools.v4.map((p) => p.id);
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
  // Setup handlers run in this order: the token checks first, then the planned pools that need them.
  contracts: {
    TrackedToken: { chain: "base", abi: Erc20Abi, address: plan.tokens.map((t) => t.address), startBlock: transfersStart },
    PayoutUsdc: {
      chain: "base",
      abi: Erc20Abi,
      address: plan.usdc,
      filter: { event: "Transfer", args: { to: plan.payoutAddress } },
      startBlock: paymentsStart,
    },
    // The planned pools' own events, from the start block: an address with no pool yet is watched.
    UniswapV2Pair: { chain: "base", abi: UniswapV2PairAbi, address: addresses("UniswapV2Pair"), startBlock: poolsStart },
    UniswapV3Pool: { chain: "base", abi: UniswapV3PoolAbi, address: addresses("UniswapV3Pool"), startBlock: poolsStart },
    AerodromePool: { chain: "base", abi: AerodromePoolAbi, address: addresses("AerodromePool"), startBlock: poolsStart },
    UniswapV4PoolManager: {
      chain: "base",
      abi: UniswapV4PoolManagerAbi,
      address: v4Ids.length > 0 ? plan.poolManager : zeroAddress,
      filter: v4Ids.length > 0 ? v4Events.map((event) => ({ event, args: { id: v4Ids } })) : undefined,
      startBlock: poolsStart,
    },
  },
  blocks: {
    ChainHead: { chain: "base", startBlock: "latest", interval: 1 },
    Prune: { chain: "base", startBlock: poolsStart, interval: plan.pruneIntervalBlocks },
  },
});
