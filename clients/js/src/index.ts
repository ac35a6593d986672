export {
  type Client,
  type ClientParameters,
  createClient,
  type MessageSigner,
  type PayableCallParameters,
  signChallenge,
} from "./createClient.js";
export {
  AuthenticationError,
  CreditsExhaustedError,
  DataSourceUnavailableError,
  type ErrorDetails,
  ExpiredKeyError,
  InvalidInputError,
  PaymentCapExceededError,
  PaymentRequiredError,
  RateLimitedError,
  ServiceError,
} from "./errors.js";
export type { GuardedTransaction, GuardObservation, GuardPolicy, GuardVerdict } from "./guard/GuardObservation.js";
export { GuardPolicyRequiredError, GuardRefusedError, TransactionGuardError } from "./guard/guardErrors.js";
export { type GuardableWallet, type TransactionGuardParameters, transactionGuard } from "./guard/transactionGuard.js";
export { type PaymentParameters, type PaymentSigner, usdcToAtomic } from "./payWithX402.js";
export type { CallKind } from "./request.js";
export { callTool, type ToolAnswer } from "./tools/callTool.js";
export { type JsonSchema, type ToolDefinition, type ToolName, toolAnnotations, toolDefinitions } from "./tools/toolDefinitions.js";
export type {
  Address,
  AggregateStats,
  AuditResponse,
  CapabilityRating,
  Deduction,
  DemoAuditResponse,
  DexMetrics,
  Entitlements,
  GasFees,
  Hex,
  IntentEnvelope,
  IssuedKey,
  KeySelf,
  MarketProvenance,
  Metered,
  ObservationBlock,
  PaidTier,
  PaymentChallenge,
  PaymentReceipt,
  PaymentRequirements,
  Plans,
  ProductCta,
  ProductEvent,
  ProductPage,
  PublicStats,
  PurchaseIntent,
  PurchaseRequest,
  RevokeResult,
  SampleEnvelope,
  SampleIndex,
  SampleName,
  ScoreResponse,
  SignedClaim,
  SimulationPool,
  Stats,
  StatsQuery,
  StatusReport,
  Tier,
  TokenPrice,
  TokenSymbol,
  TradeFigure,
  TradeSimulation,
  TransactionPreflightRequest,
  TransactionPreflightResponse,
  TrustLevel,
  WeiAmount,
  WhaleSignal,
  WhaleSignals,
} from "./types.js";

// The names 1.2.7 published, kept so code written against them still compiles (parameter objects are *Parameters now).
import type { ClientParameters, PayableCallParameters } from "./createClient.js";
import type { TransactionGuardParameters } from "./guard/transactionGuard.js";
import type { PaymentParameters } from "./payWithX402.js";
/** @deprecated Use ClientParameters. */
export type ClientOptions = ClientParameters;
/** @deprecated Use PayableCallParameters. */
export type PayableCallOptions = PayableCallParameters;
/** @deprecated Use TransactionGuardParameters. */
export type TransactionGuardOptions = TransactionGuardParameters;
/** @deprecated Use PaymentParameters. */
export type PaymentOptions = PaymentParameters;
