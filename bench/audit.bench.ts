/**
 * Audit of the devnet Diamond, end to end at a pinned block: HTTP round trips to the RPC and latency
 * percentiles. Baseline, in the same run on the same node: the same analysis with one HTTP request per
 * JSON-RPC call, sequentially (what an implementation without batching pays). whatsabi's `autoload`
 * with `followProxies` is run too, to say whether it resolves the Diamond at all.
 * Plain script: `npm run bench:audit`: its own devnet, or with BENCH_DEVNET_MANIFEST the running devnet
 * of that manifest (the smoke test passes the test run's). BENCH_WARMUP (20) untimed and BENCH_ROUNDS
 * (200) timed audits of each kind; tiny (the smoke test): BENCH_WARMUP=0 BENCH_ROUNDS=1.
 * Last line: one JSON object of the figures, `auditFigures` in bench/benchFigures.ts.
 */

import { autoload } from "@shazow/whatsabi";
import { createPublicClient, http } from "viem";
import { auditContract } from "../api/capability/auditContract";
import { devnetChain } from "../devnet/client";
import { openBenchDevnet } from "./benchDevnet";
import { auditFigures, printFigures } from "./benchFigures";

const warmup = Number(process.env.BENCH_WARMUP ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 200);

// Counts HTTP requests to the node: one fetch is one round trip (a JSON-RPC batch included). In
// unbatched mode a batch is sent as one request per call, one after the other.
let requests = 0;
let unbatched = false;
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
  if (!unbatched || !Array.isArray(body)) {
    requests += 1;
    return realFetch(input, init);
  }
  const answers: unknown[] = [];
  for (const call of body) {
    requests += 1;
    answers.push(await (await realFetch(input, { ...init, body: JSON.stringify(call) })).json());
  }
  return new Response(JSON.stringify(answers), { headers: { "content-type": "application/json" } });
};

const devnet = await openBenchDevnet("audit");
try {
  const { manifest } = devnet;
  const diamond = manifest.contracts.diamond;
  if (!diamond) throw new Error("no diamond in the manifest");
  const { timeoutMs } = devnet;
  const deps = { providers: [{ name: "devnet", url: manifest.rpcUrl, trusted: true, timeoutMs }], chainId: 8453 };
  const client = createPublicClient({ chain: devnetChain(manifest.rpcUrl), transport: http(manifest.rpcUrl) });

  const audit = async () => {
    const result = await auditContract(deps, diamond);
    if (!result.ok || result.value.resolution.proxyType !== "EIP2535_DIAMOND") throw new Error("audit failed");
  };
  const ours = await measure(audit);
  unbatched = true;
  const baseline = await measure(audit);
  unbatched = false;
  const whatsabi = await autoload(diamond, { provider: client, followProxies: true, abiLoader: false, signatureLookup: false });

  const row = (name: string, m: Measurement) =>
    console.log(`${name.padEnd(10)} p50 ${m.p50.toFixed(2)} ms  p95 ${m.p95.toFixed(2)} ms  round trips ${m.roundTrips}`);
  row("batched", ours);
  row("unbatched", baseline);
  console.log(`whatsabi autoload(followProxies): proxies found ${whatsabi.proxies.length}, selectors ${whatsabi.abi.length}`);
  printFigures(auditFigures, {
    rpcRoundTrips: ours.roundTrips,
    p50Ms: Number(ours.p50.toFixed(2)),
    p95Ms: Number(ours.p95.toFixed(2)),
    baselineRoundTrips: baseline.roundTrips,
    baselineP50Ms: Number(baseline.p50.toFixed(2)),
    ratio: Number((baseline.p50 / ours.p50).toFixed(2)),
    whatsabiResolvedDiamond: whatsabi.proxies.length > 0,
  });
} finally {
  await devnet.stop();
}

type Measurement = { p50: number; p95: number; roundTrips: number };

async function measure(run: () => Promise<void>): Promise<Measurement> {
  for (let i = 0; i < warmup; i++) await run();
  const before = requests;
  await run();
  const roundTrips = requests - before;
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), roundTrips };
}
