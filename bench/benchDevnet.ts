import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Manifest, readManifest } from "../devnet/manifest";
import { seededStateFromEnv } from "../devnet/seededState";
import { startDevnet } from "../devnet/startDevnet";
import { devnetReadTimeoutMs } from "../test/support/startService";

/**
 * The devnet a benchmark reads: the running one of BENCH_DEVNET_MANIFEST (the smoke test passes the test
 * run's), or its own, seeded and mined on each transaction. `timeoutMs`: on the shared devnet it waits as
 * the tests do; on its own, the provider's default.
 */
export async function openBenchDevnet(name: string): Promise<{ manifest: Manifest; timeoutMs?: number; stop(): Promise<void> }> {
  const devnetManifest = process.env.BENCH_DEVNET_MANIFEST || undefined;
  if (devnetManifest) return { manifest: readManifest(devnetManifest), timeoutMs: devnetReadTimeoutMs, stop: async () => {} };
  return startDevnet({
    port: 0,
    blockTime: 0,
    traffic: false,
    seededState: seededStateFromEnv(),
    manifestPath: join(mkdtempSync(join(tmpdir(), `bench-${name}-`)), "manifest.json"),
  });
}
