import type { x402ResourceServer } from "@x402/core/server";
import type { Network, PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { declareOfferReceiptExtension } from "@x402/extensions/offer-receipt";
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import type { Address } from "viem";
import { failure, type Result, success } from "../errors";
import { bazaarDeclaration, examplePath, routeTemplate } from "./bazaar/bazaarDeclaration";
import type { X402Signer } from "./createX402Signer";
import type { EscrowCodeCheck } from "./escrowCodeCheck";
import type { PaidResource, PaidRoute } from "./PaidRoute";

export type X402OfferParameters = {
  /** x402's resource server, its schemes and extensions registered. */
  server: x402ResourceServer;
  network: Network;
  /** Where payments go. */
  payTo: Address;
  /** Offers are signed when there is one (their extension declared). */
  signer: X402Signer | null;
  /** Whether the batch-settlement escrow runs on this chain; null: the scheme is not registered (exact alone). */
  batchEscrow: EscrowCodeCheck | null;
};

/** The schemes a route may be paid with, in the order a challenge lists them. */
export type OfferedScheme = "exact" | "batch-settlement";

/** What a payable route asks for: its requirements, and the challenge that carries them. */
export type X402Offer = {
  /**
   * The route's payment requirements, one per scheme offered: "exact" always, "batch-settlement" beside it
   * once its escrow is found; each built once (after the facilitator said what it supports).
   */
  requirementsOf(route: PaidRoute): Promise<Result<PaymentRequirements[]>>;
  /** Requirements and declared extensions of a route, as its challenge carries them (the discovery listing reads them). */
  offerOf(route: PaidRoute): Promise<Result<{ accepts: PaymentRequirements[]; extensions: Record<string, unknown> }>>;
  /** The x402 v2 challenge of `route` (PAYMENT-REQUIRED): what to pay, in what, to whom; discovery, ids and a signed offer. */
  challenge(route: PaidRoute, resource: PaidResource): Promise<Result<PaymentRequired>>;
  /**
   * The challenge of `route` for requirements already built, with the reason a payment was refused; with the
   * refused `payment`, its scheme may add what the client must resync (a batch-settlement channel's state).
   */
  challengeOf(
    route: PaidRoute,
    accepts: PaymentRequirements[],
    resource: PaidResource,
    reason: string,
    payment?: PaymentPayload,
  ): Promise<PaymentRequired>;
};

/** The offer side of per-call payment: requirements per route and scheme (cached), their extensions, the challenge. */
export function createX402Offer(p: X402OfferParameters): X402Offer {
  const { server } = p;
  let initialized: Promise<void> | undefined;
  const built = new Map<string, Promise<PaymentRequirements>>();

  /** One scheme's requirements for `route`, built once; a failed build is asked again next time. */
  function requirementsFor(route: PaidRoute, scheme: OfferedScheme): Promise<PaymentRequirements> {
    const key = `${scheme} ${route.name}`;
    let requirements = built.get(key);
    if (!requirements) {
      requirements = server
        .buildPaymentRequirements({ scheme, network: p.network, price: `$${route.x402PriceUsd}`, payTo: p.payTo })
        .then(([one]) => one as PaymentRequirements);
      requirements.catch(() => built.delete(key));
      built.set(key, requirements);
    }
    return requirements;
  }

  /** Whether batch-settlement is offered: registered, settled by the facilitator, and its escrow's code found. */
  async function batchOffered(): Promise<boolean> {
    if (!p.batchEscrow || !server.getSupportedKind(2, p.network, "batch-settlement")) return false;
    return (await p.batchEscrow()) === "FOUND";
  }

  async function requirementsOf(route: PaidRoute): Promise<Result<PaymentRequirements[]>> {
    let exact: PaymentRequirements;
    try {
      initialized ??= server.initialize();
      await initialized;
      exact = await requirementsFor(route, "exact");
    } catch {
      // Asked again next time: a facilitator that was down may be back.
      initialized = undefined;
      return failure("PAYMENT_FACILITATOR_UNAVAILABLE", "per-call payment cannot be offered now: the x402 facilitator cannot be reached");
    }
    // batch-settlement is offered beside exact, never instead: a failure there leaves exact alone.
    const batch = (await batchOffered()) ? await requirementsFor(route, "batch-settlement").catch(() => null) : null;
    return success(batch ? [exact, batch] : [exact]);
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

  const challengeOf: X402Offer["challengeOf"] = (route, accepts, resource, reason, payment) => {
    const transport = transportOf(route, resource);
    return server.createPaymentRequiredResponse(
      accepts,
      { url: resource.url, description: route.summary, mimeType: "application/json" },
      reason,
      server.enrichExtensions(declaredExtensions(route), transport),
      transport,
      payment,
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
      return success({ accepts: requirements.value, extensions });
    },

    async challenge(route, resource) {
      const requirements = await requirementsOf(route);
      return requirements.ok ? success(await challengeOf(route, requirements.value, resource, "payment_required")) : requirements;
    },
  };
}
