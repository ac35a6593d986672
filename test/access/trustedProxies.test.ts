import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRateLimits } from "../../api/access/createRateLimits";
import { ConfigError, loadConfig } from "../../api/config";
import { type PublicListener, startPublicListener } from "../../api/listener/startPublicListener";
import { freePort } from "../../devnet/anvil";
import { unlimitedRates } from "../support/access";
import { testManifest } from "../support/devnet";
import { accessApp, type Backend, openBackend } from "./support";

const manifest = testManifest();
/** The load balancer: a loopback address of its own (every 127/8 address is loopback on Linux). */
const proxy = "127.0.0.2";

describe("CLIENT_IP_HEADER is believed only from TRUSTED_PROXIES (over HTTP, clients on distinct loopback addresses)", () => {
  let backend: Backend;
  let listener: PublicListener;
  let port: number;
  beforeAll(async () => {
    backend = await openBackend("pglite");
    const rateLimits = createRateLimits({ perMinute: { ...unlimitedRates, PUBLIC: 2 } });
    const { app } = accessApp(manifest, backend, { rateLimits, clientIpHeader: "x-forwarded-for", trustedProxies: [proxy, "10.0.0.0/8"] });
    port = await freePort();
    listener = await startPublicListener({ host: "127.0.0.1", port, app });
  });
  afterAll(async () => {
    await listener?.close();
    await backend?.close();
  });

  /** GET /v1/plans from the socket address `from`, with X-Forwarded-For set to `forwardedFor` if given: the status. */
  const plansFrom = (from: string, forwardedFor?: string) =>
    new Promise<number>((resolve, reject) => {
      const headers = forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor };
      const req = request({ host: "127.0.0.1", port, path: "/v1/plans", localAddress: from, headers, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end();
    });

  test("error: a direct peer rotating the header is one client: its third request is 429, another peer is still served", async () => {
    expect(await plansFrom("127.0.0.3", "198.51.100.1")).toBe(200);
    expect(await plansFrom("127.0.0.3", "198.51.100.2")).toBe(200);
    expect(await plansFrom("127.0.0.3", "198.51.100.3")).toBe(429);
    expect(await plansFrom("127.0.0.4", "198.51.100.4")).toBe(200);
  });

  test("behavior: through a trusted proxy the header names the client, read from the right up to the first untrusted hop", async () => {
    expect(await plansFrom(proxy, "203.0.113.1")).toBe(200);
    expect(await plansFrom(proxy, "203.0.113.1")).toBe(200);
    expect(await plansFrom(proxy, "203.0.113.1")).toBe(429);
    expect(await plansFrom(proxy, "203.0.113.2")).toBe(200);
    // Hops left of the client are the client's own to write: they change nothing.
    expect(await plansFrom(proxy, "192.0.2.99, 203.0.113.1")).toBe(429);
    // A trusted hop right of the client (an inner proxy in 10/8) is skipped over.
    expect(await plansFrom(proxy, "203.0.113.1, 10.1.2.3")).toBe(429);
    expect(await plansFrom(proxy, "192.0.2.7, 10.1.2.3")).toBe(200);
  });
});

describe("TRUSTED_PROXIES configuration", () => {
  test("default: none, so no header is believed", () => {
    expect(loadConfig({}).access.trustedProxies).toEqual([]);
  });

  test("args: IP addresses and CIDR blocks, comma-separated", () => {
    const config = loadConfig({ CLIENT_IP_HEADER: "X-Forwarded-For", TRUSTED_PROXIES: " 10.0.0.0/8, 203.0.113.7 ,2001:db8::/32" });
    expect(config.access).toMatchObject({
      clientIpHeader: "x-forwarded-for",
      trustedProxies: ["10.0.0.0/8", "203.0.113.7", "2001:db8::/32"],
    });
  });

  test("error: CLIENT_IP_HEADER without TRUSTED_PROXIES, and entries that are no IP or CIDR block, stop the start", () => {
    expect(() => loadConfig({ CLIENT_IP_HEADER: "x-forwarded-for" })).toThrow(/CLIENT_IP_HEADER: needs TRUSTED_PROXIES/);
    for (const entry of ["lb.internal", "10.0.0.0/33", "2001:db8::/129", "10.0.0.0/8/1", "10.0.0.0/", "10.0.0.0/x"]) {
      expect(() => loadConfig({ CLIENT_IP_HEADER: "x-forwarded-for", TRUSTED_PROXIES: entry }), entry).toThrow(
        /TRUSTED_PROXIES.*IP address or a CIDR block/,
      );
    }
  });

  test("error: TRUSTED_PROXIES without CLIENT_IP_HEADER stops the start (the proxies' header would never be read)", () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8" })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8" })).toThrow(/TRUSTED_PROXIES: needs CLIENT_IP_HEADER/);
  });

  test("error: CLIENT_IP_HEADER Forwarded (RFC 7239, not a list of addresses) stops the start", () => {
    for (const header of ["Forwarded", "forwarded"]) {
      expect(() => loadConfig({ CLIENT_IP_HEADER: header, TRUSTED_PROXIES: "10.0.0.0/8" }), header).toThrow(/X-Forwarded-For-style/);
    }
  });
});
