/**
 * The groups every route belongs to: its one OpenAPI tag, the section Swagger UI at /docs lists it
 * under, in this order. Probes and Site hold only routes left out of the document.
 */
export const routeGroups = {
  Capability:
    "Static bytecode capability observations of a contract at a pinned block, and transaction preflight. Paid (API key credits, x402 per call or the marketplace gateway), except the demo audit.",
  Market:
    "Sourced market data from the service's own index of Base: gas fees, DEX liquidity and volume, token prices, large transfers. Paid.",
  "Keys and payments":
    "Plans and prices, the free key (one per wallet, proven by a personal_sign signature), paid keys bought with USDC or ETH on Base, the presented key's credits, revocation and recovery.",
  Discovery:
    "Keyless routes: live status with availability history, aggregate usage, product events, frozen samples of the paid routes, this document and the x402 discovery listing.",
  MCP: "The Model Context Protocol endpoints (Streamable HTTP and legacy HTTP+SSE) and the server card; each tool call enforces its REST route's access.",
  Operator: "Deployment set-up, behind the operator bootstrap token.",
  Probes: "Liveness and readiness for orchestrators (not in the document).",
  Site: "The service's page and this docs page (not in the document).",
} as const;

export type RouteGroup = keyof typeof routeGroups;
