import { type Address, type Hex, parseEther, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { X402ClaimPolicy } from "../../api/config";
import type { AppDb } from "../../api/store/createAppStore";
import {
  createX402ClaimJob,
  reorgReadDepthBlocks,
  reorgWatchSeconds,
  type X402ClaimJobParameters,
} from "../../api/x402/createX402ClaimJob";
import { batchEscrowAddress } from "../../api/x402/escrowCodeCheck";
import { escrowStateOnChain } from "../../api/x402/readEscrowState";
import type { X402Facilitator } from "../../api/x402/X402Facilitator";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { createDevnetClient } from "../../devnet/client";
import type { Manifest } from "../../devnet/manifest";
import { type Backend, backendNames, openBackend } from "../access/support";
import { batchPayingFetch, escrowAbi, newPayer, price } from "../support/batchPayer";
import { devnetProvider, privateFork, testClient } from "../support/devnet";
import { startRpcProxy } from "../support/rpcProxy";
import { usdcBalance } from "../support/usdc";
import { testFacilitator } from "../support/x402";
import { batchService, fetcher, origin, path, storedVouchers } from "./batchSupport";
import { fundedKey } from "./support";

// Claims and sweeps are mined on a private fork (one block per transaction): no other file sees them.
const fork = privateFork();
let manifest: Manifest;
beforeAll(() => {
  manifest = fork.manifest();
});

/** Bounds no test reaches unless it lowers one. */
const farBounds: X402ClaimPolicy = { maxVouchers: 1000, minAmount: 10n ** 12n, maxAgeSeconds: 300, maxClaimsPerBatch: 100 };

type BatchService = Awaited<ReturnType<typeof batchService>>;

/** The claim job of `service` over `db` (a replica's view of the store), claiming through `facilitator` (default: the service's). */
function claimJobOf(
  service: BatchService,
  db: AppDb,
  policy: Partial<X402ClaimPolicy> = {},
  overrides: Partial<X402ClaimJobParameters> & { facilitator?: X402Facilitator } = {},
) {
  const scheme = service.x402.batchScheme;
  if (!scheme) throw new Error("batch-settlement is not offered");
  const { facilitator = service.x402.facilitator, ...rest } = overrides;
  return createX402ClaimJob({
    db,
    manager: scheme.createChannelManager(facilitator, baseNetwork, baseUsdc),
    channels: scheme.getStorage(),
    escrow: escrowStateOnChain({ providers: [devnetProvider(manifest.rpcUrl)], chainId: 8453 }),
    receiver: service.payTo,
    token: baseUsdc,
    policy: { ...farBounds, ...policy },
    retentionSeconds: 86_400,
    log: () => {},
    ...rest,
  });
}

/** A new payer that deposits `depositCalls` calls' worth and pays `calls` calls (the deposit's first): its channel id. */
async function payCalls(
  service: BatchService,
  backend: Backend,
  calls: number,
  depositCalls = 10,
  chain = manifest,
): Promise<{ payer: Address; channelId: Hex }> {
  const payerKey = await newPayer(chain, BigInt(depositCalls));
  const { pay } = batchPayingFetch(chain, fetcher(service.app), payerKey, depositCalls);
  for (let call = 0; call < calls; call++) {
    await service.marketIndex.syncHead();
    const res = await pay(`${origin}${path}`);
    expect(res.status, await res.clone().text()).toBe(200);
  }
  const payer = privateKeyToAccount(payerKey).address;
  const [first] = await storedVouchers(backend, payer);
  return { payer, channelId: first?.channel_id as Hex };
}

/** The escrow's claimed total of `channelId`, read from the chain. */
async function claimedOnChain(channelId: Hex, chain = manifest): Promise<bigint> {
  const [, totalClaimed] = await testClient(chain).readContract({
    address: batchEscrowAddress,
    abi: escrowAbi,
    functionName: "channels",
    args: [channelId],
  });
  return totalClaimed;
}

/** `payer`'s channel in the store: its id and configuration, as the escrow takes it. */
async function channelOf(backend: Backend, payer: Address) {
  const [row] = (await backend.sql(
    "SELECT channel_id, payer, payer_authorizer, receiver, receiver_authorizer, token, withdraw_delay, salt FROM app.x402_channel WHERE lower(payer) = lower($1)",
    [payer],
  )) as Record<string, string>[];
  if (!row) throw new Error("no channel");
  const config = {
    payer: row.payer as Address,
    payerAuthorizer: row.payer_authorizer as Address,
    receiver: row.receiver as Address,
    receiverAuthorizer: row.receiver_authorizer as Address,
    token: row.token as Address,
    withdrawDelay: Number(row.withdraw_delay),
    salt: row.salt as Hex,
  };
  return { channelId: row.channel_id as Hex, config };
}

/** The payer's own escrow call (`initiateWithdraw` with `amount`, or `finalizeWithdraw`), with gas given to it. */
async function withdraw(
  chain: Manifest,
  payerKey: Hex,
  functionName: "initiateWithdraw" | "finalizeWithdraw",
  config: Awaited<ReturnType<typeof channelOf>>["config"],
  amount?: bigint,
) {
  const payer = createDevnetClient(chain.rpcUrl, payerKey);
  await testClient(chain).setBalance({ address: payer.account.address, value: parseEther("1") });
  const hash =
    functionName === "initiateWithdraw"
      ? await payer.writeContract({ address: batchEscrowAddress, abi: escrowAbi, functionName, args: [config, amount ?? 0n] })
      : await payer.writeContract({ address: batchEscrowAddress, abi: escrowAbi, functionName, args: [config] });
  expect((await payer.waitForTransactionReceipt({ hash })).status).toBe("success");
}

const storedClaimed = async (backend: Backend, channelId: Hex) =>
  ((await backend.sql("SELECT total_claimed::text AS t FROM app.x402_channel WHERE channel_id = $1", [channelId])) as { t: string }[])[0]
    ?.t;

describe.each(backendNames)("x402 batch-settlement claims and sweeps, app store on %s", (backendName) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend(backendName);
  }, 60_000);
  afterAll(() => backend?.close());

  test("behavior: vouchers wait below the bounds; at the count bound one transaction claims every channel; the sweep pays the receiver to the unit", async () => {
    const service = await batchService(manifest, backend, privateKeyToAccount(generatePrivateKey()).address);
    const job = claimJobOf(service, backend.store.db, { maxVouchers: 5 });
    const gasNonce = () => testClient(manifest).getTransactionCount({ address: service.gasKey });
    try {
      const a = await payCalls(service, backend, 2);
      const b = await payCalls(service, backend, 2);
      const nonceBefore = await gasNonce();
      expect(await job.claimOnce()).toEqual({ kind: "WAITING", vouchers: 4, unclaimed: 4n * price, reconciled: 0, reorged: 0 });
      expect(await gasNonce()).toBe(nonceBefore);

      // A third payer's voucher is the fifth, the bound: the three channels in one claim, recorded in the store.
      const third = await payCalls(service, backend, 1);
      const round = await job.claimOnce();
      expect(round).toMatchObject({ kind: "CLAIMED", trigger: "COUNT", channels: 3, failed: 0, reconciled: 0 });
      const transactions = round.kind === "CLAIMED" ? round.transactions : [];
      expect(transactions).toHaveLength(1);
      const receipt = await testClient(manifest).getTransactionReceipt({ hash: transactions[0] as Hex });
      const claimed = parseEventLogs({ abi: escrowAbi, eventName: "Claimed", logs: receipt.logs }).map(
        (l) => [l.args.channelId, l.args.newTotalClaimed] as const,
      );
      expect(new Map(claimed)).toEqual(
        new Map([
          [a.channelId, 2n * price],
          [b.channelId, 2n * price],
          [third.channelId, price],
        ]),
      );
      expect(await storedClaimed(backend, a.channelId)).toBe((2n * price).toString());
      expect(await job.claimOnce()).toEqual({ kind: "WAITING", vouchers: 0, unclaimed: 0n, reconciled: 0, reorged: 0 });

      // The sweep sends what was claimed to the payout address, once.
      expect(await usdcBalance(manifest, service.payTo)).toBe(0n);
      expect(await job.sweepOnce()).toMatchObject({ kind: "SWEPT", amount: 5n * price });
      expect(await usdcBalance(manifest, service.payTo)).toBe(5n * price);
      expect(await job.sweepOnce()).toEqual({ kind: "NOTHING" });

      // Claimed vouchers are kept for the retention period, and while their channel is watched for reorgs (a
      // process watches every claimed channel for reorgWatchSeconds after it starts), then pruned; the channel
      // rows stay.
      expect(await storedVouchers(backend, a.payer)).toHaveLength(2);
      await job.stop();
      let now = Date.now() + 86_400_000 + 60_000;
      const later = claimJobOf(service, backend.store.db, {}, { clock: () => new Date(now) });
      expect(await later.claimOnce()).toMatchObject({ kind: "WAITING", vouchers: 0 });
      expect(await storedVouchers(backend, a.payer)).toHaveLength(2);
      now += (reorgWatchSeconds + 1) * 1000;
      expect(await later.claimOnce()).toMatchObject({ kind: "WAITING", vouchers: 0 });
      await later.stop();
      expect(await storedVouchers(backend, a.payer)).toHaveLength(0);
      expect(await storedClaimed(backend, a.channelId)).toBe((2n * price).toString());
    } finally {
      await job.stop();
    }
  }, 240_000);

  test("recovery: a claim mined before its process recorded it is read back from the chain, not sent again", async () => {
    const service = await batchService(manifest, backend, privateKeyToAccount(generatePrivateKey()).address);
    const { channelId } = await payCalls(service, backend, 3);
    // The process that claimed died before its store write: the chain holds the claim, the store does not.
    const scheme = service.x402.batchScheme;
    await scheme?.createChannelManager(service.x402.facilitator, baseNetwork, baseUsdc).claim();
    expect(await claimedOnChain(channelId)).toBe(3n * price);
    await backend.sql("UPDATE app.x402_channel SET total_claimed = 0 WHERE channel_id = $1", [channelId]);
    const nonceAfterClaim = await testClient(manifest).getTransactionCount({ address: service.gasKey });

    const job = claimJobOf(service, backend.store.db, { maxVouchers: 1 });
    try {
      expect(await job.claimOnce()).toEqual({ kind: "WAITING", vouchers: 0, unclaimed: 0n, reconciled: 1, reorged: 0 });
      expect(await storedClaimed(backend, channelId)).toBe((3n * price).toString());
      expect(await testClient(manifest).getTransactionCount({ address: service.gasKey })).toBe(nonceAfterClaim);
    } finally {
      await job.stop();
    }
  }, 180_000);

  test("recovery: a claim a reorg took out of the chain is read back in the next round and claimed again", async () => {
    // A confirmation timeout of 12 s instead of 30: the re-claim waits one out (below).
    const service = await batchService(manifest, backend, privateKeyToAccount(generatePrivateKey()).address, {
      confirmationTimeoutMs: 12_000,
    });
    const { channelId } = await payCalls(service, backend, 3);
    const job = claimJobOf(service, backend.store.db, { maxVouchers: 1 });
    const beforeClaim = await testClient(manifest).snapshot();
    try {
      expect(await job.claimOnce()).toMatchObject({ kind: "CLAIMED", trigger: "COUNT", channels: 1, reorged: 0 });
      expect(await claimedOnChain(channelId)).toBe(3n * price);
      // The block holding the claim is dropped: the chain goes back to the block before it (anvil's evm_revert).
      await testClient(manifest).revert({ id: beforeClaim });
      expect([await claimedOnChain(channelId), await storedClaimed(backend, channelId)]).toEqual([0n, (3n * price).toString()]);
      // A read no further than reorgReadDepthBlocks past the claim round's block may be a lagging provider's: the
      // recorded claim stands.
      expect(await job.claimOnce()).toMatchObject({ kind: "WAITING", vouchers: 0, reorged: 0, reconciled: 0 });
      expect(await storedClaimed(backend, channelId)).toBe((3n * price).toString());
      // Past it, the claim is gone: the channel's vouchers are claimed again. The batch's transaction waits behind
      // the gap the dropped one left in the gas key's nonces until its confirmation times out (12 s here); the
      // facilitator then forgets its next nonce, and the claim of the channel alone is mined.
      await testClient(manifest).mine({ blocks: reorgReadDepthBlocks + 1 });
      expect(await job.claimOnce()).toMatchObject({ kind: "CLAIMED", trigger: "COUNT", channels: 1, failed: 0, reorged: 1, reconciled: 0 });
      expect([await claimedOnChain(channelId), await storedClaimed(backend, channelId)]).toEqual([3n * price, (3n * price).toString()]);
      // Read back while the watch lasts, and changed no more.
      expect(await job.claimOnce()).toMatchObject({ kind: "WAITING", vouchers: 0, reorged: 0, reconciled: 0 });
    } finally {
      await job.stop();
    }
  }, 180_000);

  test("retry: a claim that cannot be sent fails its round and the next round sends it; of two replicas' jobs one claims", async () => {
    const service = await batchService(manifest, backend, privateKeyToAccount(generatePrivateKey()).address);
    const { channelId } = await payCalls(service, backend, 2);
    const proxy = await startRpcProxy(manifest.rpcUrl, "down");
    const throughProxy = testFacilitator(manifest, await fundedKey(manifest), [proxy.url]);
    const job = claimJobOf(service, backend.store.db, { maxVouchers: 1 }, { facilitator: throughProxy });
    const other = claimJobOf(service, backend.replica(1).db, { maxVouchers: 1 });
    try {
      expect(await job.claimOnce()).toMatchObject({ kind: "FAILED", trigger: "COUNT" });
      expect(await claimedOnChain(channelId)).toBe(0n);
      // The lease stays with the job that took it: the other replica's job claims nothing meanwhile.
      expect(await other.claimOnce()).toEqual({ kind: "NOT_LEASED" });
      await proxy.setMode("pass");
      expect(await job.claimOnce()).toMatchObject({ kind: "CLAIMED", trigger: "COUNT", channels: 1 });
      expect(await claimedOnChain(channelId)).toBe(2n * price);
      // Given up at stop, the lease goes to the other replica at once.
      await job.stop();
      expect(await other.claimOnce()).toEqual({ kind: "WAITING", vouchers: 0, unclaimed: 0n, reconciled: 0, reorged: 0 });
    } finally {
      await job.stop();
      await other.stop();
      await proxy.stop();
    }
  }, 180_000);

  test("behavior: a payer's pending withdrawal is claimed at once, below every bound", async () => {
    const service = await batchService(manifest, backend, privateKeyToAccount(generatePrivateKey()).address);
    const payerKey = await newPayer(manifest, 10n);
    const { pay } = batchPayingFetch(manifest, fetcher(service.app), payerKey, 10);
    await service.marketIndex.syncHead();
    expect((await pay(`${origin}${path}`)).status).toBe(200);
    const payer = privateKeyToAccount(payerKey).address;
    const { channelId, config } = await channelOf(backend, payer);
    // The payer starts its timed withdrawal of what it has not spent (it needs gas for that).
    await testClient(manifest).setBalance({ address: payer, value: parseEther("1") });
    const payerClient = createDevnetClient(manifest.rpcUrl, payerKey);
    const hash = await payerClient.writeContract({
      address: batchEscrowAddress,
      abi: escrowAbi,
      functionName: "initiateWithdraw",
      args: [config, 9n * price],
    });
    expect((await payerClient.waitForTransactionReceipt({ hash })).status).toBe("success");

    const job = claimJobOf(service, backend.store.db);
    try {
      expect(await job.claimOnce()).toMatchObject({ kind: "CLAIMED", trigger: "WITHDRAWAL", channels: 1 });
      expect(await claimedOnChain(channelId)).toBe(price);
    } finally {
      await job.stop();
    }
  }, 180_000);
});

// The withdrawal delay is passed by moving the chain's clock: on a fork of its own, which no other test pays on after.
describe.each(backendNames)("x402 batch-settlement claims after a payer's withdrawal, app store on %s", (backendName) => {
  const laterFork = privateFork();
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend(backendName);
  }, 60_000);
  afterAll(() => backend?.close());

  test("attack: vouchers above what a payer left in escrow are claimed up to its balance and do not sink the other channels' claim", async () => {
    const chain = laterFork.manifest();
    const service = await batchService(chain, backend, privateKeyToAccount(generatePrivateKey()).address);
    const honest = await payCalls(service, backend, 2, 10, chain);
    // The attacker pays 3 calls, then withdraws 9 of its 10 calls' deposit (allowed: nothing of it is claimed yet).
    const attackerKey = await newPayer(chain, 10n);
    const { pay } = batchPayingFetch(chain, fetcher(service.app), attackerKey, 10);
    for (let call = 0; call < 3; call++) {
      await service.marketIndex.syncHead();
      expect((await pay(`${origin}${path}`)).status).toBe(200);
    }
    const attacker = await channelOf(backend, privateKeyToAccount(attackerKey).address);
    await withdraw(chain, attackerKey, "initiateWithdraw", attacker.config, 9n * price);
    await testClient(chain).increaseTime({ seconds: attacker.config.withdrawDelay + 1 });
    await testClient(chain).mine({ blocks: 1 });
    await withdraw(chain, attackerKey, "finalizeWithdraw", attacker.config);
    const [balance] = await testClient(chain).readContract({
      address: batchEscrowAddress,
      abi: escrowAbi,
      functionName: "channels",
      args: [attacker.channelId],
    });
    expect(balance).toBe(price);

    // Its 3 calls' voucher alone would revert the whole claim (ClaimExceedsBalance): it is claimed up to the 1 call left.
    const job = claimJobOf(
      service,
      backend.store.db,
      { maxVouchers: 1 },
      { escrow: escrowStateOnChain({ providers: [devnetProvider(chain.rpcUrl)], chainId: 8453 }) },
    );
    try {
      expect(await job.claimOnce()).toMatchObject({ kind: "CLAIMED", channels: 2, failed: 0 });
      expect(await claimedOnChain(honest.channelId, chain)).toBe(2n * price);
      expect(await claimedOnChain(attacker.channelId, chain)).toBe(price);
      // Nothing is left to take from it: no further claim is sent for its vouchers above the balance.
      expect(await job.claimOnce()).toEqual({ kind: "WAITING", vouchers: 0, unclaimed: 0n, reconciled: 0, reorged: 0 });
    } finally {
      await job.stop();
    }
  }, 240_000);
});
