import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { FacilitatorClient } from "@x402/core/server";
import { Hono } from "hono";

/** A facilitator served over HTTP as x402 facilitators are (`POST /verify`, `POST /settle`, `GET /supported`). */
export type FacilitatorServer = { url: string; stop(): Promise<void> };

/** Serves `facilitator` on a free loopback port: what X402_FACILITATOR_URL points a service at. */
export async function startFacilitatorServer(facilitator: FacilitatorClient): Promise<FacilitatorServer> {
  const app = new Hono();
  app.post("/verify", async (c) => {
    const { paymentPayload, paymentRequirements } = await c.req.json();
    return c.json(await facilitator.verify(paymentPayload, paymentRequirements));
  });
  app.post("/settle", async (c) => {
    const { paymentPayload, paymentRequirements } = await c.req.json();
    return c.json(await facilitator.settle(paymentPayload, paymentRequirements));
  });
  app.get("/supported", async (c) => c.json(await facilitator.getSupported()));
  const server = await new Promise<ReturnType<typeof serve>>((started) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => started(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((done) => {
        server.close(() => done());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
