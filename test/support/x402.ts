import type { Hex } from "viem";
import type { AppStore } from "../../api/store/createAppStore";
import { evidenceGradeSettlement } from "../../api/x402/confirmSettlement";
import { createInProcessFacilitator } from "../../api/x402/createInProcessFacilitator";
import { type CreateX402ServiceParameters, createX402Service, type X402Service } from "../../api/x402/createX402Service";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import type { Manifest } from "../../devnet/manifest";
import { testAppStore } from "./access";

/** The test devnet as the one, trusted, provider. */
export const devnetProvider = (manifest: Manifest) => ({ name: "devnet", url: manifest.rpcUrl, trusted: true });

/** The in-process facilitator on the test devnet, paying gas from `privateKey` (default: the manifest's facilitator account). */
export function testFacilitator(manifest: Manifest, privateKey: Hex = manifest.accounts.facilitator.privateKey) {
  return createInProcessFacilitator({ privateKey, rpcUrls: [manifest.rpcUrl], network: baseNetwork });
}

/**
 * Per-call x402 payment against the test devnet, recorded in `store` (default: the process's shared
 * in-memory PGlite), paid to the manifest's payout address. Only files that settle need a gas key of
 * their own: settlements from one key in two processes would race on its nonce.
 */
export function testX402Service(
  manifest: Manifest,
  store: AppStore = testAppStore(),
  overrides: Partial<CreateX402ServiceParameters> = {},
): X402Service {
  return createX402Service({
    db: store.db,
    storeReady: store.ready,
    facilitator: testFacilitator(manifest),
    payTo: manifest.payoutAddress,
    network: baseNetwork,
    confirmSettlement: evidenceGradeSettlement({ providers: [devnetProvider(manifest)], chainId: 8453, token: baseUsdc, intervalMs: 100 }),
    ...overrides,
  });
}
