import { devnetAccount, devnetRoles } from "./accounts";
import { startAnvil } from "./anvil";
import { createDevnetClient } from "./client";
import { type Manifest, writeManifest } from "./manifest";
import { seedDevnet } from "./seed";
import { startTraffic } from "./traffic";

export type StartDevnetParameters = {
  port: number;
  /** Seconds between blocks once seeded; 0 keeps mining on every transaction. */
  blockTime: number;
  traffic: boolean;
  manifestPath: string;
};

export type Devnet = { manifest: Manifest; stop(): Promise<void> };

/**
 * The embedded chain: anvil as Base, every fixture seeded, the manifest written, then timed blocks and
 * the traffic generator so prices and volumes move.
 */
export async function startDevnet(options: StartDevnetParameters): Promise<Devnet> {
  const anvil = await startAnvil({ port: options.port });
  try {
    const manifest = await seedDevnet(anvil.rpcUrl);
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
