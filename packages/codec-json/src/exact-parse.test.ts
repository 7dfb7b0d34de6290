import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayHoldLossyInteger, mayHoldLossyNumber } from "./exact-parse.js";

// The scans as they were before the one-pass pre-filter: the filter must not change any answer.
const referenceInteger = (text: string): boolean =>
  (/\d{16}/.test(text) && /(?:^|[:,[])\s*-?\d{16}/.test(text)) || (/\d[eE][+-]?\d/.test(text) && /(?:^|[:,[])\s*-?\d+(?:\.\d+)?[eE]/.test(text));
const referenceNumber = (text: string): boolean =>
  referenceInteger(text) || (/\d{8}\.\d|\.\d{8}/.test(text) && /(?:^|[:,[])\s*-?(?:\d{8,}\.\d|\d+\.\d{8})/.test(text));

describe("lossy number scans", () => {
  const jsonish = fc
    .array(fc.constantFrom("1", "2", "0", "9", ".", "e", "E", "+", "-", ":", ",", "[", " ", '"', "x"), { maxLength: 60 })
    .map((cs) => cs.join(""));
  it("answer as the reference scans do", () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        expect(mayHoldLossyInteger(text)).toBe(referenceInteger(text));
        expect(mayHoldLossyNumber(text)).toBe(referenceNumber(text));
      }),
      { numRuns: 50_000 },
    );
  });
});
