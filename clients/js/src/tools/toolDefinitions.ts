/** A JSON Schema object, as MCP's `tools/list` carries a tool's input schema. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** One tool as an agent framework registers it: what `tools/list` says of it. */
export type ToolDefinition = {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { readonly type: "object" };
};

/** What every tool is (the service's MCP annotations): it only reads, and it reads the open world. */
export const toolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true } as const;

/**
 * The service's MCP tools as plain data (name, title, description, JSON Schema of the input), as its
 * `tools/list` answers them, so that an agent framework can register them without MCP and run them with
 * `callTool`. Copied from the service (test/clients/agents.test.ts fails when they drift apart).
 */
export const toolDefinitions = [
  {
    name: "svc_audit_contract",
    title: "Audit a Base contract's capabilities",
    description:
      'Observes a Base contract\'s bytecode at a pinned block: capability observations (mint, pause, upgrade, blacklist, ...), proxy resolution to its implementation or Diamond facets, and a 0-100 coverage index with its deductions. Not a safety verdict: UNVERIFIED with a null score when evidence-grade data cannot be read. Same answer as GET /v1/audit/{address}. Costs 1 credit with an API key (x-api-key or Authorization: Bearer header), or 0.02 USDC on Base per call with an x402 v2 payment (in _meta["x402/payment"] or a PAYMENT-SIGNATURE header); without either it returns the x402 payment requirements.',
    inputSchema: {
      type: "object",
      properties: {
        address: {
          description: "The contract's address: 0x + 40 hex digits (checksummed or lowercase)",
          type: "string",
          pattern: "^0x[0-9a-fA-F]{40}$",
        },
      },
      required: ["address"],
      $schema: "https://json-schema.org/draft/2020-12/schema",
    },
  },
  {
    name: "svc_get_gas_metrics",
    title: "Base gas fees",
    description:
      'Current Base gas fees at a pinned block: eth_gasPrice in wei and gwei, the next block\'s base fee, priority-fee percentiles and the L1 data-fee parameters, with the RPC provider and trust level that observed them. No parameters. Same answer as GET /v1/gas/fees. Costs 1 credit with an API key (x-api-key or Authorization: Bearer header), or 0.005 USDC on Base per call with an x402 v2 payment (in _meta["x402/payment"] or a PAYMENT-SIGNATURE header); without either it returns the x402 payment requirements.',
    inputSchema: {
      type: "object",
      properties: {},
      $schema: "https://json-schema.org/draft/2020-12/schema",
    },
  },
  {
    name: "svc_get_token_price",
    title: "Token USD price on Base DEXes",
    description:
      'USD price of one tracked token: the median spot price of its up-to-five deepest indexed Base pools, with each pool and the spread. Symbols: USDC, WETH, ETH, cbBTC, AERO, EURC, VIRTUAL, DEGEN, TOSHI, USDT, DAI (case-insensitive; another symbol is an UNKNOWN_SYMBOL error listing them). Same answer as GET /v1/token/price/{symbol}. Costs 1 credit with an API key (x-api-key or Authorization: Bearer header), or 0.005 USDC on Base per call with an x402 v2 payment (in _meta["x402/payment"] or a PAYMENT-SIGNATURE header); without either it returns the x402 payment requirements.',
    inputSchema: {
      type: "object",
      properties: {
        symbol: {
          type: "string",
          minLength: 1,
          maxLength: 32,
          description: "A tracked token symbol: USDC, WETH, ETH, cbBTC, AERO, EURC, VIRTUAL, DEGEN, TOSHI, USDT, DAI",
        },
      },
      required: ["symbol"],
      $schema: "https://json-schema.org/draft/2020-12/schema",
    },
  },
  {
    name: "svc_get_dex_liquidity",
    title: "Base DEX liquidity",
    description:
      'Aggregate reserves in USD, ±2% depth and 24 h volume over the tracked Base pools, in total and by DEX, with the exact coverage (pools counted and left out). No parameters. Same answer as GET /v1/dex/metrics. Costs 1 credit with an API key (x-api-key or Authorization: Bearer header), or 0.01 USDC on Base per call with an x402 v2 payment (in _meta["x402/payment"] or a PAYMENT-SIGNATURE header); without either it returns the x402 payment requirements.',
    inputSchema: {
      type: "object",
      properties: {},
      $schema: "https://json-schema.org/draft/2020-12/schema",
    },
  },
  {
    name: "svc_get_whale_signals",
    title: "Whale transfers on Base",
    description:
      'Up to 50 recent high-value ERC-20 transfers of the tracked tokens (newest first): transaction hash, token, sender, receiver, amount and USD valuation with its provenance, in a bounded recent block window. No parameters. Same answer as GET /v1/whales/signals. Costs 1 credit with an API key (x-api-key or Authorization: Bearer header), or 0.02 USDC on Base per call with an x402 v2 payment (in _meta["x402/payment"] or a PAYMENT-SIGNATURE header); without either it returns the x402 payment requirements.',
    inputSchema: {
      type: "object",
      properties: {},
      $schema: "https://json-schema.org/draft/2020-12/schema",
    },
  },
  {
    name: "svc_simulate_token_trade",
    title: "Simulate buying and selling a Base token",
    description:
      'Simulates, at a pinned block and without sending anything, a 100 USD and a 10000 USD buy of any ERC-20 on Base through its deepest Uniswap V2, V3 or V4, Aerodrome or Slipstream pool against USDC or WETH, a transfer of the tokens bought, and a sell of them: tokens and quote asset received against the pool\'s own quote in basis points (buy and sell taxes, transfer fees), reverts decoded (honeypot-style sell restrictions, pauses), and the largest amount that succeeded where the larger trade reverts (maximum transaction limits). An observation, never a verdict: UNVERIFIED with its reason when evidence-grade data cannot be read; a token with no pool is DATA_SOURCE_UNAVAILABLE. Same answer as GET /v1/token/simulation/{address}. Costs 2 credits with an API key (x-api-key or Authorization: Bearer header), or 0.01 USDC on Base per call with an x402 v2 payment (in _meta["x402/payment"] or a PAYMENT-SIGNATURE header); without either it returns the x402 payment requirements.',
    inputSchema: {
      type: "object",
      properties: {
        address: {
          description: "The token's address: 0x + 40 hex digits (checksummed or lowercase)",
          type: "string",
          pattern: "^0x[0-9a-fA-F]{40}$",
        },
      },
      required: ["address"],
      $schema: "https://json-schema.org/draft/2020-12/schema",
    },
  },
  {
    name: "svc_get_service_status",
    title: "Service status",
    description:
      "This service's operational status (OPERATIONAL, DEGRADED or UNAVAILABLE): RPC quorum and trust level, index lag, persistence availability and payment settlement. Free, no credential, no parameters. Same answer as GET /v1/status.",
    inputSchema: {
      type: "object",
      properties: {},
      $schema: "https://json-schema.org/draft/2020-12/schema",
    },
  },
] as const satisfies readonly ToolDefinition[];

export type ToolName = (typeof toolDefinitions)[number]["name"];
