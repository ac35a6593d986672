import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, test } from "vitest";

const databaseUrl = process.env.DATABASE_URL;
const root = resolve(import.meta.dirname, "..", "..");

/** The soak running, if any: a test that times out stops it (its SIGINT handler stops every process it started). */
let running: ChildProcess | undefined;

/** `npm run soak` as a user runs it, SOAK_SECONDS long; its exit code and its last line's JSON. */
function runSoak(seconds: number): Promise<{ code: number | null; result: Record<string, unknown>; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, "node_modules", ".bin", "tsx"), "scripts/soak.ts"], {
      cwd: root,
      env: { ...process.env, SOAK_SECONDS: String(seconds) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    running = child;
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("exit", (code) => {
      const last = output.trim().split("\n").at(-1) ?? "{}";
      let result: Record<string, unknown> = {};
      try {
        result = JSON.parse(last) as Record<string, unknown>;
      } catch {
        // No figures: the assertions below fail and show the output.
      }
      done({ code, result, output });
    });
  });
}

describe.skipIf(!databaseUrl)("npm run soak (the 30-second version): the scale-out mode under load and faults", () => {
  afterAll(async () => {
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((done) => running?.once("exit", done));
    running.kill("SIGINT");
    await exited;
  });

  test("behavior: no unintended 5xx; keys, credits and x402 settlements balance; the reorged payment is never redeemed; every fault recovered", async () => {
    // 30 s of load: the faults run back to back (each waits for the recovery from the one before), so the
    // figures asserted are the same as over 60 s, in about half a minute less.
    const { code, result, output } = await runSoak(30);
    expect(result, output.slice(-4000)).toHaveProperty("requests");
    expect(result.unintended5xx, output.slice(-4000)).toBe(0);
    const keys = result.keysIssuedVsPaid as { issued: number; paid: number; redeemedPaymentsMatch: boolean };
    expect(keys.issued).toBe(keys.paid);
    expect(keys.redeemedPaymentsMatch).toBe(true);
    expect(keys.issued).toBeGreaterThanOrEqual(2);
    const credits = result.creditsServedVsCharged as { served: number; charged: number };
    expect(credits.served).toBe(credits.charged);
    expect(credits.served).toBeGreaterThan(0);
    const x402 = result.x402SettledVsServed as { settled: number; served: number };
    expect(x402.settled).toBe(x402.served);
    expect(result.x402SettledMatchesServed).toBe(true);
    expect(Object.keys(result.unanswered as Record<string, number>).filter((why) => /timeout|aborted/i.test(why))).toEqual([]);
    expect(x402.served).toBeGreaterThan(0);
    expect(result.reorgedPaymentRedeemed).toBe(false);
    expect(result.reorgDroppedPayment).toBe(true);
    const recovered = result.recoveredAfterEachFault as Record<string, number | false>;
    expect(Object.keys(recovered).sort()).toEqual(
      ["indexerKilled", "postgresConnectionsKilled", "redisStopped", "replicaKilled", "rpcProviderKilled", "rpcProvidersDisagree"].sort(),
    );
    for (const [fault, seconds] of Object.entries(recovered)) expect(seconds, fault).not.toBe(false);
    expect(code).toBe(0);
  }, 900_000);
});
