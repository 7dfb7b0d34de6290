import { BigDecimal, SerializationError } from "@anvil/core";
import { decode, encode } from "cbor-x";
import { describe, expect, it } from "vitest";
import { compileReader, compileWriter } from "./index.js";
import { Choice, Everything, Scalars, TreeSchema, type Tree } from "./test-schemas.js";

const toHex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const b64 = (s: string) => new Uint8Array(Buffer.from(s, "base64"));
const writeEverything = compileWriter(Everything);

describe("writer: wire types follow the schema", () => {
  it.each([
    ["integer as the shortest int", { i32: 500 }, "a1 63693332 1901f4"],
    ["negative integer", { i32: -500 }, "a1 63693332 3901f3"],
    ["long beyond 2^53 as a bigint", { i64: 2n ** 62n }, "a1 63693634 1b4000000000000000"],
    ["bigInteger beyond 64 bits as bignum", { big: 2n ** 64n }, "a1 63626967 c249010000000000000000"],
    ["float as single precision", { f32: 7.625 }, "a1 63663332 fa40f40000"],
    ["integral double stays a double", { f64: 2 }, "a1 63663634 fb4000000000000000"],
    ["NaN double", { f64: NaN }, "a1 63663634 fb7ff8000000000000"],
    ["timestamp as tag 1 double", { time: new Date(1398796238000) }, "a1 6474696d65 c1fb41d4d7fbf3800000"],
    ["fractional timestamp", { time: new Date(946845296123) }, "a1 6474696d65 c1fb41cc37db380fbe77"],
    ["bigDecimal as tag 4", { dec: BigDecimal.from("273.15") }, "a1 63646563 c482 21 196ab3"],
    ["blob as a byte string", { bytes: new Uint8Array([1, 2]) }, "a1 656279746573 420102"],
    ["union as a one-entry map", { choice: { $case: "stringValue", value: "foo" } }, "a1 6663686f696365 a1 6b737472696e6756616c7565 63666f6f"],
    ["sparse list null", { sparseStrings: [null, "a"] }, "a1 6d737061727365537472696e6773 82 f6 6161"],
    ["absent and null members are skipped", { str: "a", i32: undefined, bool: null }, "a1 63737472 6161"],
    ["non-ASCII text", { str: "é€😀" }, "a1 63737472 69c3a9e282acf09f9880"],
  ])("%s", (_l, value, expected) => {
    expect(toHex(writeEverything(value as never))).toBe(expected.replace(/\s+/g, ""));
  });

  it("long strings and many members", () => {
    const long = "x".repeat(70_000) + "ü";
    const bytes = writeEverything({ str: long } as never);
    expect(decode(bytes)).toEqual({ str: long });
  });
});

describe("writer: byte-exact against rpcv2Cbor protocol test bodies", () => {
  it("RpcV2CborSimpleScalarPropertiesUsingDefiniteLength", () => {
    const write = compileWriter(Scalars);
    const value = {
      trueBooleanValue: true,
      falseBooleanValue: false,
      byteValue: 5,
      doubleValue: 1.889,
      floatValue: 7.625,
      integerValue: 256,
      shortValue: 9898,
      stringValue: "simple",
      blobValue: new TextEncoder().encode("foo"),
    };
    expect(Buffer.from(write(value)).toString("base64")).toBe(
      "qXB0cnVlQm9vbGVhblZhbHVl9XFmYWxzZUJvb2xlYW5WYWx1ZfRpYnl0ZVZhbHVlBWtkb3VibGVWYWx1Zfs//jlYEGJN02pmbG9hdFZhbHVl+kD0AABsaW50ZWdlclZhbHVlGQEAanNob3J0VmFsdWUZJqprc3RyaW5nVmFsdWVmc2ltcGxlaWJsb2JWYWx1ZUNmb28=",
    );
  });
  it.each([
    ["RpcV2CborSerializesUnionValue", { stringValue: "foo" }, "oWtzdHJpbmdWYWx1ZWNmb28="],
    ["RpcV2CborSerializesNestedUnionValue", { unionValue: { $case: "stringValue", value: "foo" } }, "oWp1bmlvblZhbHVloWtzdHJpbmdWYWx1ZWNmb28="],
  ])("%s (the union member of the body)", (_l, variant, expected) => {
    const [[$case, value]] = Object.entries(variant);
    expect(Buffer.from(compileWriter(Choice)({ $case, value } as never)).toString("base64")).toBe(expected);
  });
  it.each([
    ["RpcV2CborSupportsNaNFloatInputs", { doubleValue: NaN, floatValue: NaN }, "v2tkb3VibGVWYWx1Zft/+AAAAAAAAGpmbG9hdFZhbHVl+n/AAAD/"],
    ["RpcV2CborSupportsInfinityFloatInputs", { doubleValue: Infinity, floatValue: Infinity }, "v2tkb3VibGVWYWx1Zft/8AAAAAAAAGpmbG9hdFZhbHVl+n+AAAD/"],
    ["RpcV2CborSupportsNegativeInfinityFloatInputs", { doubleValue: -Infinity, floatValue: -Infinity }, "v2tkb3VibGVWYWx1Zfv/8AAAAAAAAGpmbG9hdFZhbHVl+v+AAAD/"],
  ])("%s: same items as the (indefinite-length) body", (_l, value, body) => {
    const ours = compileWriter(Scalars)(value as never);
    // the test body uses an indefinite map (bf ... ff); ours is definite (a2 ...): items are identical
    expect(toHex(ours).slice(2)).toBe(toHex(b64(body)).slice(2, -2));
    expect(Object.is(compileReader(Scalars)(b64(body)).doubleValue, value.doubleValue)).toBe(true);
  });
});

describe("writer: errors", () => {
  it.each([
    ["string for integer", { i32: "1" }, /expected integer, got string at \/i32/],
    ["fraction for integer", { i32: 1.5 }, /expected integer, got float/],
    ["integer out of range", { i8: 200 }, /byte out of range/],
    ["long out of range", { i64: 2n ** 63n }, /long out of range/],
    ["invalid Date", { time: new Date(NaN) }, /invalid Date/],
    ["number for blob", { bytes: 1 }, /expected Uint8Array/],
    ["null in a non-sparse list", { strings: ["a", null] }, /null in a non-sparse list at \/strings\/1/],
    ["unknown union variant", { choice: { $case: "$unknown", name: "x", value: 1 } }, /cannot write an unknown union variant at \/choice/],
    ["not a union value", { choice: "x" }, /expected union value/],
  ])("%s", (_l, value, message) => {
    let error: unknown;
    try {
      writeEverything(value as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SerializationError);
    expect((error as Error).message).toMatch(/^encode cbor: /);
    expect((error as Error).message).toMatch(message);
  });

  it("stops on cyclic values instead of overflowing the stack", () => {
    const tree: Tree = { value: 1, children: [] };
    tree.children!.push(tree);
    expect(() => compileWriter(TreeSchema)(tree)).toThrow(/nested deeper than 128/);
  });
});

describe("writer: toValue", () => {
  it("gives cbor-x a value it encodes as the same data", () => {
    const value = {
      str: "a",
      time: new Date(1500),
      bytes: new Uint8Array([1]),
      dec: BigDecimal.from("1.5"),
      choice: { $case: "numberValue", value: 3 },
      counts: { a: 1 },
    };
    const plain = writeEverything.toValue(value as never);
    const viaCborX = encode(plain);
    expect(compileReader(Everything)(viaCborX)).toEqual(compileReader(Everything)(writeEverything(value as never)));
  });
});
