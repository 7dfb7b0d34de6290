import { BigDecimal, SerializationError } from "@anvil/core";
import { encode, Tag } from "cbor-x";
import { describe, expect, it } from "vitest";
import { compileReader } from "./index.js";
import { Choice, Defaults, Everything, Scalars, TreeSchema } from "./test-schemas.js";
import { document } from "@anvil/core/codegenv1";

const hex = (s: string) =>
  Uint8Array.from(
    s
      .replace(/\s+/g, "")
      .match(/../g)!
      .map((h) => parseInt(h, 16)),
  );
const readEverything = compileReader(Everything);
/** A one-member map `{ name: <item> }` around raw item bytes. */
const field = (name: string, item: string) => {
  const key = new TextEncoder().encode(name);
  return new Uint8Array([0xa1, 0x60 | key.length, ...key, ...hex(item)]);
};

describe("reader: every kind", () => {
  it.each([
    ["boolean", "bool", "f5", true],
    ["string", "str", "6568656c6c6f", "hello"],
    ["blob", "bytes", "43010203", new Uint8Array([1, 2, 3])],
    ["byte", "i8", "387f", -128],
    ["short", "i16", "197fff", 32767],
    ["integer", "i32", "3a7fffffff", -2147483648],
    ["long (safe)", "i64", "1b001fffffffffffff", 9007199254740991],
    ["long (beyond 2^53 stays exact)", "i64", "1b7fffffffffffffff", 9223372036854775807n],
    ["long (negative beyond 2^53)", "i64", "3b7fffffffffffffff", -9223372036854775808n],
    ["bigInteger (bignum tag 2)", "big", "c249010000000000000000", 2n ** 64n],
    ["bigInteger (bignum tag 3)", "big", "c349010000000000000000", -(2n ** 64n) - 1n],
    ["bigInteger (small bignum becomes a number)", "big", "c24101", 1],
    ["float (single)", "f32", "fa40f40000", 7.625],
    ["float (half)", "f32", "f94760", 7.375],
    ["double (half subnormal)", "f64", "f90050", 0.00000476837158203125],
    ["double (integer upcast)", "f64", "1864", 100],
    ["double (NaN)", "f64", "f97e00", NaN],
    ["double (-Infinity)", "f64", "fbfff0000000000000", -Infinity],
    ["timestamp (tag 1, integer)", "time", "c11a5f5e1000", new Date(1600000000000)],
    ["timestamp (tag 1, float)", "time", "c1fb41cc37db380fbe77", new Date(946845296123)],
    ["enum", "color", "63726564", "red"],
    ["intEnum", "level", "02", 2],
    ["list", "strings", "826161f90000".replace("f90000", "6162"), ["a", "b"]],
    ["sparse list keeps null", "sparseStrings", "82f66161", [null, "a"]],
    ["map", "counts", "a1616101", { a: 1 }],
    ["sparse map keeps null", "sparseCounts", "a16161f6", { a: null }],
    ["union", "choice", "a16b6e756d62657256616c75650c", { $case: "numberValue", value: 12 }],
    ["document", "doc", "a26161820102616263787978", { a: [1, 2], b: "xyx" }],
  ])("%s", (_label, name, item, expected) => {
    expect((readEverything(field(name, item)) as Record<string, unknown>)[name]).toEqual(expected);
  });

  it("bigDecimal from a decimal fraction (tag 4), exactly", () => {
    const out = readEverything(field("dec", "c482 21 196ab3")) as { dec: BigDecimal };
    expect(BigDecimal.is(out.dec)).toBe(true);
    expect(out.dec.equals("273.15")).toBe(true);
    const huge = readEverything(field("dec", "c482 38ff c249010000000000000000")) as { dec: BigDecimal };
    expect(huge.dec.equals(`${2n ** 64n}e-256`)).toBe(true);
  });

  it("protocol upcasting body (half floats, small ints)", () => {
    const read = compileReader(Scalars);
    const body = Buffer.from("v2tkb3VibGVWYWx1Zfk+AGpmbG9hdFZhbHVl+UegbGludGVnZXJWYWx1ZRg4aWxvbmdWYWx1ZRkBAGpzaG9ydFZhbHVlCv8=", "base64");
    expect(read(body)).toEqual({ doubleValue: 1.5, floatValue: 7.625, integerValue: 56, longValue: 256, shortValue: 10 });
  });
});

describe("reader: integers vs floats", () => {
  it.each([
    ["integral float accepted for integer", "i32", "fb4059000000000000", 100],
    ["integral half accepted for byte", "i8", "f94500", 5],
  ])("%s", (_l, name, item, expected) => {
    expect((readEverything(field(name, item)) as Record<string, unknown>)[name]).toBe(expected);
  });
  it.each([
    ["fractional float for integer", "i32", "fb3ff8000000000000", /expected integer, got float.*at \/i32/],
    ["byte out of range", "i8", "1880", /byte out of range/],
    ["short out of range", "i16", "1a00010000", /short out of range/],
    ["integer out of range", "i32", "1a80000000", /integer out of range/],
    ["long out of range (bignum)", "i64", "c249010000000000000000", /expected long|long out of range/],
    ["fractional float for long", "i64", "f93e00", /expected long/],
    ["string for boolean", "bool", "6161", /expected boolean, got string/],
    ["timestamp without a number", "time", "6161", /expected timestamp/],
  ])("%s is an error", (_l, name, item, message) => {
    expect(() => readEverything(field(name, item))).toThrow(message);
  });
});

describe("reader: structures", () => {
  it("fills defaults for absent and null members", () => {
    const read = compileReader(Defaults);
    expect(read(hex("a0"))).toEqual({ name: "anon", size: 7, tags: [] });
    expect(read(hex("a2646e616d65f66473697a6503"))).toEqual({ name: "anon", size: 3, tags: [] });
  });

  it("ignores unknown members and null members", () => {
    const read = compileReader(Scalars);
    const bytes = encode({ stringValue: "x", extra: { deep: [1, { a: 2 }] }, integerValue: null, other: "y" });
    expect(read(bytes)).toEqual({ stringValue: "x" });
  });

  it("reads recursive schemas", () => {
    const read = compileReader(TreeSchema);
    const value = { value: 1, children: [{ value: 2, children: [{ value: 3 }] }, { value: 4 }] };
    expect(read(encode(value))).toEqual(value);
  });

  it("rejects a null in a non-sparse list with its path", () => {
    const err = catchError(() => readEverything(field("strings", "82f66161")));
    expect(err.path).toBe("/strings/0");
    expect(err.message).toMatch(/^decode cbor: null in a non-sparse list at \/strings\/0$/);
  });
});

describe("reader: unions", () => {
  const read = compileReader(Choice);
  it.each([
    ["a known variant", { stringValue: "foo" }, { $case: "stringValue", value: "foo" }],
    ["a nested union", { unionValue: { stringValue: "foo" } }, { $case: "unionValue", value: { $case: "stringValue", value: "foo" } }],
    ["an unknown variant", { brandNew: [1, 2] }, { $case: "$unknown", name: "brandNew", value: [1, 2] }],
    ["__type is ignored", { __type: "ns#Choice", numberValue: 3 }, { $case: "numberValue", value: 3 }],
  ])("reads %s", (_l, wire, expected) => {
    expect(read(encode(wire))).toEqual(expected);
  });
  it.each([
    ["no member", {}, /union has no member set/],
    ["two members", { stringValue: "a", numberValue: 1 }, /more than one member/],
  ])("rejects %s", (_l, wire, message) => {
    expect(() => read(encode(wire))).toThrow(message);
  });
});

describe("reader: __proto__ keys", () => {
  it("keeps __proto__ as an own data property of a map, never as the prototype", () => {
    // {"counts": {"__proto__": 1, "a": 2}}
    const out = readEverything(hex("a1 66636f756e7473 a2 695f5f70726f746f5f5f 01 6161 02")) as { counts: Record<string, number> };
    expect(Object.getPrototypeOf(out.counts)).toBe(Object.prototype);
    expect(Object.hasOwn(out.counts, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(out.counts, "__proto__")!.value).toBe(1);
    expect(out.counts.a).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps __proto__ in documents too", () => {
    const out = readEverything(hex("a1 63646f63 a1 695f5f70726f746f5f5f a1 68706f6c6c75746564 f5")) as { doc: Record<string, unknown> };
    expect(Object.getPrototypeOf(out.doc)).toBe(Object.prototype);
    expect(Object.keys(out.doc)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("reader: indefinite lengths", () => {
  it.each([
    ["indefinite map", "bf 63737472 6161 ff", { str: "a" }],
    ["indefinite key and text", "bf 7f 62 7374 6172 ff 7f 6161 6162 ff ff", { str: "ab" }],
    ["indefinite byte string", "a1 656279746573 5f 4101 420203 ff", { bytes: new Uint8Array([1, 2, 3]) }],
    ["indefinite list of indefinite strings", "a1 67737472696e6773 9f 7f 6161 ff 6162 ff", { strings: ["a", "b"] }],
    ["empty indefinite list", "a1 67737472696e6773 9f ff", { strings: [] }],
  ])("%s", (_l, bytes, expected) => {
    expect(readEverything(hex(bytes))).toEqual(expected);
  });
});

describe("reader: malformed and hostile input", () => {
  it.each([
    ["empty input", ""],
    ["trailing bytes", "a0 00"],
    ["truncated map", "a2 6161 01"],
    ["byte string claiming 2^31 bytes", "a1 656279746573 5a 80000000 0102"],
    ["map claiming 2^31 entries", "ba 80000000 6161 01"],
    ["array claiming 2^31 items", "a1 67737472696e6773 9a 80000000 01"],
    ["8-byte length", "a1 656279746573 5b 0000000100000000 01"],
    ["unsupported tag (shared reference)", "a1 63646f63 d81c 01"],
    ["unsupported tag (regexp generic object)", "a1 63646f63 d81b 83 66526567457870 6161 60"],
    ["non-text map key", "a1 01 02"],
    ["stray break", "ff"],
    ["break after a key", "bf 6161 ff"],
    ["reserved additional information", "1c"],
    ["simple value", "a1 63646f63 f0"],
    ["tag 1 around a string", "a1 6474696d65 c1 6161"],
    ["indefinite string with a nested indefinite chunk", "a1 63737472 7f 7f ff ff"],
    ["indefinite string with a chunk of the wrong type", "a1 63737472 7f 4161 ff"],
    ["not bytes", null],
  ])("%s throws SerializationError", (_l, bytes) => {
    const input = bytes === null ? ("nope" as unknown as Uint8Array) : hex(bytes || "00").subarray(bytes ? 0 : 1);
    const err = catchError(() => readEverything(input));
    expect(err).toBeInstanceOf(SerializationError);
    expect(err.message).toMatch(/^decode cbor: /);
  });

  it("S7: rejects nesting beyond maxDepth (100 000 levels) without overflowing the stack", () => {
    const deep = new Uint8Array(100_000).fill(0x81);
    deep[deep.length - 1] = 0x00;
    const read = compileReader(Everything, { maxDepth: 128 });
    expect(() => read(deep)).toThrow(/nesting deeper than 128/);
    const docDeep = new Uint8Array([0xa1, 0x63, 0x64, 0x6f, 0x63, ...new Uint8Array(200).fill(0x81), 0x00]);
    expect(() => read(docDeep)).toThrow(SerializationError);
    expect(() => compileReader(Everything, { maxDepth: 300 })(docDeep)).not.toThrow();
  });
});

describe("reader: fromValue", () => {
  it("converts a value cbor-x decoded and leaves it untouched", () => {
    const decoded = { strings: ["a"], counts: { a: 1 }, time: new Date(5), dec: new Tag([-1, 15], 7) };
    const snapshot = structuredClone({ ...decoded, dec: undefined });
    const out = readEverything.fromValue(decoded) as Record<string, unknown>;
    expect(out).toEqual({ strings: ["a"], counts: { a: 1 }, time: new Date(5), dec: BigDecimal.from("1.5") });
    expect({ ...decoded, dec: undefined }).toEqual(snapshot);
    expect(out.counts).not.toBe(decoded.counts);
  });
  it("prefixes error paths", () => {
    const err = catchError(() => readEverything.fromValue({ i32: "x" }, "/body"));
    expect(err.path).toBe("/body/i32");
  });
});

function catchError(fn: () => unknown): SerializationError {
  try {
    fn();
  } catch (error) {
    return error as SerializationError;
  }
  throw new Error("expected an error");
}

describe("documents: integers", () => {
  it("read 64-bit integers that fit a double as numbers, larger ones as bigint", () => {
    const read = compileReader(document);
    expect(read(new Uint8Array(encode([4294967296, -4294967297])))).toEqual([4294967296, -4294967297]);
    const big = new Uint8Array([0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    expect(read(big)).toBe(2n ** 64n - 1n);
  });
});
