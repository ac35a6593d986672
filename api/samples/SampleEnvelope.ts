import { z } from "zod";

/** The sample envelope of `GET /v1/sample`: a frozen paid answer, never current and never payment-gated. */
export const SampleEnvelope = z
  .strictObject({
    status: z.literal("SAMPLE"),
    sample: z.literal(true),
    capturedAt: z.iso.datetime(),
    /** The paid call the answer came from (`GET /v1/token/price/WETH`). */
    paidRoute: z.string(),
    /** The paid payload, as the route answered it then. */
    response: z.record(z.string(), z.unknown()),
    note: z.string().optional(),
    /** The route's x402 price today; null when it is not x402-payable. */
    priceUsd: z.number().nullable().optional(),
    currency: z.string().nullable().optional(),
    network: z.string().optional(),
    /** API_KEY_OR_X402, or API_KEY_OR_GATEWAY_METERED_NOT_X402 for the preflight. */
    access: z.string().optional(),
  })
  .meta({ id: "SampleEnvelope" });
export type SampleEnvelope = z.infer<typeof SampleEnvelope>;

/** The sample index of `GET /v1/samples`. */
export const SampleIndex = z
  .strictObject({
    status: z.string(),
    description: z.string(),
    samples: z.array(z.strictObject({ name: z.string(), url: z.url() })),
    note: z.string(),
  })
  .meta({ id: "SampleIndex" });
export type SampleIndex = z.infer<typeof SampleIndex>;
