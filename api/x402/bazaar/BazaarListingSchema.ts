import { z } from "zod";

/** The discovery listing's shape for the OpenAPI document (`bazaarListing` builds it; extensions are x402's own JSON). */
export const BazaarListingSchema = z
  .object({
    x402Version: z.literal(2),
    items: z.array(
      z.looseObject({
        resource: z.string(),
        type: z.literal("http"),
        x402Version: z.literal(2),
        method: z.string(),
        routeTemplate: z.string(),
        accepts: z.array(
          z.looseObject({ scheme: z.string(), network: z.string(), amount: z.string(), asset: z.string(), payTo: z.string() }),
        ),
        lastUpdated: z.string(),
        description: z.string(),
        mimeType: z.string(),
        extensions: z.record(z.string(), z.unknown()),
        outputSchema: z.unknown().optional(),
      }),
    ),
    pagination: z.object({ limit: z.int(), offset: z.int(), total: z.int() }),
    signer: z.object({ address: z.string(), kid: z.string() }).nullable(),
  })
  .meta({ id: "BazaarListing" });
