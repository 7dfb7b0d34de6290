import { describe, expect, it } from "vitest";
import { CborFloat, CborTime, diagnostic, encodeCbor, hexDump } from "./cbor.js";

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

describe("encodeCbor", () => {
  // Vectors from RFC 8949, appendix A.
  it.each([
    [0, "00"],
    [23, "17"],
    [24, "1818"],
    [1000, "1903e8"],
    [1000000, "1a000f4240"],
    [1000000000000, "1b000000e8d4a51000"],
    [-1, "20"],
    [-1000, "3903e7"],
    [new CborFloat(1.1), "fb3ff199999999999a"],
    [new CborFloat(1), "fb3ff0000000000000"],
    [false, "f4"],
    [true, "f5"],
    [null, "f6"],
    ["", "60"],
    ["IETF", "6449455446"],
    ["ü", "62c3bc"],
    [new Uint8Array([1, 2, 3, 4]), "4401020304"],
    [[1, [2, 3]], "8201820203"],
    [{ a: 1, b: [2, 3] }, "a26161016162820203"],
    [new CborTime(1363896240), "c11a514b67b0"],
    [new CborTime(1363896240.5), "c1fb41d452d9ec200000"],
  ])("%j → %s", (value, want) => {
    expect(hex(encodeCbor(value))).toBe(want);
  });
});

describe("diagnostic", () => {
  it("writes RFC 8949 diagnostic notation", () => {
    expect(diagnostic({ a: [1, new CborFloat(2)], b: new Uint8Array([0xca, 0xfe]), t: new CborTime(0), s: "x", n: null })).toBe(
      `{\n  "a": [\n    1,\n    2.0\n  ],\n  "b": h'cafe',\n  "t": 1(0),\n  "s": "x",\n  "n": null\n}`,
    );
  });

  it("dumps bytes as hex lines of 16", () => {
    expect(hexDump(new Uint8Array(18).fill(0xab))).toBe(`${"ab ".repeat(15)}ab\nab ab`);
  });
});
