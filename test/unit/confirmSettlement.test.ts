import { type Address, getAddress, type Hex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { evidenceGradeSettlement } from "../../api/x402/confirmSettlement";
import { baseUsdc, baseWeth } from "../../base/baseChain";
import { type RecordedChain, recordedBlock, type Settlement, settlementTransaction, startRecordedChain } from "../support/recordedChain";
import { txHashOf } from "../support/recordedFacilitator";

// Anvil's well-known accounts: the payer, the payee, and the facilitator's gas key that sends the settlement.
const payer = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" as Address;
const payTo = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc" as Address;
const gasKey = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as Address;
const stranger = "0x90F79bf6EB2c4f870365E785982E1f101E93b906" as Address;
const genesis = 1_773_000_000;
const expected = { from: payer, to: payTo, amount: 20_000n };

let chain: RecordedChain;
beforeAll(async () => {
  chain = await startRecordedChain(100, genesis);
});
afterAll(() => chain.stop());
beforeEach(() => {
  chain.head = 100;
  chain.blocks.set(95, recordedBlock(95, genesis));
  chain.transactions.clear();
  chain.down = false;
  chain.requests.length = 0;
});

/** Records a settlement mined at block 95 (the authorization's transfer unless `change` says otherwise); its hash. */
function mined(label: string, change: Partial<Settlement> = {}): Hex {
  const hash = txHashOf(label);
  const settlement: Settlement = {
    hash,
    block: recordedBlock(95, genesis),
    facilitator: gasKey,
    token: baseUsdc,
    authorizer: payer,
    nonce: txHashOf(`nonce ${label}`),
    transfers: [{ token: baseUsdc, from: payer, to: payTo, value: 20_000n }],
    ...change,
  };
  chain.transactions.set(hash, settlementTransaction(settlement));
  return hash;
}

/** The rule over the recorded chain as the trusted primary, read once unless told otherwise. */
const confirm = (attempts = 1, intervalMs = 1) =>
  evidenceGradeSettlement({ providers: [chain.provider("primary", true)], chainId: 8453, token: baseUsdc, attempts, intervalMs });
const receiptReads = () => chain.requests.filter((r) => r.method === "eth_getTransactionReceipt").length;

describe("evidenceGradeSettlement", () => {
  test("CONFIRMED: mined in the canonical chain, succeeded, and carrying the authorization's transfer (addresses in any case)", async () => {
    const hash = mined("paid");
    expect(await confirm()(hash, expected)).toBe("CONFIRMED");
    const lower = { from: payer.toLowerCase() as Address, to: payTo.toLowerCase() as Address, amount: 20_000n };
    expect(await confirm()(hash, lower)).toBe("CONFIRMED");
    // Among other transfers of the receipt.
    const among = mined("among", {
      transfers: [
        { token: baseUsdc, from: payer, to: stranger, value: 1n },
        { token: baseUsdc, from: payer, to: payTo, value: 20_000n },
      ],
    });
    expect(await confirm()(among, { ...expected, to: getAddress(payTo) })).toBe("CONFIRMED");
  });

  test("CONTRADICTED: mined, but another recipient, amount, sender or token, or reverted", async () => {
    const cases: [string, Partial<Settlement>][] = [
      ["another recipient", { transfers: [{ token: baseUsdc, from: payer, to: stranger, value: 20_000n }] }],
      ["less", { transfers: [{ token: baseUsdc, from: payer, to: payTo, value: 19_999n }] }],
      ["more", { transfers: [{ token: baseUsdc, from: payer, to: payTo, value: 20_001n }] }],
      ["another sender", { transfers: [{ token: baseUsdc, from: stranger, to: payTo, value: 20_000n }] }],
      ["another token", { transfers: [{ token: baseWeth, from: payer, to: payTo, value: 20_000n }] }],
      ["no transfer", { transfers: [] }],
      ["reverted", { status: "0x0" }],
    ];
    for (const [name, change] of cases) expect(await confirm()(mined(name, change), expected), name).toBe("CONTRADICTED");
  });

  test("UNCONFIRMED after every attempt: no receipt, a block no longer canonical, or providers down", async () => {
    expect(await confirm(3)(txHashOf("never mined"), expected)).toBe("UNCONFIRMED");
    expect(receiptReads()).toBe(3);
    const reorged = mined("reorged");
    chain.blocks.set(95, recordedBlock(95, genesis, " (another fork)"));
    expect(await confirm(2)(reorged, expected)).toBe("UNCONFIRMED");
    chain.blocks.set(95, recordedBlock(95, genesis));
    chain.down = true;
    expect(await confirm(2)(mined("down"), expected)).toBe("UNCONFIRMED");
  });

  test("a settlement the provider shows only at a later read is confirmed then; five reads by default", async () => {
    const late = txHashOf("late");
    const rule = confirm(3, 50);
    const confirming = rule(late, expected);
    // Mined once the first read has missed it.
    while (receiptReads() === 0) await new Promise((wake) => setImmediate(wake));
    mined("late");
    expect(await confirming).toBe("CONFIRMED");
    chain.requests.length = 0;
    const byDefault = evidenceGradeSettlement({
      providers: [chain.provider("primary", true)],
      chainId: 8453,
      token: baseUsdc,
      intervalMs: 1,
    });
    expect(await byDefault(txHashOf("not mined"), expected)).toBe("UNCONFIRMED");
    expect(receiptReads()).toBe(5);
  });

  test("the first read is made at once, and each later one after a pause of intervalMs", async () => {
    // The pauses of intervalMs are held until the test lets them end; any other timer runs as usual.
    const intervalMs = 1_234;
    const held: (() => void)[] = [];
    const realSetTimeout = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((run: () => void, ms?: number) => {
      if (ms !== intervalMs) return realSetTimeout(run, ms);
      held.push(run);
      return realSetTimeout(() => undefined, 0);
    }) as typeof setTimeout);
    try {
      let verdict: string | undefined;
      void confirm(3, intervalMs)(txHashOf("never mined"), expected).then((v) => {
        verdict = v;
      });
      // Until the rule waits on a pause or has answered.
      const waiting = async (pauses: number) => {
        while (verdict === undefined && held.length < pauses) await new Promise((wake) => setImmediate(wake));
      };
      await waiting(1);
      expect([receiptReads(), held.length]).toEqual([1, 1]);
      held[0]?.();
      await waiting(2);
      expect([receiptReads(), held.length]).toEqual([2, 2]);
      held[1]?.();
      await waiting(3);
      // The last read is not followed by a pause: the verdict comes with it.
      expect([receiptReads(), held.length, verdict]).toEqual([3, 2, "UNCONFIRMED"]);
    } finally {
      spy.mockRestore();
    }
  });
});
