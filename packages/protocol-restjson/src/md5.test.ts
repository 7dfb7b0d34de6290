import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { md5 } from "./md5.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const utf8 = new TextEncoder();

describe("md5", () => {
  // RFC 1321, appendix A.5.
  it.each([
    ["", "d41d8cd98f00b204e9800998ecf8427e"],
    ["a", "0cc175b9c0f1b6a831c399e269772661"],
    ["abc", "900150983cd24fb0d6963f7d28e17f72"],
    ["message digest", "f96b697d7cb7938d525a2f31aaf161d0"],
    ["abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"],
    ["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"],
    ["12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"],
  ])("digests %j as RFC 1321 says", (text, digest) => {
    expect(hex(md5(utf8.encode(text)))).toBe(digest);
  });

  it("agrees with node:crypto on every length around the block and padding edges", () => {
    for (let length = 0; length <= 130; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      expect(hex(md5(bytes)), `length ${length}`).toBe(createHash("md5").update(bytes).digest("hex"));
    }
  });

  it("agrees with node:crypto on random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        expect(hex(md5(bytes))).toBe(createHash("md5").update(bytes).digest("hex"));
      }),
    );
  });
});
