import type { BandDepth } from "./bandDepth";
import { depthBandBps } from "./bandDepth";
import { ceilDiv, compareRatio, isqrt, type Ratio } from "./ratio";

/** Fixed-point scale of the reserve ratio t = y / x while solving for the band's edges. */
const scale = 10n ** 36n;
const bps = 10_000n;

/** Aerodrome's stable curve x^3*y + y^3*x = k: its marginal price (token1 per token0) at t = y/x, scaled by `scale`. */
function priceAt(t: bigint): Ratio {
  return { num: 3n * t * scale * scale + t * t * t, den: scale * scale * scale + 3n * t * t * scale };
}

/** The scaled t at which the curve's price reaches `target`; the price rises with t (dp/dt = 3(1-t^2)^2/(1+3t^2)^2). */
function solveRatio(target: Ratio): bigint {
  let low = 0n;
  let high = scale;
  while (compareRatio(priceAt(high), target) < 0) high *= 2n;
  while (high - low > 1n) {
    const mid = (low + high) / 2n;
    if (compareRatio(priceAt(mid), target) < 0) low = mid;
    else high = mid;
  }
  return high;
}

/** floor of the fourth root. */
const root4 = (n: bigint) => isqrt(isqrt(n));

/**
 * Band depth of an Aerodrome stable pool: where on its curve (through the reserves, decimal-normalised to
 * 18 places as the pool itself does) the marginal price is the band's edges, and how far the reserves
 * move to get there. The reserve ratio is not the price on this curve, so the edges are solved for.
 */
export function stableCurveBandDepth(
  reserve0: bigint,
  reserve1: bigint,
  decimals0: number,
  decimals1: number,
  band = depthBandBps,
): BandDepth {
  const up0 = 10n ** BigInt(18 - decimals0);
  const up1 = 10n ** BigInt(18 - decimals1);
  const x = reserve0 * up0;
  const y = reserve1 * up1;
  const k = x * x * x * y + y * y * y * x;
  const spot = priceAt((y * scale) / x);
  /** The reserves where the curve's price is spot * factor. */
  const edge = (factor: Ratio) => {
    const t = solveRatio({ num: spot.num * factor.num, den: spot.den * factor.den });
    const edgeX = root4((k * scale * scale * scale) / (t * scale * scale + t * t * t));
    return { x: edgeX, y: (t * edgeX) / scale };
  };
  const higher = edge({ num: bps + band, den: bps });
  const lower = edge({ num: bps - band, den: bps });
  return { token1In: ceilDiv(higher.y - y, up1), token0In: ceilDiv(lower.x - x, up0) };
}
