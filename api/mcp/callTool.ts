import type { CallToolResult } from "@modelcontextprotocol/server";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { Context, type MiddlewareHandler } from "hono";
import type { AccessEnv } from "../access/AccessControlParameters";
import { ApiError } from "../errors";
import { handleError } from "../http/errorHandling";
import { answerJson } from "../http/jsonAnswer";
import { maxPaymentSignatureLength } from "../x402/parsePaymentSignature";
import type { McpTool } from "./McpTool";

/**
 * How a payment-required refusal travels back, by x402's MCP transport (specs/transports-v2/mcp.md in
 * x402-foundation/x402): `extension`, a request that advertised `org.x402/payment` (2026-07-28), gets a
 * `payment_required` result; any other gets a tool error whose first text block is the PaymentRequired JSON,
 * with the same object as `structuredContent` for a 2026-07-28 request (`tool-result`). A 2025-era request
 * gets no `structuredContent` (`tool-result-unstructured`): the v1 SDK client checks an error's structured
 * content against the tool's output schema and would throw.
 */
export type PaymentBinding = "extension" | "tool-result" | "tool-result-unstructured";

/**
 * Who calls a tool: the MCP request (its headers carry the credential or payment), its HTTP connection's
 * bindings (the client address), the PaymentPayload it sent in `_meta["x402/payment"]` (taken over a
 * PAYMENT-SIGNATURE header), and how a payment-required refusal goes back to it.
 */
export type ToolCaller = { request: Request; env: unknown; payment: unknown; binding: PaymentBinding };

/** x402's `payment_required` result (the `org.x402/payment` extension binding): the call did not run. */
export type PaymentRequiredResult = CallToolResult & { resultType: "payment_required"; paymentRequired: unknown };

/**
 * Calls `tool` as its REST route would be served: the route's middleware chain (credential, rate limit,
 * x402 payment, credit meter) runs on a request with the MCP request's headers at the route's path,
 * then the tool's service. A 2xx answer is the tool's `structuredContent` (what the REST route answers,
 * as JSON) with a short text; any refusal is a tool error naming its code. An x402 challenge travels by
 * the caller's `binding` (and always in `_meta["x402/payment-required"]`), a settlement receipt in
 * `_meta["x402/payment-response"]`.
 */
export async function callTool(
  tool: McpTool,
  input: unknown,
  caller: ToolCaller,
  chain: readonly MiddlewareHandler<AccessEnv>[],
): Promise<CallToolResult | PaymentRequiredResult> {
  const url = new URL(tool.path(input as never), caller.request.url);
  const headers = new Headers(caller.request.headers);
  if (caller.payment !== undefined) headers.set("payment-signature", encodeMetaPayment(caller.payment));
  const c = new Context<AccessEnv>(new Request(url, { headers }), { env: caller.env, path: url.pathname });
  let value: unknown;
  // Never throws: the middleware before it then sees a non-2xx answer and takes nothing (credits, payment).
  const serve: MiddlewareHandler<AccessEnv> = async function serve(c) {
    try {
      const result = await tool.serve(input as never);
      if (!result.ok) {
        c.res = handleError(ApiError.of(result), c);
        return;
      }
      value = JSON.parse(JSON.stringify(result.value));
      c.res = await answerJson(c, value as object);
    } catch (err) {
      c.res = handleError(err as Error, c);
    }
  };
  try {
    await run(c, [...chain, serve], 0);
  } catch (err) {
    c.res = handleError(err as Error, c);
  }
  const receipt = c.res.headers.get("payment-response");
  const paymentResponse = receipt ? { "x402/payment-response": decodePaymentResponseHeader(receipt) } : {};
  if (c.res.ok) {
    return {
      content: [{ type: "text", text: tool.summarize(value) }],
      structuredContent: value as Record<string, unknown>,
      _meta: paymentResponse,
    };
  }
  const refusal = (await c.res.json()) as { error: string; message: string; paymentRequired?: unknown };
  const text = `${refusal.error}: ${refusal.message}`;
  const { paymentRequired } = refusal;
  if (!paymentRequired) {
    // No structuredContent: an error result's would have to match the tool's outputSchema (clients validate it).
    return { isError: true, content: [{ type: "text", text }], _meta: paymentResponse };
  }
  const _meta = { ...paymentResponse, "x402/payment-required": paymentRequired };
  const toolError = {
    isError: true,
    content: [
      { type: "text" as const, text: JSON.stringify(paymentRequired) },
      { type: "text" as const, text },
    ],
    _meta,
  };
  // The extension's result carries the tool error too: the SDK's server checks the output schema of any result
  // without isError, and a client that does not read resultType still sees the challenge.
  if (caller.binding === "extension") return { resultType: "payment_required", paymentRequired, ...toolError };
  return caller.binding === "tool-result" ? { ...toolError, structuredContent: paymentRequired as Record<string, unknown> } : toolError;
}

/**
 * `payment` as the PAYMENT-SIGNATURE header the route's chain reads as it reads a header's (a key first, the
 * rate limits, then the x402 middleware, which bounds its length and checks its shape). JSON nested deeper
 * than the stack (a request body can carry it: JSON.stringify throws on it) takes thousands of levels of at
 * least two characters each, more than a header may hold: it goes on as a header just over that bound.
 */
function encodeMetaPayment(payment: unknown): string {
  try {
    return encodePaymentSignatureHeader(payment as PaymentPayload);
  } catch {
    return "=".repeat(maxPaymentSignatureLength + 1);
  }
}

/** Runs `handlers` as Hono composes middleware: each one's `next` runs the rest. */
async function run(c: Context<AccessEnv>, handlers: readonly MiddlewareHandler<AccessEnv>[], i: number): Promise<void> {
  const handler = handlers[i];
  if (handler) await handler(c, () => run(c, handlers, i + 1));
}
