/** An exact non-negative rational: numerator over denominator. */
export type Ratio = { num: bigint; den: bigint };

export function mulRatio(a: Ratio, b: Ratio): Ratio {
  return { num: a.num * b.num, den: a.den * b.den };
}

export function addRatio(a: Ratio, b: Ratio): Ratio {
  return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}

/** Negative, zero or positive as a < b, a = b, a > b. */
export function compareRatio(a: Ratio, b: Ratio): number {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The middle value, or the mean of the two middle values; `ratios` must not be empty. */
export function medianRatio(ratios: readonly Ratio[]): Ratio {
  if (ratios.length === 0) throw new RangeError("the median of nothing");
  const sorted = [...ratios].sort(compareRatio);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] as Ratio;
  if (sorted.length % 2 === 1) return upper;
  const lower = sorted[mid - 1] as Ratio;
  return { num: lower.num * upper.den + upper.num * lower.den, den: 2n * lower.den * upper.den };
}

/** ceil(a / b) for b > 0, and 0 for a <= 0: a base-unit amount that pays for `a`, rounded up as a swap's input is. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return a <= 0n ? 0n : (a + b - 1n) / b;
}

/** floor(sqrt(n)) for n >= 0, by Newton's method from above. */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError("square root of a negative number");
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/**
 * `r` as decimal text, rounded half up at `digits` fractional digits, trailing zeros dropped
 * ("2500.5", "0.000001234"): the one place an exact figure becomes a display figure.
 */
export function formatRatio(r: Ratio, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const scaled = (2n * r.num * scale + r.den) / (2n * r.den);
  const whole = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(digits, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
