import { loadSettings } from "./loadSettings";
import { measureLoad } from "./measureLoad";
import { measureSteadyRate } from "./measureSteadyRate";
import { median } from "./median";

/** A URL under load, with its headers (a route's API key). */
export type LoadTarget = { url: string; headers?: Record<string, string> };

/** A route against bare Hono in one run: throughput ratio (medians of the rounds), p99 at 1,000 req/s, both servers' figures. */
export type BareHonoComparison = {
  ratioVsBareHono: number;
  p99MsAt1000rps: number;
  bareHonoP99MsAt1000rps: number;
  bareHonoRps: number;
  routeRps: number;
};

/**
 * The load of bench/loadSettings.ts against `route` (its target for run `run`: warm-up 0, rounds 1..,
 * the steady rate last, each run with its own key) and bare Hono at `bareUrl`: warm-up, interleaved rounds
 * at full load, then a steady 1,000 req/s on each (bench/measureSteadyRate.ts). Logs each round under `label`.
 */
export async function compareWithBareHono(bareUrl: string, route: (run: number) => LoadTarget, label: string): Promise<BareHonoComparison> {
  const { duration, connections, rounds, rateSeconds, rateConnections, warmupSeconds } = loadSettings;
  const bare = { url: `${bareUrl}/` };
  const measure = (target: LoadTarget, seconds: number) => measureLoad({ ...target, connections, seconds });
  const steady = (target: LoadTarget) =>
    measureSteadyRate({ ...target, connections: rateConnections, seconds: rateSeconds, rate: 1000, warmupSeconds });
  if (warmupSeconds > 0) {
    // JIT, connections, caches
    await measure(bare, warmupSeconds);
    await measure(route(0), warmupSeconds);
  }
  const bareRps: number[] = [];
  const routeRps: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const b = await measure(bare, duration);
    const r = await measure(route(round), duration);
    bareRps.push(b.rps);
    routeRps.push(r.rps);
    console.log(`round ${round}: bare Hono ${b.rps.toFixed(0)} req/s; ${label} ${r.rps.toFixed(0)} req/s (p99 ${r.p99Ms} ms at full load)`);
  }
  const fixedBare = await steady(bare);
  const fixed = await steady(route(rounds + 1));
  console.log(
    `at a steady 1,000 req/s for ${rateSeconds} s over ${rateConnections} connections: p99 ${fixed.p99Ms} ms ${label}, ${fixedBare.p99Ms} ms bare Hono`,
  );
  return {
    ratioVsBareHono: Number((median(routeRps) / median(bareRps)).toFixed(3)),
    p99MsAt1000rps: fixed.p99Ms,
    bareHonoP99MsAt1000rps: fixedBare.p99Ms,
    bareHonoRps: Math.round(median(bareRps)),
    routeRps: Math.round(median(routeRps)),
  };
}
