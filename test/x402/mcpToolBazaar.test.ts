import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { extractDiscoveryInfo, validateDiscoveryExtension } from "@x402/extensions/bazaar";
import { describe, expect, test } from "vitest";
import { routes } from "../../api/routes/routeList";
import { mcpToolBazaar } from "../../api/x402/bazaar/mcpToolBazaar";
import { baseNetwork } from "../../base/baseChain";

describe("mcpToolBazaar", () => {
  test("default: a payable tool's bazaar form validates and x402's extractDiscoveryInfo finds the tool, its schema and example", () => {
    const inputSchema = { type: "object", properties: { address: { type: "string" } }, required: ["address"] };
    const extensions = mcpToolBazaar(routes.audit, { name: "audit_contract", description: routes.audit.summary, inputSchema });
    const bazaar = extensions.bazaar as Parameters<typeof validateDiscoveryExtension>[0];
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    const accepted = { scheme: "exact", network: baseNetwork, amount: "20000" } as unknown as PaymentRequirements;
    const payload = {
      x402Version: 2,
      resource: { url: "http://127.0.0.1:42069/mcp" },
      accepted,
      payload: {},
      extensions,
    } as PaymentPayload;
    const found = extractDiscoveryInfo(payload, accepted);
    expect(found).toMatchObject({
      toolName: "audit_contract",
      discoveryInfo: { input: { type: "mcp", inputSchema, transport: "streamable-http" } },
    });
    expect((found?.discoveryInfo.input as { example?: unknown } | undefined)?.example).toEqual({
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    expect(found?.discoveryInfo.output?.example).toMatchObject({ notASafetyGuarantee: true });
  });
});
