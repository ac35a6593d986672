import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { routeList } from "../../api/routes/routeList";
import { testManifest } from "../support/devnet";
import { accessApp, type Backend, claimFreeKey, openBackend } from "./support";

const manifest = testManifest();
/** Every route of the table that charges an API key credits. */
const meteredRoutes = routeList.filter((r) => (r.credits ?? 0) > 0);
/** A request each metered route can answer on the devnet: a fixture's address, a tracked symbol, a view call. */
const pathValues: Record<string, string> = { address: manifest.contracts.plainToken as string, symbol: "weth" };
const bodies: Record<string, unknown> = {
  "/v1/transaction/preflight": { chainId: 8453, to: manifest.contracts.plainToken, data: "0x18160ddd" },
};

describe("X-Credits-Remaining on key-paid answers, over every metered route of the route table", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend("pglite");
  });
  afterAll(() => backend.close());

  test("behavior: a key's answer carries X-Credits-Remaining on each metered route, whatever its status; the 2xx ones count it down", async () => {
    expect(meteredRoutes.length).toBeGreaterThanOrEqual(7);
    const { app } = accessApp(manifest, backend);
    const { apiKey } = await claimFreeKey(app);
    const answered: { route: string; status: number; text: string }[] = [];
    let previous: number | undefined;
    for (const route of meteredRoutes) {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => pathValues[name] ?? "");
      const body = bodies[route.path];
      // A chain read that timed out on a loaded machine is a 503 like the index routes' own: asked again
      // (up to three times in all), each answer checked; the index routes' 503 stays what it is.
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const res = await app.request(path, {
          method: route.method.toUpperCase(),
          headers: { "x-api-key": apiKey, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const remaining = res.headers.get("x-credits-remaining");
        const text = await res.text();
        expect(remaining, `${route.name}: ${res.status} ${text}`).toMatch(/^\d+$/);
        const charged = res.status >= 200 && res.status < 300 ? (route.credits ?? 0) : 0;
        if (previous !== undefined) expect(Number(remaining), route.name).toBe(previous - charged);
        previous = Number(remaining);
        if (res.status !== 503 || text.includes("the index has no consistent head") || attempt === 3) {
          answered.push({ route: route.name, status: res.status, text: text.slice(0, 100) });
          break;
        }
      }
    }
    // The chain-read routes answer 2xx here; the index routes answer 503 (this index holds no market
    // tables): their 2xx answers are checked in test/market/marketRoutes.test.ts.
    const paid = answered.filter((a) => a.status >= 200 && a.status < 300);
    expect(paid.length, JSON.stringify(answered)).toBeGreaterThanOrEqual(4);
  });
});
