import type { Config } from "../api/config";
import { baseChainId } from "../base/baseChain";
import { resetDevnetState } from "../devnet/resetDevnetState";
import { type Devnet, startDevnet } from "../devnet/startDevnet";

/**
 * With no Base RPC configured, starts the embedded devnet and resets what was indexed or stored for
 * an earlier chain (a fresh chain must not meet old rows); on Base, nothing. `tag` prefixes the log lines.
 */
export async function prepareChain(config: Config, tag: string): Promise<Devnet | undefined> {
  if (config.chain.kind !== "devnet") return undefined;
  const seeding = config.devnet.seededState ? `loading the seeded state in ${config.devnet.seededState}` : "seeding fixtures";
  console.log(`[${tag}] devnet: starting anvil (chain ${baseChainId}) and ${seeding}`);
  const devnet = await startDevnet({ ...config.devnet, manifestPath: config.chain.manifestPath });
  console.log(`[${tag}] devnet: ${devnet.manifest.rpcUrl}, manifest ${config.chain.manifestPath}`);
  await resetDevnetState(config);
  return devnet;
}
