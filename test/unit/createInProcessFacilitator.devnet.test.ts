import { executionAsyncId } from "node:async_hooks";
import type { PaymentPayload } from "@x402/core/types";
import { type Address, decodeFunctionData, erc20Abi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { FiatTokenAbi } from "../../abis/FiatTokenAbi";
import { createInProcessFacilitator } from "../../api/x402/createInProcessFacilitator";
import { FacilitatorUnavailableError } from "../../api/x402/X402Facilitator";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { type Anvil, startAnvil } from "../../devnet/anvil";
import { createDevnetClient, type DevnetClient } from "../../devnet/client";
import { compileFixtures } from "../../devnet/compile";
import { seedUsdc } from "../../devnet/seed/tokens";
import { auditTerms, testPayTo } from "../support/recordedFacilitator";
import { type RpcProxy, type RpcProxyMode, startRpcProxy } from "../support/rpcProxy";
import { signedPayment } from "../support/signedPayment";

// Anvil's well-known development keys: the deployer of the USDC fixture, the facilitator's gas key, the payer.
const deployerKey: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const gasKey: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const gasAddress = privateKeyToAccount(gasKey).address;
const payerKey: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const payer = privateKeyToAccount(payerKey).address;
const amount = BigInt(auditTerms.amount);

/**
 * The in-process facilitator against a chain that verifies and mines `transferWithAuthorization`: anvil
 * as Base with the USDC fixture at Base's address (what the devnet seeds), the RPC proxy process for a
 * broadcast whose answer is lost and a node without eth_fillTransaction, and a second anvil as a fallback
 * node. The fast tests
 * (createInProcessFacilitator.test.ts) cover what needs no mined settlement.
 */
let anvil: Anvil;
let chain: DevnetClient;
beforeAll(async () => {
  anvil = await startAnvil();
  chain = createDevnetClient(anvil.rpcUrl, deployerKey);
  await seedUsdc({ client: chain, artifacts: compileFixtures() }, [payer]);
}, 60_000);
afterAll(() => anvil?.stop());

/** The facilitator reading and sending through `rpcUrls`: the primary first, then its fallbacks. */
const facilitatorOn = (rpcUrls: readonly string[], confirmationTimeoutMs?: number) =>
  createInProcessFacilitator({
    privateKey: gasKey,
    rpcUrls,
    network: baseNetwork,
    confirmationTimeoutMs,
    probeTimeoutMs: 20_000,
    // A held broadcast stays held until its test releases it, however slow the machine.
    broadcastTimeoutMs: 300_000,
  });
const payment = async () => (await signedPayment(auditTerms, payerKey)).payload as PaymentPayload;
/** The chain's head now (viem would answer a block number up to a polling interval old). */
const head = () => chain.getBlockNumber({ cacheTime: 0 });
const usdcOf = (owner: Address) => chain.readContract({ address: baseUsdc, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
/** The USDC transfers the gas key's settlements moved from the payer to `testPayTo`, as the chain logs them. */
const settledTransfers = async (fromBlock: bigint) =>
  (
    await chain.getContractEvents({
      address: baseUsdc,
      abi: erc20Abi,
      eventName: "Transfer",
      args: { from: payer, to: testPayTo },
      fromBlock,
    })
  ).map((log) => ({ value: log.args.value, hash: log.transactionHash }));

/** The RPC proxy process in front of the chain, started in `mode` for the tests of the describe that calls this. */
function proxyInMode(mode: RpcProxyMode): () => RpcProxy {
  let proxy: RpcProxy;
  beforeAll(async () => {
    proxy = await startRpcProxy(anvil.rpcUrl, mode);
  });
  afterAll(() => proxy?.stop());
  return () => proxy;
}
/** The broadcasts (`eth_sendRawTransaction`) the proxy has forwarded so far. */
const broadcasts = async (proxy: RpcProxy) => (await proxy.counts()).eth_sendRawTransaction ?? 0;

/** A settlement answered pending: its broadcast's answer was lost, so the hash it was sent under is all that is known. */
const settlementPending = {
  success: false,
  errorReason: "settlement_pending",
  transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
  network: baseNetwork,
  payer,
};

describe("createInProcessFacilitator on a chain that mines the settlement", () => {
  test("behavior: a valid payment verifies, settles in one mined transaction sent by the gas key on Base, and moves exactly the amount", async () => {
    const facilitator = facilitatorOn([anvil.rpcUrl]);
    const paid = await payment();
    const since = await head();
    const before = await usdcOf(testPayTo);
    expect(await facilitator.verify(paid, auditTerms)).toEqual({ isValid: true, payer });
    const settled = await facilitator.settle(paid, auditTerms);
    expect(settled).toEqual({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), network: baseNetwork, payer });
    const sent = await chain.getTransaction({ hash: settled.transaction as Hex });
    expect({ from: sent.from, to: sent.to, chainId: sent.chainId }).toEqual({
      from: gasAddress.toLowerCase(),
      to: baseUsdc.toLowerCase(),
      chainId: 8453,
    });
    expect(await settledTransfers(since + 1n)).toEqual([{ value: amount, hash: settled.transaction }]);
    expect((await usdcOf(testPayTo)) - before).toBe(amount);
  });

  test("behavior: five settlements at once from the one gas key all land, on five consecutive nonces", async () => {
    const facilitator = facilitatorOn([anvil.rpcUrl]);
    const payments = await Promise.all(Array.from({ length: 5 }, payment));
    const since = await head();
    const nonceBefore = await chain.getTransactionCount({ address: gasAddress });
    const settled = await Promise.all(payments.map((paid) => facilitator.settle(paid, auditTerms)));
    expect(settled.map((s) => s.success)).toEqual(Array(5).fill(true));
    expect(await chain.getTransactionCount({ address: gasAddress })).toBe(nonceBefore + 5);
    expect((await settledTransfers(since + 1n)).map((t) => t.hash).sort()).toEqual(settled.map((s) => s.transaction).sort());
  });

  test("behavior: settlements turn on no async hook: a promise's continuation runs under async id 0 before, while and after they are in flight (an AsyncLocalStorage once cost every answer 19% more CPU)", async () => {
    // With a promise hook on (Node 22's AsyncLocalStorage is one), a promise's continuation runs under an async id of its own.
    const continuationAsyncId = async () => {
      await null;
      return executionAsyncId();
    };
    expect(await continuationAsyncId()).toBe(0);
    const facilitator = facilitatorOn([anvil.rpcUrl]);
    const payments = await Promise.all(Array.from({ length: 3 }, payment));
    const settling = payments.map((paid) => facilitator.settle(paid, auditTerms));
    expect(await continuationAsyncId()).toBe(0);
    expect((await Promise.all(settling)).map((s) => s.success)).toEqual([true, true, true]);
    expect(await continuationAsyncId()).toBe(0);
  });

  describe("a broadcast whose answer is lost (the RPC proxy cuts the connection after forwarding it)", () => {
    const proxy = proxyInMode("drop-broadcast-answer");

    test("behavior: it is sent once and answered pending with its hash; x402's retry of it gets the same answer, never a second broadcast", async () => {
      const facilitator = facilitatorOn([proxy().url]);
      const paid = await payment();
      const since = await head();
      const broadcastsBefore = await broadcasts(proxy());
      const pending = await facilitator.settle(paid, auditTerms);
      expect(pending).toEqual(settlementPending);
      // The transfer is mined under the hash the facilitator noted.
      expect((await chain.waitForTransactionReceipt({ hash: pending.transaction as Hex })).status).toBe("success");
      expect(await settledTransfers(since + 1n)).toEqual([{ value: amount, hash: pending.transaction }]);
      expect(await facilitator.settle(paid, auditTerms)).toEqual(pending);
      expect(await broadcasts(proxy())).toBe(broadcastsBefore + 1);
      // Asked a third time, the facilitator settles afresh: the authorization is spent, so it fails, and sends nothing.
      expect(await facilitator.settle(paid, auditTerms)).toMatchObject({ success: false, transaction: "" });
      expect(await broadcasts(proxy())).toBe(broadcastsBefore + 1);
      expect(await settledTransfers(since + 1n)).toHaveLength(1);
    });
  });

  describe("broadcasts whose answers are lost later (the RPC proxy holds them until released, then cuts them)", () => {
    const proxy = proxyInMode("hold-broadcast-answer");
    // A failed test leaves no broadcast held for the next one.
    afterEach(() => proxy().release());
    /** Starts settling `paid` and waits until the proxy holds its broadcast (and `alreadyHeld` others). */
    async function settlingHeld(facilitator: ReturnType<typeof facilitatorOn>, paid: PaymentPayload, alreadyHeld = 0) {
      const settling = facilitator.settle(paid, auditTerms);
      let ended = false;
      const end = () => {
        ended = true;
      };
      settling.then(end, end);
      await vi.waitFor(async () => expect(await proxy().held()).toBe(alreadyHeld + 1), { timeout: 30_000, interval: 50 });
      return { settling, ended: () => ended };
    }

    test("behavior: one lost after another settlement of the same facilitator completed is still answered pending with its hash: the other's end does not take away its broadcast record", async () => {
      await proxy().setMode("hold-broadcast-answer");
      const facilitator = facilitatorOn([proxy().url]);
      const [held, other] = await Promise.all([payment(), payment()]);
      const since = await head();
      const first = await settlingHeld(facilitator, held);
      // The proxy keeps holding the first broadcast's answer while it forwards the next one's.
      await proxy().setMode("pass");
      const settled = await facilitator.settle(other, auditTerms);
      expect(settled).toMatchObject({ success: true });
      expect(first.ended()).toBe(false);
      expect(await proxy().held()).toBe(1);
      await proxy().release();
      const pending = await first.settling;
      expect(pending).toEqual(settlementPending);
      expect((await chain.waitForTransactionReceipt({ hash: pending.transaction as Hex })).status).toBe("success");
      expect((await settledTransfers(since + 1n)).map((t) => t.hash).sort()).toEqual([pending.transaction, settled.transaction].sort());
    });

    test("behavior: two lost together are each answered pending with the hash of its own transaction, which moved its own payment", async () => {
      await proxy().setMode("hold-broadcast-answer");
      const facilitator = facilitatorOn([proxy().url]);
      const paid = await Promise.all([payment(), payment()]);
      const since = await head();
      const first = await settlingHeld(facilitator, paid[0] as PaymentPayload);
      const second = await settlingHeld(facilitator, paid[1] as PaymentPayload, 1);
      await proxy().release();
      const pending = await Promise.all([first.settling, second.settling]);
      expect(pending).toEqual([settlementPending, settlementPending]);
      expect(pending[0]?.transaction).not.toBe(pending[1]?.transaction);
      const nonceOf = (p: PaymentPayload) => (p.payload as { authorization: { nonce: Hex } }).authorization.nonce;
      const spent = await Promise.all(
        pending.map(async (answer) => {
          const sent = await chain.getTransaction({ hash: answer.transaction as Hex });
          return decodeFunctionData({ abi: FiatTokenAbi, data: sent.input }).args[5];
        }),
      );
      expect(spent).toEqual(paid.map(nonceOf));
      expect((await settledTransfers(since + 1n)).map((t) => t.hash).sort()).toEqual(pending.map((p) => p.transaction).sort());
    });

    test("error: the same payment settled again while its broadcast is in flight sends nothing and throws (its outcome is not known yet); the first is still answered pending with its hash", async () => {
      await proxy().setMode("hold-broadcast-answer");
      const facilitator = facilitatorOn([proxy().url]);
      const paid = await payment();
      const broadcastsBefore = await broadcasts(proxy());
      const first = await settlingHeld(facilitator, paid);
      await expect(facilitator.settle(paid, auditTerms)).rejects.toThrow("this authorization is being settled already");
      expect(await broadcasts(proxy())).toBe(broadcastsBefore + 1);
      await proxy().release();
      expect(await first.settling).toEqual(settlementPending);
    });

    test("behavior: while the chain cannot be reached a valid payment's verification is unavailable, not invalid, and its settlement, never sent, fails as chain_unreachable, leaving nothing behind: it settles once the chain is back", async () => {
      const facilitator = facilitatorOn([proxy().url]);
      const paid = await payment();
      await proxy().setMode("down");
      await expect(facilitator.verify(paid, auditTerms)).rejects.toEqual(new FacilitatorUnavailableError("the chain cannot be reached"));
      expect(await facilitator.settle(paid, auditTerms)).toEqual({
        success: false,
        errorReason: "chain_unreachable",
        transaction: "",
        network: baseNetwork,
      });
      await proxy().setMode("pass");
      expect(await facilitator.settle(paid, auditTerms)).toMatchObject({ success: true, payer });
    });

    test("behavior: one held while the chain goes down, then lost, is answered pending with its hash: the outage does not make it a failure", async () => {
      await proxy().setMode("hold-broadcast-answer");
      const facilitator = facilitatorOn([proxy().url]);
      const first = await settlingHeld(facilitator, await payment());
      await proxy().setMode("down");
      await proxy().release();
      const pending = await first.settling;
      expect(pending).toEqual(settlementPending);
      await proxy().setMode("pass");
      expect((await chain.waitForTransactionReceipt({ hash: pending.transaction as Hex })).status).toBe("success");
    });
  });

  describe("a broadcast through an RPC proxy that fails around it", () => {
    const proxy = proxyInMode("pass");
    afterEach(() => proxy().setMode("pass"));

    test.each(["error-broadcast-answer", "no-hash-broadcast-answer"] as const)(
      "behavior: one the node took but answered without its hash (%s: a gateway's failure after it forwarded) is answered pending with its hash, and mined",
      async (mode) => {
        await proxy().setMode(mode);
        const since = await head();
        const pending = await facilitatorOn([proxy().url]).settle(await payment(), auditTerms);
        expect(pending).toEqual(settlementPending);
        expect((await chain.waitForTransactionReceipt({ hash: pending.transaction as Hex })).status).toBe("success");
        expect(await settledTransfers(since + 1n)).toEqual([{ value: amount, hash: pending.transaction }]);
      },
    );

    test("behavior: with a fallback node that cannot be reached, a broadcast whose answer was lost is sent to the primary once: the list of nodes is not tried again", async () => {
      await proxy().setMode("drop-broadcast-answer");
      const before = await broadcasts(proxy());
      const pending = await facilitatorOn([proxy().url, "http://127.0.0.1:1"]).settle(await payment(), auditTerms);
      expect(pending).toEqual(settlementPending);
      expect(await broadcasts(proxy())).toBe(before + 1);
      expect((await chain.waitForTransactionReceipt({ hash: pending.transaction as Hex })).status).toBe("success");
    });

    test("error: one the node refused definitely (its sender cannot pay for gas) is a failure with no transaction, not pending, and nothing moves", async () => {
      await proxy().setMode("refuse-broadcast");
      const since = await head();
      const refused = await facilitatorOn([proxy().url]).settle(await payment(), auditTerms);
      expect(refused).toMatchObject({ success: false, transaction: "" });
      expect(refused.errorReason).not.toBe("settlement_pending");
      // This file's own anvil mined nothing since.
      expect(await head()).toBe(since);
    });

    test("behavior: one taken whose receipt cannot be read (the chain went down after it) is answered pending with its hash, never chain_unreachable", async () => {
      const facilitator = facilitatorOn([proxy().url], 3_000);
      const paid = await payment();
      const before = await broadcasts(proxy());
      await chain.setAutomine(false);
      let waiting: Awaited<ReturnType<typeof facilitator.settle>>;
      try {
        const settling = facilitator.settle(paid, auditTerms);
        await vi.waitFor(async () => expect(await broadcasts(proxy())).toBe(before + 1), { timeout: 30_000, interval: 50 });
        await proxy().setMode("down");
        waiting = await settling;
      } finally {
        await chain.setAutomine(true);
      }
      expect(waiting).toMatchObject({
        success: false,
        errorReason: "settlement_pending",
        transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      await chain.mine({ blocks: 1 });
      expect((await chain.getTransactionReceipt({ hash: waiting.transaction as Hex })).status).toBe("success");
    });
  });

  describe("a broadcast whose answer is lost, then taken by the fallback node (a second anvil)", () => {
    const proxy = proxyInMode("drop-broadcast-answer");
    let fallbackNode: Anvil;
    beforeAll(async () => {
      fallbackNode = await startAnvil();
    });
    afterAll(() => fallbackNode?.stop());

    test("behavior: the fallback's hash is an answer: a receipt that times out is x402's own pending result, and x402's retry settles it once mined", async () => {
      // The primary keeps the transfer unmined; the fallback node takes the same raw transaction (a future
      // nonce on a fresh chain is queued, and answered with its hash), so the facilitator knows where it went.
      const facilitator = facilitatorOn([proxy().url, fallbackNode.rpcUrl], 1_000);
      const paid = await payment();
      await chain.setAutomine(false);
      let waiting: Awaited<ReturnType<typeof facilitator.settle>>;
      try {
        waiting = await facilitator.settle(paid, auditTerms);
        await chain.mine({ blocks: 1 });
      } finally {
        await chain.setAutomine(true);
      }
      expect(waiting).toEqual({
        success: false,
        errorReason: "settlement_pending",
        errorMessage: expect.stringContaining("Timed out while waiting for transaction"),
        transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        network: baseNetwork,
        payer,
      });
      expect(await broadcasts(proxy())).toBe(1);
      // x402 kept the hash for its retry: asked again, it waits for that receipt and reports it settled.
      expect(await facilitator.settle(paid, auditTerms)).toEqual({
        success: true,
        transaction: waiting.transaction,
        network: baseNetwork,
        payer,
      });
    });
  });

  test("behavior: through a node without eth_fillTransaction it settles on Base all the same: the chain id is its own definition's", async () => {
    const proxy = await startRpcProxy(anvil.rpcUrl, "no-fill-transaction");
    try {
      const settled = await facilitatorOn([proxy.url]).settle(await payment(), auditTerms);
      expect(settled).toMatchObject({ success: true, payer });
      expect((await chain.getTransaction({ hash: settled.transaction as Hex })).chainId).toBe(8453);
    } finally {
      await proxy.stop();
    }
  });

  test("error: a payer that spent its balance after verification is refused at settlement by its simulation (not a failed gas estimate): nothing is broadcast", async () => {
    const facilitator = facilitatorOn([anvil.rpcUrl]);
    const paid = await payment();
    expect(await facilitator.verify(paid, auditTerms)).toEqual({ isValid: true, payer });
    const payerWallet = createDevnetClient(anvil.rpcUrl, payerKey);
    const held = await usdcOf(payer);
    const deployer = privateKeyToAccount(deployerKey).address;
    await payerWallet.waitForTransactionReceipt({
      hash: await payerWallet.writeContract({ address: baseUsdc, abi: erc20Abi, functionName: "transfer", args: [deployer, held] }),
    });
    try {
      const nonceBefore = await chain.getTransactionCount({ address: gasAddress });
      expect(await facilitator.settle(paid, auditTerms)).toEqual({
        success: false,
        errorReason: "invalid_exact_evm_transaction_simulation_failed",
        transaction: "",
        network: baseNetwork,
        payer,
      });
      expect(await chain.getTransactionCount({ address: gasAddress })).toBe(nonceBefore);
    } finally {
      await chain.waitForTransactionReceipt({
        hash: await chain.writeContract({ address: baseUsdc, abi: erc20Abi, functionName: "transfer", args: [payer, held] }),
      });
    }
  });

  test("behavior: a settlement not mined within confirmationTimeoutMs is answered unsuccessful with its transaction, never as settled", async () => {
    const facilitator = facilitatorOn([anvil.rpcUrl], 1_000);
    const paid = await payment();
    await chain.setAutomine(false);
    try {
      const waiting = await facilitator.settle(paid, auditTerms);
      expect(waiting).toMatchObject({ success: false, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      await chain.mine({ blocks: 1 });
      expect((await chain.getTransactionReceipt({ hash: waiting.transaction as Hex })).status).toBe("success");
    } finally {
      await chain.setAutomine(true);
    }
  });
});
