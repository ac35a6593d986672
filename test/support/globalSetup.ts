import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** One devnet for the whole run, on a free port, seeded with every fixture; mined on each transaction. */
export async function setup(project: TestProject): Promise<void> {
  anvil = await startAnvil();
  dir = mkdtempSync(join(tmpdir(), "svc-test-"));
  const manifestPath = join(dir, "manifest.json");
  writeManifest(await seedDevnet(anvil.rpcUrl), manifestPath);
  project.provide("manifestPath", manifestPath);
}

export async function teardown(): Promise<void> {
  await anvil?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
