import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createRemoteFacilitator } from "../../api/x402/createRemoteFacilitator";
import { FacilitatorUnavailableError } from "../../api/x402/X402Facilitator";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { facilitatorAnswers, txHashOf } from "../support/recordedFacilitator";
import { signedPayment } from "../support/signedPayment";

// Anvil's well-known development key: the payer; the payee is anvil's sixth account.
const payerKey: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const payer = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" as Address;
const ours: PaymentRequirements = {
  scheme: "exact",
  network: baseNetwork,
  amount: "20000",
  asset: baseUsdc,
  payTo: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
  maxTimeoutSeconds: 300,
  extra: { name: "USD Coin", version: "2" },
};

/** An answer of the remote facilitator: an HTTP status and its body (JSON unless a string), or none at all (it hangs). */
type Reply = { status: number; body: unknown } | "HANG";

/**
 * A facilitator served over HTTP on a loopback port as x402 facilitators serve (`GET /supported`,
 * `POST /verify`, `POST /settle`), answering what a test sets; each request's path and body is kept.
 */
let server: Server;
let url = "";
const replies = new Map<string, Reply>();
const received: { path: string; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({ path, body: text ? JSON.parse(text) : null });
      const reply = replies.get(path) ?? { status: 404, body: "Not Found" };
      if (reply === "HANG") return;
      const json = typeof reply.body !== "string";
      res.writeHead(reply.status, { "content-type": json ? "application/json" : "text/plain" });
      res.end(json ? JSON.stringify(reply.body) : reply.body);
    });
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
});
beforeEach(() => {
  replies.clear();
  replies.set("/supported", { status: 200, body: facilitatorAnswers.supported() });
  received.length = 0;
});

/** Timeouts a loopback answer meets on a loaded machine; `hanging` ones end a test of a facilitator that never answers. */
const answering = { timeoutMs: 20_000, probeTimeoutMs: 20_000 };
const hanging = { timeoutMs: 1_000, probeTimeoutMs: 200 };
const remote = (timeouts = answering) => createRemoteFacilitator({ url, network: baseNetwork, ...timeouts });
/** A closed port: nothing answers there. */
const nowhere = () => createRemoteFacilitator({ url: "http://127.0.0.1:1", network: baseNetwork });
const paid = async () => (await signedPayment(ours, payerKey)).payload as PaymentPayload;
const unavailable = (operation: string) => new FacilitatorUnavailableError(`the remote facilitator's ${operation} failed`);

describe("createRemoteFacilitator", () => {
  test("what it supports is its /supported answer; once it cannot be reached, FacilitatorUnavailableError", async () => {
    expect(remote().kind).toBe("REMOTE");
    expect(await remote().getSupported()).toEqual(facilitatorAnswers.supported());
    replies.set("/supported", { status: 500, body: "Internal Server Error" });
    await expect(remote().getSupported()).rejects.toEqual(unavailable("supported"));
    await expect(nowhere().getSupported()).rejects.toBeInstanceOf(FacilitatorUnavailableError);
  });

  test("verify: its answer posted with x402's body; a 4xx carrying a verify answer is a refusal; anything else is unavailable", async () => {
    const payload = await paid();
    replies.set("/verify", { status: 200, body: facilitatorAnswers.valid(payer) });
    expect(await remote().verify(payload, ours)).toEqual({ isValid: true, payer });
    expect(received.at(-1)).toEqual({
      path: "/verify",
      body: { x402Version: 2, paymentPayload: JSON.parse(JSON.stringify(payload)), paymentRequirements: ours },
    });
    replies.set("/verify", { status: 400, body: facilitatorAnswers.invalid("invalid_exact_evm_signature", payer) });
    expect(await remote().verify(payload, ours)).toEqual({ isValid: false, invalidReason: "invalid_exact_evm_signature", payer });
    for (const reply of [
      { status: 500, body: "Internal Server Error" },
      { status: 400, body: { error: "bad request" } },
    ]) {
      replies.set("/verify", reply);
      await expect(remote().verify(payload, ours)).rejects.toEqual(unavailable("verify"));
    }
    await expect(nowhere().verify(payload, ours)).rejects.toEqual(unavailable("verify"));
  });

  test("settle: its answer; a 4xx carrying a settle answer is a failed settlement on our network; anything else is unavailable", async () => {
    const payload = await paid();
    const tx = txHashOf("remote settlement");
    replies.set("/settle", { status: 200, body: facilitatorAnswers.settled(tx, payer) });
    expect(await remote().settle(payload, ours)).toEqual({ success: true, transaction: tx, network: baseNetwork, payer });
    expect(received.at(-1)?.path).toBe("/settle");
    replies.set("/settle", { status: 400, body: { ...facilitatorAnswers.pending(tx, payer), network: "eip155:84532" } });
    expect(await remote().settle(payload, ours)).toEqual({
      success: false,
      errorReason: "settlement_pending",
      transaction: tx,
      network: baseNetwork,
    });
    replies.set("/settle", { status: 402, body: { success: false, errorReason: "invalid_exact_evm_transaction_failed" } });
    expect(await remote().settle(payload, ours)).toEqual({
      success: false,
      errorReason: "invalid_exact_evm_transaction_failed",
      transaction: "",
      network: baseNetwork,
    });
    replies.set("/settle", { status: 502, body: "Bad Gateway" });
    await expect(remote().settle(payload, ours)).rejects.toEqual(unavailable("settle"));
    replies.set("/settle", "HANG");
    await expect(remote(hanging).settle(payload, ours)).rejects.toEqual(unavailable("settle"));
  });

  test("readiness: ready when it settles x402 v2 exact on our network; else why not; its answer is reused", async () => {
    const ready = remote();
    expect(await ready.readiness()).toEqual({ ready: true });
    const kind = { x402Version: 2, scheme: "exact", network: baseNetwork };
    for (const other of [
      { ...kind, x402Version: 1 },
      { ...kind, scheme: "upto" },
      { ...kind, network: "eip155:84532" },
    ]) {
      replies.set("/supported", { status: 200, body: { ...facilitatorAnswers.supported(), kinds: [other] } });
      expect(await remote().readiness(), JSON.stringify(other)).toEqual({ ready: false, reason: "FACILITATOR_DOES_NOT_SETTLE_BASE_USDC" });
    }
    // One kind it settles among others is enough.
    replies.set("/supported", { status: 200, body: { ...facilitatorAnswers.supported(), kinds: [{ ...kind, x402Version: 1 }, kind] } });
    expect(await remote().readiness()).toEqual({ ready: true });
    // Reused: the first probe's answer stands.
    replies.set("/supported", { status: 200, body: { ...facilitatorAnswers.supported(), kinds: [] } });
    expect(await ready.readiness()).toEqual({ ready: true });
    replies.set("/supported", "HANG");
    expect(await remote(hanging).readiness()).toEqual({ ready: false, reason: "FACILITATOR_UNREACHABLE" });
    expect(await nowhere().readiness()).toEqual({ ready: false, reason: "FACILITATOR_UNREACHABLE" });
  });
});
