import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestClient, http, publicActions } from "viem";
import type { TestProject } from "vitest/node";
import { type Anvil, startAnvil } from "../../devnet/anvil";
import { writeManifest } from "../../devnet/manifest";
import { seedDevnet } from "../../devnet/seed";
import { seedSavedState } from "../../devnet/seededState";

declare module "vitest" {
  export interface ProvidedContext {
    manifestPath: string;
    /** The seeded devnet saved (devnet/seededState.ts): what every other devnet of the run starts from. */
    seededStatePath: string;
  }
}

/** The run's devnet and saved seeding, and how many projects' setups hold them. */
type SharedDevnet = {
  anvil: Anvil;
  dir: string;
  manifestPath: string;
  seededStatePath: string;
  clockKeeper: NodeJS.Timeout;
  holders: number;
};

/**
 * Vitest runs this setup once for the root project and once for each project with files (three, in
 * vitest.config.ts), each loading this module anew: the devnet is kept on the process's global object so
 * that they share one, seeded once, and the last teardown stops it.
 */
const runGlobals = globalThis as { svcTestDevnet?: Promise<SharedDevnet> };

/** How old the devnet's last block may get before a block is mined to bring its time forward. */
const maxBlockAgeSeconds = 60;

/**
 * A devnet mined on each transaction keeps its last block's time while idle: after ten idle minutes, an
 * EIP-3009 authorization signed as clients sign it (valid from ten minutes ago) is "not yet valid" in a
 * simulation at that block, and x402 refuses it. Base has a block every two seconds: here a block is
 * mined whenever the last one is over a minute old (test files already allow for blocks others mine).
 */
function keepChainTime(rpcUrl: string): NodeJS.Timeout {
  const client = createTestClient({ mode: "anvil", transport: http(rpcUrl) }).extend(publicActions);
  const timer = setInterval(() => {
    client
      .getBlock({ blockTag: "latest" })
      .then((block) => (Date.now() / 1000 - Number(block.timestamp) > maxBlockAgeSeconds ? client.mine({ blocks: 1 }) : undefined))
      .catch(() => {});
  }, 15_000);
  timer.unref();
  return timer;
}

/**
 * One devnet for the whole run (shared by the projects' setups), on a free port, seeded with every fixture; mined on each transaction (and
 * when idle for a minute). Beside it a second seeding is saved (devnet/seededState.ts): every other devnet
 * of the run (each `npm start`, cluster, bench and indexer test has one of its own) loads it instead of
 * seeding again, through DEVNET_SEEDED_STATE in the environment the workers and their child processes
 * inherit (the test of a first start, test/e2e/start.test.ts, clears it). The shared devnet itself is
 * seeded, not loaded: a loaded node holds the states of the last seeded blocks only.
 */
export async function setup(project: TestProject): Promise<void> {
  runGlobals.svcTestDevnet ??= startSharedDevnet();
  const shared = await runGlobals.svcTestDevnet;
  shared.holders += 1;
  project.provide("manifestPath", shared.manifestPath);
  project.provide("seededStatePath", shared.seededStatePath);
}

export async function teardown(): Promise<void> {
  // A setup that failed has no devnet to stop (its error failed the run already).
  const shared = await runGlobals.svcTestDevnet?.catch(() => undefined);
  if (!shared || --shared.holders > 0) return;
  runGlobals.svcTestDevnet = undefined;
  clearInterval(shared.clockKeeper);
  await shared.anvil.stop();
  rmSync(shared.dir, { recursive: true, force: true });
}

async function startSharedDevnet(): Promise<SharedDevnet> {
  const anvil = await startAnvil();
  const dir = mkdtempSync(join(tmpdir(), "svc-test-"));
  const manifestPath = join(dir, "manifest.json");
  const seededStatePath = join(dir, "seeded");
  const [manifest] = await Promise.all([seedDevnet(anvil.rpcUrl), seedSavedState(seededStatePath)]);
  writeManifest(manifest, manifestPath);
  process.env.DEVNET_SEEDED_STATE = seededStatePath;
  return { anvil, dir, manifestPath, seededStatePath, clockKeeper: keepChainTime(anvil.rpcUrl), holders: 0 };
}
