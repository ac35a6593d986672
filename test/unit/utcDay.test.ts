import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { utcDay } from "../../api/store/countDaily";

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("utcDay", () => {
  test("behavior: the UTC day of any instant, in any order of calls (the last day's text is kept)", () => {
    const instant = fc.integer({ min: -8.64e15, max: 8.64e15 });
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of instants) expect(utcDay(new Date(ms))).toBe(iso(ms));
      }),
      { numRuns: 500 },
    );
  });

  test("behavior: the edges of a day, back and forth, and before 1970", () => {
    const midnight = Date.UTC(2026, 10, 27);
    const cases = [midnight - 1, midnight, midnight - 1, midnight + 86_399_999, midnight + 86_400_000, -1, 0, -86_400_000];
    expect(cases.map((ms) => utcDay(new Date(ms)))).toEqual(cases.map(iso));
    expect(utcDay(new Date(midnight - 1))).toBe("2026-11-26");
    expect(utcDay(new Date(midnight))).toBe("2026-11-27");
  });

  test("error: an invalid date throws, as toISOString does", () => {
    expect(() => utcDay(new Date(Number.NaN))).toThrow(RangeError);
  });
});
