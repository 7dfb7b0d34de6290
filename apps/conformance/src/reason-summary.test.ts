import { describe, expect, it } from "vitest";
import { summarizeReason } from "./reason-summary.js";

describe("summarizeReason", () => {
  it.each([
    ["one line", 200, "one line"],
    ["models differ:\n  shapes.x: a\n\n  shapes.y: b", 200, "models differ: shapes.x: a shapes.y: b"],
    ["abcdefghij", 8, "abcde..."],
    ["", 200, ""],
  ])("%j (max %d)", (reason, max, want) => {
    expect(summarizeReason(reason, max)).toBe(want);
  });
});
