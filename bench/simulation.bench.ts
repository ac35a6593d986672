/**
 * Trade simulation over the devnet's fixture tokens, end to end at a pinned block: latency percentiles,
 * RPC round trips after the pin, and how many fixtures' figures equal their parameters. The audit of the
 * devnet Diamond is timed in the same run, interleaved, as the yardstick (the issue's bar: p50 within 2x).
 * Plain script: `npm run bench:simulation`: its own devnet, or with BENCH_DEVNET_MANIFEST the running
 * devnet of that manifest (the smoke test passes the test run's). BENCH_WARMUP (10) untimed and
 * BENCH_ROUNDS (100) timed rounds, each one simulation of the next fixture and one audit; tiny (the
 * smoke test): BENCH_WARMUP=0 BENCH_ROUNDS=1.
 * Last line: one JSON object of the figures, `simulationFigures` in bench/benchFigures.ts.
 */

import { auditContract } from "../api/capability/auditContract";
import { simulateTrade } from "../api/market/simulateTrade";
import { figuresEqualParameters, simulationParameters } from "../test/support/simulation";
import { openBenchDevnet } from "./benchDevnet";
import { printFigures, simulationFigures } from "./benchFigures";
import { median } from "./median";

const warmup = Number(process.env.BENCH_WARMUP ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 100);

const devnet = await openBenchDevnet("simulation");
try {
  const { manifest } = devnet;
  const diamond = manifest.contracts.diamond;
  if (!diamond) throw new Error("no diamond in the manifest");
  const { timeoutMs } = devnet;
  const providers = [{ name: "devnet", url: manifest.rpcUrl, trusted: true, timeoutMs }];
  const deps = simulationParameters(manifest, providers);
  const fixtures = manifest.simulationTokens;

  // Every fixture once, for its figures and round trips.
  let exact = 0;
  let rpcRoundTrips = 0;
  for (const f of fixtures) {
    const result = await simulateTrade(deps, { address: f.address });
    if (!result.ok) throw new Error(`${f.name}: ${result.code} ${result.message}`);
    if (figuresEqualParameters(f, result.value)) exact += 1;
    else console.log(`${f.name}: figures differ from its parameters`);
    rpcRoundTrips = Math.max(rpcRoundTrips, result.value.rpcObservation.roundTrips);
  }

  const simulationMs: number[] = [];
  const auditMs: number[] = [];
  const timed = async (into: number[] | undefined, run: () => Promise<{ ok: boolean }>) => {
    const started = performance.now();
    if (!(await run()).ok) throw new Error("a benchmarked call failed");
    into?.push(performance.now() - started);
  };
  for (let i = 0; i < warmup + rounds; i++) {
    const f = fixtures[i % fixtures.length];
    if (!f) throw new Error("no simulation fixtures in the manifest");
    const keep = i >= warmup;
    await timed(keep ? simulationMs : undefined, () => simulateTrade(deps, { address: f.address }));
    await timed(keep ? auditMs : undefined, () => auditContract({ providers, chainId: manifest.chainId }, diamond));
  }
  const p = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  };
  const p50 = median(simulationMs);
  const auditP50 = median(auditMs);
  console.log(
    `simulation p50 ${p50.toFixed(2)} ms  p95 ${p(simulationMs, 0.95).toFixed(2)} ms  round trips after the pin ${rpcRoundTrips}`,
  );
  console.log(`audit      p50 ${auditP50.toFixed(2)} ms (the same run, interleaved)`);
  printFigures(simulationFigures, {
    p50Ms: Number(p50.toFixed(2)),
    p95Ms: Number(p(simulationMs, 0.95).toFixed(2)),
    rpcRoundTrips,
    fixtures: fixtures.length,
    exact,
    auditP50Ms: Number(auditP50.toFixed(2)),
    ratioToAudit: Number((p50 / auditP50).toFixed(2)),
  });
} finally {
  await devnet.stop();
}
