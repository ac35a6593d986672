import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestClient, http, publicActions } from "viem";
import type { TestProject } from "vitest/node";
import { type Anvil, startAnvil } from "../../devnet/anvil";
import { writeManifest } from "../../devnet/manifest";
import { seedDevnet } from "../../devnet/seed";

declare module "vitest" {
  export interface ProvidedContext {
    manifestPath: string;
  }
}

let anvil: Anvil | undefined;
let dir: string | undefined;
let clockKeeper: NodeJS.Timeout | undefined;

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

/** One devnet for the whole run, on a free port, seeded with every fixture; mined on each transaction (and when idle for a minute). */
export async function setup(project: TestProject): Promise<void> {
  anvil = await startAnvil();
  dir = mkdtempSync(join(tmpdir(), "svc-test-"));
  const manifestPath = join(dir, "manifest.json");
  writeManifest(await seedDevnet(anvil.rpcUrl), manifestPath);
  clockKeeper = keepChainTime(anvil.rpcUrl);
  project.provide("manifestPath", manifestPath);
}

export async function teardown(): Promise<void> {
  clearInterval(clockKeeper);
  await anvil?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
