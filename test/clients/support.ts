import { type Address, encodeFunctionData, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Manifest } from "../../devnet/manifest";
import { createThrowawayDatabase } from "../support/postgres";
import { type RunningService, startService, waitForJson } from "../support/startService";

/** One `npm start` for a client test file: on a throwaway Postgres database when DATABASE_URL is set, else PGlite. */
export type ClientTestService = {
  service: RunningService;
  /** The service's Postgres database, or null on PGlite. */
  databaseUrl: string | null;
  /** SQL on the service's app store (Postgres only: PGlite belongs to the service's process). */
  sql: ((text: string, params?: unknown[]) => Promise<unknown[]>) | null;
  stop(): Promise<void>;
};

/**
 * Starts the service with `env` and waits until it serves market data and x402 settlement
 * (`/ready`, then a status with the index fresh and x402 AVAILABLE). Without the traffic generator:
 * it sends transfers to the manifest's users, whose balances the payment tests compare to the unit.
 */
export async function startClientTestService(env: Record<string, string>): Promise<ClientTestService> {
  const databaseUrl = process.env.DATABASE_URL;
  const db = databaseUrl ? await createThrowawayDatabase(databaseUrl) : null;
  const service = await startService({ DEVNET_TRAFFIC: "false", ...env, ...(db ? { DATABASE_URL: db.url } : {}) });
  const pg = db ? await import("pg") : null;
  const pool = db && pg ? new pg.default.Pool({ connectionString: db.url, max: 1 }) : null;
  pool?.on("error", () => {});
  const stop = async () => {
    await pool?.end();
    await service.stop();
    await db?.drop();
  };
  try {
    await waitForJson(`${service.baseUrl}/ready`, (status) => status === 200, 180_000, service);
    await waitForJson<{ status: string; paymentSettlement: { x402: string } }>(
      `${service.baseUrl}/v1/status`,
      (_, body) => body.status === "OPERATIONAL" && body.paymentSettlement?.x402 === "AVAILABLE",
      60_000,
      service,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { service, databaseUrl: db?.url ?? null, sql: pool ? async (text, params) => (await pool.query(text, params)).rows : null, stop };
}

/** The manifest's devnet user `i`, with a viem account that signs as it. */
export function devnetUser(manifest: Manifest, i: number) {
  const account = manifest.accounts.users[i];
  if (!account) throw new Error(`no devnet user ${i}`);
  return { ...account, signer: privateKeyToAccount(account.privateKey) };
}

/** A preflight of the devnet Diamond's mint selector (its facet resolves through the loupe). */
export function preflightOf(manifest: Manifest) {
  const data = encodeFunctionData({
    abi: parseAbi(["function mint(address,uint256)"]),
    functionName: "mint",
    args: [manifest.accounts.deployer.address, 1n],
  });
  return { chainId: 8453 as const, to: manifest.contracts.diamond as Address, data, from: manifest.accounts.deployer.address };
}
