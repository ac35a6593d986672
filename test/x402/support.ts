import { PGlite } from "@electric-sql/pglite";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { type Hex, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createApp } from "../../api/app";
import { routes } from "../../api/routes/routeList";
import type { AppStore } from "../../api/store/createAppStore";
import type { X402Service } from "../../api/x402/createX402Service";
import type { Manifest } from "../../devnet/manifest";
import type { Backend } from "../access/support";
import { testAccessServices } from "../support/access";
import { testAppParameters, testMarketParameters } from "../support/app";
import { devnetProvider, testClient } from "../support/devnet";
import { seedMarketIndex } from "../support/marketIndex";
import type { Fetcher } from "../support/payingFetch";
import { signedPayment } from "../support/signedPayment";
import { giveUsdc } from "../support/usdc";
import { testX402Service } from "../support/x402";

/** The challenge an unpaid request gets (decoded from its PAYMENT-REQUIRED header). */
export async function challengeOf(app: Fetcher, url: string): Promise<PaymentRequired> {
  const res = await app.fetch(new Request(url));
  const header = res.headers.get("payment-required");
  if (res.status !== 402 || !header) throw new Error(`no challenge at ${url}: ${res.status} ${await res.text()}`);
  return decodePaymentRequiredHeader(header);
}

/** A new devnet key with `eth` ETH for gas and no USDC: a gas key, or a payer that cannot pay. */
export async function fundedKey(manifest: Manifest, eth = "10"): Promise<Hex> {
  const key = generatePrivateKey();
  await testClient(manifest).setBalance({ address: privateKeyToAccount(key).address, value: parseEther(eth) });
  return key;
}

/**
 * The whole API over `backend`'s store with `x402` per-call payment, its market routes answering from an
 * index written from the chain's reads (`syncHead` follows the chain as the indexer would), which may lag
 * the chain by `maxIndexLagBlocks`.
 */
export async function paidApp(manifest: Manifest, backend: Backend, x402: X402Service, maxIndexLagBlocks?: number) {
  const { access, keyRoutes } = testAccessServices(manifest, backend.indexDb, { store: backend.store });
  const marketIndex = await seedMarketIndex(new PGlite(), manifest);
  const market = testMarketParameters([devnetProvider(manifest.rpcUrl)], marketIndex.indexDb, manifest.dexes, maxIndexLagBlocks);
  return {
    app: createApp(testAppParameters(manifest, backend.indexDb, { access, keyRoutes, x402, market })),
    access,
    keyRoutes,
    marketIndex,
  };
}

/**
 * A payer holding `inFlight` calls' price of the gas route with that many payments in flight (claimed
 * through another replica of `store`, none settled): each further payment of it passes verification,
 * reads its balance and authorization states, and is refused as committed.
 */
export async function committedPayer(manifest: Manifest, store: AppStore, terms: PaymentRequirements, inFlight: number): Promise<Hex> {
  const payer = generatePrivateKey();
  await giveUsdc(manifest, privateKeyToAccount(payer).address, BigInt(terms.amount) * BigInt(inFlight));
  const replica = testX402Service(manifest, store);
  const route = { ...routes.gasFees, x402PriceUsd: routes.gasFees.x402PriceUsd as number };
  const path = routes.gasFees.path;
  for (let i = 0; i < inFlight; i++) {
    const admitted = await replica.admit(route, { url: `http://127.0.0.1${path}`, path }, (await signedPayment(terms, payer)).header);
    if (!(admitted.ok && admitted.value.kind === "PAY"))
      throw new Error(`payment ${i} in flight was not claimed: ${JSON.stringify(admitted)}`);
  }
  return payer;
}
