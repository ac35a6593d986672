import type { PaymentRequirements } from "@x402/core/types";
import { type Address, erc20Abi, type Hex } from "viem";
import { afterAll, describe, expect, test } from "vitest";
import { devnetAccount } from "../../devnet/accounts";
import { createDevnetClient } from "../../devnet/client";
import { type Manifest, readManifest } from "../../devnet/manifest";
import { createThrowawayDatabase } from "../support/postgres";
import { type RunningService, startReplica, startService, waitForJson } from "../support/startService";
import { challengeOf, type Fetcher, payingFetch, signedPayment } from "./support";

const databaseUrl = process.env.DATABASE_URL;
/** Over the network, as a client reaches a replica. */
const remote: Fetcher = { fetch: (request) => fetch(request) };

// Replicas share one Postgres app store (PGlite cannot be shared across processes).
describe.skipIf(!databaseUrl)("x402 across two API processes on one Postgres (npm start and a ponder serve replica)", () => {
  let service: RunningService | undefined;
  let replica: RunningService | undefined;
  let dropDatabase = async () => {};
  afterAll(async () => {
    await replica?.stop();
    await service?.stop();
    await dropDatabase();
  });

  test("behavior: 50 concurrent copies of one payment sent to both: exactly one 200 and one transfer; a replay on either is refused", async () => {
    const db = await createThrowawayDatabase(databaseUrl ?? "");
    dropDatabase = db.drop;
    service = await startService({ DATABASE_URL: db.url, DEVNET_TRAFFIC: "false" });
    await waitForJson(`${service.baseUrl}/ready`, (status) => status === 200, 120_000, service);
    // One gas key per replica: the first uses the manifest's facilitator account, this one account 16.
    replica = await startReplica(service, { DATABASE_URL: db.url, X402_FACILITATOR_PRIVATE_KEY: devnetAccount(16).privateKey });
    await waitForJson(`${replica.baseUrl}/v1/status`, (status) => status === 200, 60_000, replica);
    const manifest: Manifest = readManifest(service.manifestPath);
    const payer = manifest.accounts.users[4] as { address: Address; privateKey: Hex };
    const chain = createDevnetClient(manifest.rpcUrl, payer.privateKey);
    const paths = [service, replica].map((s) => `${s.baseUrl}/v1/audit/${manifest.contracts.diamond}`);

    for (const path of paths) {
      const res = await payingFetch(remote, payer.privateKey)(path);
      expect(res.status, await res.clone().text()).toBe(200);
    }

    const requirements = (await challengeOf(remote, paths[0] as string)).accepts[0] as PaymentRequirements;
    const { header } = await signedPayment(requirements, payer.privateKey);
    const since = await chain.getBlockNumber();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fetch(paths[i % 2] as string, { headers: { "payment-signature": header } })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 402)).toHaveLength(49);
    for (const refused of answers.filter((r) => r.status === 402)) {
      expect(["payment_in_progress", "payment_already_settled"]).toContain(((await refused.json()) as { reason: string }).reason);
    }
    const transfers = await chain.getContractEvents({
      address: requirements.asset as Address,
      abi: erc20Abi,
      eventName: "Transfer",
      args: { from: payer.address },
      fromBlock: since + 1n,
    });
    expect(transfers).toHaveLength(1);
    for (const path of paths) {
      const again = await fetch(path, { headers: { "payment-signature": header } });
      expect(await again.json()).toMatchObject({ error: "PAYMENT_INVALID", reason: "payment_already_settled" });
    }
  }, 300_000);
});
