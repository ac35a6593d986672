import { type Address, encodeAbiParameters, encodeEventTopics, encodeFunctionData, type Hex, numberToHex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { FiatTokenAbi } from "../../abis/FiatTokenAbi";
import type { RpcProvider } from "../../api/chain/providers";
import { type ConfirmSettlement, evidenceGradeSettlement } from "../../api/x402/confirmSettlement";
import { chainResolution, type PendingSettlement } from "../../api/x402/resolvePendingSettlement";
import { baseUsdc } from "../../base/baseChain";
import { type RecordedChain, recordedBlock, settlementTransaction, startRecordedChain } from "../support/recordedChain";
import { txHashOf } from "../support/recordedFacilitator";

// Anvil's well-known accounts: the payer, the payee, and the facilitator's gas key that sends the settlement.
const payer = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" as Address;
const payTo = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc" as Address;
const gasKey = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as Address;
const genesis = 1_773_000_000;
const head = 1_500;
/** The head block's own time: what "expired" is judged by. */
const headTime = BigInt(genesis + 2 * head);
const nonce = txHashOf("the authorization's nonce");
const pending: PendingSettlement = { from: payer, to: payTo, amount: 20_000n, nonce, validBefore: headTime + 60n, txHash: null };

/** Creation code answering its block's TIMESTAMP (resolvePendingSettlement's deployless read). */
const blockTimestampCall = "deployless:0x4260005260206000f3";
const authorizationStateCall =
  `${baseUsdc}:${encodeFunctionData({ abi: FiatTokenAbi, functionName: "authorizationState", args: [payer, nonce] })}`.toLowerCase();
const word = (value: bigint) => encodeAbiParameters([{ type: "uint256" }], [value]);

let primary: RecordedChain;
/** A public provider of the same chain: where the authorization's use may be found when the primary's logs miss it. */
let secondary: RecordedChain;
beforeAll(async () => {
  [primary, secondary] = await Promise.all([startRecordedChain(head, genesis), startRecordedChain(head, genesis)]);
});
afterAll(() => Promise.all([primary.stop(), secondary.stop()]));
beforeEach(() => {
  for (const chain of [primary, secondary]) {
    chain.head = head;
    chain.transactions.clear();
    chain.calls.clear();
    chain.calls.set(blockTimestampCall, word(headTime));
    chain.logs = [];
    chain.down = false;
    chain.requests.length = 0;
  }
});

/** Records the settlement that used the authorization, mined at block 1,490, and its AuthorizationUsed log; its hash. */
function used(label: string, value = 20_000n, on = primary): Hex {
  const hash = txHashOf(label);
  const mined = settlementTransaction({
    hash,
    block: recordedBlock(1_490, genesis),
    facilitator: gasKey,
    token: baseUsdc,
    authorizer: payer,
    nonce,
    transfers: [{ token: baseUsdc, from: payer, to: payTo, value }],
  });
  on.transactions.set(hash, mined);
  on.calls.set(authorizationStateCall, word(1n));
  on.logs = mined.logs.slice(0, 1);
  return hash;
}

const confirmOn = (providers: RpcProvider[]): ConfirmSettlement =>
  evidenceGradeSettlement({ providers, chainId: 8453, token: baseUsdc, attempts: 1, intervalMs: 1 });
/** The resolution over the primary alone (the trusted provider), confirming candidates at evidence grade on it. */
const resolve = (p: PendingSettlement, searchBlocks?: number) => {
  const providers = [primary.provider("primary", true)];
  return chainResolution({ providers, chainId: 8453, token: baseUsdc, confirmSettlement: confirmOn(providers), searchBlocks })(p);
};
const methods = (chain: RecordedChain) => chain.requests.map((r) => r.method);

describe("chainResolution", () => {
  test("the known transaction, confirmed: SETTLED, without reading the authorization", async () => {
    const hash = used("known");
    expect(await resolve({ ...pending, txHash: hash })).toEqual({ status: "SETTLED", txHash: hash });
    expect(methods(primary)).not.toContain("eth_call");
  });

  test("used on the chain: the transaction of its AuthorizationUsed log, once confirmed, settles it; the search reaches back 1,000 blocks", async () => {
    const hash = used("found by its log");
    expect(await resolve({ ...pending, txHash: txHashOf("a broadcast never mined") })).toEqual({ status: "SETTLED", txHash: hash });
    const search = primary.requests.find((r) => r.method === "eth_getLogs");
    expect(search?.params).toEqual([
      {
        address: baseUsdc,
        topics: encodeEventTopics({ abi: FiatTokenAbi, eventName: "AuthorizationUsed", args: { authorizer: payer, nonce } }),
        fromBlock: numberToHex(head - 1_000),
        toBlock: "latest",
      },
    ]);
    primary.requests.length = 0;
    await resolve(pending, 2_000);
    expect(primary.requests.find((r) => r.method === "eth_getLogs")?.params).toMatchObject([{ fromBlock: "0x0" }]);
  });

  test("used, but its transaction does not carry the transfer, or no log names it: still PENDING", async () => {
    used("underpaid", 19_999n);
    expect(await resolve(pending)).toEqual({ status: "PENDING" });
    primary.logs = [];
    expect(await resolve(pending)).toEqual({ status: "PENDING" });
    primary.logs = null;
    expect(await resolve(pending)).toEqual({ status: "PENDING" });
  });

  test("a log found on a later provider when the first one's search fails or finds nothing", async () => {
    const hash = used("on the public provider", 20_000n, secondary);
    primary.calls.set(authorizationStateCall, word(1n));
    const providers = [primary.provider("primary", true), secondary.provider("public", false)];
    const confirmSettlement = confirmOn(providers);
    for (const logs of [[], null]) {
      primary.logs = logs;
      expect(await chainResolution({ providers, chainId: 8453, token: baseUsdc, confirmSettlement })(pending)).toEqual({
        status: "PENDING",
      });
    }
    // Confirmed at evidence grade on the primary once it has the transaction too.
    primary.transactions.set(hash, secondary.transactions.get(hash) as never);
    expect(await chainResolution({ providers, chainId: 8453, token: baseUsdc, confirmSettlement })(pending)).toEqual({
      status: "SETTLED",
      txHash: hash,
    });
  });

  test("unused at a block whose own time is at or past validBefore: FAILED authorization_expired_unused; before it, PENDING", async () => {
    primary.calls.set(authorizationStateCall, word(0n));
    expect(await resolve({ ...pending, validBefore: headTime })).toEqual({ status: "FAILED", reason: "authorization_expired_unused" });
    expect(await resolve({ ...pending, validBefore: headTime - 1n })).toEqual({ status: "FAILED", reason: "authorization_expired_unused" });
    expect(await resolve({ ...pending, validBefore: headTime + 1n })).toEqual({ status: "PENDING" });
    // The block's time could not be read: never judged expired.
    primary.calls.delete(blockTimestampCall);
    expect(await resolve({ ...pending, validBefore: headTime - 1n })).toEqual({ status: "PENDING" });
    expect(methods(primary)).not.toContain("eth_getLogs");
  });

  test("the authorization's state cannot be read, or no evidence-grade block: PENDING", async () => {
    expect(await resolve({ ...pending, validBefore: 0n })).toEqual({ status: "PENDING" });
    primary.down = true;
    expect(await resolve({ ...pending, validBefore: 0n })).toEqual({ status: "PENDING" });
    // One public provider alone is no evidence grade.
    primary.down = false;
    primary.calls.set(authorizationStateCall, word(0n));
    const providers = [primary.provider("public", false)];
    const lone = chainResolution({ providers, chainId: 8453, token: baseUsdc, confirmSettlement: confirmOn(providers) });
    expect(await lone({ ...pending, validBefore: 0n })).toEqual({ status: "PENDING" });
  });
});
