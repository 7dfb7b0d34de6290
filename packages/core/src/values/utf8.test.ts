import { describe, expect, it } from "vitest";
import { encodeUtf8 } from "./utf8.js";

describe("encodeUtf8", () => {
  it("gives the bytes TextEncoder gives, for short and long texts", () => {
    const encoder = new TextEncoder();
    for (const text of ["", "a", "✓ ok", "\u{1F600}", "lone \uD800 surrogate", "x".repeat(3000), "é".repeat(5000)]) {
      expect(encodeUtf8(text)).toEqual(encoder.encode(text));
    }
  });

  it("never hands out a region twice, also across slabs", () => {
    const outputs = Array.from({ length: 5000 }, (_, i) => [`text ${i} ${"é".repeat(i % 50)}`, encodeUtf8(`text ${i} ${"é".repeat(i % 50)}`)] as const);
    const decoder = new TextDecoder();
    for (const [text, bytes] of outputs) expect(decoder.decode(bytes)).toBe(text);
  });
});
