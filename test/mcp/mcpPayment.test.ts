import type { Client } from "@modelcontextprotocol/client";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchSettlementClient } from "@x402/evm/batch-settlement/client";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRateLimits } from "../../api/access/createRateLimits";
import { maxPaymentSignatureLength } from "../../api/x402/parsePaymentSignature";
import { baseNetwork } from "../../base/baseChain";
import { createDevnetClient } from "../../devnet/client";
import { unlimitedRates } from "../support/access";
import { newPayer, price } from "../support/batchPayer";
import { testClient, testManifest } from "../support/devnet";
import { signedPayment } from "../support/signedPayment";
import { usdcBalance, usdcTransfersFrom } from "../support/usdc";
import {
  clientKinds,
  connectClient,
  type McpTestService,
  proKey,
  refusalText,
  routeTools,
  startMcpService,
  type ToolResult,
  usdcUnits,
} from "./support";

/** This file's payer: users[12] (no other file sends from it); the payout address and gas key are the service's own. */
const manifest = testManifest();
const payer = manifest.accounts.users[12] as { address: Address; privateKey: Hex };
const target = manifest.contracts.diamond as Address;
const taxed = manifest.simulationTokens.find((f) => f.name === "buySellTax")?.address as Address;

/** The payable tools, each with arguments and its REST route's path. */
const payable = [
  { name: "svc_audit_contract", arguments: { address: target }, path: `/v1/audit/${target}`, priceUsd: 0.02 },
  { name: "svc_get_gas_metrics", arguments: {}, path: "/v1/gas/fees", priceUsd: 0.005 },
  { name: "svc_get_token_price", arguments: { symbol: "WETH" }, path: "/v1/token/price/WETH", priceUsd: 0.005 },
  { name: "svc_get_dex_liquidity", arguments: {}, path: "/v1/dex/metrics", priceUsd: 0.01 },
  { name: "svc_get_whale_signals", arguments: {}, path: "/v1/whales/signals", priceUsd: 0.02 },
  { name: "svc_simulate_token_trade", arguments: { address: taxed }, path: `/v1/token/simulation/${taxed}`, priceUsd: 0.01 },
];

let service: McpTestService;
beforeAll(async () => {
  service = await startMcpService(manifest);
}, 120_000);
afterAll(() => service?.stop());

/** The REST route's challenge for `path` (decoded PAYMENT-REQUIRED of its 402). */
async function restChallenge(path: string): Promise<PaymentRequired> {
  const res = await service.app.request(path);
  expect(res.status).toBe(402);
  return decodePaymentRequiredHeader(res.headers.get("payment-required") as string);
}

/**
 * A challenge without its signed offers' expiry and signatures: each challenge signs offers valid for a
 * while from the second it is made, so two challenges made a second apart differ only there.
 */
const untimed = (challenge: unknown) =>
  JSON.parse(JSON.stringify(challenge, (key, value) => (key === "validUntil" || key === "signature" ? undefined : value))) as unknown;

/** JSON text sent as it is: a value JSON.stringify cannot write (nested deeper than the stack), which a body can carry. */
class RawJson {
  constructor(readonly text: string) {}
}
const rawJsonMark = "raw JSON goes here";

/** A 2026-07-28 tools/call as an x402-aware client sends it: advertising org.x402/payment, its payment (if any) in `_meta`. */
async function x402AwareCall(
  call: { name: string; arguments: Record<string, unknown> },
  payment?: unknown | RawJson,
  headers: Record<string, string> = {},
): Promise<ToolResult> {
  const res = await fetch(`${service.origin}/mcp`, {
    method: "POST",
    headers: {
      ...headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": call.name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: call.name,
        arguments: call.arguments,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "x402-aware", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": { extensions: { "org.x402/payment": {} } },
          ...(payment === undefined ? {} : { "x402/payment": payment instanceof RawJson ? rawJsonMark : payment }),
        },
      },
    }).replace(JSON.stringify(rawJsonMark), payment instanceof RawJson ? payment.text : ""),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: ToolResult }).result;
}

/** A new payer's first batch-settlement payment for `offered`, made by the official client scheme: its deposit (ten calls) and voucher; the payer has no ETH. */
async function batchVoucher(offered: PaymentRequired) {
  const key = await newPayer(manifest, 10n);
  const scheme = new BatchSettlementClient(toClientEvmSigner(privateKeyToAccount(key), createDevnetClient(manifest.rpcUrl, key)), {
    depositStrategy: () => price * 10n,
  });
  return new x402Client()
    .register(baseNetwork, scheme)
    .createPaymentPayload({ ...offered, accepts: offered.accepts.filter((terms) => terms.scheme === "batch-settlement") });
}

describe("x402 over MCP", () => {
  test.each(clientKinds)(
    "error: without a key a payable tool is a tool error carrying the REST route's x402 v2 challenge, exact and batch-settlement (%s)",
    async (kind) => {
      expect(payable.map((c) => c.name)).toEqual(routeTools.filter((t) => t.payable).map((t) => t.name));
      const client = await connectClient(kind, service.origin);
      try {
        for (const call of payable) {
          const result = await client.callTool({ name: call.name, arguments: call.arguments });
          expect(result.isError, call.name).toBe(true);
          expect(result.content[1]?.text, call.name).toMatch(/^PAYMENT_REQUIRED: /);
          const challenge = await restChallenge(call.path);
          const amount = String(usdcUnits(call.priceUsd));
          expect(challenge).toMatchObject({
            x402Version: 2,
            accepts: [
              { scheme: "exact", network: "eip155:8453", amount },
              { scheme: "batch-settlement", network: "eip155:8453", amount },
            ],
          });
          expect(untimed(result._meta?.["x402/payment-required"]), call.name).toEqual(untimed(challenge));
          // x402's tool-result binding: the PaymentRequired JSON first; as structuredContent too where the client
          // does not check an error's structured content against the output schema (the v1 SDK client does).
          expect(untimed(JSON.parse(result.content[0]?.text ?? "null")), call.name).toEqual(untimed(challenge));
          if (kind === "v2 pinned to 2026-07-28") expect(untimed(result.structuredContent), call.name).toEqual(untimed(challenge));
          else expect(result.structuredContent, call.name).toBeUndefined();
        }
        // The free tool needs nothing.
        expect((await client.callTool({ name: "svc_get_service_status", arguments: {} })).isError ?? false).toBe(false);
      } finally {
        await client.close();
      }
    },
  );

  test.each(["v2 pinned to 2026-07-28", "v1 SSE (2024-11-05)"] as const)(
    "behavior: with PAYMENT-SIGNATURE the tool is served and the payment settled exactly once (%s)",
    async (kind) => {
      const call = payable[1] as (typeof payable)[number];
      const requirements = (await restChallenge(call.path)).accepts[0] as PaymentRequirements;
      const { header } = await signedPayment(requirements, payer.privateKey);
      const fromBlock = await testClient(manifest).getBlockNumber({ cacheTime: 0 });
      const [payerBefore, payToBefore] = await Promise.all([usdcBalance(manifest, payer.address), usdcBalance(manifest, service.payTo)]);
      const client = await connectClient(kind, service.origin, { "payment-signature": header });
      try {
        const paid = await client.callTool({ name: call.name, arguments: call.arguments });
        expect(paid.isError ?? false, JSON.stringify(paid.content)).toBe(false);
        expect(paid.structuredContent).toMatchObject({ chainId: 8453 });
        const receipt = paid._meta?.["x402/payment-response"] as { success: boolean; transaction: string; payer: string };
        expect(receipt).toMatchObject({ success: true, network: "eip155:8453", payer: payer.address });
        // The same payment again: refused before any work, nothing more taken.
        const again = await client.callTool({ name: call.name, arguments: call.arguments });
        expect(again.isError).toBe(true);
        expect(refusalText(again)).toMatch(/^PAYMENT_INVALID: .*payment_already_settled/);
        expect(again._meta?.["x402/payment-required"]).toMatchObject({ x402Version: 2 });
      } finally {
        await client.close();
      }
      const price = usdcUnits(call.priceUsd);
      expect(await usdcBalance(manifest, payer.address)).toBe(payerBefore - price);
      expect(await usdcBalance(manifest, service.payTo)).toBe(payToBefore + price);
      const transfers = await usdcTransfersFrom(manifest, payer.address, fromBlock);
      expect(transfers.map((t) => [t.args.to, t.args.value])).toEqual([[service.payTo, price]]);
      const rows = await service.sql("SELECT status FROM app.x402_payment WHERE route = $1 AND status = 'SETTLED'", ["GET /v1/gas/fees"]);
      expect(rows.length).toBe(kind === "v2 pinned to 2026-07-28" ? 1 : 2);
    },
  );

  test("behavior: a 2026-07-28 request advertising org.x402/payment gets payment_required, then pays in _meta with exact and with batch-settlement", async () => {
    const call = payable[2] as (typeof payable)[number];
    const required = await x402AwareCall(call);
    expect(required.resultType).toBe("payment_required");
    const challenge = await restChallenge(call.path);
    expect(untimed(required.paymentRequired)).toEqual(untimed(challenge));

    // exact: the PaymentPayload in _meta["x402/payment"], no header.
    const { payload } = await signedPayment(challenge.accepts[0] as PaymentRequirements, payer.privateKey);
    const before = await usdcBalance(manifest, payer.address);
    await service.syncIndexHead();
    const paid = await x402AwareCall(call, payload);
    expect(paid.resultType).toBe("complete");
    expect(paid.isError ?? false, JSON.stringify(paid.content)).toBe(false);
    expect(paid.structuredContent).toMatchObject({ symbol: "WETH" });
    expect(paid._meta?.["x402/payment-response"]).toMatchObject({ success: true, payer: payer.address });
    expect(await usdcBalance(manifest, payer.address)).toBe(before - usdcUnits(call.priceUsd));

    // batch-settlement: the official client scheme makes the deposit and the voucher.
    const voucher = await batchVoucher((await x402AwareCall(call)).paymentRequired as PaymentRequired);
    const [vouchersBefore] = await service.sql("SELECT count(*)::int AS n FROM app.x402_voucher");
    // The payer's funding and deposit mined blocks: the seeded index follows the head again, or the price is stale.
    await service.syncIndexHead();
    const batchPaid = await x402AwareCall(call, voucher);
    expect(batchPaid.isError ?? false, JSON.stringify(batchPaid.content)).toBe(false);
    expect(batchPaid._meta?.["x402/payment-response"]).toMatchObject({ success: true });
    const [vouchersAfter] = await service.sql("SELECT count(*)::int AS n FROM app.x402_voucher");
    expect(Number(vouchersAfter?.n)).toBe(Number(vouchersBefore?.n) + 1);

    // The official v2 client (2.4.0) does not read the extension's result type yet: advertising it, it throws.
    const client = await connectClient("v2 pinned to 2026-07-28", service.origin, {}, { "org.x402/payment": {} });
    try {
      expect((client as unknown as Client).getServerCapabilities()?.extensions).toHaveProperty(["org.x402/payment"]);
      await expect(client.callTool({ name: call.name, arguments: call.arguments })).rejects.toThrow(
        /Unsupported result type 'payment_required'/,
      );
    } finally {
      await client.close();
    }
  });

  test.each(["v2 pinned to 2026-07-28", "v1 Streamable HTTP"] as const)(
    "behavior: an official client refused by the tool-result binding pays in _meta with exact and with batch-settlement (%s)",
    async (kind) => {
      const call = payable[2] as (typeof payable)[number];
      const client = await connectClient(kind, service.origin);
      try {
        const refused = await client.callTool({ name: call.name, arguments: call.arguments });
        expect(refused.isError).toBe(true);
        const challenge = JSON.parse(refused.content[0]?.text ?? "null") as PaymentRequired;
        const { payload } = await signedPayment(challenge.accepts[0] as PaymentRequirements, payer.privateKey);
        await service.syncIndexHead();
        const paid = await client.callTool({ name: call.name, arguments: call.arguments, _meta: { "x402/payment": payload } });
        expect(paid.isError ?? false, JSON.stringify(paid.content)).toBe(false);
        expect(paid._meta?.["x402/payment-response"]).toMatchObject({ success: true, payer: payer.address });
        const voucher = await batchVoucher(challenge);
        // The payer's funding and deposit mined blocks: the seeded index follows the head again, or the price is stale.
        await service.syncIndexHead();
        const batchPaid = await client.callTool({ name: call.name, arguments: call.arguments, _meta: { "x402/payment": voucher } });
        expect(batchPaid.isError ?? false, JSON.stringify(batchPaid.content)).toBe(false);
        expect(batchPaid._meta?.["x402/payment-response"]).toMatchObject({ success: true });
      } finally {
        await client.close();
      }
    },
  );

  test("error: a _meta payment that is not a PaymentPayload, is longer than a header may be, or cannot be encoded as one, is refused with its reason", async () => {
    // A valid PAYMENT-SIGNATURE header beside the first two: the _meta payment takes precedence, and the header's is never taken.
    const { header } = await signedPayment((await restChallenge("/v1/gas/fees")).accepts[0] as PaymentRequirements, payer.privateKey);
    const before = await usdcBalance(manifest, payer.address);
    const client = await connectClient("v2 default (2025)", service.origin, { "payment-signature": header });
    const call = { name: "svc_get_gas_metrics", arguments: {} };
    try {
      const notPayload = await client.callTool({ ...call, _meta: { "x402/payment": "not a payment" } });
      expect(refusalText(notPayload)).toMatch(/^PAYMENT_INVALID: .*payment_signature_not_exact_evm_v2/);
      const long = await client.callTool({ ...call, _meta: { "x402/payment": { padding: "x".repeat(maxPaymentSignatureLength) } } });
      expect(refusalText(long)).toMatch(/^PAYMENT_INVALID: .*payment_signature_too_long/);
    } finally {
      await client.close();
    }
    // 5,000 nested arrays (10 KB, under the body cap): JSON.parse reads them, JSON.stringify overflows its stack.
    // Refused by the x402 middleware as any too-long payment is, with the challenge; with a key it is not read.
    const deepJson = new RawJson(`${"[".repeat(5000)}${"]".repeat(5000)}`);
    const deep = await x402AwareCall(call, deepJson);
    expect(deep.resultType).toBe("payment_required");
    expect(refusalText(deep)).toMatch(/^PAYMENT_INVALID: .*payment_signature_too_long/);
    const keyHolder = generatePrivateKey();
    const apiKey = await proKey(service, { address: privateKeyToAccount(keyHolder).address, privateKey: keyHolder });
    const keyed = await x402AwareCall(call, deepJson, { "x-api-key": apiKey });
    expect(keyed.isError ?? false, JSON.stringify(keyed.content)).toBe(false);
    // To a client advertising org.x402/payment, a refused payment is payment_required again, with the reason.
    const refusedAware = await x402AwareCall(call, "not a payment");
    expect(refusedAware.resultType).toBe("payment_required");
    expect(refusalText(refusedAware)).toMatch(/^PAYMENT_INVALID: .*payment_signature_not_exact_evm_v2/);
    expect(await usdcBalance(manifest, payer.address)).toBe(before);
  });

  test("behavior: a refused answer takes nothing: a payment for an unknown symbol is released, not settled", async () => {
    const requirements = (await restChallenge("/v1/token/price/WETH")).accepts[0] as PaymentRequirements;
    const { header } = await signedPayment(requirements, payer.privateKey);
    const before = await usdcBalance(manifest, payer.address);
    const client = await connectClient("v2 default (2025)", service.origin, { "payment-signature": header });
    try {
      const refused = await client.callTool({ name: "svc_get_token_price", arguments: { symbol: "NOPE" } });
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toMatch(/^UNKNOWN_SYMBOL: /);
    } finally {
      await client.close();
    }
    expect(await usdcBalance(manifest, payer.address)).toBe(before);
  });
});

describe("limits", () => {
  test("behavior: keyless tool calls spend the client address's per-minute budget as REST calls do, on /mcp and on a legacy session", async () => {
    const limited = await startMcpService(manifest, {}, { rateLimits: createRateLimits({ perMinute: { ...unlimitedRates, PUBLIC: 4 } }) });
    try {
      for (const kind of ["v2 default (2025)", "v1 SSE (2024-11-05)"] as const) {
        const client = await connectClient(kind, limited.origin);
        try {
          const texts = [];
          for (let i = 0; i < 3; i++) texts.push(refusalText(await client.callTool({ name: "svc_get_gas_metrics", arguments: {} })));
          // The first kind's three and a REST call spend the budget of 4; the second kind's calls are all refused.
          if (kind === "v2 default (2025)") {
            expect(texts.map((t) => t?.split(":")[0])).toEqual(["PAYMENT_REQUIRED", "PAYMENT_REQUIRED", "PAYMENT_REQUIRED"]);
            expect((await fetch(`${limited.origin}/v1/gas/fees`)).status).toBe(402);
          } else {
            expect(texts.map((t) => t?.split(":")[0])).toEqual(["RATE_LIMITED", "RATE_LIMITED", "RATE_LIMITED"]);
          }
        } finally {
          await client.close();
        }
      }
    } finally {
      await limited.stop();
    }
  });
});
