import type { Client, PayableCallParameters } from "../createClient.js";
import type { Address, Hex } from "../types.js";
import type { GuardedTransaction, GuardObservation, GuardPolicy, GuardVerdict } from "./GuardObservation.js";
import { GuardPolicyRequiredError, GuardRefusedError, TransactionGuardError } from "./guardErrors.js";

/** The chain the service observes. */
const baseChainId = 8453 as const;

export type TransactionGuardParameters = {
  /** The service client that observes (its API key, or `pay` for audits paid with x402). */
  client: Client;
  /** Without one, every transaction throws GuardPolicyRequiredError before anything is observed or sent. */
  policy: GuardPolicy | undefined;
  /** `audit` (default): the target's capability audit; `preflight`: the exact call, resolved and simulated (API key only). */
  observe?: "audit" | "preflight";
  /** Pay the audit with x402 (audit only; see the client's payment option). */
  pay?: PayableCallParameters["pay"];
};

type AccountLike = Address | { address: Address } | null | undefined;
type ChainLike = { id: number } | null | undefined;
type SendArgs = { to?: Address | null; data?: Hex; value?: bigint; account?: AccountLike; chain?: ChainLike };
type WriteArgs = {
  address: Address;
  abi: readonly unknown[];
  functionName: string;
  args?: readonly unknown[];
  value?: bigint;
  dataSuffix?: Hex;
  account?: AccountLike;
  chain?: ChainLike;
};

/** The part of a viem wallet client the guard wraps. */
export type GuardableWallet = {
  account?: { address: Address } | undefined;
  chain?: { id: number } | undefined;
  sendTransaction(args: never): Promise<Hex>;
  writeContract(args: never): Promise<Hex>;
};

/**
 * A viem wallet-client extension: `sendTransaction` and `writeContract` first observe the target through
 * the service (its audit, or a preflight of the exact call), then run `policy` on the observation, and
 * send only when it answers `{allow: true}`. A refusal throws GuardRefusedError naming the reason; a
 * failed observation throws the client's ServiceError; in both cases nothing is signed or sent.
 *
 * @example
 * const guarded = walletClient.extend(transactionGuard({ client, policy: (seen) =>
 *   seen.kind === "audit" && seen.audit.detectedCapabilities.includes("SELFDESTRUCT_OPCODE")
 *     ? { allow: false, reason: "the target can self-destruct" } : { allow: true } }));
 * await guarded.writeContract({ address, abi, functionName: "transfer", args: [to, amount] });
 */
export function transactionGuard(options: TransactionGuardParameters) {
  return <W extends GuardableWallet>(wallet: W): Pick<W, "sendTransaction" | "writeContract"> => {
    const from = (account: AccountLike) => (typeof account === "string" ? account : (account?.address ?? wallet.account?.address));
    // The service observes Base: a transaction for another chain would be judged on a Base contract's code.
    const onBase = (chain: ChainLike) => {
      const id = (chain ?? wallet.chain)?.id;
      if (id !== baseChainId) {
        throw new TransactionGuardError(
          "GUARD_WRONG_CHAIN",
          `the service observes Base (chain ${baseChainId}), not chain ${id ?? "(none set)"}`,
        );
      }
    };
    const sendTransaction = async (args: SendArgs): Promise<Hex> => {
      const { to, data, value, account } = args;
      onBase(args.chain);
      if (!to) throw new TransactionGuardError("GUARD_NO_TARGET", "a transaction without a target (a deployment) has nothing to observe");
      await enforce(options, { to, data, value, from: from(account) });
      return wallet.sendTransaction(args as never);
    };
    const writeContract = async (args: WriteArgs): Promise<Hex> => {
      onBase(args.chain);
      const { encodeFunctionData, concat } = await import("viem");
      const call = encodeFunctionData({ abi: args.abi, functionName: args.functionName, args: args.args } as never);
      const data = args.dataSuffix ? concat([call, args.dataSuffix]) : call;
      await enforce(options, { to: args.address, data, value: args.value, from: from(args.account) });
      return wallet.writeContract(args as never);
    };
    // The wallet's own signatures (viem's generics), so that the guarded client types each call as before.
    return { sendTransaction, writeContract } as unknown as Pick<W, "sendTransaction" | "writeContract">;
  };
}

/** Observes `transaction` and runs the policy; returns only when the policy allows it. */
async function enforce(
  { client, policy, observe = "audit", pay }: TransactionGuardParameters,
  transaction: GuardedTransaction,
): Promise<void> {
  if (!policy) throw new GuardPolicyRequiredError();
  const observation: GuardObservation =
    observe === "audit"
      ? { kind: "audit", transaction, audit: (await client.audit(transaction.to, { pay })).data }
      : { kind: "preflight", transaction, preflight: (await client.preflight(preflightRequest(transaction))).data };
  const verdict: unknown = await policy(observation);
  if ((verdict as GuardVerdict | undefined)?.allow === true) return;
  const reason = (verdict as { reason?: unknown } | undefined)?.reason;
  throw new GuardRefusedError(typeof reason === "string" ? reason : "the policy did not answer {allow: true}", observation);
}

function preflightRequest({ to, data, value, from }: GuardedTransaction) {
  return {
    chainId: baseChainId,
    to,
    ...(data ? { data } : {}),
    ...(from ? { from } : {}),
    ...(value !== undefined ? { value: `0x${value.toString(16)}` as Hex } : {}),
  };
}
