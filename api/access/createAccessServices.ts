import type { Address } from "viem";
import { baseUsdc } from "../../base/baseChain";
import type { RpcProvider } from "../chain/providers";
import type { AbuseLimits, ServiceOrigins } from "../config";
import { defaultAbuseLimits } from "../env/EnvSchema";
import type { IndexDb } from "../index/indexDb";
import type { KeyEnvironment } from "../keys/apiKeyFormat";
import { createFreeKeyService, type FreeKeyService } from "../keys/createFreeKeyService";
import { createKeyCache } from "../keys/createKeyCache";
import { createKeyHasher } from "../keys/createKeyHasher";
import { createKeyService } from "../keys/createKeyService";
import { createPurchaseService, type PurchaseService } from "../keys/createPurchaseService";
import { createRecoveryService, type RecoveryService } from "../keys/createRecoveryService";
import { createWalletVerifier } from "../keys/createWalletVerifier";
import { catalogueRates, type TierRates } from "../keys/toIssuedKey";
import type { EthQuote } from "../market/EthQuote";
import { createPaymentVerifier } from "../payments/createPaymentVerifier";
import type { AppStore } from "../store/createAppStore";
import type { AccessControlParameters } from "./AccessControlParameters";
import { clientBucket } from "./clientBucket";
import { createAuthFailureGuard } from "./createAuthFailureGuard";
import { createCreditService } from "./createCreditService";
import type { RateLimits } from "./createRateLimits";

/** AppParameters.access: what the access middleware reads (keys, credits, limits, gateway, the operator's token). */
export type AccessParameters = AccessControlParameters & {
  /** The public origin and the fallback host's: challenges name the one a request came through. */
  origins: ServiceOrigins;
  /** OPERATOR_BOOTSTRAP_TOKEN; undefined: the operator bootstrap route is 404. */
  operatorBootstrapToken: string | undefined;
  /** Intents one client address may create per hour (INTENTS_MAX_PER_CLIENT_PER_HOUR). */
  maxIntentsPerClientPerHour: number;
};

/** AppParameters.keyRoutes: the services of the key routes (free keys, purchases, recovery) and what the plans state. */
export type KeyRouteParameters = {
  freeKeys: FreeKeyService;
  purchases: PurchaseService;
  recovery: RecoveryService;
  /** Where payments go (plans); null: purchases are unavailable. */
  payTo: Address | null;
  /** The public origin and the fallback host's: challenges name the one a request came through. */
  origins: ServiceOrigins;
  /** The per-minute limit of each tier's keys, as the plans state it. */
  rates: TierRates;
};

export type CreateAccessServicesParameters = {
  store: AppStore;
  origins: ServiceOrigins;
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
  /** The per-minute limits `rateLimits` enforces on keys, as the plans and key records state them; default the catalogue's. */
  rates?: TierRates;
  /** CLIENT_IP_HEADER, believed only from `trustedProxies` (TRUSTED_PROXIES). */
  clientIpHeader?: string;
  trustedProxies?: readonly string[];
  gatewayProxySecretSha256?: string;
  operatorBootstrapToken?: string;
  /** Most credits a replica leases per key beyond the call charged; default `defaultMaxLeaseCredits`. */
  maxLeaseCredits?: number;
  /** How stale a cached key may be; default `keyCacheMaxStalenessMs` (1 s). */
  keyCacheMaxStalenessMs?: number;
  /** Bounds on unauthenticated work; default `defaultAbuseLimits`. */
  limits?: AbuseLimits;
  clock?: () => Date;
};

/**
 * Wires the access middleware's services and the key routes' over one app store and one key cache (a key
 * a purchase or recovery changes is dropped from it): the server and the tests build the same graph.
 */
export function createAccessServices(p: CreateAccessServicesParameters): { access: AccessParameters; keyRoutes: KeyRouteParameters } {
  const clock = p.clock ?? (() => new Date());
  const limits = p.limits ?? defaultAbuseLimits;
  const rates = p.rates ?? catalogueRates;
  const db = p.store.db;
  const hash = createKeyHasher(p.pepper);
  const keyCache = createKeyCache({ db, maxStalenessMs: p.keyCacheMaxStalenessMs });
  const wallets = createWalletVerifier({ providers: p.providers, chainId: p.chainId });
  const credits = createCreditService({ db, clock, maxLeaseCredits: p.maxLeaseCredits });
  const payments = p.payTo
    ? createPaymentVerifier({ indexDb: p.indexDb, providers: p.providers, chainId: p.chainId, payTo: p.payTo, usdc: baseUsdc })
    : null;
  const common = {
    db,
    origins: p.origins,
    wallets,
    hash,
    environment: p.environment,
    clock,
    maxOpenIntentsPerWallet: limits.maxOpenIntentsPerWallet,
    rates,
  };
  return {
    access: {
      keys: createKeyService({ db, hash, cache: keyCache, credits, clock, rates, environment: p.environment }),
      credits,
      rateLimits: p.rateLimits,
      clientBucket: clientBucket({ ipHeader: p.clientIpHeader, trustedProxies: p.trustedProxies }),
      authFailures: createAuthFailureGuard({ perMinute: limits.maxAuthFailuresPerMinute }),
      gatewayProxySecretSha256: p.gatewayProxySecretSha256,
      storeReady: p.store.ready,
      clock,
      origins: p.origins,
      operatorBootstrapToken: p.operatorBootstrapToken,
      maxIntentsPerClientPerHour: limits.maxIntentsPerClientPerHour,
    },
    keyRoutes: {
      freeKeys: createFreeKeyService(common),
      purchases: createPurchaseService({
        ...common,
        payments,
        payTo: p.payTo,
        usdc: baseUsdc,
        ethQuote: p.ethQuote,
        onKeyChanged: keyCache.invalidate,
      }),
      recovery: createRecoveryService({ ...common, onKeyChanged: keyCache.invalidate }),
      payTo: p.payTo,
      origins: p.origins,
      rates,
    },
  };
}
