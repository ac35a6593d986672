import type { Hex } from "viem";
import type { RpcProvider } from "../../api/chain/providers";
import { defaultX402PayerAuthorizationReads } from "../../api/env/EnvSchema";
import type { AppStore } from "../../api/store/createAppStore";
import { authorizationSignatureCheck } from "../../api/x402/authorizationSignature";
import { evidenceGradeSettlement } from "../../api/x402/confirmSettlement";
import { createInProcessFacilitator } from "../../api/x402/createInProcessFacilitator";
import {
  type BatchSettlementParameters,
  type CreateX402ServiceParameters,
  createX402Service,
  type X402Service,
} from "../../api/x402/createX402Service";
import { createX402Signer } from "../../api/x402/createX402Signer";
import { escrowCodeCheck } from "../../api/x402/escrowCodeCheck";
import { payerFundsOnChain } from "../../api/x402/readPayerFunds";
import { chainResolution } from "../../api/x402/resolvePendingSettlement";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { devnetAccount, devnetRoles } from "../../devnet/accounts";
import type { Manifest } from "../../devnet/manifest";
import { testAppStore } from "./access";
import { devnetProvider } from "./devnet";

/** The key the test services sign offers and receipts with (the devnet payout account's, as `npm start`'s). */
export const testSigningKey = devnetAccount(devnetRoles.payout).privateKey;

/** The URLs of `providers`, as the in-process facilitator takes them. */
export const rpcUrlsOf = (providers: readonly RpcProvider[]) => providers.map((p) => p.url);

/** The in-process facilitator on the test devnet (or `rpcUrls` in front of it), paying gas from `privateKey` (default: the manifest's facilitator account). */
export function testFacilitator(
  manifest: Manifest,
  privateKey: Hex = manifest.accounts.facilitator.privateKey,
  rpcUrls: readonly string[] = [manifest.rpcUrl],
  confirmationTimeoutMs?: number,
) {
  return createInProcessFacilitator({ privateKey, rpcUrls, network: baseNetwork, confirmationTimeoutMs });
}

/** batch-settlement beside exact on the test devnet, its escrow checked against the seeded code's hash (through `providers`). */
export function testBatchSettlement(
  manifest: Manifest,
  providers: readonly RpcProvider[] = [devnetProvider(manifest.rpcUrl)],
): BatchSettlementParameters {
  return { escrow: escrowCodeCheck({ providers, chainId: 8453, expectedCodeHash: manifest.codeHashes.x402BatchSettlement }) };
}

/**
 * Per-call x402 payment against the test devnet (read through `providers`, default the devnet itself),
 * recorded in `store` (default: the process's shared in-memory PGlite), paid to the manifest's payout
 * address. Only files that settle need a gas key of their own: settlements from one key in two
 * processes would race on its nonce.
 */
export function testX402Service(
  manifest: Manifest,
  store: AppStore = testAppStore(),
  overrides: Partial<CreateX402ServiceParameters> = {},
  providers: readonly RpcProvider[] = [devnetProvider(manifest.rpcUrl)],
): X402Service {
  const confirmSettlement =
    overrides.confirmSettlement ?? evidenceGradeSettlement({ providers, chainId: 8453, token: baseUsdc, intervalMs: 100 });
  return createX402Service({
    db: store.db,
    storeReady: store.ready,
    facilitator: testFacilitator(manifest, undefined, rpcUrlsOf(providers)),
    payTo: manifest.payoutAddress,
    network: baseNetwork,
    confirmSettlement,
    resolvePending: chainResolution({ providers, chainId: 8453, token: baseUsdc, confirmSettlement }),
    readPayerFunds: payerFundsOnChain({
      providers,
      chainId: 8453,
      token: baseUsdc,
      maxAuthorizationReads: defaultX402PayerAuthorizationReads,
    }),
    checkSignature: authorizationSignatureCheck(providers),
    signer: createX402Signer(testSigningKey),
    retentionSeconds: 86_400,
    ...overrides,
  });
}
