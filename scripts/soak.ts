/**
 * `npm run soak`: the scale-out mode (`npm run start:cluster`: an indexer and two API replicas on one
 * Postgres, Redis for shared limits) under a steady load for SOAK_SECONDS (600), with faults injected
 * one after another, each for real (scripts/soak/soakFaults.ts), and a chain reorganisation that drops
 * a young subscription payment. Loopback only. Needs DATABASE_URL (a Postgres server: the soak runs on a
 * throwaway database of it) and Debian's `redis-server` (the soak runs its own, to stop it).
 * Asserts what must hold (no unintended 5xx; keys issued = keys paid; credits served = charged; x402
 * settlements = paid answers; the reorged payment never redeemed; every fault recovered) and prints, as
 * its last line, one JSON object of the figures. Exits 1 when an assertion fails.
 */

import pg from "pg";
import { createPublicClient, erc20Abi, type Hex, http, parseAbiItem } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { StatusReport } from "../api/health/StatusReport";
import { buyKey } from "../bench/buyKey";
import { pidListeningOn } from "../bench/processCpu";
import { type ProcessSizes, parentPid, residentSetSizes } from "../bench/residentSetSizes";
import { freePort } from "../devnet/anvil";
import { createDevnetClient } from "../devnet/client";
import { type Manifest, readManifest } from "../devnet/manifest";
import { createThrowawayDatabase } from "../test/support/postgres";
import { type RpcProxy, startRpcProxy } from "../test/support/rpcProxy";
import { startCluster, waitForJson } from "../test/support/startService";
import { startRedisServer } from "./soak/redisServer";
import { type Fault, soakFaults } from "./soak/soakFaults";
import { runSoakLoad, unintended5xx } from "./soak/soakLoad";

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const baseDatabaseUrl = process.env.DATABASE_URL;
if (!baseDatabaseUrl) {
  console.error("[soak] set DATABASE_URL to a Postgres server (the soak creates and drops a database of its own)");
  process.exit(1);
}
/** Devnet users (manifest.accounts.users): the load's PRO key, the key buyers, the x402 payer, the reorged payer. */
const users = { pro: 0, buyers: [1, 2, 3, 4, 5], x402Payer: 6, reorged: 7 } as const;
/** A fault is held this long before it is lifted (at most a third of its slot). */
const holdSeconds = Math.max(3, Math.min(15, Math.floor((seconds * 0.8) / 7 / 3)));
/** How long after a fault the cluster has to be whole again. */
const recoveryBoundSeconds = 120;

/** What the soak started, stopped in reverse order on every exit (each step even when another fails). */
const started: Array<() => Promise<unknown>> = [];
const stopAll = async () => {
  await Promise.allSettled(
    started
      .splice(0)
      .reverse()
      .map((stop) => stop()),
  );
};
// Ctrl-C (or a CI timeout) stops every process the soak started, not only the soak.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stopAll().finally(() => process.exit(1)));
let failed = false;
try {
  const database = await createThrowawayDatabase(baseDatabaseUrl);
  started.push(database.drop);
  const redis = await startRedisServer(await freePort());
  started.push(redis.stop);
  const anvilPort = await freePort();
  const anvilUrl = `http://127.0.0.1:${anvilPort}`;
  const providers = await Promise.all([0, 1, 2].map(async () => restartableProxy(anvilUrl)));
  for (const provider of providers) started.push(() => provider.proxy().stop());
  const cluster = await startCluster(database.url, 2, {
    DEVNET_PORT: String(anvilPort),
    DEVNET_PROVIDER_URLS: providers.map((p) => p.proxy().url).join(","),
    REDIS_URL: redis.url,
    // The load's PRO key is limited (every call is counted) but never to 429: this soak is about faults.
    TIER_RATE_LIMITS: "PRO=6000000",
    // Every keyless request of the soak (status probes, malformed calls) comes from 127.0.0.1.
    PUBLIC_REQUESTS_PER_MINUTE: "1000000",
  });
  started.push(cluster.stop);
  const [indexerUrl, ...replicaUrls] = [cluster.baseUrl, ...cluster.replicaUrls];
  for (const url of [indexerUrl, ...replicaUrls]) await waitForJson(`${url}/ready`, (status) => status === 200, 300_000, cluster);
  const manifest = readManifest(cluster.manifestPath);
  const chain = createPublicClient({ transport: http(manifest.rpcUrl) });
  const ports = {
    indexer: Number(new URL(cluster.baseUrl).port),
    replica1: Number(new URL(replicaUrls[0] ?? "").port),
    replica2: Number(new URL(replicaUrls[1] ?? "").port),
    anvil: anvilPort,
    redis: Number(new URL(redis.url).port),
  };
  /** Each process's pid; a process not listening at that moment (restarting) is left out. */
  const listeningPids = (): Record<string, number> => {
    const pids = Object.fromEntries(
      Object.entries(ports).flatMap(([name, port]) => {
        const pid = pidListeningOn(port);
        return pid ? [[name, pid]] : [];
      }),
    );
    return { ...pids, ...(pids.indexer ? { launcher: parentPid(pids.indexer) } : {}) };
  };

  const payments: Hex[] = [];
  const apiKey = await buyKey(replicaUrls[0] ?? "", manifest, "PRO", users.pro, 180_000, (hash) => payments.push(hash));
  const fromBlock = await chain.getBlockNumber();
  const rssStartMb = residentSetSizes(listeningPids());

  let maxIndexLagBlocks = 0;
  let probeCreditsServed = 0;
  const lagSampler = setInterval(async () => {
    // A refusal (429, 503) carries no index: that sample is skipped.
    const status = await readStatus(replicaUrls[0] ?? "");
    const head = await chain.getBlockNumber().catch(() => undefined);
    const indexed = status?.index?.headBlock;
    if (typeof indexed === "number" && head !== undefined) maxIndexLagBlocks = Math.max(maxIndexLagBlocks, Number(head) - indexed);
  }, 2000);

  /**
   * Whole: the indexer is serving, every replica reports OPERATIONAL (stores up, providers agree) with
   * the index at most 3 blocks behind the chain, and answers a keyed price.
   */
  const whole = async () => {
    if (
      !(await fetch(`${indexerUrl}/ready`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return false;
    for (const url of replicaUrls) {
      const status = await readStatus(url);
      if (status?.status !== "OPERATIONAL" || (status.index?.lagBlocks ?? Number.POSITIVE_INFINITY) > 3) return false;
      const price = await fetch(`${url}/v1/token/price/WETH`, { headers: { "x-api-key": apiKey } }).catch(() => undefined);
      if (price?.ok) probeCreditsServed++;
      if (!price?.ok) return false;
    }
    return true;
  };

  const stopLoad = new AbortController();
  const x402Gate = { paused: false, inFlight: 0 };
  const loadStarted = Date.now();
  const load = runSoakLoad({
    urls: replicaUrls,
    manifest,
    apiKey,
    buyers: [...users.buyers],
    x402Payer: users.x402Payer,
    workers: 6,
    purchaseEverySeconds: Math.max(10, Math.floor(seconds / 20)),
    x402Gate,
    signal: stopLoad.signal,
  });

  const faults = soakFaults({
    providers,
    databaseUrl: database.url,
    redis,
    async killProcess(which) {
      const pid = pidListeningOn(which === "indexer" ? ports.indexer : ports.replica1);
      if (!pid) throw new Error(`no ${which} process is listening: the fault cannot be injected`);
      process.kill(pid, which === "indexer" ? "SIGKILL" : "SIGINT");
    },
  });
  // A tenth of the run warms up; the faults and the reorg share the next 85% in equal slots, each
  // starting on time or as soon as the previous one has recovered.
  const slotMs = (seconds * 1000 * 0.85) / (faults.length + 1);
  const firstSlotAt = Date.now() + seconds * 1000 * 0.1;
  const endAt = Date.now() + seconds * 1000;
  const recoveredAfterEachFault: Record<string, number | false> = {};
  const faultsAt: Record<string, number> = {};
  await sleep(firstSlotAt - Date.now());
  // Warm: caches filled, code compiled, heaps grown to their working size. Growth is counted from here.
  const warmPids = listeningPids();
  const rssWarmMb = residentSetSizes(warmPids);
  for (const [i, fault] of faults.entries()) {
    await sleep(firstSlotAt + i * slotMs - Date.now());
    faultsAt[fault.name] = Math.round((Date.now() - loadStarted) / 1000);
    recoveredAfterEachFault[fault.name] = await runFault(fault, whole);
  }
  await sleep(firstSlotAt + faults.length * slotMs - Date.now());
  // x402 answers on a settlement's first block (by design, for latency): the reorg must not drop one
  // already answered, so new paid calls wait and those in flight finish before it.
  x402Gate.paused = true;
  while (x402Gate.inFlight > 0) await sleep(250);
  const reorg = await reorgYoungPayment(replicaUrls, manifest);
  x402Gate.paused = false;
  await sleep(endAt - Date.now());
  stopLoad.abort();
  const tally = await load;
  clearInterval(lagSampler);

  // Leases not drawn from for 2 s go back to the store: then the key's `used` is exactly what was charged.
  await sleep(5000);
  const self = (await (await fetch(`${replicaUrls[1]}/v1/keys/self`, { headers: { "x-api-key": apiKey } })).json()) as {
    credits: { used: number };
  };
  // Keys paid: purchase payments still on the chain. Keys issued: the app store's own records.
  const onChain = await Promise.all(
    [...payments, ...tally.purchasePayments].map((hash) =>
      chain.getTransactionReceipt({ hash }).then(
        () => hash.toLowerCase(),
        () => null,
      ),
    ),
  );
  const paidKeys = onChain.filter((hash): hash is string => hash !== null).sort();
  const issued = await readIssuedKeys(database.url);
  const payer = privateKeyToAccount(manifest.accounts.users[users.x402Payer]?.privateKey as Hex).address;
  const settlements = await chain.getLogs({
    address: manifest.tokens.USDC?.address as Hex,
    event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
    args: { from: payer },
    fromBlock,
  });
  const endPids = listeningPids();
  const rssEndMb = residentSetSizes(endPids);
  const steady = tally.answers.filter((a) => a.kind !== "keyPurchase");
  const result = {
    seconds,
    requests: tally.answers.length,
    unintended5xx: tally.answers.filter(unintended5xx).length,
    intended503: countBy(tally.answers.filter((a) => a.status === 503).map((a) => a.error ?? "?")),
    statuses: countBy(tally.answers.map((a) => `${a.kind}:${a.status}`)),
    unanswered: countBy(tally.unanswered),
    failedPurchases: tally.failedPurchases,
    keysIssuedVsPaid: { issued: issued.keys, paid: paidKeys.length, redeemedPaymentsMatch: sameList(issued.redeemed, paidKeys) },
    creditsServedVsCharged: { served: tally.creditsServed + probeCreditsServed, charged: self.credits.used },
    x402SettledVsServed: { settled: settlements.length, served: tally.x402Receipts.length },
    x402SettledMatchesServed: sameList(
      settlements.map((l) => l.transactionHash.toLowerCase()),
      tally.x402Receipts,
    ),
    x402Unfinished: tally.x402Unfinished,
    reorgedPaymentRedeemed: reorg.redeemed,
    reorgDroppedPayment: reorg.dropped,
    reorgDepthBlocks: reorg.depth,
    maxIndexLagBlocks,
    rssStartMb,
    rssWarmMb,
    rssEndMb,
    rssGrowthPctSinceWarm: growthSinceWarm(warmPids, rssWarmMb, endPids, rssEndMb),
    p99Ms: percentile99(steady.map((a) => a.ms)),
    p99MsByKind: Object.fromEntries(
      [...new Set(steady.map((a) => a.kind))].map((kind) => [kind, percentile99(steady.filter((a) => a.kind === kind).map((a) => a.ms))]),
    ),
    recoveredAfterEachFault,
    faultsAt,
  };
  const problems = [
    result.unintended5xx > 0 && "unintended 5xx answers",
    (result.keysIssuedVsPaid.issued !== result.keysIssuedVsPaid.paid || !result.keysIssuedVsPaid.redeemedPaymentsMatch) &&
      "keys issued differ from keys paid",
    result.creditsServedVsCharged.served !== result.creditsServedVsCharged.charged && "credits served differ from credits charged",
    (result.x402SettledVsServed.settled !== result.x402SettledVsServed.served || !result.x402SettledMatchesServed) &&
      "x402 settlements differ from paid answers",
    // A connection reset as a replica stops is reported (an idle keep-alive connection closing under a new
    // request); a request that hung until its timeout is a failure.
    Object.keys(result.unanswered).some((why) => /timeout|aborted/i.test(why)) && "requests that hung unanswered",
    result.reorgedPaymentRedeemed && "a reorged payment was redeemed",
    !result.reorgDroppedPayment && "the reorg did not drop the payment (it is on the chain at the end)",
    Object.values(recoveredAfterEachFault).includes(false) && "a fault was not recovered from",
  ].filter(Boolean);
  for (const problem of problems) console.error(`[soak] FAILED: ${problem}`);
  // What the processes logged of each unexpected error (the service answers a 500 with no detail).
  if (result.unintended5xx > 0)
    for (const logged of unhandledErrors(cluster.output())) console.error(`[soak] the cluster logged: ${logged}`);
  failed = problems.length > 0;
  console.log(JSON.stringify(result));
} catch (error) {
  console.error("[soak] failed:", error);
  failed = true;
} finally {
  await stopAll();
}
process.exit(failed ? 1 : 0);

/** Injects `fault`, holds it, lifts it, and answers the seconds until the cluster is whole (false: not within the bound). */
async function runFault(fault: Fault, whole: () => Promise<boolean>): Promise<number | false> {
  console.log(`[soak] fault: ${fault.name}`);
  await fault.inject();
  await sleep(holdSeconds * 1000);
  await fault.lift?.();
  const lifted = Date.now();
  while (Date.now() - lifted < recoveryBoundSeconds * 1000) {
    if (await whole()) return Math.round((Date.now() - lifted) / 100) / 10;
    await sleep(500);
  }
  return false;
}

/**
 * A subscription payment that a reorganisation drops before its third confirmation: the intent, the
 * USDC transfer mined, then `anvil_reorg` replacing every block from the payment's on (without it);
 * claims are tried for 10 s after, on every replica. Answers whether any claim issued a key, and whether
 * the payment is still off the chain at the end (the reorg dropped it and nothing mined it again).
 */
async function reorgYoungPayment(urls: string[], manifest: Manifest): Promise<{ redeemed: boolean; dropped: boolean; depth: number }> {
  console.log("[soak] fault: reorgDropsYoungPayment");
  const user = manifest.accounts.users[users.reorged];
  if (!user) throw new Error("no devnet user for the reorged payment");
  const post = (url: string, path: string, body: unknown) =>
    fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const offer = (await (await post(urls[0] ?? "", "/v1/subscribe/intents", { tier: "STARTER", userWallet: user.address })).json()) as {
    intent: { intentId: string; payTo: Hex; usdc: { amount: string }; messageToSign: string };
  };
  const client = createDevnetClient(manifest.rpcUrl, user.privateKey as Hex);
  const txHash = await client.writeContract({
    address: manifest.tokens.USDC?.address as Hex,
    abi: erc20Abi,
    functionName: "transfer",
    args: [offer.intent.payTo, BigInt(offer.intent.usdc.amount)],
  });
  const receipt = await client.waitForTransactionReceipt({ hash: txHash });
  const depth = Number((await client.getBlockNumber()) - receipt.blockNumber) + 1;
  await client.request({ method: "anvil_reorg" as never, params: [depth, []] as never });
  const signature = await privateKeyToAccount(user.privateKey as Hex).signMessage({ message: offer.intent.messageToSign });
  let redeemed = false;
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    for (const url of urls) {
      const claim = await post(url, "/v1/subscribe/crypto", { intentId: offer.intent.intentId, signature, txHash }).catch(() => undefined);
      if (claim?.status === 200) redeemed = true;
    }
    await sleep(1000);
  }
  const dropped = await client.getTransactionReceipt({ hash: txHash }).then(
    () => false,
    () => true,
  );
  return { redeemed, dropped, depth };
}

/** A provider proxy that can be killed and brought back on the same port. */
async function restartableProxy(target: string): Promise<{ proxy: () => RpcProxy; restart(): Promise<void> }> {
  let proxy = await startRpcProxy(target);
  const port = Number(new URL(proxy.url).port);
  return {
    proxy: () => proxy,
    async restart() {
      proxy = await startRpcProxy(target, "pass", port);
    },
  };
}

/** A replica's status report, or undefined when it does not answer one (down, or a refusal). */
function readStatus(url: string): Promise<Partial<StatusReport> | undefined> {
  return fetch(`${url}/v1/status`)
    .then((r) => r.json() as Promise<Partial<StatusReport>>)
    .catch(() => undefined);
}

/** The app store's keys and the payments it redeemed for them (its own records, on the soak's database). */
async function readIssuedKeys(databaseUrl: string): Promise<{ keys: number; redeemed: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const keys = await client.query<{ count: string }>("SELECT count(*) FROM app.api_key");
    const redeemed = await client.query<{ tx_hash: string }>("SELECT tx_hash FROM app.redemption");
    return { keys: Number(keys.rows[0]?.count ?? 0), redeemed: redeemed.rows.map((r) => r.tx_hash.toLowerCase()).sort() };
  } finally {
    await client.end();
  }
}

/** Each "unhandled error" the cluster's processes logged, with the lines of its stack that follow. */
function unhandledErrors(output: string): string[] {
  const lines = output.split("\n");
  return lines.flatMap((line, i) => (line.includes("unhandled error") ? [lines.slice(i, i + 12).join("\n")] : []));
}

/** Whether two lists hold the same items the same number of times. */
function sameList(a: string[], b: string[]): boolean {
  return JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
}

function percentile99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0);
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, Math.max(0, ms)));
}

/**
 * Each process's RSS growth from the warm sample to the end, in percent; "restarted" for one whose pid
 * changed in between (a fault killed it: its two samples are of two processes), "absent" for one not
 * listening at the end.
 */
function growthSinceWarm(
  warmPids: Record<string, number>,
  warm: ProcessSizes,
  endPids: Record<string, number>,
  end: ProcessSizes,
): Record<string, number | "restarted" | "absent"> {
  return Object.fromEntries(
    Object.keys(warmPids).map((name) => {
      const [before, after] = [warm[name], end[name]];
      if (endPids[name] === undefined || after === undefined) return [name, "absent"];
      if (endPids[name] !== warmPids[name] || before === undefined) return [name, "restarted"];
      return [name, Math.round(((after - before) / before) * 1000) / 10];
    }),
  );
}
