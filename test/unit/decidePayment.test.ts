import { type Address, getAddress, type Hex } from "viem";
import { describe, expect, test, vi } from "vitest";
import type { IndexedPayment } from "../../api/index/readPayments";
import { requiredConfirmations } from "../../api/payments/confirmations";
import { type DecidePaymentParameters, decidePayment, type ExpectedPayment } from "../../api/payments/decidePayment";
import type { PaymentTransaction, ReceiptTransfer } from "../../api/payments/readPaymentTransaction";

// Lowercase, as readPaymentTransaction and the index hand them over: anvil's first four accounts (the
// intent's wallet, the payout address, a stranger, a former payout address), Base's USDC and a router.
const wallet = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" as Address;
const stranger = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc" as Address;
const payTo = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" as Address;
const formerPayTo = "0x90f79bf6eb2c4f870365e785982e1f101e93b906" as Address;
const usdc = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913" as Address;
const router = "0x2626664c2603336e57b271c5c0b26f421741e481" as Address;

const txHash = "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060" as Hex;
const blockHash = "0x9b71c1f0e1f6b0c2b7fba1a0a8e1f3ad7e3cf6a1e4b2d2c31d1a2e4f5b6c7d8e" as Hex;
const reorgedHash = "0x1e0b6d7c9a3f4e2b8d5c6a7f9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a697887" as Hex;
const blockNumber = 24_410_311;
const blockTimestamp = 1_795_433_117;

/** 49 USDC and 0.016 ETH, to be paid by 10 minutes after the block's time. */
const expected: ExpectedPayment = {
  wallet,
  amountUsdc: 49_000_000n,
  amountWei: 16_000_000_000_000_000n,
  expiresAt: new Date((blockTimestamp + 600) * 1000),
};

const transfer = (logIndex: number, from: Address, to: Address, amount: bigint): ReceiptTransfer => ({ logIndex, from, to, amount });

/** A USDC `transfer(payTo, 49 USDC)` by the wallet, 3 confirmations at the pinned head, as readPaymentTransaction returns it. */
const usdcTx: PaymentTransaction = {
  from: wallet,
  to: usdc,
  value: 0n,
  succeeded: true,
  blockNumber,
  blockHash,
  blockTimestamp,
  confirmations: 3,
  canonical: true,
  transfers: [transfer(212, wallet, payTo, 49_000_000n)],
};

/** 0.016 ETH sent by the wallet to the payout address. */
const ethTx: PaymentTransaction = { ...usdcTx, to: payTo, value: 16_000_000_000_000_000n, transfers: [] };

/** The index's `payment` row of a receipt transfer. */
const row = (t: ReceiptTransfer, extra: Partial<IndexedPayment> = {}): IndexedPayment => ({
  id: `${txHash}-${t.logIndex}`,
  chainId: 8453,
  txHash,
  logIndex: t.logIndex,
  blockNumber: BigInt(blockNumber),
  blockHash,
  timestamp: BigInt(blockTimestamp),
  from: t.from,
  to: t.to,
  amount: t.amount,
  ...extra,
});

function decide(tx: PaymentTransaction, p: Partial<DecidePaymentParameters> = {}) {
  const warn = vi.fn<(message: string) => void>();
  const verdict = decidePayment({
    expected,
    read: { status: "FOUND", transaction: tx },
    rows: tx.transfers.filter((t) => t.to === payTo).map((t) => row(t)),
    // The index has seen the block and two more: 3 confirmations.
    indexHead: BigInt(blockNumber + 2),
    payTo,
    usdc,
    warn,
    ...p,
  });
  return { verdict, warn };
}

const paidUsdc = { ok: true, value: { asset: "USDC", amount: 49_000_000n } };
const paidEth = { ok: true, value: { asset: "ETH", amount: 16_000_000_000_000_000n } };

describe("decidePayment: reads", () => {
  test("error: a transaction that cannot be read at evidence grade is DATA_SOURCE_UNAVAILABLE, with the reader's reason", () => {
    expect(decide(usdcTx, { read: { status: "UNAVAILABLE", reason: "the providers disagree about the transaction" } }).verdict).toEqual({
      ok: false,
      code: "DATA_SOURCE_UNAVAILABLE",
      message: "the transaction cannot be read at evidence grade now (the providers disagree about the transaction); retry later",
    });
  });

  test("error: a hash no provider has mined is PAYMENT_NOT_FOUND", () => {
    expect(decide(usdcTx, { read: { status: "NOT_FOUND" } }).verdict).toEqual({
      ok: false,
      code: "PAYMENT_NOT_FOUND",
      message: "no mined transaction has this hash (yet); retry once it is mined",
    });
  });
});

describe("decidePayment: USDC", () => {
  test("default: the wallet's transfer of exactly the amount to the payout address, indexed, 3 confirmations, before expiry", () => {
    const { verdict, warn } = decide(usdcTx);
    expect(verdict).toEqual(paidUsdc);
    expect(warn).not.toHaveBeenCalled();
  });

  test("default: addresses in any case: a checksummed wallet, payout and USDC address, and index rows in upper case", () => {
    const [paid] = usdcTx.transfers as [ReceiptTransfer];
    const shouting = row(paid, {
      from: wallet.toUpperCase().replace("0X", "0x") as Address,
      to: getAddress(payTo),
      blockHash: blockHash.toUpperCase().replace("0X", "0x") as Hex,
    });
    const mixed = { payTo: getAddress(payTo), usdc: getAddress(usdc), expected: { ...expected, wallet: getAddress(wallet) } };
    expect(decide(usdcTx, { ...mixed, rows: [shouting] }).verdict).toEqual(paidUsdc);
    // The same addresses decide the other paths too.
    expect(decide({ ...usdcTx, transfers: [] }, mixed).verdict).toMatchObject({
      code: "PAYMENT_NOT_FOUND",
      message: "this USDC transaction transfers nothing to the payout address",
    });
    expect(decide(ethTx, mixed).verdict).toEqual(paidEth);
  });

  test("error: a transaction sent by another address than the intent's wallet is PAYMENT_SENDER_MISMATCH, whatever it transfers", () => {
    const tx = { ...usdcTx, from: stranger, transfers: [transfer(212, wallet, payTo, 49_000_000n)] };
    expect(decide(tx).verdict).toEqual({
      ok: false,
      code: "PAYMENT_SENDER_MISMATCH",
      message: "the transaction was not sent by the intent's wallet",
    });
  });

  test("error: USDC moved to the payout address from another address (a transferFrom in the wallet's transaction) is PAYMENT_SENDER_MISMATCH", () => {
    const tx = { ...usdcTx, to: router, transfers: [transfer(7, stranger, payTo, 49_000_000n)] };
    expect(decide(tx).verdict).toEqual({
      ok: false,
      code: "PAYMENT_SENDER_MISMATCH",
      message: "the USDC was not transferred from the intent's wallet",
    });
  });

  test("error: one base unit below or above the amount is PAYMENT_AMOUNT_MISMATCH, naming the expected and received amounts", () => {
    for (const amount of [48_999_999n, 49_000_001n]) {
      const tx = { ...usdcTx, transfers: [transfer(212, wallet, payTo, amount)] };
      expect(decide(tx).verdict).toEqual({
        ok: false,
        code: "PAYMENT_AMOUNT_MISMATCH",
        message: "the USDC amount is not the intent's exact amount",
        details: { expected: "49000000", received: [amount.toString()] },
      });
    }
  });

  test("error: several transfers, none exact: every amount the wallet sent the payout address is named, and none sent by others", () => {
    const tx = {
      ...usdcTx,
      to: router,
      transfers: [
        transfer(3, wallet, payTo, 24_500_000n),
        transfer(4, stranger, payTo, 49_000_000n),
        transfer(5, wallet, stranger, 49_000_000n),
        transfer(6, wallet, payTo, 24_500_000n),
      ],
    };
    expect(decide(tx).verdict).toEqual({
      ok: false,
      code: "PAYMENT_AMOUNT_MISMATCH",
      message: "the USDC amount is not the intent's exact amount",
      details: { expected: "49000000", received: ["24500000", "24500000"] },
    });
  });

  test("behavior: of several transfers to the payout address, the wallet's exact one pays, checked against its own indexed row", () => {
    const small = transfer(40, wallet, payTo, 1_000_000n);
    const exact = transfer(41, wallet, payTo, 49_000_000n);
    const tx = { ...usdcTx, to: router, transfers: [transfer(39, wallet, stranger, 3_000_000n), small, exact] };
    expect(decide(tx, { rows: [row(small), row(exact)] }).verdict).toEqual(paidUsdc);
    // The other transfer's row does not stand for the exact one's.
    expect(decide(tx, { rows: [row(small)] }).verdict).toMatchObject({ code: "PAYMENT_NOT_INDEXED" });
  });

  test("error: an exact transfer the index has no row for is PAYMENT_NOT_INDEXED; a row for that log to another address does not count", () => {
    const [paid] = usdcTx.transfers as [ReceiptTransfer];
    const notIndexed = {
      ok: false,
      code: "PAYMENT_NOT_INDEXED",
      message: "this USDC transfer is not indexed yet; retry in a few seconds",
    };
    expect(decide(usdcTx, { rows: [] }).verdict).toEqual(notIndexed);
    expect(decide(usdcTx, { rows: [row(paid, { to: formerPayTo })] }).verdict).toEqual(notIndexed);
  });

  test("error: an indexed row whose amount disagrees with the receipt refuses the claim (PAYMENT_AMOUNT_MISMATCH) and is reported with its log", () => {
    const [paid] = usdcTx.transfers as [ReceiptTransfer];
    const { verdict, warn } = decide(usdcTx, { rows: [row(paid, { amount: 4_900_000n })] });
    expect(verdict).toEqual({
      ok: false,
      code: "PAYMENT_AMOUNT_MISMATCH",
      message: "the indexed USDC amount and the transaction's receipt disagree; the claim is refused",
      details: { expected: "49000000", received: ["4900000"] },
    });
    expect(warn.mock.calls).toEqual([["the indexed transfer (log 212) disagrees with the receipt read at evidence grade; claim refused"]]);
  });

  test("error: an indexed row whose sender disagrees with the receipt refuses the claim (PAYMENT_SENDER_MISMATCH) and is reported", () => {
    const [paid] = usdcTx.transfers as [ReceiptTransfer];
    const { verdict, warn } = decide(usdcTx, { rows: [row(paid, { from: stranger })] });
    expect(verdict).toEqual({
      ok: false,
      code: "PAYMENT_SENDER_MISMATCH",
      message: "the indexed USDC sender and the transaction's receipt disagree; the claim is refused",
    });
    expect(warn.mock.calls).toEqual([["the indexed transfer (log 212) disagrees with the receipt read at evidence grade; claim refused"]]);
  });

  test("error: a row indexed in another block than the receipt's, or a block not canonical at the pinned head, is PAYMENT_NOT_FINAL", () => {
    const [paid] = usdcTx.transfers as [ReceiptTransfer];
    const reorg = {
      ok: false,
      code: "PAYMENT_NOT_FINAL",
      message: "the transfer's block is not the chain's canonical one (a reorg); retry shortly",
    };
    expect(decide(usdcTx, { rows: [row(paid, { blockHash: reorgedHash })] }).verdict).toEqual(reorg);
    expect(decide({ ...usdcTx, canonical: false }).verdict).toEqual(reorg);
  });

  test("behavior: confirmations are the fewer of the chain's and the index's: 2 on either side is PAYMENT_NOT_FINAL, 3 on both pays", () => {
    const notFinal = (confirmations: number) => ({
      ok: false,
      code: "PAYMENT_NOT_FINAL",
      message: `the payment has ${confirmations} of 3 confirmations; retry shortly`,
      details: { confirmations, required: 3 },
    });
    expect(requiredConfirmations).toBe(3);
    expect(decide({ ...usdcTx, confirmations: 2 }).verdict).toEqual(notFinal(2));
    expect(decide(usdcTx, { indexHead: BigInt(blockNumber + 1) }).verdict).toEqual(notFinal(2));
    expect(decide({ ...usdcTx, confirmations: 5 }, { indexHead: BigInt(blockNumber + 1) }).verdict).toEqual(notFinal(2));
    expect(decide({ ...usdcTx, confirmations: 1 }, { indexHead: BigInt(blockNumber + 9) }).verdict).toEqual(notFinal(1));
    expect(decide({ ...usdcTx, confirmations: 4 }, { indexHead: BigInt(blockNumber + 3) }).verdict).toEqual(paidUsdc);
  });

  test("behavior: an index that has processed no block (no head), or not yet this one, counts 0 confirmations", () => {
    const zero = {
      ok: false,
      code: "PAYMENT_NOT_FINAL",
      message: "the payment has 0 of 3 confirmations; retry shortly",
      details: { confirmations: 0, required: 3 },
    };
    expect(decide(usdcTx, { indexHead: undefined }).verdict).toEqual(zero);
    expect(decide(usdcTx, { indexHead: BigInt(blockNumber - 1) }).verdict).toEqual(zero);
  });

  test("error: a payment mined one second after the intent expired is INTENT_EXPIRED; mined at the expiry second it pays", () => {
    const expiresAt = new Date(blockTimestamp * 1000);
    expect(decide(usdcTx, { expected: { ...expected, expiresAt: new Date(expiresAt.getTime() - 1000) } }).verdict).toEqual({
      ok: false,
      code: "INTENT_EXPIRED",
      message: "the payment was mined after the intent expired; create a new intent (a refund is not automatic)",
    });
    expect(decide(usdcTx, { expected: { ...expected, expiresAt } }).verdict).toEqual(paidUsdc);
  });

  test("error: a USDC transaction that pays the payout address nothing is PAYMENT_NOT_FOUND; a reverted one is PAYMENT_FAILED", () => {
    const toStranger = { ...usdcTx, transfers: [transfer(212, wallet, stranger, 49_000_000n)] };
    expect(decide(toStranger, { rows: [] }).verdict).toEqual({
      ok: false,
      code: "PAYMENT_NOT_FOUND",
      message: "this USDC transaction transfers nothing to the payout address",
    });
    // A reverted transaction's receipt carries no logs.
    expect(decide({ ...usdcTx, succeeded: false, transfers: [] }, { rows: [] }).verdict).toEqual({
      ok: false,
      code: "PAYMENT_FAILED",
      message: "the transaction reverted",
    });
  });

  test("error: a transaction to neither USDC nor the payout address that pays the payout address nothing is PAYMENT_NOT_FOUND", () => {
    const notFound = {
      ok: false,
      code: "PAYMENT_NOT_FOUND",
      message: "the transaction pays neither USDC nor ETH to the payout address",
    };
    expect(decide({ ...ethTx, to: stranger }).verdict).toEqual(notFound);
    expect(decide({ ...usdcTx, to: router, transfers: [transfer(9, wallet, stranger, 49_000_000n)] }, { rows: [] }).verdict).toEqual(
      notFound,
    );
    expect(decide({ ...ethTx, to: null }).verdict).toEqual(notFound);
  });
});

describe("decidePayment: ETH", () => {
  test("default: exactly the intent's wei from the wallet to the payout address, 3 confirmations at the pinned head, whatever the index", () => {
    expect(decide(ethTx, { rows: [], indexHead: undefined }).verdict).toEqual(paidEth);
  });

  test("error: an intent created without an ETH quote is ETH_NOT_OFFERED", () => {
    expect(decide(ethTx, { expected: { ...expected, amountWei: null } }).verdict).toEqual({
      ok: false,
      code: "ETH_NOT_OFFERED",
      message: "this intent has no ETH amount (no live quote when it was created); pay in USDC",
    });
  });

  test("error: a reverted ETH transfer is PAYMENT_FAILED", () => {
    expect(decide({ ...ethTx, succeeded: false }).verdict).toEqual({
      ok: false,
      code: "PAYMENT_FAILED",
      message: "the transaction reverted",
    });
  });

  test("error: one wei below or above is PAYMENT_AMOUNT_MISMATCH, naming the expected and received values", () => {
    for (const value of [15_999_999_999_999_999n, 16_000_000_000_000_001n]) {
      expect(decide({ ...ethTx, value }).verdict).toEqual({
        ok: false,
        code: "PAYMENT_AMOUNT_MISMATCH",
        message: "the ETH value is not the intent's exact amount",
        details: { expected: "16000000000000000", received: [value.toString()] },
      });
    }
  });

  test("error: a block not canonical at the pinned head is PAYMENT_NOT_FINAL", () => {
    expect(decide({ ...ethTx, canonical: false }).verdict).toEqual({
      ok: false,
      code: "PAYMENT_NOT_FINAL",
      message: "the transaction's block is not canonical at the pinned head; retry shortly",
    });
  });

  test("behavior: 2 confirmations is PAYMENT_NOT_FINAL, 3 pays; mined after the expiry is INTENT_EXPIRED", () => {
    expect(decide({ ...ethTx, confirmations: 2 }).verdict).toEqual({
      ok: false,
      code: "PAYMENT_NOT_FINAL",
      message: "the payment has 2 of 3 confirmations; retry shortly",
      details: { confirmations: 2, required: 3 },
    });
    expect(decide({ ...ethTx, confirmations: 3 }).verdict).toEqual(paidEth);
    expect(decide({ ...ethTx, blockTimestamp: blockTimestamp + 601 }).verdict).toMatchObject({ ok: false, code: "INTENT_EXPIRED" });
    expect(decide({ ...ethTx, blockTimestamp: blockTimestamp + 600 }).verdict).toEqual(paidEth);
  });
});
