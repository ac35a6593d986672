import { PGlite } from "@electric-sql/pglite";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { type Address, encodeAbiParameters, erc20Abi, type Hex, keccak256, parseEther, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createApp } from "../../api/app";
import { routes } from "../../api/routes/routeList";
import type { AppStore } from "../../api/store/createAppStore";
import type { X402Service } from "../../api/x402/createX402Service";
import { baseUsdc } from "../../base/baseChain";
import type { Manifest } from "../../devnet/manifest";
import type { Backend } from "../access/support";
import { testAccessDeps } from "../support/access";
import { testAppDeps, testMarketDeps } from "../support/app";
import { devnetProvider, testClient } from "../support/devnet";
import { seedMarketIndex } from "../support/marketIndex";
import type { Fetcher } from "../support/payingFetch";
import { signedPayment } from "../support/signedPayment";
import { testX402Service } from "../support/x402";

/** The challenge an unpaid request gets (decoded from its PAYMENT-REQUIRED header). */
export async function challengeOf(app: Fetcher, url: string): Promise<PaymentRequired> {
  const res = await app.fetch(new Request(url));
  const header = res.headers.get("payment-required");
  if (res.status !== 402 || !header) throw new Error(`no challenge at ${url}: ${res.status} ${await res.text()}`);
  return decodePaymentRequiredHeader(header);
}

/** Devnet USDC held by `address` (atomic units). */
export function usdcBalance(manifest: Manifest, address: Address): Promise<bigint> {
  return testClient(manifest).readContract({ address: baseUsdc, abi: erc20Abi, functionName: "balanceOf", args: [address] });
}

/** FiatTokenV2 keeps balanceOf at slot 8. */
const usdcBalanceSlot = 8n;

/** Writes `amount` into `holder`'s devnet USDC balance (no transaction: no sender's nonce is shared), and checks it reads back. */
export async function giveUsdc(manifest: Manifest, holder: Address, amount: bigint) {
  const client = testClient(manifest);
  const slot = keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [holder, usdcBalanceSlot]));
  await client.setStorageAt({ address: baseUsdc, index: slot, value: toHex(amount, { size: 32 }) });
  if ((await usdcBalance(manifest, holder)) !== amount) throw new Error(`USDC balance slot is not ${usdcBalanceSlot}`);
}

/** A new devnet key with `eth` ETH for gas and no USDC: a gas key, or a payer that cannot pay. */
export async function fundedKey(manifest: Manifest, eth = "10"): Promise<Hex> {
  const key = generatePrivateKey();
  await testClient(manifest).setBalance({ address: privateKeyToAccount(key).address, value: parseEther(eth) });
  return key;
}

/** Transfer events of devnet USDC from `from` in blocks after `sinceBlock`. */
export async function usdcTransfersFrom(manifest: Manifest, from: Address, sinceBlock: bigint) {
  return testClient(manifest).getContractEvents({
    address: baseUsdc,
    abi: erc20Abi,
    eventName: "Transfer",
    args: { from },
    fromBlock: sinceBlock + 1n,
  });
}

/**
 * The whole API over `backend`'s store with `x402` per-call payment, its market routes answering from an
 * index written from the chain's reads (`syncHead` follows the chain as the indexer would).
 */
export async function paidApp(manifest: Manifest, backend: Backend, x402: X402Service) {
  const access = testAccessDeps(manifest, backend.indexDb, { store: backend.store });
  const marketIndex = await seedMarketIndex(new PGlite(), manifest);
  const market = testMarketDeps([devnetProvider(manifest.rpcUrl)], marketIndex.indexDb);
  return { app: createApp(testAppDeps(manifest, backend.indexDb, { access, x402, market })), access, marketIndex };
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
