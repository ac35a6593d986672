import { devnetAccount, devnetRoles } from "./accounts";
import { createDevnetClient, type SeedContext } from "./client";
import { compileFixtures } from "./compile";
import type { Manifest } from "./manifest";
import { seedBatchSettlement } from "./seed/batchSettlement";
import { seedCapabilityFixtures } from "./seed/capabilities";
import { seedGasPriceOracle } from "./seed/gasPriceOracle";
import { seedPools, tokenOf } from "./seed/pools";
import { seedSimulationTokens } from "./seed/simulationTokens";
import { seedTokens } from "./seed/tokens";
import { placeUniswapV4PoolManager, seedV4Pools } from "./seed/v4Pools";

/** How many funded test users the manifest lists (accounts 3..). */
const userCount = 14;

/**
 * Deploys every fixture on a fresh anvil (automine on) and returns the manifest that describes it.
 */
export async function seedDevnet(rpcUrl: string): Promise<Manifest> {
  const deployer = devnetAccount(devnetRoles.deployer);
  const traffic = devnetAccount(devnetRoles.traffic);
  const payout = devnetAccount(devnetRoles.payout);
  const facilitator = devnetAccount(devnetRoles.x402Facilitator);
  const users = Array.from({ length: userCount }, (_, i) => devnetAccount(devnetRoles.firstUser + i));
  const ctx: SeedContext = { client: createDevnetClient(rpcUrl, deployer.privateKey), artifacts: compileFixtures() };

  const tokens = await seedTokens(ctx, { fund: [traffic.address, ...users.map((u) => u.address)] });
  const markets = await seedPools(ctx, tokens.tokens);
  const poolManager = await placeUniswapV4PoolManager(ctx);
  const simulationTokens = await seedSimulationTokens(
    ctx,
    { ...markets.factories, router: markets.contracts.swapRouter, poolManager },
    { USDC: tokenOf(tokens.tokens, "USDC"), WETH: tokenOf(tokens.tokens, "WETH") },
  );
  const capabilities = await seedCapabilityFixtures(ctx, { delegator: devnetAccount(devnetRoles.firstUser + userCount) });
  const gasPriceOracle = await seedGasPriceOracle(ctx);
  const batchSettlement = await seedBatchSettlement(ctx);
  // Last, so that the seeded state's last block holds a V4 liquidity change (the curated indexer starts there).
  const v4 = await seedV4Pools(ctx, tokens.tokens, markets.contracts.swapRouter, poolManager);

  return {
    chainId: await ctx.client.getChainId(),
    rpcUrl,
    // Uncached: viem would answer from its cache, possibly a block behind the last seeding transaction.
    seededAtBlock: Number(await ctx.client.getBlockNumber({ cacheTime: 0 })),
    accounts: { deployer, traffic, users, facilitator },
    payoutAddress: payout.address,
    tokens: tokens.tokens,
    dexes: markets.dexes,
    pools: markets.pools,
    v4Pools: v4.v4Pools,
    simulationTokens,
    contracts: {
      ...tokens.contracts,
      ...markets.contracts,
      ...v4.contracts,
      ...capabilities.contracts,
      gasPriceOracle,
      ...batchSettlement.contracts,
    },
    codeHashes: { x402BatchSettlement: batchSettlement.escrowCodeHash },
  };
}
