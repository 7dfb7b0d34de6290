import { describe, expect, it } from "vitest";
import { compilePattern } from "@anvil/core/protocol";
import { patternString } from "./pattern.js";

describe("patternString", () => {
  it.each([
    ["^[A-Z]{3}-\\d{2}$", 0],
    ["^[a-z0-9-]+$", 0],
    ["^[a-z0-9-]+$", 10],
    ["^\\w+@\\w+\\.com$", 0],
    ["^(foo|bar)+baz?$", 0],
    ["^[^\\s]{2,}$", 0],
    ["^(?:[0-9a-f]{8})-(?:[0-9a-f]{4})$", 0],
    ["abc", 0],
    ["^[A-Za-z]+[0-9]*$", 6],
    ["^\\u0041.\\x42$", 0],
    ["^[\\-+]?\\d+(\\.\\d+)?$", 0],
  ])("%s (at least %i code points) gives a match", (pattern, min) => {
    const s = patternString(pattern, min);
    expect(s !== undefined && new RegExp(pattern, "u").test(s) && [...s].length >= min).toBe(true);
  });

  it.each(["^bytes=\\d+\\-\\d+/\\d+$", "^\\u{41}[\\u{61}-\\u{63}]{2}$", "^[a-z]\\_\\d$"])(
    "%s (Java syntax, or code point escapes) gives a match as validation reads it",
    (pattern) => {
      const s = patternString(pattern);
      expect(s !== undefined && compilePattern(pattern)(s)).toBe(true);
    },
  );

  it("gives nothing for what it cannot follow (Unicode properties), so the caller keeps its own value", () => {
    expect(patternString("^\\p{Lu}")).toBeUndefined();
  });

  it("reaches a minimum length by repeating unbounded quantifiers", () => {
    expect(patternString("^[a-z]+$", 5)).toBe("aaaaa");
    expect(patternString("^[A-Z]{3}-\\d{2}$")).toBe("AAA-00");
  });

  it("gives nothing for an invalid expression", () => {
    expect(patternString("([")).toBeUndefined();
  });
});
