import type { CallToolResult } from "@modelcontextprotocol/server";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { Context, type MiddlewareHandler } from "hono";
import type { AccessEnv } from "../access/AccessControlParameters";
import { ApiError } from "../errors";
import { handleError } from "../http/errorHandling";
import { answerJson } from "../http/jsonAnswer";
import type { McpTool } from "./McpTool";

/** Who calls a tool: the MCP request (its headers carry the credential or payment) and its HTTP connection's bindings (the client address). */
export type ToolCaller = { request: Request; env: unknown };

/**
 * Calls `tool` as its REST route would be served: the route's middleware chain (credential, rate limit,
 * x402 payment, credit meter) runs on a request with the MCP request's headers at the route's path,
 * then the tool's service. A 2xx answer is the tool's `structuredContent` (what the REST route answers,
 * as JSON) with a short text; any refusal is a tool error naming its code. An x402 challenge travels as
 * text and in `_meta["x402/payment-required"]`, a settlement receipt in `_meta["x402/payment-response"]`.
 */
export async function callTool(
  tool: McpTool,
  input: unknown,
  caller: ToolCaller,
  chain: readonly MiddlewareHandler<AccessEnv>[],
): Promise<CallToolResult> {
  const url = new URL(tool.path(input as never), caller.request.url);
  const c = new Context<AccessEnv>(new Request(url, { headers: caller.request.headers }), { env: caller.env, path: url.pathname });
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
  const content: CallToolResult["content"] = [{ type: "text", text: `${refusal.error}: ${refusal.message}` }];
  if (refusal.paymentRequired) content.push({ type: "text", text: JSON.stringify(refusal.paymentRequired) });
  // No structuredContent: an error result's would have to match the tool's outputSchema (clients validate it).
  return {
    isError: true,
    content,
    _meta: { ...paymentResponse, ...(refusal.paymentRequired ? { "x402/payment-required": refusal.paymentRequired } : {}) },
  };
}

/** Runs `handlers` as Hono composes middleware: each one's `next` runs the rest. */
async function run(c: Context<AccessEnv>, handlers: readonly MiddlewareHandler<AccessEnv>[], i: number): Promise<void> {
  const handler = handlers[i];
  if (handler) await handler(c, () => run(c, handlers, i + 1));
}
