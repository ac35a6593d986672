import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export type ResolveApiKeyPepperParameters = {
  /** API_KEY_PEPPER, when configured. */
  configured: string | undefined;
  chain: "devnet" | "mainnet";
  /** Where the devnet keeps a generated pepper (`<APP_PGLITE_DIR>.api-key-pepper`). */
  devFile: string;
};

/**
 * The server secret API keys are hashed under. Configured: used as is. On the devnet without one, a
 * random pepper is generated once and kept in `devFile` (mode 0600), so keys survive restarts. On
 * mainnet it must be configured (the configuration refuses to load without it).
 */
export function resolveApiKeyPepper({ configured, chain, devFile }: ResolveApiKeyPepperParameters): string {
  if (configured) return configured;
  if (chain === "mainnet") throw new Error("API_KEY_PEPPER is required in mainnet mode");
  mkdirSync(dirname(devFile), { recursive: true });
  try {
    writeFileSync(devFile, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return readFileSync(devFile, "utf8").trim();
}
