import { devnetAccount, devnetRoles } from "./accounts";
import { startAnvil } from "./anvil";
import { createDevnetClient } from "./client";
import { type Manifest, writeManifest } from "./manifest";
import { seedDevnet } from "./seed";
import { readSeededState } from "./seededState";
import { startTraffic } from "./traffic";

export type StartDevnetParameters = {
  port: number;
  /** Seconds between blocks once seeded; 0 keeps mining on every transaction. */
  blockTime: number;
  traffic: boolean;
  manifestPath: string;
  /** A folder `seedSavedState` wrote: the devnet starts from that seeded chain instead of seeding (DEVNET_SEEDED_STATE). */
  seededState?: string;
};

export type Devnet = { manifest: Manifest; stop(): Promise<void> };

/**
 * The embedded chain: anvil as Base, every fixture seeded (or a saved seeded chain loaded), the manifest
 * written, then timed blocks and the traffic generator so prices and volumes move.
 */
export async function startDevnet(options: StartDevnetParameters): Promise<Devnet> {
  const saved = options.seededState ? readSeededState(options.seededState) : undefined;
  const anvil = await startAnvil({ port: options.port, loadState: saved?.statePath });
  try {
    const manifest = saved ? await loadedManifest(saved.manifest, anvil.rpcUrl) : await seedDevnet(anvil.rpcUrl);
    writeManifest(manifest, options.manifestPath);
    if (options.blockTime > 0) {
      const client = createDevnetClient(anvil.rpcUrl, devnetAccount(devnetRoles.deployer).privateKey);
      await client.setAutomine(false);
      await client.setIntervalMining({ interval: options.blockTime });
    }
    const traffic = options.traffic ? startTraffic(manifest) : undefined;
    return {
      manifest,
      async stop() {
        await traffic?.stop();
        await anvil.stop();
      },
    };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}

/** The saved seeding's manifest at the node that loaded it, once that node holds the seeded chain. */
async function loadedManifest(saved: Manifest, rpcUrl: string): Promise<Manifest> {
  const head = await createDevnetClient(rpcUrl, devnetAccount(devnetRoles.deployer).privateKey).getBlockNumber({ cacheTime: 0 });
  if (head < BigInt(saved.seededAtBlock)) {
    throw new Error(`the saved devnet state ends at block ${head}, before its manifest's seeded block ${saved.seededAtBlock}`);
  }
  return { ...saved, rpcUrl };
}
