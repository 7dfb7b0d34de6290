import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatNumber } from "./numbers.js";

describe("formatNumber", () => {
  it.each([
    0,
    -0,
    1,
    -1,
    0.5,
    -0.75,
    1.375,
    2.5,
    0.1,
    0.2,
    0.1 + 0.2,
    1 / 3,
    1e-6,
    1.5e-6,
    5e-7,
    1e-7,
    999_999_999.999999,
    1_515_531_081.123,
    1e15 + 0.5,
    2 ** 53,
    1e21,
    1.7976931348623157e308,
    5e-324,
  ])("writes %d as String() does", (x) => {
    expect(formatNumber(x)).toBe(String(x));
  });

  it("agrees with String() on decimals with few fraction digits", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), fc.integer({ min: 0, max: 8 }), (m, k) => {
        const x = m / 10 ** k;
        expect(formatNumber(x)).toBe(String(x));
      }),
      { numRuns: 50_000 },
    );
  });

  it("agrees with String() on any finite double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(formatNumber(x)).toBe(String(x));
      }),
      { numRuns: 50_000 },
    );
  });
});
