import { x402Facilitator } from "@x402/core/facilitator";
import type { Network, PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/facilitator";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import {
  createWalletClient,
  decodeFunctionData,
  defineChain,
  fallback,
  type Hex,
  http,
  isHash,
  keccak256,
  parseTransaction,
  publicActions,
  TransactionNotFoundError,
  type Transport,
} from "viem";
import { nonceManager, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { FiatTokenAbi } from "../../abis/FiatTokenAbi";
import { answerWithin } from "./answerWithin";
import type { Eip3009Authorization } from "./parsePaymentSignature";
import { reuseAnswer } from "./reuseAnswer";
import { FacilitatorUnavailableError, type X402Facilitator } from "./X402Facilitator";

/** Gas of one `transferWithAuthorization` settlement, rounded up (about 60,000-80,000 are used). */
const settlementGas = 100_000n;
/** The gas key counts as funded while it can pay for this many settlements at the current fee. */
const fundedSettlements = 10n;

/**
 * RPC reads one verification makes at most, through the first provider (the next only when one fails):
 * x402's checks (the token's code, kept a while; the payer's code, twice; a contract wallet's signature
 * call; the transfer's simulation and, when it fails, its diagnosis) and, for a refusal, our probe of
 * the chain. A payment's own retry is checked with fewer (`authorizationSignatureCheck`: at most 3).
 */
export const verificationReads = 7;

/** A settlement in flight: the hash of its broadcast, once that broadcast's answer was lost. */
type BroadcastWatch = { hash?: Hex };
/** Settlements in flight by the EIP-3009 authorization they spend (`authorizationKey`). */
type BroadcastWatches = Map<string, BroadcastWatch>;

/** An EIP-3009 authorization as tokens tell them apart: the token, its authorizer and its nonce. */
const authorizationKey = (token: string, from: string, nonce: string) =>
  `${token.toLowerCase()}:${from.toLowerCase()}:${nonce.toLowerCase()}`;

/**
 * The EIP-3009 authorization a raw transaction spends when it calls `transferWithAuthorization` (either
 * overload), else null: what ties a broadcast to the payment it settles. Attributing it by the async
 * context instead (an AsyncLocalStorage) kept a hook on every promise of the process on Node 22 while
 * settlements were in flight: 19% more CPU an answer (docs/operations.md#the-market-route).
 */
function spentAuthorization(raw: Hex): string | null {
  try {
    const { to, data } = parseTransaction(raw);
    const call = decodeFunctionData({ abi: FiatTokenAbi, data: data ?? "0x" });
    return to && call.functionName === "transferWithAuthorization" ? authorizationKey(to, call.args[0], call.args[5]) : null;
  } catch {
    return null;
  }
}

/** The EIP-3009 authorization a payment in `token` spends, else null (parsePaymentSignature refuses such a payment first). */
function paymentAuthorization(token: string, payload: PaymentPayload): string | null {
  const authorization = (payload.payload as { authorization?: Partial<Eip3009Authorization> }).authorization;
  return authorization?.from && authorization.nonce ? authorizationKey(token, authorization.from, authorization.nonce) : null;
}

/**
 * Runs the settlement that spends `authorization` with a watch on its broadcasts: its result, and the
 * hash of its broadcast if that broadcast's answer was lost.
 */
async function watchingBroadcasts<T>(
  watches: BroadcastWatches,
  authorization: string,
  settle: () => Promise<T>,
): Promise<{ result: T; lostBroadcast?: Hex }> {
  const watch: BroadcastWatch = {};
  watches.set(authorization, watch);
  try {
    return { result: await settle(), lostBroadcast: watch.hash };
  } finally {
    watches.delete(authorization);
  }
}

/**
 * The errors by which a node says it did not take a transaction, for a reason no retry or other node
 * changes. Any other error may hide a broadcast that was taken: a gateway's error after it forwarded,
 * "already known" or "nonce too low" from a node that had it already, a timeout.
 */
const definiteRefusal =
  /insufficient funds|intrinsic gas too low|invalid chain id|invalid sender|(fee cap|max fee per gas) less than block base fee/i;

/**
 * `http(url)`, except that a broadcast (`eth_sendRawTransaction`) is sent to this node once, and unless
 * the node answers its hash or refuses it definitely (`definiteRefusal`), the transaction's hash (the
 * keccak-256 of the raw transaction) is noted for the settlement in flight that spends its
 * authorization: it may have been broadcast.
 */
function broadcastWatchingHttp(url: string, watches: BroadcastWatches, broadcastTimeoutMs: number): Transport {
  const reads = http(url);
  const sends = http(url, { retryCount: 0, timeout: broadcastTimeoutMs });
  return (config) => {
    const read = reads(config);
    const send = sends(config);
    return {
      ...read,
      async request(args) {
        if (args.method !== "eth_sendRawTransaction") return read.request(args);
        const [raw] = (args.params ?? []) as [Hex?];
        try {
          const hash: unknown = await send.request(args);
          if (typeof hash === "string" && isHash(hash)) return hash;
          throw new Error("the node answered a broadcast without a transaction hash");
        } catch (error) {
          const refused = error instanceof Error && definiteRefusal.test(error.message);
          const authorization = raw && !refused ? spentAuthorization(raw) : null;
          const watch = authorization === null ? undefined : watches.get(authorization);
          if (raw && watch) watch.hash = keccak256(raw);
          throw error;
        }
      },
    } as ReturnType<Transport>;
  };
}

export type CreateInProcessFacilitatorParameters = {
  /** The gas key: it sends each settlement transaction. */
  privateKey: Hex;
  /** Where it reads and sends: the trusted primary first (later ones are fallbacks). */
  rpcUrls: readonly string[];
  network: Network;
  /** How long a settlement waits for its receipt before it is reported pending. */
  confirmationTimeoutMs?: number;
  /** How long the readiness probe waits for the chain. */
  probeTimeoutMs?: number;
  /** How long a broadcast's answer is awaited before it counts as lost (viem's default, 10 s). */
  broadcastTimeoutMs?: number;
};

/**
 * The in-process facilitator: x402's own `x402Facilitator` with the "exact" and "batch-settlement" EVM
 * schemes, settling from our gas key through viem. The key's nonces come from viem's nonce manager, so concurrent settlements
 * from this process never race on one (give each replica its own key); after a transaction the chain dropped,
 * the manager is reset (unlessDropped), and a settlement taking its nonce at that moment could collide once. A throw caused by the payment
 * rather than the chain is answered as an invalid payment or a failed settlement.
 */
export function createInProcessFacilitator({
  privateKey,
  rpcUrls,
  network,
  confirmationTimeoutMs = 30_000,
  probeTimeoutMs = 2_000,
  broadcastTimeoutMs = 10_000,
}: CreateInProcessFacilitatorParameters): X402Facilitator {
  const account = privateKeyToAccount(privateKey, { nonceManager });
  const chain = defineChain({ ...base, rpcUrls: { default: { http: [...rpcUrls] } } });
  const watches: BroadcastWatches = new Map();
  // viem sends a raw transaction with no retries (`retryCount: 0`), so `fallback` gives a broadcast to each node once.
  const transports = rpcUrls.map((url) => broadcastWatchingHttp(url, watches, broadcastTimeoutMs));
  const transport = transports.length === 1 ? (transports[0] as Transport) : fallback(transports);
  const client = createWalletClient({ account, chain, transport, pollingInterval: 500 }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({ ...client, address: account.address } as never, { confirmationTimeoutMs });
  // Simulated again just before the broadcast: a payer that spent its balance since verification costs no reverted gas.
  // batch-settlement without an authorizer key: the service's own receiverAuthorizer signs its channels' claims.
  const facilitator = new x402Facilitator()
    .register(network, new ExactEvmScheme(signer, { simulateInSettle: true }))
    .register(network, new BatchSettlementEvmScheme(signer));
  /** Pending answers by payment signature, until x402's one retry of a pending settlement takes it. */
  const unanswered = new Map<string, SettleResponse>();

  const chainReachable = () =>
    answerWithin(client.getBlockNumber({ cacheTime: 0 }), probeTimeoutMs).then(
      () => true,
      () => false,
    );
  /**
   * A refusal of verification: the chain's fault when it cannot be reached now, else the payment's.
   * x402 throws on some failed reads and answers others as an invalid signature.
   */
  const unlessChainDown = async <T>(answer: T): Promise<T> => {
    if (!(await chainReachable())) throw new FacilitatorUnavailableError("the chain cannot be reached");
    return answer;
  };

  /**
   * A batch-settlement transaction (a deposit, a claim, a sweep to the receiver): x402's scheme waits for its
   * receipt. Its failures are answers; a throw is a failure before any broadcast.
   */
  async function settleBatch(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    try {
      return await unlessDropped(await facilitator.settle(payload, requirements));
    } catch {
      return { success: false, errorReason: "settlement_failed", transaction: "", network };
    }
  }

  /**
   * `result`, after forgetting the gas key's next nonce when its transaction was sent and not mined and a
   * nonce below it is missing (the node does not know the transaction, or counts fewer pending ones than its
   * nonce): a transaction the chain dropped (a reorg that did not take it back) leaves that gap, and viem's
   * nonce manager counts on from the last nonce it gave, so every later one would wait behind it. A
   * transaction still pending in order, or mined and reverted, changes nothing. The next transaction takes the
   * node's pending count.
   */
  async function unlessDropped(result: SettleResponse): Promise<SettleResponse> {
    if (result.success || !result.transaction || !isHash(result.transaction)) return result;
    try {
      const sent = await client
        .getTransaction({ hash: result.transaction })
        .catch((error: unknown) => (error instanceof TransactionNotFoundError ? null : Promise.reject(error)));
      const pending = await client.getTransactionCount({ address: account.address, blockTag: "pending" });
      if (sent === null || pending <= sent.nonce) nonceManager.reset({ address: account.address, chainId: chain.id });
    } catch {
      // The node cannot be asked now: the manager keeps its count.
    }
    return result;
  }

  return {
    kind: "IN_PROCESS",
    async getSupported() {
      return facilitator.getSupported() as SupportedResponse;
    },
    async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
      let verdict: VerifyResponse;
      try {
        verdict = await facilitator.verify(payload, requirements);
      } catch {
        verdict = { isValid: false, invalidReason: "payment_verification_failed" };
      }
      return verdict.isValid ? verdict : unlessChainDown(verdict);
    },
    async settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
      if (requirements.scheme === "batch-settlement") return settleBatch(payload, requirements);
      const signature = String((payload.payload as { signature?: unknown }).signature);
      const lost = unanswered.get(signature);
      if (lost) {
        // x402 asks once more about a pending settlement: the same unknown broadcast, never a second one.
        unanswered.delete(signature);
        return lost;
      }
      const authorization = paymentAuthorization(requirements.asset, payload);
      if (authorization === null) return { success: false, errorReason: "settlement_failed", transaction: "", network };
      // Its outcome is not known yet: payPerCall claims a payment before it settles it, so this is a second attempt.
      if (watches.has(authorization)) throw new Error("this authorization is being settled already");
      let refused: SettleResponse;
      try {
        const { result, lostBroadcast } = await watchingBroadcasts(watches, authorization, () => facilitator.settle(payload, requirements));
        // A failure after a broadcast whose answer was lost is no failure: the transfer may be mined.
        await unlessDropped(result);
        if (!result.success && !result.transaction && lostBroadcast) {
          const pending = { success: false, errorReason: "settlement_pending", transaction: lostBroadcast, network, payer: result.payer };
          unanswered.set(signature, pending);
          return pending;
        }
        if (result.success || result.transaction) return result;
        refused = result;
      } catch {
        // x402 returns every failure from the broadcast on; a throw comes from its checks before it.
        refused = { success: false, errorReason: "settlement_failed", transaction: "", network };
      }
      // Nothing was sent. x402 answers a failed chain read as an invalid signature: while the chain cannot be read, the refusal is the outage's.
      return (await chainReachable()) ? refused : { success: false, errorReason: "chain_unreachable", transaction: "", network };
    },
    readiness: reuseAnswer(async () => {
      try {
        const [balance, fees] = await answerWithin(
          Promise.all([client.getBalance({ address: account.address }), client.estimateFeesPerGas()]),
          probeTimeoutMs,
        );
        return balance >= fundedSettlements * settlementGas * fees.maxFeePerGas
          ? { ready: true }
          : { ready: false, reason: "GAS_KEY_UNFUNDED" };
      } catch {
        return { ready: false, reason: "RPC_UNREACHABLE" };
      }
    }, 5_000),
  };
}
