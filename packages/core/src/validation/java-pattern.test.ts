import { describe, expect, it } from "vitest";
import { javaPatternAsEcma } from "./java-pattern.js";
import { compilePattern } from "./pattern.js";

describe("@pattern in Java syntax", () => {
  it.each([
    // An AWS model's identifier pattern: \A and \z anchors, a POSIX class inside a class.
    ["^\\A\\S[\\p{Print}]*\\z$", ["my-inference-1", "abc", "x y~"], ["", " x", "ab\u0001", "caf\u00e9", "a\tb"]],
    ["^[\\p{Alnum}\\-_]+$", ["a-b_C9"], ["a.b", ""]],
    ["^\\p{Upper}\\p{Lower}+$", ["Hello"], ["hello", "HELLO"]],
    ["^\\P{Digit}+$", ["abc"], ["a1c"]],
    ["^\\Q.*+\\E$", [".*+"], ["abc"]],
    ["^a++b$", ["aab"], ["b"]],
    ["^(?>ab|a)c$", ["abc", "ac"], ["bc"]],
    ["^foo\\#bar\\ baz$", ["foo#bar baz"], ["foobar"]],
    ["^\\h*x$", ["\t x", "x"], ["\nx"]],
    ["^\\p{IsAlphabetic}+$", ["abc\u00e9"], ["a1"]],
    ["^ab\\Z", ["ab", "ab\n"], ["abc"]],
  ])("%s", (pattern, valid, invalid) => {
    const test = compilePattern(pattern);
    for (const v of valid) expect(test(v), JSON.stringify(v)).toBe(true);
    for (const v of invalid) expect(test(v), JSON.stringify(v)).toBe(false);
  });

  it("keeps a leading (?i) as a flag", () => {
    expect(javaPatternAsEcma("(?i)^abc$")).toEqual({ source: "^abc$", flags: "ui" });
    expect(compilePattern("(?i)^abc$")("ABC")).toBe(true);
  });

  it("gives up on what it does not rewrite (nested classes, \\P inside a class)", () => {
    expect(javaPatternAsEcma("[a-z&&[^e]]")).toBeUndefined();
    expect(javaPatternAsEcma("[\\P{Digit}x]")).toBeUndefined();
  });

  it("leaves ECMAScript patterns to the ECMAScript engine", () => {
    // Valid with the `u` flag: never rewritten (\p{L} is a Unicode property in both).
    expect(compilePattern("^\\p{L}+$")("\u00e9t\u00e9")).toBe(true);
  });
});
