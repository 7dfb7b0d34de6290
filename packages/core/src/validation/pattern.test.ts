import { describe, expect, it } from "vitest";
import { compilePattern } from "./pattern.js";

describe("compilePattern", () => {
  it.each([
    // [pattern, value, matches]
    ["^[a-m]+$", "abc", true],
    ["^[a-m]+$", "ABC", false],
    ["^[a-m]+$", "xyz", false],
    ["[a-m]", "xxaxx", true],
    ["a{2,3}", "xaax", true],
    ["^a{2,3}$", "aaaa", false],
    ["^a{2,3}$", "aaa", true],
    ["^a{2}$", "aa", true],
    ["^a{2,}$", "aaaaa", true],
    ["^a{2,}$", "a", false],
    ["^a?b$", "b", true],
    ["^a+?b$", "aab", true],
    ["\\bfoo\\b", "a foo b", true],
    ["\\bfoo\\b", "afoob", false],
    ["\\Boo\\B", "afoob", true],
    ["^\\d{3}-\\d{4}$", "555-1234", true],
    ["^\\d{3}-\\d{4}$", "555-12345", false],
    ["^.$", "👍", true],
    ["^..$", "👍", false],
    ["^\\uD83D\\uDC4D$", "👍", true],
    ["^\\u{1F44D}$", "👍", true],
    ["^[👍a]+$", "a👍a", true],
    ["^\\p{L}+$", "héllo", true],
    ["^\\p{L}+$", "h3llo", false],
    ["^(a|b)*c$", "ababc", true],
    ["^(a|b)*c$", "ababd", false],
    ["^(?:x|y)z$", "yz", true],
    ["^(?<name>x)z$", "xz", true],
    ["", "anything", true],
    ["^$", "", true],
    ["^$", "x", false],
    ["^(a*)*$", "aaaa", true],
    ["[^]", "x", true],
    ["[]", "x", false],
    ["^[\\]]$", "]", true],
    ["^\\.$", ".", true],
    ["^\\.$", "x", false],
    ["^a.c$", "a\nc", false],
    ["x$", "abx", true],
    ["^a|b$", "ab", true],
    // backreferences and lookaround use the native engine
    ["(a)\\1", "xaax", true],
    ["^(?=a)a$", "a", true],
    ["^(?!a)", "a", false],
  ] as const)("%s on %j is %s", (pattern, value, matches) => {
    expect(compilePattern(pattern)(value)).toBe(matches);
    expect(new RegExp(pattern, "u").test(value)).toBe(matches);
  });

  it.each([
    ["^([0-9]+)+$", "0".repeat(84) + "!"],
    ["^(a*)*b$", "a".repeat(5000)],
    ["^(a|a)*$", "a".repeat(5000) + "!"],
    ["^(\\w+\\s?)*$", "an evil sentence that never ends well because of this!".repeat(20)],
  ])("runs %s in linear time (no ReDoS)", (pattern, value) => {
    const started = performance.now();
    expect(compilePattern(pattern)(value)).toBe(false);
    // Exponential backtracking would take minutes; the bound only needs to catch that, even on a loaded machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("falls back to a non-unicode regex for Java-style escapes the u flag rejects", () => {
    expect(compilePattern("^a\\-b$")("a-b")).toBe(true);
  });

  it("rejects an invalid pattern at compile time, naming it", () => {
    expect(() => compilePattern("([a-")).toThrow(/invalid @pattern "\(\[a-"/);
  });
});

describe("compilePattern agrees with the native engine", () => {
  // A deterministic pseudo-random source, so failures reproduce.
  let seed = 42;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const word = (alphabet: string[], max: number): string => Array.from({ length: random(max + 1) }, () => alphabet[random(alphabet.length)]).join("");

  it.each([
    "^(a|b)*a(a|b){3}$",
    "(a|b)*a(a|b){12}", // 2^13 DFA states: exercises the state cap
    "^a*b?a+$",
    "b{2,4}",
    "^(?:ab|a)*c?$",
    "[^a]b",
    "^(a|)+$",
    "a$|^b",
    "é+👍?",
    "^.{2,3}$",
    "\\bab",
  ])("%s on random strings", (pattern) => {
    const test = compilePattern(pattern);
    const native = new RegExp(pattern, "u");
    const alphabet = ["a", "b", "c", "é", "👍", " "];
    for (let k = 0; k < 400; k++) {
      const s = word(alphabet, k < 390 ? 12 : 4000);
      expect(test(s), JSON.stringify(s)).toBe(native.test(s));
    }
  });
});
