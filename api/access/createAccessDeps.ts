import type { MiddlewareHandler } from "hono";
import type { Address } from "viem";
import { baseUsdc } from "../../base/baseChain";
import type { RpcProvider } from "../chain/providers";
import type { IndexDb } from "../index/indexDb";
import type { AppStore } from "../store/createAppStore";
import type { KeyEnvironment } from "./apiKeyFormat";
import { buildPlans } from "./buildPlans";
import { clientBucket } from "./clientBucket";
import { type Access, createAccess } from "./createAccess";
import { createCreditService } from "./createCreditService";
import { createFreeKeyService, type FreeKeyService } from "./createFreeKeyService";
import { createKeyHasher } from "./createKeyHasher";
import { createKeyService, type KeyService } from "./createKeyService";
import { createPaymentVerifier } from "./createPaymentVerifier";
import { createPurchaseService, type PurchaseService } from "./createPurchaseService";
import type { RateLimits } from "./createRateLimits";
import { createRecoveryService, type RecoveryService } from "./createRecoveryService";
import { createWalletVerifier } from "./createWalletVerifier";
import type { EthQuote } from "./EthQuote";
import type { Plans } from "./records";

/**
 * AppDeps.access: the middleware every protected route mounts (`payable()`, `requireKeyOrGateway()`,
 * `charge(c, cost)`...) and the services of the access routes.
 */
export type AccessDeps = Access & {
  keys: KeyService;
  freeKeys: FreeKeyService;
  purchases: PurchaseService;
  recovery: RecoveryService;
  plans: Plans;
  /** OPERATOR_BOOTSTRAP_TOKEN; undefined: the operator bootstrap route is 404. */
  operatorBootstrapToken: string | undefined;
};

export type CreateAccessDepsParameters = {
  store: AppStore;
  /** Server secret of the keyed key hash (API_KEY_PEPPER). */
  pepper: string;
  environment: KeyEnvironment;
  chainId: number;
  providers: readonly RpcProvider[];
  /** Ponder's indexed tables (`payment`, `chain_head`), read only. */
  indexDb: IndexDb;
  /** The payout address; null: purchases are unavailable. */
  payTo: Address | null;
  ethQuote: EthQuote;
  rateLimits: RateLimits;
  clientIpHeader?: string;
  gatewayProxySecretSha256?: string;
  operatorBootstrapToken?: string;
  /** The payable routes' answer to a call with no credential (default: 402 JSON). */
  unpaid?: MiddlewareHandler;
  clock?: () => Date;
};

/** Wires the access services over one app store: the server and the tests build the same graph. */
export function createAccessDeps(p: CreateAccessDepsParameters): AccessDeps {
  const clock = p.clock ?? (() => new Date());
  const db = p.store.db;
  const hash = createKeyHasher(p.pepper);
  const wallets = createWalletVerifier({ providers: p.providers, chainId: p.chainId });
  const credits = createCreditService({ db, clock });
  const keys = createKeyService({ db, hash, credits, clock });
  const payments = p.payTo
    ? createPaymentVerifier({ indexDb: p.indexDb, providers: p.providers, chainId: p.chainId, payTo: p.payTo, usdc: baseUsdc })
    : null;
  const common = { db, wallets, hash, environment: p.environment, clock };
  return {
    ...createAccess({
      keys,
      credits,
      rateLimits: p.rateLimits,
      clientBucket: clientBucket({ ipHeader: p.clientIpHeader }),
      gatewayProxySecretSha256: p.gatewayProxySecretSha256,
      storeReady: p.store.ready,
      unpaid: p.unpaid,
      clock,
    }),
    keys,
    freeKeys: createFreeKeyService(common),
    purchases: createPurchaseService({ ...common, payments, payTo: p.payTo, usdc: baseUsdc, ethQuote: p.ethQuote }),
    recovery: createRecoveryService(common),
    plans: buildPlans({ payTo: p.payTo, usdc: baseUsdc }),
    operatorBootstrapToken: p.operatorBootstrapToken,
  };
}
