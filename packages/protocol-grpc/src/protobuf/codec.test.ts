import { BigDecimal, SerializationError, type StructSchema } from "@anvil/core";
import {
  bigDecimal,
  bigInteger,
  blob,
  boolean,
  byte,
  document,
  double,
  enumeration,
  float,
  intEnum,
  integer,
  list,
  long,
  map,
  member,
  scalar,
  short,
  string,
  struct,
  timestamp,
  union,
} from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { compileProtobufReader, compileProtobufWriter, protobufCodec } from "./codec.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const unhex = (text: string) => new Uint8Array(Buffer.from(text.replace(/\s+/g, ""), "hex"));
const idx = (n: number) => ({ protoIndex: n });

const Color = enumeration("test#Color", [
  { name: "RED", value: "red" },
  { name: "GREEN", value: "green" },
]);
const Level = intEnum("test#Level", [
  { name: "NONE", value: 0 },
  { name: "HIGH", value: 5 },
]);
const Choice = union("test#Choice", [member("text", string, idx(1)), member("number", integer, idx(2))]);

const Everything = struct("test#Everything", [
  member("bool", boolean, idx(1)),
  member("str", string, idx(2)),
  member("bytes", blob, idx(3)),
  member("i8", byte, idx(4)),
  member("i16", short, idx(5)),
  member("i32", integer, idx(6)),
  member("i64", long, idx(7)),
  member("big", bigInteger, idx(8)),
  member("f32", float, idx(9)),
  member("f64", double, idx(10)),
  member("dec", bigDecimal, idx(11)),
  member("time", timestamp, idx(12)),
  member("doc", document, idx(13)),
  member("color", Color, idx(14)),
  member("level", Level, idx(15)),
  member("strings", list("test#Strings", member("member", string)), idx(16)),
  member("ints", list("test#Ints", member("member", integer)), idx(17)),
  member("counts", map("test#Counts", member("key", string), member("value", integer)), idx(18)),
  member("choice", Choice, idx(19)),
  member("sparse", list("test#Sparse", member("member", string), { sparse: true }), idx(20)),
]);

const roundTrip = <T>(schema: StructSchema<T>, value: T): T => compileProtobufReader(schema)(compileProtobufWriter(schema)(value));

describe("protobuf codec", () => {
  it("writes the bytes protoc would for simple fields", () => {
    const S = struct("test#S", [member("a", integer, idx(1)), member("b", string, idx(2)), member("c", long, idx(3))]);
    expect(hex(compileProtobufWriter(S)({ a: 150, b: "testing", c: -1 }))).toBe("089601" + "120774657374696e67" + "18ffffffffffffffffff01");
  });

  it("round-trips every supported type", () => {
    const value = {
      bool: true,
      str: "héllo \u{1F600}",
      bytes: new Uint8Array([0, 1, 255]),
      i8: -128,
      i16: 32767,
      i32: -2147483648,
      i64: 2n ** 62n,
      big: -(2n ** 100n),
      f32: 1.5,
      f64: -0.1,
      dec: BigDecimal.from("1.50"),
      time: new Date("2024-02-29T12:34:56.789Z"),
      doc: { a: [1, "x", true, null, { b: {} }] },
      color: "green",
      level: 5,
      strings: ["a", "", "c"],
      ints: [1, -1, 300],
      counts: JSON.parse(`{"x":1,"":0,"__proto__":2}`),
      choice: { $case: "number", value: 7 },
      sparse: ["a", null, ""],
    };
    const out = roundTrip(Everything, value as never) as Record<string, unknown>;
    expect(out).toEqual(value);
    expect(Object.hasOwn(out.counts as object, "__proto__")).toBe(true);
  });

  it("reads strings of every short length and map keys that share a cache slot", () => {
    const S = struct("test#Texts", [
      member("texts", list("test#TextList", member("member", string)), idx(1)),
      member("keyed", map("test#Keyed", member("key", string), member("value", integer)), idx(2)),
    ]);
    const texts: string[] = [];
    for (let n = 0; n <= 40; n++) texts.push("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH".slice(0, n), "é".padStart(n, "x"));
    // more keys than cache slots, of the same few lengths: slots are shared, hits and misses interleave
    const keyed: Record<string, number> = {};
    for (let k = 0; k < 600; k++) keyed[`k${(k * 7919) % 1000}`.padEnd(4 + (k % 3), "_")] = k;
    keyed["\u00e9t\u00e9"] = -1;
    keyed[""] = 0;
    const value = { texts, keyed };
    expect(roundTrip(S, value)).toEqual(value);
    // the same bytes again (keys now cached) read the same
    expect(roundTrip(S, value)).toEqual(value);
  });

  it("checks short strings for UTF-8 at every position", () => {
    const S = struct("test#OneText", [member("t", string, idx(1))]);
    const read = compileProtobufReader(S);
    for (let n = 1; n <= 30; n++) {
      for (let at = 0; at < n; at++) {
        const text = "x".repeat(at) + "\u00e9" + "y".repeat(n - at - 1);
        expect(roundTrip(S, { t: text })).toEqual({ t: text });
        const bytes = new Uint8Array(2 + n);
        bytes.set([0x0a, n]);
        bytes.fill(0x61, 2);
        bytes[2 + at] = 0xff;
        expect(() => read(bytes)).toThrow(/malformed UTF-8/);
      }
    }
  });

  it("reads varints of every length, at the end of a message and before other fields", () => {
    const S = struct("test#Varints", [member("i", integer, idx(1)), member("l", long, idx(2)), member("s", string, idx(3))]);
    const ints = [1, 127, 128, 2 ** 14, 2 ** 21 - 1, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 31 - 1, -1, -(2 ** 31)];
    const longs = [
      1,
      2 ** 28 - 1,
      2 ** 28,
      2 ** 35 - 1,
      2 ** 35,
      2 ** 42 - 1,
      2 ** 42,
      2 ** 49 - 1,
      2 ** 49,
      2 ** 53 - 1,
      -1,
      -(2 ** 53) + 1,
      2n ** 62n,
      -(2n ** 63n),
    ];
    for (const i of ints)
      for (const l of longs)
        for (const s of [undefined, "tail"]) {
          const value = s === undefined ? { i, l } : { i, l, s };
          expect(roundTrip(S, value)).toEqual(value);
        }
  });

  it("reads lists and maps whose occurrences interleave, packed and unpacked", () => {
    const S = struct("test#Interleaved", [
      member("a", list("test#IntsA", member("member", integer)), idx(1)),
      member("m", map("test#MapM", member("key", string), member("value", string)), idx(2)),
      member("b", list("test#TextsB", member("member", string)), idx(3)),
    ]);
    // a=1, m{k:v}, b="x", a=[2,3] packed, m{j:w}, a=4, b="y"
    const bytes = unhex("0801 1206 0a016b120176 1a0178 0a020203 1206 0a016a120177 0804 1a0179");
    expect(compileProtobufReader(S)(bytes)).toEqual({ a: [1, 2, 3, 4], m: { k: "v", j: "w" }, b: ["x", "y"] });
  });

  it("packs repeated scalars and accepts them unpacked", () => {
    const S = struct("test#Packed", [member("v", list("test#L", member("member", integer)), idx(4))]);
    expect(hex(compileProtobufWriter(S)({ v: [3, 270, 86942] }))).toBe("2206038e029ea705");
    expect(compileProtobufReader(S)(unhex("2003 208e02 209ea705"))).toEqual({ v: [3, 270, 86942] });
  });

  it("encodes @protoNumType variants", () => {
    const S = struct("test#Nums", [
      member("s32", integer, { protoIndex: 1, protoNumType: "SIGNED" }),
      member("u32", integer, { protoIndex: 2, protoNumType: "UNSIGNED" }),
      member("f32", integer, { protoIndex: 3, protoNumType: "FIXED" }),
      member("sf32", integer, { protoIndex: 4, protoNumType: "FIXED_SIGNED" }),
      member("s64", long, { protoIndex: 5, protoNumType: "SIGNED" }),
      member("u64", long, { protoIndex: 6, protoNumType: "UNSIGNED" }),
      member("f64", long, { protoIndex: 7, protoNumType: "FIXED" }),
      member("sf64", long, { protoIndex: 8, protoNumType: "FIXED_SIGNED" }),
    ]);
    const write = compileProtobufWriter(S);
    expect(hex(write({ s32: -1 }))).toBe("0801");
    expect(hex(write({ u32: 4294967295 }))).toBe("10ffffffff0f");
    expect(hex(write({ sf32: -2 }))).toBe("25feffffff");
    expect(hex(write({ s64: -(2n ** 63n) }))).toBe("28ffffffffffffffffff01");
    expect(hex(write({ f64: 2n ** 64n - 1n }))).toBe("39ffffffffffffffff");
    const value = { s32: -5, u32: 4000000000, f32: 7, sf32: -7, s64: -(2n ** 60n), u64: 2n ** 64n - 1n, f64: 12, sf64: -12 };
    expect(roundTrip(S, value)).toEqual(value);
  });

  it("reads absent required members as proto3 zero values", () => {
    const S = struct("test#Req", [
      member("n", integer, { protoIndex: 1, required: true }),
      member("s", string, { protoIndex: 2, required: true }),
      member("l", list("test#L2", member("member", string)), { protoIndex: 3, required: true }),
      member("c", Color, { protoIndex: 4, required: true }),
      member("o", string, { protoIndex: 5 }),
    ]);
    expect(compileProtobufReader(S)(new Uint8Array(0))).toEqual({ n: 0, s: "", l: [], c: "red" });
  });

  it("skips unknown fields of every wire type, groups included", () => {
    const S = struct("test#Small", [member("a", integer, idx(1))]);
    expect(compileProtobufReader(S)(unhex("0801 5005 5d01020304 5901020304050607 08 620100 6b 7001 6c 0802"))).toEqual({ a: 2 });
  });

  it("inlines @protoInlinedOneOf unions into the containing message", () => {
    const Inline = union("test#Inline", [member("a", string, idx(2)), member("b", integer, idx(3))], { protoInlinedOneOf: true });
    const S = struct("test#Holder", [member("x", integer, idx(1)), member("pick", Inline)]);
    const bytes = compileProtobufWriter(S)({ x: 1, pick: { $case: "b", value: 9 } });
    expect(hex(bytes)).toBe("0801" + "1809");
    expect(compileProtobufReader(S)(bytes)).toEqual({ x: 1, pick: { $case: "b", value: 9 } });
  });

  it("handles recursion and wraps nested collections", () => {
    interface Tree {
      value?: number;
      children?: Tree[];
      grid?: number[][];
    }
    const TreeSchema: StructSchema<Tree> = struct<Tree>("test#Tree", [
      member("value", integer, idx(1)),
      member(
        "children",
        () =>
          list(
            "test#Trees",
            member("member", () => TreeSchema),
          ),
        idx(2),
      ),
      member("grid", list("test#Grid", member("member", list("test#Row", member("member", integer)))), idx(3)),
    ]);
    const value: Tree = { value: 1, children: [{ value: 2, children: [{ value: 3 }] }, {}], grid: [[1, 2], [], [3]] };
    expect(roundTrip(TreeSchema, value)).toEqual(value);
  });

  it("writes long bodies with multi-byte lengths", () => {
    const S = struct("test#Long", [member("inner", struct("test#Inner", [member("s", string, idx(1))]), idx(1))]);
    const value = { inner: { s: "x".repeat(20000) } };
    expect(roundTrip(S, value)).toEqual(value);
  });

  it("exposes the Codec interface", () => {
    expect(protobufCodec.mediaType).toBe("application/protobuf");
    expect(protobufCodec.reader(Everything)).toBe(compileProtobufReader(Everything));
  });

  describe("S9: malformed input", () => {
    const S = struct("test#M", [
      member("n", integer, idx(1)),
      member("s", string, idx(2)),
      member("inner", struct("test#MI", [member("s", string, idx(1))]), idx(3)),
    ]);
    const read = compileProtobufReader(S);
    const cases: [string, string, RegExp][] = [
      ["truncated varint", "0896", /truncated varint/],
      ["11-byte varint", "08ffffffffffffffffffff01", /longer than ten bytes/],
      ["field number 0", "0001", /field number 0/],
      ["field number 2^29 (a tag of 33 bits)", "808080801001", /field number beyond 2\^29 - 1/],
      ["field number 2^29 + 1, whose tag's low 32 bits name field 1", "888080801005", /field number beyond 2\^29 - 1/],
      ["field number 2^29 in an unknown group", "2b808080801001", /field number beyond 2\^29 - 1/],
      ["wrong wire type", "0d01020304", /wire type 5/],
      ["length past the end", "120561", /past the end/],
      ["length of 2^31", "1280808080086161", /past the end/],
      ["bad UTF-8", "1202c328", /malformed UTF-8/],
      ["bad UTF-8 nested", "1a040a02ff61", /malformed UTF-8 in string at \/inner\/s/],
      ["end group", "2c", /end-group/],
      ["invalid wire type", "2f", /invalid wire type/],
    ];
    it("reads a tag padded with bytes that add no bits as the field it names", () => {
      expect(read(unhex("888080800005"))).toEqual({ n: 5 });
      expect(read(unhex("88808080800005"))).toEqual({ n: 5 });
    });

    for (const [name, bytes, message] of cases) {
      it(`rejects ${name}`, () => {
        let error: unknown;
        try {
          read(unhex(bytes));
        } catch (e) {
          error = e;
        }
        expect(SerializationError.is(error)).toBe(true);
        expect((error as Error).message).toMatch(message);
      });
    }
  });

  it("rejects values that do not fit the schema, with a path", () => {
    expect(() => compileProtobufWriter(Everything)({ i8: 300 } as never)).toThrow(/byte out of range at \/i8/);
    expect(() => compileProtobufWriter(Everything)({ strings: ["a", 1] } as never)).toThrow(/expected string, got integer at \/strings\/1/);
    expect(() => compileProtobufWriter(Everything)({ color: "blue" } as never)).toThrow(SerializationError);
  });

  it("writes non-structure schemas as a one-field message", () => {
    const S = scalar("string", "test#Name");
    expect(hex(compileProtobufWriter(S)("hi"))).toBe("0a026869");
  });
});

describe("google.rpc.Status", () => {
  it("encodes as protoc does and reads back", async () => {
    const { GoogleRpcStatusSchema } = await import("./google-rpc.js");
    const status = { code: 5, message: "nope", details: [{ typeUrl: "type.googleapis.com/a.B", value: new Uint8Array([8, 1]) }] };
    const bytes = compileProtobufWriter(GoogleRpcStatusSchema)(status);
    expect(hex(bytes)).toBe("0805" + "12046e6f7065" + "1a1d" + "0a17" + Buffer.from("type.googleapis.com/a.B").toString("hex") + "12020801");
    expect(compileProtobufReader(GoogleRpcStatusSchema)(bytes)).toEqual(status);
    expect(compileProtobufReader(GoogleRpcStatusSchema)(new Uint8Array(0))).toEqual({ code: 0, message: "", details: [] });
  });
});

describe("unions on the wire", () => {
  const U = union("test#U", [member("a", string, idx(1)), member("b", integer, idx(2))]);
  const S = struct("test#HasU", [member("u", U, idx(1)), member("us", list("test#Us", member("member", U)), idx(2))]);
  it("reads an empty union message as no value, and rejects one in a list", () => {
    expect(compileProtobufReader(S)(unhex("0a00"))).toEqual({});
    expect(() => compileProtobufReader(S)(unhex("1200"))).toThrow(/no member set at \/us\/0/);
  });
  it("keeps the last variant when several arrive", () => {
    expect(compileProtobufReader(S)(unhex("0a030a0178 0a021005"))).toEqual({ u: { $case: "b", value: 5 } });
    expect(compileProtobufReader(S)(unhex("0a05 0a0178 1005"))).toEqual({ u: { $case: "b", value: 5 } });
  });
});

describe("64-bit integers", () => {
  const S = struct("test#I64", [member("v", long, idx(1)), member("t", timestamp, idx(2))]);
  const write = compileProtobufWriter(S);
  const read = compileProtobufReader(S);
  it("S6: writes numbers exactly as the equivalent bigints, and reads them back, beyond 2^53 too (9007199254740993 stays itself)", () => {
    for (const v of [
      1,
      -1,
      127,
      128,
      2 ** 31 - 1,
      2 ** 31,
      -(2 ** 31),
      2 ** 32 - 1,
      2 ** 32,
      -(2 ** 32),
      2 ** 49,
      2 ** 53 - 1,
      -(2 ** 53 - 1),
      1_700_000_000,
    ]) {
      expect(hex(write({ v }))).toBe(hex(write({ v: BigInt(v) })));
      expect(read(write({ v }))).toEqual({ v });
    }
    for (const v of [2n ** 53n, 9007199254740993n, -(2n ** 53n), 2n ** 63n - 1n, -(2n ** 63n)]) expect(read(write({ v }))).toEqual({ v });
  });
  it("writes timestamps before the epoch", () => {
    const t = new Date("1900-01-01T00:00:00.001Z");
    expect(read(write({ t }))).toEqual({ t });
  });
});

describe("length backpatching", () => {
  it("writes minimal lengths whatever the sizes of earlier messages of the type", () => {
    const Inner = struct("test#BpInner", [member("s", string, idx(1))]);
    const S = struct("test#Bp", [member("items", list("test#BpItems", member("member", Inner)), idx(1))]);
    const sizes = [200, 5, 20000, 3, 130, 127, 126, 16384, 0];
    const value = { items: sizes.map((n) => ({ s: "x".repeat(n) })) };
    const bytes = compileProtobufWriter(S)(value);
    expect(compileProtobufReader(S)(bytes)).toEqual({ items: sizes.map((n) => (n === 0 ? {} : { s: "x".repeat(n) })) });
    // minimal: every length varint is as short as it can be
    let expected = 0;
    const varint = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : 3);
    for (const n of sizes) {
      const inner = n === 0 ? 0 : 1 + varint(n) + n;
      expected += 1 + varint(inner) + inner;
    }
    expect(bytes.length).toBe(expected);
  });
});

describe("error paths", () => {
  it("name the element of a list of messages", () => {
    const Inner = struct("test#EpInner", [member("s", string, idx(1))]);
    const S = struct("test#Ep", [member("items", list("test#EpItems", member("member", Inner)), idx(1))]);
    // items[0] = { s: "a" }, items[1] = { s: <bad UTF-8> }
    expect(() => compileProtobufReader(S)(unhex("0a030a0161 0a030a01ff"))).toThrow(/malformed UTF-8 in string at \/items\/1\/s$/);
  });
});

describe("fuzzing", () => {
  it("random bytes and random varint-heavy bytes only ever throw SerializationError", async () => {
    const fc = (await import("fast-check")).default;
    const read = compileProtobufReader(Everything);
    const check = (bytes: Uint8Array) => {
      try {
        read(bytes);
      } catch (error) {
        if (!SerializationError.is(error)) throw error;
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), check), { numRuns: 3000 });
    // tags of real fields followed by arbitrary bytes reach deeper into the decoders
    const tags = [0x08, 0x12, 0x1a, 0x20, 0x28, 0x30, 0x38, 0x42, 0x4d, 0x51, 0x5a, 0x62, 0x6a, 0x70, 0x78, 0x82, 0x8a, 0x92, 0x9a, 0xa2];
    const chunk = fc.tuple(fc.constantFrom(...tags), fc.uint8Array({ maxLength: 12 })).map(([t, rest]) => Uint8Array.of(t, ...rest));
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 12 }), (chunks) => check(Uint8Array.from(chunks.flatMap((c) => [...c])))),
      { numRuns: 3000 },
    );
  });
});

describe("cycles", () => {
  it("a cyclic value is an error, not a stack overflow", () => {
    interface Node {
      next?: Node;
    }
    const NodeSchema: StructSchema<Node> = struct<Node>("test#Node", [member("next", () => NodeSchema, idx(1))]);
    const a: Node = {};
    a.next = a;
    expect(() => compileProtobufWriter(NodeSchema)(a)).toThrow(/nested deeper than 100 messages \(or cyclic\)/);
  });
  it("S7: a message nested too deeply (150, or 10 000 levels) is a SerializationError, at once, never a stack overflow", () => {
    interface Node {
      next?: Node;
    }
    const NodeSchema: StructSchema<Node> = struct<Node>("test#Node2", [member("next", () => NodeSchema, idx(1))]);
    /** `levels` messages, each field 1 of the one around it: the tags and lengths, outermost first, then nothing. */
    const nested = (levels: number): Uint8Array => {
      const lengths = [0];
      for (let i = 1; i < levels; i++) lengths.push(1 + lengthBytes(lengths[i - 1]!).length + lengths[i - 1]!);
      return Uint8Array.from(lengths.reverse().flatMap((length) => [0x0a, ...lengthBytes(length)]));
    };
    const read = compileProtobufReader(NodeSchema);
    for (const levels of [150, 10_000]) {
      const started = performance.now();
      let error: unknown;
      try {
        read(nested(levels));
      } catch (e) {
        error = e;
      }
      expect([levels, SerializationError.is(error)]).toEqual([levels, true]);
      expect((error as Error).message).toMatch(/^decode protobuf: message nested deeper than 100 at (\/next){100,101}$/);
      // Refused at the 101st level, whatever the rest holds; the bound only needs to catch a reader that walks it all.
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});

function lengthBytes(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

describe("field numbers", () => {
  it("are checked when a schema compiles", () => {
    const Dup = struct("test#Dup", [member("a", string, idx(1)), member("b", string, idx(1))]);
    expect(() => compileProtobufWriter(Dup)).toThrow(/test#Dup\$a and \$b both use field number 1/);
    expect(() => compileProtobufReader(Dup)).toThrow(/both use field number 1/);
    const Reserved = struct("test#Reserved", [member("a", string, idx(19001))]);
    expect(() => compileProtobufReader(Reserved)).toThrow(/19000-19999/);
    const Clash = union("test#ClashU", [member("x", string, idx(1))], { protoInlinedOneOf: true });
    const Holder = struct("test#ClashHolder", [member("a", string, idx(1)), member("u", Clash)]);
    expect(() => compileProtobufWriter(Holder)).toThrow(/both use field number 1/);
  });
});
