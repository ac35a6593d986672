import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { leaseIdleMs } from "../../api/access/createCreditLeases";
import { generateId } from "../../api/keys/apiKeyFormat";
import { keyCacheMaxStalenessMs } from "../../api/keys/createKeyCache";
import { createKeyHasher } from "../../api/keys/createKeyHasher";
import { mintKeySecret } from "../../api/keys/mintKeySecret";
import type { Tier } from "../../api/keys/planCatalogue";
import { spendCredits } from "../../api/store/creditQueries";
import { insertKey } from "../../api/store/keyQueries";
import { type ApiReplica, startApiReplica } from "../support/apiReplica";
import { testManifest } from "../support/devnet";
import { testPepper } from "../support/keyClaims";
import { accessApp, type Backend, backendNames, openBackend } from "./support";

/** No wallet signs here: keys are stored as a purchase would store them. */
const manifest = testManifest();
const auditPath = `/v1/audit/${manifest.contracts.plainToken}`;
const allowance = { STARTER: 10_000, PRO: 500_000 } as const;

/** Something that answers a request: an app in this process, or a replica process over HTTP. */
type Replica = (path: string, init?: RequestInit) => Promise<Response>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A key of `tier` with `left` credits left in its cycle; its raw secret and id. */
async function newKey(backend: Backend, tier: keyof typeof allowance, left: number) {
  const secret = mintKeySecret(createKeyHasher(testPepper), "test");
  const now = new Date();
  const key = await insertKey(backend.store.db, {
    id: generateId("key"),
    secretHash: secret.hash,
    tier: tier as Tier,
    wallet: `0x${"5".repeat(40)}`,
    issuedAt: now,
    expiresAt: new Date(now.getTime() + 31 * 86_400_000),
    cycleAnchor: now,
  });
  if (!key) throw new Error("key not inserted");
  const spent = allowance[tier] - left;
  if (spent > 0) {
    await spendCredits(backend.store.db, {
      keyId: key.id,
      cost: spent,
      cycle: 0,
      day: Math.floor(now.getTime() / 86_400_000),
      allowance: allowance[tier],
      dailyCap: null,
    });
  }
  return { raw: secret.raw, id: key.id, headers: { "x-api-key": secret.raw } };
}

/** What the store counts as used by `keyId` this cycle: every call served plus what replicas hold in leases. */
async function storeUsed(backend: Backend, keyId: string): Promise<number> {
  const [row] = (await backend.sql("SELECT used FROM app.credit_usage WHERE key_id = $1", [keyId])) as { used: number }[];
  return row?.used ?? 0;
}

/**
 * Replica `b` answers keys/self for `headers` in 8 loops while replica `a` revokes the key: every call
 * started more than the cache bound after the revocation answered is 401 API_KEY_REVOKED.
 */
async function revocationIsSeenWithinTheBound(a: Replica, b: Replica, headers: Record<string, string>, label: string) {
  for (const replica of [a, b]) expect((await replica("/v1/keys/self", { headers })).status).toBe(200);
  const calls: { start: number; status: number; error?: string }[] = [];
  let running = true;
  const load = Promise.all(
    Array.from({ length: 8 }, async () => {
      while (running) {
        const start = performance.now();
        const res = await b("/v1/keys/self", { headers });
        const body = (await res.json()) as { error?: string };
        calls.push({ start, status: res.status, error: body.error });
        // An in-process app can answer without leaving the microtask queue: let timers run.
        await new Promise((r) => setImmediate(r));
      }
    }),
  );
  let revokedAt = Number.POSITIVE_INFINITY;
  try {
    await sleep(300);
    const revoke = await a("/v1/keys/revoke", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ confirm: true }),
    });
    expect(revoke.status).toBe(200);
    revokedAt = performance.now();
    // The replica that revoked refuses the key at once.
    expect(await (await a("/v1/keys/self", { headers })).json()).toMatchObject({ error: "API_KEY_REVOKED" });
    await sleep(keyCacheMaxStalenessMs + 500);
  } finally {
    running = false;
    await load;
  }
  const late = calls.filter((c) => c.start > revokedAt + keyCacheMaxStalenessMs);
  expect(late.length).toBeGreaterThan(0);
  for (const c of late) expect(c).toMatchObject({ status: 401, error: "API_KEY_REVOKED" });
  expect(calls.some((c) => c.status === 200 && c.start < revokedAt)).toBe(true);
  const stale = calls.filter((c) => c.status === 200 && c.start > revokedAt);
  console.info(
    `[replicas ${label}] revocation: ${stale.length} calls served by the other replica after it, the last starting ${Math.round(
      Math.max(0, ...stale.map((c) => c.start - revokedAt)),
    )} ms after (bound ${keyCacheMaxStalenessMs} ms); ${late.length} calls after the bound, all 401`,
  );
}

/** `calls` audit calls per replica, 25 in flight on each: the statuses and X-Credits-Remaining seen. */
async function auditLoad(replicas: Replica[], headers: Record<string, string>, calls: number) {
  const answers: { status: number; remaining: number; error?: string }[] = [];
  await Promise.all(
    replicas.flatMap((replica) => {
      let next = 0;
      return Array.from({ length: 25 }, async () => {
        while (next < calls) {
          next += 1;
          const res = await replica(auditPath, { headers });
          const body = (await res.json()) as { error?: string };
          answers.push({ status: res.status, remaining: Number(res.headers.get("x-credits-remaining")), error: body.error });
        }
      });
    }),
  );
  return answers;
}

/**
 * N credits left, 2N calls on each of two replicas at once: exactly N served, the rest 402, the store at
 * the allowance. On an overloaded machine an audit's chain reads can time out: such a call is 503
 * DATA_SOURCE_UNAVAILABLE and charged nothing, so it is counted apart (the N served stay exact).
 */
async function creditsAreExactAcross(backend: Backend, replicas: Replica[], label: string) {
  const n = 400;
  const key = await newKey(backend, "STARTER", n);
  const answers = await auditLoad(replicas, key.headers, 2 * n);
  const served = answers.filter((a) => a.status === 200);
  expect(served).toHaveLength(n);
  const refused = answers.filter((a) => a.status !== 200);
  expect(refused).toHaveLength(3 * n);
  const unavailable = refused.filter((a) => a.status === 503 && a.error === "DATA_SOURCE_UNAVAILABLE");
  for (const a of refused.filter((r) => !unavailable.includes(r))) expect(a).toMatchObject({ status: 402, error: "CREDITS_EXHAUSTED" });
  for (const a of answers) expect(a.remaining).toBeGreaterThanOrEqual(0);
  expect(await storeUsed(backend, key.id)).toBe(allowance.STARTER);
  console.info(
    `[replicas ${label}] ${4 * n} calls for ${n} credits over ${replicas.length} replicas: ${served.length} served, ${unavailable.length} unavailable (503)`,
  );
}

describe.each(backendNames)("replicas in one process on %s", (backendName) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend(backendName);
  });
  afterAll(() => backend.close());

  /** Two apps with their own key cache and leases, each with a store connection of its own (on PGlite, one store). */
  const replicas = () =>
    [0, 1].map((n) => {
      const { app } = accessApp(manifest, { ...backend, store: backend.replica(n) }, { keyCacheMaxStalenessMs });
      return ((path, init) => Promise.resolve(app.request(path, init))) as Replica;
    });

  test("behavior: a key revoked through one replica is refused by the other for every call starting over 1 s later", async () => {
    const [a, b] = replicas() as [Replica, Replica];
    await revocationIsSeenWithinTheBound(a, b, (await newKey(backend, "PRO", allowance.PRO)).headers, backendName);
  });

  test("behavior: two replicas leasing credits under concurrent load serve exactly the N credits left", async () => {
    await creditsAreExactAcross(backend, replicas(), backendName);
  });
});

const databaseUrl = process.env.DATABASE_URL;

// Separate processes share only Postgres (PGlite cannot be shared across processes).
describe.skipIf(!databaseUrl)("API processes on one Postgres", () => {
  let backend: Backend;
  const started: ApiReplica[] = [];
  beforeAll(async () => {
    backend = await openBackend("postgres");
  });
  afterAll(async () => {
    await Promise.all(started.map((r) => r.kill("SIGKILL")));
    await backend.close();
  });

  /** An API process on the backend's database; CREDIT_LEASE_MAX `leaseMax`. */
  async function replica(leaseMax = 1000): Promise<{ process: ApiReplica; call: Replica }> {
    const [row] = (await backend.sql("SELECT current_database() AS name")) as { name: string }[];
    const url = new URL(databaseUrl ?? "");
    url.pathname = `/${row?.name}`;
    const process = await startApiReplica({
      DATABASE_URL: url.toString(),
      DEVNET_MANIFEST: inject("manifestPath"),
      API_KEY_PEPPER: testPepper,
      CREDIT_LEASE_MAX: String(leaseMax),
      TIER_RATE_LIMITS: "STARTER=1000000,PRO=1000000",
      AUTH_FAILURES_PER_MINUTE: "1000000",
      REDIS_URL: "",
    });
    started.push(process);
    return { process, call: (path, init) => fetch(`${process.baseUrl}${path}`, init) };
  }

  test("behavior: a key revoked through one process is refused by the other for every call starting over 1 s later", async () => {
    const [a, b] = [await replica(), await replica()];
    await revocationIsSeenWithinTheBound(a.call, b.call, (await newKey(backend, "PRO", allowance.PRO)).headers, "processes");
  }, 60_000);

  test("behavior: two processes leasing credits under concurrent load serve exactly the N credits left", async () => {
    await creditsAreExactAcross(backend, [(await replica()).call, (await replica()).call], "processes");
  }, 120_000);

  /**
   * `calls` audit calls through `replica` (10 in flight), then single ones until it holds leased credits
   * (a lease can run out exactly at the last call): the calls served, and the last X-Credits-Remaining.
   */
  async function serveUntilHolding(replica: Replica, key: { id: string; headers: Record<string, string> }, calls: number, base: number) {
    let served = 0;
    let lastRemaining = Number.NaN;
    const one = async () => {
      const res = await replica(auditPath, { headers: key.headers });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      served += 1;
      lastRemaining = Number(res.headers.get("x-credits-remaining"));
    };
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let n = 0; n < calls / 10; n++) await one();
      }),
    );
    for (let n = 0; n < 10 && (await storeUsed(backend, key.id)) - base === served; n++) await one();
    return { served, lastRemaining };
  }

  test("behavior: kill -9 of a process holding a lease loses at most that lease, for good; another serves the rest exactly", async () => {
    const leaseMax = 64;
    const left = 500;
    const key = await newKey(backend, "STARTER", left);
    const base = allowance.STARTER - left;
    const a = await replica(leaseMax);
    const { served, lastRemaining } = await serveUntilHolding(a.call, key, 200, base);
    const held = (await storeUsed(backend, key.id)) - base - served;
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(leaseMax);
    // One process serving the key: its X-Credits-Remaining is exact.
    expect(lastRemaining).toBe(left - served);

    await a.process.kill("SIGKILL");
    await sleep(leaseIdleMs + 1000);
    expect(await storeUsed(backend, key.id)).toBe(base + served + held);

    const b = await replica(leaseMax);
    const rest = await auditLoad([b.call], key.headers, 2 * (left - served));
    expect(rest.filter((r) => r.status === 200)).toHaveLength(left - served - held);
    expect(await storeUsed(backend, key.id)).toBe(allowance.STARTER);
    console.info(
      `[replicas processes] kill -9 with ${held} credits leased and unspent: lost for the cycle; ${served} + ${left - served - held} served`,
    );
  }, 120_000);

  test("behavior: a process stopped cleanly (SIGINT) gives its unspent lease back", async () => {
    const key = await newKey(backend, "PRO", allowance.PRO);
    const c = await replica();
    const { served } = await serveUntilHolding(c.call, key, 300, 0);
    expect(await storeUsed(backend, key.id)).toBeGreaterThan(served);
    await c.process.kill("SIGINT");
    expect(await storeUsed(backend, key.id)).toBe(served);
  }, 60_000);
});
