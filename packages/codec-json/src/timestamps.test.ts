import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDateTime, parseDateTime, quotedDateTime } from "./timestamps.js";

// Reference implementations: what the codec did before its regex-free fast paths.
const MIN = -62_167_219_200_000; // 0000-01-01T00:00:00Z
const MAX = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

function referenceFormat(date: Date): string | undefined {
  const t = date.getTime();
  const year = date.getUTCFullYear();
  if (Number.isNaN(t) || year < 0 || year > 9999) return undefined;
  const iso = date.toISOString();
  return t % 1000 === 0 ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 19)}${iso.slice(19, 23).replace(/0+$/, "")}Z`;
}

describe("formatDateTime", () => {
  it.each([
    [0, "1970-01-01T00:00:00Z"],
    [-1, "1969-12-31T23:59:59.999Z"],
    [500, "1970-01-01T00:00:00.5Z"],
    [50, "1970-01-01T00:00:00.05Z"],
    [5, "1970-01-01T00:00:00.005Z"],
    [120, "1970-01-01T00:00:00.12Z"],
    [951_782_400_000, "2000-02-29T00:00:00Z"],
    [MIN, "0000-01-01T00:00:00Z"],
    [MAX, "9999-12-31T23:59:59.999Z"],
    [MIN - 1, undefined],
    [MAX + 1, undefined],
    [NaN, undefined],
  ])("formats %d as %s", (ms, expected) => {
    expect(formatDateTime(new Date(ms))).toBe(expected);
  });

  it("agrees with toISOString over the whole range", () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN - 86_400_000, max: MAX + 86_400_000 }), (ms) => {
        const date = new Date(ms);
        const expected = referenceFormat(date);
        expect(formatDateTime(date)).toBe(expected);
        expect(quotedDateTime(date)).toBe(expected === undefined ? undefined : `"${expected}"`);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("parseDateTime", () => {
  it.each([
    ["2024-01-02T00:00:00Z", 1_704_153_600_000],
    ["2024-01-02T00:00:00.5Z", 1_704_153_600_500],
    ["2024-01-02T00:00:00.05Z", 1_704_153_600_050],
    ["2024-01-02T00:00:00.123Z", 1_704_153_600_123],
    ["2024-01-02T00:00:00.1239999999999999999999Z", 1_704_153_600_123],
    ["2024-01-02T00:00:00.Z", undefined],
    ["2024-01-02T00:00:00.1xZ", undefined],
    ["2024-02-30T00:00:00.5Z", undefined],
    ["2024-01-02t00:00:00.5z", 1_704_153_600_500],
    ["2024-01-02T01:00:00.5+01:00", 1_704_153_600_500],
  ])("parses %s", (text, expected) => {
    expect(parseDateTime(text)?.getTime()).toBe(expected);
  });

  it("reads back what formatDateTime writes", () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN, max: MAX }), (ms) => {
        expect(parseDateTime(formatDateTime(new Date(ms))!)?.getTime()).toBe(ms);
      }),
      { numRuns: 20_000 },
    );
  });
});
