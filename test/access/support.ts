import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { type Address, decodeEventLog, erc20Abi, type Hex, parseUnits, type TransactionReceipt } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { vi } from "vitest";
import type { CreateAccessServicesParameters } from "../../api/access/createAccessServices";
import { createApp } from "../../api/app";
import type { IndexDb } from "../../api/index/indexDb";
import type { IssuedKey } from "../../api/keys/records";
import { type AppStore, createAppStore } from "../../api/store/createAppStore";
import { devnetAccount, devnetRoles } from "../../devnet/accounts";
import { createDevnetClient } from "../../devnet/client";
import type { Manifest } from "../../devnet/manifest";
import { chainHead, payment } from "../../ponder.schema";
import { testAccessServices, viaTestProxy } from "../support/access";
import { testAppParameters } from "../support/app";
import { testClient } from "../support/devnet";
import { createThrowawayDatabase, testBackends } from "../support/postgres";
import { testX402Service } from "../support/x402";

/** Ponder's `chain_head` and `payment` tables as the indexer creates them (hex: text, bigint: numeric(78)). */
const indexTablesSql = `
  CREATE TABLE chain_head (chain_id integer PRIMARY KEY, number numeric(78) NOT NULL, hash text NOT NULL, timestamp numeric(78) NOT NULL);
  CREATE TABLE payment (
    id text PRIMARY KEY, chain_id integer NOT NULL, tx_hash text NOT NULL, log_index integer NOT NULL,
    block_number numeric(78) NOT NULL, block_hash text NOT NULL, timestamp numeric(78) NOT NULL,
    "from" text NOT NULL, "to" text NOT NULL, amount numeric(78) NOT NULL
  );`;

/** Where a suite's app store and indexed tables live: PGlite, or a throwaway Postgres database. */
export type Backend = {
  name: "pglite" | "postgres";
  store: AppStore;
  /** Replica `n`'s view of the same store (Postgres: a pool of its own, as another process has; PGlite: the same). */
  replica(n: number): AppStore;
  /** The indexed tables, read as the API reads them and written by the tests (as the indexer would). */
  indexDb: IndexDb;
  /** Runs SQL on the app store directly (test setup only). */
  sql(text: string, params?: unknown[]): Promise<unknown[]>;
  /** Every byte the store persisted (PGlite's files after closing it, or pg_dump), for secret scans. */
  dump(): Promise<string>;
  close(): Promise<void>;
};

/** The backends every access suite runs on: PGlite always, Postgres when DATABASE_URL is set. */
export const backendNames: Backend["name"][] = testBackends();

export async function openBackend(name: Backend["name"]): Promise<Backend> {
  return name === "pglite" ? openPglite() : openPostgres();
}

async function openPglite(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), "svc-access-"));
  const store = createAppStore({ kind: "pglite", directory: join(dir, "app") });
  await store.ready;
  const index = new PGlite();
  await index.exec(indexTablesSql);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await store.close();
    await index.close();
  };
  return {
    name: "pglite",
    store,
    replica: () => store,
    indexDb: drizzlePglite(index) as unknown as IndexDb,
    sql: async (text, params) => (await (store.db as unknown as { $client: PGlite }).$client.query(text, params)).rows,
    async dump() {
      await close();
      return readTree(dir);
    },
    async close() {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(): Promise<Backend> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error("DATABASE_URL is not set");
  const database = await createThrowawayDatabase(baseUrl);
  const store = createAppStore({ kind: "postgres", url: database.url, poolSize: 10 });
  await store.ready;
  const replicas = new Map<number, AppStore>();
  const indexPool = new pg.Pool({ connectionString: database.url, max: 4 });
  await indexPool.query(indexTablesSql);
  const admin = new pg.Pool({ connectionString: database.url, max: 2 });
  // pg-pool's end() resolves before its sockets close; the drop's termination must not surface as a crash.
  for (const pool of [indexPool, admin]) pool.on("error", () => {});
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.all([store.close(), ...[...replicas.values()].map((r) => r.close()), indexPool.end(), admin.end()]);
  };
  return {
    name: "postgres",
    store,
    replica(n) {
      const replica = replicas.get(n) ?? createAppStore({ kind: "postgres", url: database.url, poolSize: 10 });
      replicas.set(n, replica);
      return replica;
    },
    indexDb: drizzlePg(indexPool) as unknown as IndexDb,
    sql: async (text, params) => (await admin.query(text, params)).rows,
    async dump() {
      await close();
      const { stdout } = await promisify(execFile)("pg_dump", ["--dbname", database.url], { maxBuffer: 256 * 1024 * 1024 });
      return stdout;
    },
    async close() {
      await close();
      await database.drop();
    },
  };
}

function readTree(dir: string): string {
  return readdirSync(dir)
    .map((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? readTree(path) : readFileSync(path).toString("latin1");
    })
    .join("\n");
}

/** The app against the test devnet with real access dependencies over `backend`'s store and index. */
export function accessApp(manifest: Manifest, backend: Backend, overrides: Partial<CreateAccessServicesParameters> = {}) {
  const { access, keyRoutes } = testAccessServices(manifest, backend.indexDb, { store: backend.store, ...overrides });
  const x402 = testX402Service(manifest, backend.store);
  return { app: createApp(testAppParameters(manifest, backend.indexDb, { access, keyRoutes, x402 })), access, keyRoutes };
}

/** A fixed live quote of 3,000 USD per ETH (the devnet's reference price). */
export const testEthQuote = {
  weiPerUsd: async () => ({ wei: 10n ** 18n / 3000n, observedAt: new Date().toISOString(), source: "test: devnet WETH reference price" }),
};

/** POSTs JSON to the app, with extra headers, through the test proxy (an x-forwarded-for among `headers` names the client). */
export function post(app: ReturnType<typeof createApp>, path: string, body: unknown, headers: Record<string, string> = {}) {
  return app.request(
    path,
    { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) },
    viaTestProxy,
  );
}

/** The private key of the manifest's test user `user` (anvil account 3 + `user`). */
export const userKey = (user: number): Hex => devnetAccount(devnetRoles.firstUser + user).privateKey;

/** Sends `wei` from test user `user` to `to`; the receipt once mined. */
export async function payEth(manifest: Manifest, user: number, to: Address, wei: bigint): Promise<TransactionReceipt> {
  const client = createDevnetClient(manifest.rpcUrl, userKey(user));
  const hash = await client.sendTransaction({ to, value: wei });
  return client.waitForTransactionReceipt({ hash });
}

/** USDC base units of a decimal USD amount. */
export const usdc = (amount: string) => parseUnits(amount, 6);

/**
 * Writes what the indexer would for a mined USDC payment: a `payment` row per Transfer log to the
 * payout address in the real receipt.
 */
export async function indexPayment(backend: Backend, manifest: Manifest, receipt: TransactionReceipt): Promise<void> {
  const block = await testClient(manifest).getBlock({ blockHash: receipt.blockHash });
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== manifest.tokens.USDC?.address.toLowerCase()) continue;
    const transfer = decodeEventLog({ abi: erc20Abi, data: log.data, topics: log.topics });
    if (transfer.eventName !== "Transfer" || transfer.args.to.toLowerCase() !== manifest.payoutAddress.toLowerCase()) continue;
    await (backend.indexDb as unknown as ReturnType<typeof drizzlePglite>).insert(payment).values({
      id: `${receipt.transactionHash}-${log.logIndex}`,
      chainId: 8453,
      txHash: receipt.transactionHash,
      logIndex: log.logIndex,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      timestamp: block.timestamp,
      from: transfer.args.from.toLowerCase() as Hex,
      to: transfer.args.to.toLowerCase() as Hex,
      amount: transfer.args.value,
    });
  }
}

/** Sets the indexed head to the devnet's real block `number` (mining up to it first when needed). */
export async function indexHeadAt(backend: Backend, manifest: Manifest, number: bigint): Promise<void> {
  const client = testClient(manifest);
  const latest = await client.getBlockNumber();
  if (latest < number) await client.mine({ blocks: Number(number - latest) });
  const block = await client.getBlock({ blockNumber: number });
  const row = { number: block.number, hash: block.hash, timestamp: block.timestamp };
  await (backend.indexDb as unknown as ReturnType<typeof drizzlePglite>)
    .insert(chainHead)
    .values({ chainId: 8453, ...row })
    .onConflictDoUpdate({ target: chainHead.chainId, set: row });
}

/** Mines `blocks` blocks on the devnet. */
export async function mine(manifest: Manifest, blocks: number): Promise<void> {
  await testClient(manifest).mine({ blocks });
}

/** Everything written to the console and to stdout/stderr from now on, for secret scans. */
export function captureLogs(): { text(): string; restore(): void } {
  const chunks: string[] = [];
  const spies = (["log", "info", "warn", "error", "debug"] as const).map((method) => {
    const original = console[method].bind(console);
    return vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      chunks.push(
        args
          .map((a) =>
            a instanceof Error
              ? `${a.message}\n${a.stack}`
              : typeof a === "string"
                ? a
                : JSON.stringify(a, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
          )
          .join(" "),
      );
      original(...args);
    });
  });
  const writes = ([process.stdout, process.stderr] as const).map((stream) => {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    return () => {
      stream.write = original;
    };
  });
  return {
    text: () => chunks.join("\n"),
    restore() {
      for (const s of spies) s.mockRestore();
      for (const w of writes) w();
    },
  };
}

/** A free key for a fresh wallet (a signature: no funds), as the site tells people to get one. */
export async function claimFreeKey(app: ReturnType<typeof createApp>) {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const { intent } = (await (await post(app, "/v1/subscribe/free/challenge", { userWallet: wallet.address })).json()) as {
    intent: { intentId: string; messageToSign: string };
  };
  const signature = await wallet.signMessage({ message: intent.messageToSign });
  const issued = (await (await post(app, "/v1/subscribe/free/claim", { intentId: intent.intentId, signature })).json()) as IssuedKey;
  return { wallet: wallet.address, apiKey: issued.apiKey as string, keyId: issued.keyId };
}
