import type { Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Manifest } from "../../devnet/manifest";
import type { Backend } from "../access/support";
import type { Fetcher } from "../support/payingFetch";
import { testBatchSettlement, testFacilitator, testX402Service } from "../support/x402";
import { fundedKey, paidApp } from "./support";

/** The origin and route the batch tests pay for (at `price`). */
export const origin = "http://127.0.0.1:42069";
export const path = "/v1/token/price/WETH";

/**
 * A service paid at `payTo` with exact and batch-settlement over `backend`'s store (a replica's view: `replica`),
 * with its own gas key; `confirmationTimeoutMs`: its facilitator's (the product's 30 s when not given).
 */
export async function batchService(
  manifest: Manifest,
  backend: Backend,
  payTo: Address,
  { replica = 0, confirmationTimeoutMs }: { replica?: number; confirmationTimeoutMs?: number } = {},
) {
  const gasKey = await fundedKey(manifest);
  const x402 = testX402Service(manifest, replica === 0 ? backend.store : backend.replica(replica), {
    facilitator: testFacilitator(manifest, gasKey, [manifest.rpcUrl], confirmationTimeoutMs),
    payTo,
    batchSettlement: testBatchSettlement(manifest),
  });
  // The index follows the chain between calls only: a minute of blocks' slack for a slow deposit on a loaded machine.
  return { x402, payTo, gasKey: privateKeyToAccount(gasKey).address, ...(await paidApp(manifest, backend, x402, 60)) };
}

export const fetcher = (app: Fetcher) => (request: Request) => Promise.resolve(app.fetch(request));

/** The vouchers the store holds on `payer`'s channels, by channel and cumulative amount. */
export const storedVouchers = (backend: Backend, payer: Address) =>
  backend.sql(
    `SELECT channel_id, v.cumulative_amount::text, v.amount::text, v.route, v.answer_status
       FROM app.x402_voucher v JOIN app.x402_channel c USING (channel_id)
      WHERE lower(c.payer) = lower($1) ORDER BY channel_id, v.cumulative_amount`,
    [payer],
  ) as Promise<{ channel_id: string; cumulative_amount: string; amount: string; route: string; answer_status: number }[]>;
