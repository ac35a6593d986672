import { devnetAccount, devnetRoles } from "./accounts";
import { createDevnetClient, type SeedContext } from "./client";
import { compileFixtures } from "./compile";
import type { Manifest } from "./manifest";
import { seedCapabilityFixtures } from "./seed/capabilities";
import { seedPools } from "./seed/pools";
import { seedTokens } from "./seed/tokens";

/** How many funded test users the manifest lists (accounts 3..). */
const userCount = 12;

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
  const capabilities = await seedCapabilityFixtures(ctx, { delegator: devnetAccount(devnetRoles.firstUser + userCount) });

  return {
    chainId: await ctx.client.getChainId(),
    rpcUrl,
    seededAtBlock: Number(await ctx.client.getBlockNumber()),
    accounts: { deployer, traffic, users, facilitator },
    payoutAddress: payout.address,
    tokens: tokens.tokens,
    factories: markets.factories,
    pools: markets.pools,
    contracts: { ...tokens.contracts, ...markets.contracts, ...capabilities.contracts },
  };
}
