import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

// import.meta.dirname is not set when Ponder loads this file through vite-node.
const projectRoot = fileURLToPath(new URL("..", import.meta.url));

const urlList = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((u) => u.trim())
      .filter((u) => u.length > 0),
  )
  .pipe(z.array(z.string().url()));

const booleanFlag = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");

/**
 * Every environment variable the service reads. Each is documented in the README's
 * "Configuration" table; nothing else reads process.env.
 */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(42069),
  HOST: z.string().min(1).default("127.0.0.1"),
  /** Public Base RPC providers (comma-separated). Setting this or BASE_RPC_PRIMARY_URL selects mainnet mode. */
  BASE_RPC_URLS: urlList.optional(),
  /** A trusted primary Base RPC provider (your own node or a paid endpoint). */
  BASE_RPC_PRIMARY_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url().optional(),
  /** Ponder's schema for this deploy of the indexing code. */
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,44}$/).default("svc_index"),
  PGLITE_DIR: z.string().default(resolve(projectRoot, ".ponder", "pglite")),
  REDIS_URL: z.string().url().optional(),
  DEVNET_MANIFEST: z.string().default(resolve(projectRoot, ".devnet", "manifest.json")),
  DEVNET_PORT: z.coerce.number().int().min(0).max(65535).default(8545),
  DEVNET_BLOCK_TIME: z.coerce.number().int().min(0).max(60).default(1),
  DEVNET_TRAFFIC: booleanFlag.default(true),
  /** Where subscription and x402 payments are sent; on the devnet the manifest's payout account. */
  PAYOUT_ADDRESS: address.optional(),
  /** Addresses the free demo audit answers in full (comma-separated); defaults: the devnet fixtures or Base's majors. */
  DEMO_AUDIT_ADDRESSES: z
    .string()
    .transform((s) => s.split(",").map((a) => a.trim()).filter((a) => a.length > 0))
    .pipe(z.array(address))
    .optional(),
  LOG_LEVEL: z.enum(["error", "warn", "info", "debug"]).default("info"),
});

export type Env = z.infer<typeof EnvSchema>;

export type ChainMode =
  | { kind: "devnet"; manifestPath: string }
  | { kind: "mainnet"; primaryUrl: string | undefined; publicUrls: string[] };

export type Config = {
  port: number;
  host: string;
  chain: ChainMode;
  database: { kind: "postgres"; url: string } | { kind: "pglite"; directory: string };
  databaseSchema: string;
  redisUrl: string | undefined;
  devnet: { port: number; blockTime: number; traffic: boolean };
  payoutAddress: string | undefined;
  /** Explicit demo allowlist; undefined means the mode's default samples. */
  demoAuditAddresses: string[] | undefined;
  logLevel: Env["LOG_LEVEL"];
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment once; a bad value stops the process with every problem named. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`DATABASE_URL=`) means unset, as shells and .env files use it.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const mainnet = e.BASE_RPC_URLS !== undefined || e.BASE_RPC_PRIMARY_URL !== undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    chain: mainnet
      ? { kind: "mainnet", primaryUrl: e.BASE_RPC_PRIMARY_URL, publicUrls: e.BASE_RPC_URLS ?? [] }
      : { kind: "devnet", manifestPath: e.DEVNET_MANIFEST },
    database: e.DATABASE_URL ? { kind: "postgres", url: e.DATABASE_URL } : { kind: "pglite", directory: e.PGLITE_DIR },
    databaseSchema: e.DATABASE_SCHEMA,
    redisUrl: e.REDIS_URL,
    devnet: { port: e.DEVNET_PORT, blockTime: e.DEVNET_BLOCK_TIME, traffic: e.DEVNET_TRAFFIC },
    payoutAddress: e.PAYOUT_ADDRESS,
    demoAuditAddresses: e.DEMO_AUDIT_ADDRESSES,
    logLevel: e.LOG_LEVEL,
  };
}
