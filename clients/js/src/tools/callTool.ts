import type { Client, PayableCallParameters } from "../createClient.js";
import { InvalidInputError } from "../errors.js";
import type { Address, PaymentReceipt } from "../types.js";
import type { ToolName } from "./toolDefinitions.js";

/** What a tool answers: the service's JSON (as its REST route answers it) and, for a paid call, the decoded receipt. */
export type ToolAnswer = { data: unknown; receipt: PaymentReceipt | null };

type ToolInput = Readonly<Record<string, unknown>>;

/** Each tool as the client method of its REST route. */
const toolCalls: Record<ToolName, (client: Client, input: ToolInput, call: PayableCallParameters) => Promise<ToolAnswer>> = {
  svc_audit_contract: (client, input, call) => client.audit(stringArgument(input, "address") as Address, call),
  svc_get_gas_metrics: (client, _, call) => client.gasFees(call),
  svc_get_token_price: (client, input, call) => client.tokenPrice(stringArgument(input, "symbol"), call),
  svc_get_dex_liquidity: (client, _, call) => client.dexMetrics(call),
  svc_get_whale_signals: (client, _, call) => client.whaleSignals(call),
  svc_simulate_token_trade: (client, input, call) => client.tokenSimulation(stringArgument(input, "address") as Address, call),
  // Free: never paid.
  svc_get_service_status: async (client) => ({ data: await client.status(), receipt: null }),
};

/**
 * Runs the tool `name` (one of `toolDefinitions`) with `input` through `client`, as the service's MCP
 * tool would answer it: with the client's API key, or paid with x402 when `call.pay` is set. A refusal
 * throws the client's typed ServiceError (e.g. PaymentRequiredError, InvalidInputError).
 */
export async function callTool(
  client: Client,
  name: ToolName,
  input: ToolInput = {},
  call: PayableCallParameters = {},
): Promise<ToolAnswer> {
  const run = Object.hasOwn(toolCalls, name) ? toolCalls[name] : undefined;
  if (!run) throw new InvalidInputError("UNKNOWN_TOOL", `no tool is named ${String(name)}`, 0);
  return run(client, input, call);
}

function stringArgument(input: ToolInput, name: string): string {
  const value = input[name];
  if (typeof value !== "string") throw new InvalidInputError("INVALID_TOOL_INPUT", `the argument ${name} must be a string`, 0);
  return value;
}
