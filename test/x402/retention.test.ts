import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { forgetRetainedAnswers } from "../../api/store/x402PaymentQueries";
import { type Backend, backendNames, openBackend } from "../access/support";
import { testManifest } from "../support/devnet";
import { payingFetch } from "../support/payingFetch";
import { giveUsdc } from "../support/usdc";
import { testFacilitator, testX402Service } from "../support/x402";
import { fundedKey, paidApp } from "./support";

const manifest = testManifest();
const url = `http://127.0.0.1/v1/audit/${manifest.contracts.diamond}`;

describe.each(backendNames)("x402: retention forgets each kept answer once on %s", (backendName) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend(backendName);
  }, 60_000);
  afterAll(() => backend.close());

  /** Each payment row's version: an UPDATE writes a new one (a new xmin) even when it changes no value. */
  const versions = async () =>
    new Map(
      ((await backend.sql("SELECT id, xmin::text AS version FROM app.x402_payment")) as { id: string; version: string }[]).map((r) => [
        r.id,
        r.version,
      ]),
    );
  const touched = (before: Map<string, string>, after: Map<string, string>) => [...after].filter(([id, v]) => before.get(id) !== v).length;

  test("bound: a pass past the retention touches each settled row once; the next pass touches none", async () => {
    const payer = generatePrivateKey();
    await giveUsdc(manifest, privateKeyToAccount(payer).address, 1_000_000n);
    const facilitator = testFacilitator(manifest, await fundedKey(manifest));
    const x402 = testX402Service(manifest, backend.store, { facilitator, retentionSeconds: 60 });
    const pay = payingFetch((await paidApp(manifest, backend, x402)).app, payer);
    // Three paid answers (a 503 of the route under load takes nothing and is retried, as a client would).
    let paid = 0;
    for (let tries = 0; paid < 3 && tries < 10; tries++) {
      const res = await pay(url);
      if (res.status !== 503) expect(res.status, await res.text()).toBe(200);
      if (res.status === 200) paid++;
    }
    expect(paid).toBe(3);
    const later = new Date(Date.now() + 3_600_000);

    const kept = await versions();
    expect(await forgetRetainedAnswers(backend.store.db, later)).toBe(3);
    const forgotten = await versions();
    expect(touched(kept, forgotten)).toBe(3);

    expect(await forgetRetainedAnswers(backend.store.db, later)).toBe(0);
    expect(touched(forgotten, await versions())).toBe(0);
    const rows = await backend.sql("SELECT status, answer, payment_response, payer_key, retained_until FROM app.x402_payment");
    expect(rows).toEqual(Array(3).fill({ status: "SETTLED", answer: null, payment_response: null, payer_key: null, retained_until: null }));
  }, 120_000);
});
