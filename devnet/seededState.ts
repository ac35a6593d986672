import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { startAnvil } from "./anvil";
import { type Manifest, readManifest, writeManifest } from "./manifest";
import { seedDevnet } from "./seed";

/** A seeded devnet saved to a folder: anvil's state file (for `--load-state`) and the manifest of the seeding. */
export type SeededState = { statePath: string; manifest: Manifest };

const stateFile = "state.json";
const manifestFile = "manifest.json";
/** The states anvil keeps of the last blocks (the indexer plans its pools at the block before the seeded one). */
const recentStates = 3;

/**
 * Seeds a devnet of its own and saves it to `directory`, as anvil writes it when it stops: every block,
 * transaction and log, the accounts, and the states of the last blocks. A devnet started from it
 * (startDevnet's `seededState`) holds the chain the seeding made, in under a second instead of its 10-40 s.
 */
export async function seedSavedState(directory: string): Promise<SeededState> {
  mkdirSync(directory, { recursive: true });
  const statePath = join(directory, stateFile);
  const anvil = await startAnvil({ dumpStateOnExit: { path: statePath, recentStates } });
  let manifest: Manifest;
  try {
    manifest = await seedDevnet(anvil.rpcUrl);
  } finally {
    await anvil.stop();
  }
  if (!endsWholeJson(statePath)) throw new Error(`anvil wrote no whole state to ${statePath} as it stopped (killed while writing?)`);
  writeManifest(manifest, join(directory, manifestFile));
  return { statePath, manifest };
}

/** The saved seeding DEVNET_SEEDED_STATE names, for the benches' own devnets (the tests' setup sets it). */
export const seededStateFromEnv = (): string | undefined => process.env.DEVNET_SEEDED_STATE || undefined;

/** What `seedSavedState` saved to `directory`. */
export function readSeededState(directory: string): SeededState {
  return { statePath: join(directory, stateFile), manifest: readManifest(join(directory, manifestFile)) };
}

/** Whether the file is there and ends as a JSON object does: a node killed while writing leaves it cut short. */
function endsWholeJson(path: string): boolean {
  const size = existsSync(path) ? statSync(path).size : 0;
  if (size === 0) return false;
  const last = Buffer.alloc(16);
  const fd = openSync(path, "r");
  try {
    const read = readSync(fd, last, 0, last.length, Math.max(0, size - last.length));
    return last.subarray(0, read).toString().trimEnd().endsWith("}");
  } finally {
    closeSync(fd);
  }
}
