import type { PaymentRequirements } from "@x402/core/types";
import { generatePaymentId } from "@x402/extensions/payment-identifier";
import { type Address, erc20Abi, type Hex } from "viem";
import { afterAll, describe, expect, test } from "vitest";
import { baseUsdc } from "../../base/baseChain";
import { devnetAccount } from "../../devnet/accounts";
import { createDevnetClient } from "../../devnet/client";
import { type Manifest, readManifest } from "../../devnet/manifest";
import { type Fetcher, payingFetch } from "../support/payingFetch";
import { signedPayment } from "../support/signedPayment";
import { type ServiceWithReplica, startServiceWithReplica } from "../support/startService";
import { challengeOf } from "./support";

const databaseUrl = process.env.DATABASE_URL;
/** Over the network, as a client reaches a replica. */
const remote: Fetcher = { fetch: (request) => fetch(request) };

// Replicas share one Postgres app store (PGlite cannot be shared across processes).
describe.skipIf(!databaseUrl)("x402 across two API processes on one Postgres (npm start and a ponder serve replica)", () => {
  let running: ServiceWithReplica | undefined;
  afterAll(() => running?.stop());

  test("behavior: 50 concurrent copies of one payment sent to both: exactly one 200 and one transfer; a replay on either is refused", async () => {
    // One gas key per replica: npm start uses the manifest's facilitator account, the replica account 16.
    running = await startServiceWithReplica(databaseUrl ?? "", {
      serviceEnv: { DEVNET_TRAFFIC: "false" },
      replicaEnv: { X402_FACILITATOR_PRIVATE_KEY: devnetAccount(19).privateKey },
    });
    const { service, replica } = running;
    const manifest: Manifest = readManifest(service.manifestPath);
    const payer = manifest.accounts.users[4] as { address: Address; privateKey: Hex };
    const chain = createDevnetClient(manifest.rpcUrl, payer.privateKey);
    const paths = [service, replica].map((s) => `${s.baseUrl}/v1/audit/${manifest.contracts.diamond}`);

    for (const path of paths) {
      const res = await payingFetch(remote, payer.privateKey)(path);
      expect(res.status, await res.clone().text()).toBe(200);
    }

    const challenge = await challengeOf(remote, paths[0] as string);
    // The served API offers batch-settlement beside exact: the seeded escrow's code hash matches the manifest's.
    expect(challenge.accepts.map((terms) => terms.scheme)).toEqual(["exact", "batch-settlement"]);
    const requirements = challenge.accepts[0] as PaymentRequirements;
    const { header } = await signedPayment(requirements, payer.privateKey);
    const since = await chain.getBlockNumber();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fetch(paths[i % 2] as string, { headers: { "payment-signature": header } })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 402)).toHaveLength(49);
    for (const refused of answers.filter((r) => r.status === 402)) {
      // A copy verified after the transfer is mined but before its record says SETTLED is refused by the chain's word.
      expect(["payment_in_progress", "payment_already_settled", "invalid_exact_evm_nonce_already_used"]).toContain(
        ((await refused.json()) as { reason: string }).reason,
      );
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

  test("behavior: one payment-identifier id retried through both processes at once: one settlement, identical answers, another request under it 409", async () => {
    const { service, replica } = running as ServiceWithReplica;
    const manifest: Manifest = readManifest(service.manifestPath);
    const agent = manifest.accounts.users[13] as { address: Address; privateKey: Hex };
    const chain = createDevnetClient(manifest.rpcUrl, agent.privateKey);
    const paths = [service, replica].map((s) => `${s.baseUrl}/v1/audit/${manifest.contracts.diamond}`);
    const id = generatePaymentId();
    const since = await chain.getBlockNumber({ cacheTime: 0 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => payingFetch(remote, agent.privateKey, id)(paths[i % 2] as string)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(await Promise.all(answers.map((r) => r.text()))).size).toBe(1);
    const transfers = await chain.getContractEvents({
      address: baseUsdc,
      abi: erc20Abi,
      eventName: "Transfer",
      args: { from: agent.address },
      fromBlock: since + 1n,
    });
    expect(transfers).toHaveLength(1);
    const other = await payingFetch(remote, agent.privateKey, id)(`${replica.baseUrl}/v1/security/score/${manifest.contracts.diamond}`);
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ error: "PAYMENT_ID_CONFLICT" });
  }, 120_000);
});
