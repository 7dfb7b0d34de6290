import { describe, expect, it } from "vitest";
import { parseQuery, percentEncodingProblem, queryPairProblem } from "../protocol.js";

describe("percentEncodingProblem", () => {
  it.each([
    ["plain text", "new york", undefined],
    ["valid escapes, UTF-8 included", "uncle%3Amikes%20%F0%9F%98%B9", undefined],
    ["an escape of non-hex digits", "a%zzb", `"%zz" is not a percent-escape (% and two hex digits)`],
    ["an escape with one hex digit", "a%4", `"%4" is not a percent-escape (% and two hex digits)`],
    ["a lone % at the end", "100%", `"%" is not a percent-escape (% and two hex digits)`],
    ["a lone % before text", "%%41", `"%%4" is not a percent-escape (% and two hex digits)`],
    ["a byte that starts no UTF-8 sequence", "a%FFb", `"%FF" is not UTF-8`],
    ["a sequence cut short", "%C3%28", `"%C3%28" is not UTF-8`],
    ["an encoded surrogate", "%ED%A0%80", `"%ED%A0%80" is not UTF-8`],
    ["the bad run after a good one", "%C3%A9-%E2%82", `"%E2%82" is not UTF-8`],
  ])("%s", (_label, text, problem) => {
    expect(percentEncodingProblem(text)).toBe(problem);
  });

  it("finds a problem exactly when decodeURIComponent refuses the text (every sequence of up to three pieces)", () => {
    const pieces = ["", "%", "%2", "%zz", "%C3", "%A9", "%E2%82%AC", "%F0%9F%98", "%B9", "%FF", "%41", "a", "/"];
    for (const a of pieces) {
      for (const b of pieces) {
        for (const c of pieces) {
          const text = a + b + c;
          let refused = false;
          try {
            decodeURIComponent(text);
          } catch {
            refused = true;
          }
          expect(percentEncodingProblem(text) !== undefined, text).toBe(refused);
        }
      }
    }
  });
});

describe("parseQuery", () => {
  it("decodes names and values, + as a space, and keeps text that does not decode as written", () => {
    expect(parseQuery("a=1&b=x+y%2Bz&c&=v&d=%zz&%E2=q")).toEqual([
      ["a", "1"],
      ["b", "x y+z"],
      ["c", ""],
      ["", "v"],
      ["d", "%zz"],
      ["%E2", "q"],
    ]);
  });

  it("says which pairs it could not decode and why, also in a copied list", () => {
    const pairs = [...parseQuery("limit=%zz&ok=%20&%FF=1&tag=a+%")];
    expect(pairs.map((pair) => queryPairProblem(pair))).toEqual([
      `in its value, "%zz" is not a percent-escape (% and two hex digits)`,
      undefined,
      `in its name, "%FF" is not UTF-8`,
      `in its value, "%" is not a percent-escape (% and two hex digits)`,
    ]);
    expect(queryPairProblem(["limit", "%zz"])).toBeUndefined();
  });
});
