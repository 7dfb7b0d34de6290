import { BigDecimal, SerializationError } from "@anvil/core";
import { bigDecimal, bigInteger, document, list, member, string, struct, timestamp } from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { compileReader, compileWriter, jsonCodec } from "./index.js";
import { Everything, Named, Node, Shape } from "./test-schemas.js";

const write = compileWriter(Everything);

function failure(fn: () => unknown): SerializationError {
  try {
    fn();
  } catch (error) {
    expect(SerializationError.is(error)).toBe(true);
    return error as SerializationError;
  }
  throw new Error("expected a SerializationError");
}

describe("writes every kind", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["string with escapes", { str: 'a"b\\c\n\u0001' }, `{"str":"a\\"b\\\\c\\n\\u0001"}`],
    ["lone surrogate escaped", { str: "\ud800" }, `{"str":"\\ud800"}`],
    ["surrogate pair kept", { str: "😀" }, `{"str":"😀"}`],
    ["boolean", { bool: true }, `{"bool":true}`],
    ["integers", { b: -1, s: 2, i: 3 }, `{"b":-1,"s":2,"i":3}`],
    ["long number", { l: 42 }, `{"l":42}`],
    ["long bigint", { l: 9007199254740993n }, `{"l":9007199254740993}`],
    ["float and double", { f: 1.5, d: -0.25 }, `{"f":1.5,"d":-0.25}`],
    ["NaN", { d: NaN }, `{"d":"NaN"}`],
    ["Infinity", { d: Infinity }, `{"d":"Infinity"}`],
    ["-Infinity", { f: -Infinity }, `{"f":"-Infinity"}`],
    ["bigInteger 2^70", { bi: 2n ** 70n }, `{"bi":1180591620717411303424}`],
    ["bigDecimal as a raw number", { bd: BigDecimal.from("1.000000000000000000001") }, `{"bd":1.000000000000000000001}`],
    ["bigDecimal text normalized to JSON", { bd: BigDecimal.from("+.5") }, `{"bd":0.5}`],
    ["blob", { blob: new TextEncoder().encode("hello") }, `{"blob":"aGVsbG8="}`],
    ["epoch-seconds", { ts: new Date(1515531081123) }, `{"ts":1515531081.123}`],
    [
      "document with big numbers",
      { doc: { a: [1, 2n ** 70n, null, "x"], b: BigDecimal.from("1.000000000000000000001"), c: undefined } },
      `{"doc":{"a":[1,1180591620717411303424,null,"x"],"b":1.000000000000000000001}}`,
    ],
    ["enum", { color: "purple" }, `{"color":"purple"}`],
    ["intEnum", { level: 1 }, `{"level":1}`],
    ["lists", { list: ["a"], sparse: [null, "b"] }, `{"list":["a"],"sparse":[null,"b"]}`],
    ["maps", { map: { k: "v" }, sparseMap: { n: null } }, `{"map":{"k":"v"},"sparseMap":{"n":null}}`],
    ["__proto__ map key", { map: JSON.parse(`{"__proto__":"x"}`) }, `{"map":{"__proto__":"x"}}`],
    ["absent, undefined and null members omitted", { str: undefined, bool: null }, `{}`],
  ];
  it.each(cases)("%s", (_name, value, expected) => {
    expect(write(value)).toBe(expected);
  });
});

describe("strings anywhere are written as JSON.stringify writes them", () => {
  const texts = ["plain", "", 'say "hi"', "back\\slash", '"\\"', "tab\there", "\u0000\u001f", "😀", "a\ud800b", "\udc00", '✓ "q"', "\u2028\u007f"];
  it.each(texts.map((t) => [JSON.stringify(t), t]))("%s", (_name, t) => {
    const value = { str: t, list: [t, "x", t], sparse: [t, null, t], map: { [t]: t, k: "v" } };
    const plain = { str: t, list: [t, "x", t], sparse: [t, null, t], map: { [t]: t, k: "v" } };
    expect(write(value)).toBe(JSON.stringify(plain));
  });
  it("writes date-time items and members with and without fractions", () => {
    const s = struct("test#Times", [
      member("a", timestamp, { timestampFormat: "date-time" }),
      member("list", list("test#TimeList", member("member", timestamp, { timestampFormat: "date-time" }))),
      member("b", string),
    ]);
    const t = [Date.UTC(2024, 1, 29, 23, 59, 59), Date.UTC(1, 0, 1, 0, 0, 0, 5), Date.UTC(9999, 11, 31, 12, 30, 0, 120)];
    const iso = t.map((x) =>
      new Date(x)
        .toISOString()
        .replace(/\.?0*Z$/, "Z")
        .replace(/^\+?0*(\d{4})/, "$1"),
    );
    expect(compileWriter(s)({ a: new Date(t[0]!), list: t.map((x) => new Date(x)), b: "x" })).toBe(`{"a":"${iso[0]}","list":${JSON.stringify(iso)},"b":"x"}`);
  });
});

describe("timestamps", () => {
  const schema = (format: "date-time" | "http-date" | "epoch-seconds") => struct("test#T", [member("t", timestamp, { timestampFormat: format })]);
  it.each([
    ["epoch-seconds", "epoch-seconds", 1576540098000, `1576540098`],
    ["epoch-seconds fraction", "epoch-seconds", 1576540098500, `1576540098.5`],
    ["date-time", "date-time", 1576540098000, `"2019-12-16T23:48:18Z"`],
    ["date-time fraction", "date-time", 946845296120, `"2000-01-02T20:34:56.12Z"`],
    ["date-time year 1", "date-time", Date.UTC(2001, 0, 1) - 2000 * 365.2425 * 86400000, undefined],
    ["http-date", "http-date", 1398796238000, `"Tue, 29 Apr 2014 18:30:38 GMT"`],
  ] as const)("writes %s", (_name, format, ms, expected) => {
    const text = compileWriter(schema(format))({ t: new Date(ms) });
    if (expected !== undefined) expect(text).toBe(`{"t":${expected}}`);
    if (format !== "http-date") expect((compileReader(schema(format))(text) as { t: Date }).t.getTime()).toBe(ms);
  });

  it("ignores @timestampFormat when the settings say so", () => {
    const settings = { ignoreTimestampFormat: true };
    const S = struct("test#Ignored", [member("a", timestamp, { timestampFormat: "date-time" }), member("b", timestamp, { timestampFormat: "http-date" })]);
    const text = compileWriter(S, settings)({ a: new Date(1500), b: new Date(2000) });
    expect(text).toBe(`{"a":1.5,"b":2}`);
    expect(compileReader(S, settings)(text)).toEqual({ a: new Date(1500), b: new Date(2000) });
    expect(compileWriter(S)({ a: new Date(1500) })).toBe(`{"a":"1970-01-01T00:00:01.5Z"}`);
  });

  it("rejects invalid dates", () => {
    expect(failure(() => compileWriter(schema("date-time"))({ t: new Date(NaN) })).path).toBe("/t");
  });
});

describe("bigNumbersAsStrings", () => {
  const settings = { bigNumbersAsStrings: true };
  const S = struct("test#Big", [member("i", bigInteger), member("d", bigDecimal)]);

  it("writes big numbers as JSON strings, keeping a BigDecimal's text", () => {
    expect(compileWriter(S, settings)({ i: 2n ** 64n, d: BigDecimal.from("100000000000000000000001.0") })).toBe(
      `{"i":"18446744073709551616","d":"100000000000000000000001.0"}`,
    );
    expect(compileWriter(S, settings)({ i: 42, d: 1.5 })).toBe(`{"i":"42","d":"1.5"}`);
    expect(compileWriter(S)({ i: 42, d: BigDecimal.from("1.5") })).toBe(`{"i":42,"d":1.5}`);
  });

  it("reads them from strings or numbers, and rejects text that is not a number", () => {
    const read = compileReader(S, settings);
    expect(read(`{"i":"-9223372036854775809","d":"-0.100000000000000000000001"}`)).toEqual({
      i: -9223372036854775809n,
      d: BigDecimal.from("-0.100000000000000000000001"),
    });
    expect(read(`{"i":"42","d":2}`)).toEqual({ i: 42, d: BigDecimal.from(2) });
    expect(() => read(`{"i":"4.2"}`)).toThrow(SerializationError);
    expect(() => read(`{"d":"NaN"}`)).toThrow(SerializationError);
    expect(() => compileReader(S)(`{"i":"42"}`)).toThrow(SerializationError);
  });
});

describe("rejects values of the wrong type", () => {
  it.each([
    ["number for string", { str: 1 }, "/str"],
    ["string for integer", { i: "1" }, "/i"],
    ["fraction for integer", { i: 1.5 }, "/i"],
    ["byte out of range", { b: 300 }, "/b"],
    ["unsafe number for long", { l: 2 ** 60 }, "/l"],
    ["long out of range", { l: 2n ** 63n }, "/l"],
    ["string for blob", { blob: "aGk=" }, "/blob"],
    ["number for timestamp", { ts: 0 }, "/ts"],
    ["Date in a document", { doc: { d: new Date() } }, "/doc/d"],
    ["NaN in a document", { doc: [NaN] }, "/doc/0"],
    ["null in a non-sparse list", { list: ["a", null] }, "/list/1"],
    ["null in a non-sparse map", { map: { a: null } }, "/map/a"],
    ["object for list", { list: {} }, "/list"],
    ["number for bigDecimal string", { bd: "1.5" }, "/bd"],
  ])("%s", (_name, value, path) => {
    const error = failure(() => write(value));
    expect(error.message).toMatch(/^encode json: /);
    expect(error.path).toBe(path);
  });

  it("rejects a non-object structure", () => {
    expect(failure(() => write(null as never)).message).toBe("encode json: expected an object, got null");
  });

  it("rejects cyclic values by depth", () => {
    const a: Record<string, unknown> = { value: 1 };
    a.next = a;
    expect(failure(() => compileWriter(Node)(a)).message).toMatch(/nesting deeper than 128/);
  });
});

describe("structures and unions", () => {
  it.each([
    [true, `{"first_name":"Ada","age":3,"at":0}`],
    [false, `{"firstName":"Ada","age":3,"when":0}`],
  ])("useJsonName=%s", (useJsonName, expected) => {
    expect(compileWriter(Named, { useJsonName })({ firstName: "Ada", age: 3, when: new Date(0) })).toBe(expected);
  });

  it.each([
    [{ $case: "circle", value: { radius: 2 } }, `{"circle":{"radius":2}}`],
    [{ $case: "name", value: "x" }, `{"name":"x"}`],
    [{ $case: "nothing", value: {} }, `{"nothing":{}}`],
    [{ $case: "$unknown", name: "square", value: { side: 1 } }, `{"square":{"side":1}}`],
  ])("writes union %j", (value, expected) => {
    expect(compileWriter(Shape)(value as never)).toBe(expected);
  });

  it("rejects an unknown $case", () => {
    expect(failure(() => compileWriter(Shape)({ $case: "nope", value: 1 } as never)).message).toMatch(/unknown union member "nope"/);
  });

  it("writes members named after Object.prototype properties only when own", () => {
    const S = struct("test#P", [member("constructor", string), member("__proto__", string)]);
    const value = JSON.parse(`{"__proto__":"p"}`);
    expect(compileWriter(S)(value)).toBe(`{"__proto__":"p"}`);
  });

  it("skips streaming members", () => {
    const S = struct("test#S", [member("a", string), member("body", document, { streaming: true })]);
    expect(compileWriter(S)({ a: "x", body: { [Symbol.asyncIterator]() {} } })).toBe(`{"a":"x"}`);
  });
});

describe("toBytes, toValue and jsonCodec", () => {
  it("toBytes is UTF-8", () => {
    expect(new TextDecoder().decode(write.toBytes({ str: "✓" }))).toBe(`{"str":"✓"}`);
  });

  it("toValue is JSON-compatible and exact", () => {
    const value = write.toValue({ str: "a", l: 9007199254740993n, ts: new Date(1500), blob: new Uint8Array([1]) }) as Record<string, unknown>;
    expect(value.str).toBe("a");
    expect(value.ts).toBe(1.5);
    expect(value.blob).toBe("AQ==");
    const l = value.l;
    expect(typeof l === "bigint" ? l : JSON.stringify(l)).toEqual(typeof l === "bigint" ? 9007199254740993n : "9007199254740993");
  });

  it("jsonCodec reads and writes bytes", () => {
    const S = struct("test#C", [member("tags", list("test#Tags", member("member", string)))]);
    expect(jsonCodec.mediaType).toBe("application/json");
    const bytes = jsonCodec.writer(S)({ tags: ["a"] });
    expect(new TextDecoder().decode(bytes)).toBe(`{"tags":["a"]}`);
    expect(jsonCodec.reader(S)(bytes)).toEqual({ tags: ["a"] });
  });
});
