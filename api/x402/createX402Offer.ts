import type { x402ResourceServer } from "@x402/core/server";
import type { Network, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { declareOfferReceiptExtension } from "@x402/extensions/offer-receipt";
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import type { Address } from "viem";
import { failure, type Result, success } from "../errors";
import { bazaarDeclaration, examplePath, routeTemplate } from "./bazaar/bazaarDeclaration";
import type { X402Signer } from "./createX402Signer";
import type { PaidResource, PaidRoute } from "./PaidRoute";

export type X402OfferParameters = {
  /** x402's resource server, its scheme and extensions registered. */
  server: x402ResourceServer;
  network: Network;
  /** Where payments go. */
  payTo: Address;
  /** Offers are signed when there is one (their extension declared). */
  signer: X402Signer | null;
};

/** What a payable route asks for: its requirements, and the challenge that carries them. */
export type X402Offer = {
  /** The route's payment requirements, built once (after the facilitator said what it supports). */
  requirementsOf(route: PaidRoute): Promise<Result<PaymentRequirements>>;
  /** Requirements and declared extensions of a route, as its challenge carries them (the discovery listing reads them). */
  offerOf(route: PaidRoute): Promise<Result<{ requirements: PaymentRequirements; extensions: Record<string, unknown> }>>;
  /** The x402 v2 challenge of `route` (PAYMENT-REQUIRED): what to pay, in what, to whom; discovery, ids and a signed offer. */
  challenge(route: PaidRoute, resource: PaidResource): Promise<Result<PaymentRequired>>;
  /** The challenge of `route` for requirements already built, with the reason a payment was refused. */
  challengeOf(route: PaidRoute, requirements: PaymentRequirements, resource: PaidResource, reason: string): Promise<PaymentRequired>;
};

/** The offer side of per-call payment: requirements per route (cached), their extensions, the challenge. */
export function createX402Offer(p: X402OfferParameters): X402Offer {
  const { server } = p;
  let initialized: Promise<void> | undefined;
  const requirementsByRoute = new Map<string, Promise<PaymentRequirements>>();

  async function requirementsOf(route: PaidRoute): Promise<Result<PaymentRequirements>> {
    let requirements = requirementsByRoute.get(route.name);
    if (!requirements) {
      initialized ??= server.initialize();
      requirements = initialized
        .then(() =>
          server.buildPaymentRequirements({ scheme: "exact", network: p.network, price: `$${route.x402PriceUsd}`, payTo: p.payTo }),
        )
        .then(([built]) => built as PaymentRequirements);
      requirementsByRoute.set(route.name, requirements);
    }
    try {
      return success(await requirements);
    } catch {
      // Asked again next time: a facilitator that was down may be back.
      initialized = undefined;
      requirementsByRoute.delete(route.name);
      return failure("PAYMENT_FACILITATOR_UNAVAILABLE", "per-call payment cannot be offered now: the x402 facilitator cannot be reached");
    }
  }

  /** The extensions every payable route declares: discovery, optional payment ids, signed offers and receipts. */
  const declaredExtensions = (route: PaidRoute): Record<string, unknown> => ({
    ...bazaarDeclaration(route),
    [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
    ...(p.signer ? declareOfferReceiptExtension({ includeTxHash: true, offerValiditySeconds: 300 }) : {}),
  });

  /** The transport context x402's extensions read: the method, the path and its route template. */
  const transportOf = (route: PaidRoute, resource: PaidResource) => ({
    method: route.method.toUpperCase(),
    routePattern: routeTemplate(route),
    adapter: { getPath: () => resource.path, getUrl: () => resource.url, getMethod: () => route.method.toUpperCase() },
  });

  const challengeOf = (route: PaidRoute, requirements: PaymentRequirements, resource: PaidResource, reason: string) => {
    const transport = transportOf(route, resource);
    return server.createPaymentRequiredResponse(
      [requirements],
      { url: resource.url, description: route.summary, mimeType: "application/json" },
      reason,
      server.enrichExtensions(declaredExtensions(route), transport),
      transport,
    );
  };

  return {
    requirementsOf,
    challengeOf,

    async offerOf(route) {
      const requirements = await requirementsOf(route);
      if (!requirements.ok) return requirements;
      const path = examplePath(route);
      const extensions = server.enrichExtensions(declaredExtensions(route), transportOf(route, { url: path, path }));
      return success({ requirements: requirements.value, extensions });
    },

    async challenge(route, resource) {
      const requirements = await requirementsOf(route);
      return requirements.ok ? success(await challengeOf(route, requirements.value, resource, "payment_required")) : requirements;
    },
  };
}
