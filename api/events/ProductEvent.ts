import { z } from "zod";

/** The site's pages an event may name. */
export const ProductPage = z.enum(["home", "docs"]);

/** The site's calls to action: the demo audit, the free key, x402, MCP, plans, the docs and the status section. */
export const ProductCta = z.enum(["runDemoAudit", "getFreeKey", "payPerCall", "connectMcp", "viewPlans", "openDocs", "viewStatus"]);

/**
 * PublicProductEvent, the body of `POST /v1/events`: a page view or a click on a call to action, with
 * fixed enum dimensions only. Strict: any other field (free text, an address, a wallet, a referrer) is
 * refused with 400.
 */
export const ProductEvent = z
  .discriminatedUnion("event", [
    z.strictObject({ event: z.literal("pageViewed"), page: ProductPage }),
    z.strictObject({ event: z.literal("ctaClicked"), page: ProductPage, cta: ProductCta }),
  ])
  .meta({ id: "PublicProductEvent" });
export type ProductEvent = z.infer<typeof ProductEvent>;
