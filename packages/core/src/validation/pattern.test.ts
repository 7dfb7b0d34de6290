import { describe, expect, it, vi } from "vitest";
import { compileLinearPattern, compilePattern, usesNativeEngine } from "./pattern.js";

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
    ["^(a+)+$", "a".repeat(30) + "!"],
    ["^(a*)*b$", "a".repeat(5000)],
    ["^(a|a)*$", "a".repeat(5000) + "!"],
    ["^(\\w+\\s?)*$", "an evil sentence that never ends well because of this!".repeat(20)],
  ])("S10: runs %s in linear time (no ReDoS)", (pattern, value) => {
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

describe("compilePattern's native fast path", () => {
  it.each(["^p-[0-9]+$", "^[a-zA-Z0-9_-]+$", "^\\d{3}-\\d{4}$", "^[A-Za-z]{1,64}$", "^(?:ab)c*$", "^", "^a?b?c+\\.d{2}", "^\\p{L}+$"])(
    "runs %s natively (provably linear)",
    (pattern) => {
      expect(usesNativeEngine(pattern)).toBe(true);
    },
  );

  it.each([
    // the ReDoS corpus
    "^([0-9]+)+$",
    "^(a*)*b$",
    "^(a|a)*$",
    "^(\\w+\\s?)*$",
    // unanchored, alternation, quantified groups, two unbounded quantifiers, many bounded choices, word boundaries
    "[0-9]+$",
    "^a|b$",
    "^(ab)+$",
    "^(?:ab)+$",
    "^a*a*$",
    "^a+b+$",
    "^a{0,20}a{0,20}$",
    "^\\ba+$",
    "^a$^",
  ])("keeps %s on the linear engine", (pattern) => {
    expect(usesNativeEngine(pattern)).toBe(false);
  });

  it("still rejects ReDoS input in linear time through the fast-path decision", () => {
    const started = performance.now();
    expect(compilePattern("^a*a*$")("a".repeat(50_000) + "!")).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("answers with the linear engine when the native one overflows its backtrack stack", () => {
    // Real overflows take input of millions of astral characters (`^[a👍]+$`); simulated here.
    const test = compilePattern("^p-[0-9]+$");
    const overflow = vi.spyOn(RegExp.prototype, "test").mockImplementationOnce(() => {
      throw new RangeError("Maximum call stack size exceeded");
    });
    try {
      expect(test("p-123")).toBe(true);
      expect(overflow).toHaveBeenCalled();
    } finally {
      overflow.mockRestore();
    }
    expect(test("p-12x")).toBe(false);
  });

  it("agrees with the linear engine on random strings for random safe patterns", () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const atoms = ["a", "b", "é", "👍", ".", "[ab]", "[^a]", "\\d", "\\w", "\\s", "[a-c👍]", "\\u{1F44D}", "\\.", "-", "(?:ab)", "(b)"];
    const quantifiers = ["", "", "", "?", "{2}", "{1,3}", "{0,2}?", "*", "+", "+?", "{2,}"];
    const alphabet = ["a", "b", "c", "1", "é", "👍", " ", ".", "-", "\n"];
    let checked = 0;
    for (let k = 0; k < 300; k++) {
      let pattern = "^";
      const n = 1 + random(5);
      for (let j = 0; j < n; j++) {
        const atom = atoms[random(atoms.length)]!;
        // Groups stay unquantified: a quantified group is never on the fast path.
        pattern += atom.startsWith("(") ? atom : atom + quantifiers[random(quantifiers.length)]!;
      }
      if (random(2) === 0) pattern += "$";
      if (!usesNativeEngine(pattern)) continue;
      checked++;
      const fast = compilePattern(pattern);
      const linear = compileLinearPattern(pattern);
      for (let t = 0; t < 60; t++) {
        const s = Array.from({ length: random(9) }, () => alphabet[random(alphabet.length)]).join("");
        expect(fast(s), `${pattern} on ${JSON.stringify(s)}`).toBe(linear(s));
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
