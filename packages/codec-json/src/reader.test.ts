import { BigDecimal, SerializationError } from "@anvil/core";
import { bigInteger, blob, document, integer, list, long, map, member, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { compileReader } from "./index.js";
import { Everything, Named, Node, Shape, WithDefaults } from "./test-schemas.js";

const read = compileReader(Everything);

function failure(fn: () => unknown): SerializationError {
  try {
    fn();
  } catch (error) {
    expect(SerializationError.is(error)).toBe(true);
    return error as SerializationError;
  }
  throw new Error("expected a SerializationError");
}

describe("reads every kind", () => {
  const cases: [string, string, unknown][] = [
    ["string", `{"str":"héllo\\n"}`, { str: "héllo\n" }],
    ["boolean", `{"bool":false}`, { bool: false }],
    ["byte", `{"b":-128}`, { b: -128 }],
    ["short", `{"s":32767}`, { s: 32767 }],
    ["integer", `{"i":-2147483648}`, { i: -2147483648 }],
    ["long as number", `{"l":42}`, { l: 42 }],
    ["float", `{"f":1.5}`, { f: 1.5 }],
    ["double", `{"d":-0.25}`, { d: -0.25 }],
    ["double NaN", `{"d":"NaN"}`, { d: NaN }],
    ["double Infinity", `{"d":"Infinity"}`, { d: Infinity }],
    ["float -Infinity", `{"f":"-Infinity"}`, { f: -Infinity }],
    ["bigInteger small", `{"bi":12}`, { bi: 12 }],
    ["blob", `{"blob":"aGVsbG8="}`, { blob: new TextEncoder().encode("hello") }],
    ["blob unpadded", `{"blob":"aGVsbG8"}`, { blob: new TextEncoder().encode("hello") }],
    ["empty blob", `{"blob":""}`, { blob: new Uint8Array() }],
    ["epoch-seconds timestamp", `{"ts":1515531081.123}`, { ts: new Date(1515531081123) }],
    ["document", `{"doc":{"a":[1,"x",null,true,{"b":{}}]}}`, { doc: { a: [1, "x", null, true, { b: {} }] } }],
    ["enum", `{"color":"red"}`, { color: "red" }],
    ["enum value outside the schema", `{"color":"purple"}`, { color: "purple" }],
    ["intEnum", `{"level":2}`, { level: 2 }],
    ["list", `{"list":["a","b"]}`, { list: ["a", "b"] }],
    ["sparse list keeps nulls", `{"sparse":["a",null]}`, { sparse: ["a", null] }],
    ["map", `{"map":{"k":"v"}}`, { map: { k: "v" } }],
    ["sparse map keeps nulls", `{"sparseMap":{"k":null,"j":1}}`, { sparseMap: { k: null, j: 1 } }],
    ["null member is absent", `{"str":null,"list":null}`, {}],
    ["unknown members are ignored", `{"zzz":1,"str":"a","toString":2}`, { str: "a" }],
  ];
  it.each(cases)("%s", (_name, text, expected) => {
    expect(read(text)).toEqual(expected);
  });
});

describe("big numbers stay exact", () => {
  it.each([
    ["long past 2^53", `{"l":9007199254740993}`, { l: 9007199254740993n }],
    ["negative long", `{"l":-9223372036854775808}`, { l: -9223372036854775808n }],
    ["long 2^53 is a bigint (not a safe integer)", `{"l":9007199254740992}`, { l: 9007199254740992n }],
    ["bigInteger 2^70", `{"bi":1180591620717411303424}`, { bi: 2n ** 70n }],
    ["bigInteger with exponent", `{"bi":1e30}`, { bi: 10n ** 30n }],
    ["long 16 safe digits is a number", `{"l":1234567890123456}`, { l: 1234567890123456 }],
  ])("%s", (_name, text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it("keeps bigDecimal text exact", () => {
    const value = read(`{"bd":1.000000000000000000001}`) as { bd: BigDecimal };
    expect(BigDecimal.is(value.bd)).toBe(true);
    expect(value.bd.toString()).toBe("1.000000000000000000001");
  });

  it("reads a short bigDecimal through the native parser", () => {
    expect((read(`{"bd":1.5}`) as { bd: BigDecimal }).bd.toString()).toBe("1.5");
  });

  it("keeps big numbers exact inside documents", () => {
    const value = read(`{"doc":{"a":9007199254740993,"b":[1180591620717411303424],"c":1.000000000000000000001,"d":1.5}}`) as {
      doc: { a: bigint; b: bigint[]; c: BigDecimal; d: number };
    };
    expect(value.doc.a).toBe(9007199254740993n);
    expect(value.doc.b).toEqual([2n ** 70n]);
    expect(String(value.doc.c)).toBe("1.000000000000000000001");
    expect(value.doc.d).toBe(1.5);
  });

  it("takes the exact path for big numbers in a top-level list of longs", () => {
    const longs = compileReader(list("test#Longs", member("member", long)));
    expect(longs("[1, 9007199254740993, -2]")).toEqual([1, 9007199254740993n, -2]);
  });

  it("is not fooled by digit runs inside strings", () => {
    expect(read(`{"str":"12345678901234567890","l":5}`)).toEqual({ str: "12345678901234567890", l: 5 });
    expect(read(`{"str":"550e8400-e29b-41d4","l":5}`)).toEqual({ str: "550e8400-e29b-41d4", l: 5 });
  });

  it.each([
    ["long beyond 64 bits", `{"l":9223372036854775808}`, "/l"],
    ["long with a fraction", `{"l":1.5}`, "/l"],
    ["long with a long fraction", `{"l":1.00000000000000000001}`, "/l"],
    ["integer exponent out of range", `{"i":1e10}`, "/i"],
  ])("rejects %s", (_name, text, path) => {
    expect(failure(() => read(text)).path).toBe(path);
  });
});

describe("integer-only schemas: native parse, then a check of each long", () => {
  // No bigDecimal or document: only runs of 16 digits are scanned for up
  // front; exponents are found by the long and bigInteger converters.
  const Ints = struct("test#Ints", [
    member("l", long),
    member("bi", bigInteger),
    member("i", integer),
    member("longs", list("test#Longs2", member("member", long))),
    member("u", union("test#IntsUnion", [member("n", long)])),
  ]);
  const readInts = compileReader(Ints);
  it.each([
    ["long exponent within range", `{"l":1e2}`, { l: 100 }],
    ["long zero", `{"l":0,"longs":[0,-0]}`, { l: 0, longs: [0, -0] }],
    ["bigInteger exponent past 2^53", `{"bi":1e30}`, { bi: 10n ** 30n }],
    ["bigInteger exponent past a double", `{"bi":1e400}`, { bi: 10n ** 400n }],
    ["long exponent past 2^53 in a list", `{"longs":[1,2e17]}`, { longs: [1, 2n * 10n ** 17n] }],
    ["zero with an exponent elsewhere", `{"l":0,"i":5E0}`, { l: 0, i: 5 }],
    ["unknown union variant keeps big numbers", `{"u":{"x":{"a":[1e30,0]}}}`, { u: { $case: "$unknown", name: "x", value: { a: [10n ** 30n, 0] } } }],
  ])("%s", (_name, text, expected) => {
    expect(readInts(text)).toEqual(expected);
  });
  it.each([
    ["long that underflowed to zero", `{"l":1e-400}`, "/l"],
    ["long in a list that underflowed", `{"longs":[1,-1e-999]}`, "/longs/1"],
    ["long exponent beyond 64 bits", `{"l":1e19}`, "/l"],
    ["long exponent with a fraction", `{"l":1.5e0}`, "/l"],
  ])("rejects %s", (_name, text, path) => {
    expect(failure(() => readInts(text)).path).toBe(path);
  });
});

describe("timestamps", () => {
  const schema = (format?: "date-time" | "http-date" | "epoch-seconds") =>
    struct("test#T", [member("t", timestamp, format ? { timestampFormat: format } : {})]);
  it.each([
    ["epoch-seconds integer", undefined, `1576540098`, 1576540098000],
    ["epoch-seconds fraction", "epoch-seconds", `1576540098.5`, 1576540098500],
    ["date-time UTC", "date-time", `"2019-12-16T23:48:18Z"`, 1576540098000],
    ["date-time negative offset", "date-time", `"2019-12-16T22:48:18-01:00"`, 1576540098000],
    ["date-time positive offset", "date-time", `"2019-12-17T00:48:18+01:00"`, 1576540098000],
    ["date-time fraction", "date-time", `"2000-01-02T20:34:56.123Z"`, 946845296123],
    ["date-time long fraction truncates to ms", "date-time", `"2000-01-02T20:34:56.123456Z"`, 946845296123],
    ["http-date", "http-date", `"Tue, 29 Apr 2014 18:30:38 GMT"`, 1398796238000],
    ["http-date with fraction", "http-date", `"Sun, 02 Jan 2000 20:34:56.000 GMT"`, 946845296000],
  ] as const)("reads %s", (_name, format, json, ms) => {
    expect((compileReader(schema(format))(`{"t":${json}}`) as { t: Date }).t.getTime()).toBe(ms);
  });

  it.each([
    ["epoch as string", undefined, `"1576540098"`],
    ["epoch Infinity string", undefined, `"Infinity"`],
    ["date-time as number", "date-time", `1576540098`],
    ["http-date given to date-time", "date-time", `"Tue, 29 Apr 2014 18:30:38 GMT"`],
    ["date-time given to http-date", "http-date", `"2019-12-16T23:48:18Z"`],
    ["date-time bad month", "date-time", `"2019-13-16T23:48:18Z"`],
    ["date-time Feb 30", "date-time", `"2019-02-30T23:48:18Z"`],
    ["date-time without zone", "date-time", `"2019-12-16T23:48:18"`],
    ["date-time with a letter for a digit", "date-time", `"2019-1a-16T23:48:18Z"`],
    ["date-time hour 24", "date-time", `"2019-12-16T24:00:00.000Z"`],
    ["date-time with a space separator", "date-time", `"2019-12-16 23:48:18Z"`],
  ] as const)("rejects %s", (_name, format, json) => {
    expect(failure(() => compileReader(schema(format))(`{"t":${json}}`)).path).toBe("/t");
  });

  it("uses the settings' default format", () => {
    const r = compileReader(schema(), { timestampFormat: "date-time" });
    expect((r(`{"t":"2019-12-16T23:48:18Z"}`) as { t: Date }).t.getTime()).toBe(1576540098000);
  });
});

describe("errors name the JSON pointer", () => {
  const Item = struct("test#Item", [member("count", long), member("name", string, { jsonName: "the/name" })]);
  const Order = struct("test#Order", [member("items", list("test#Items", member("member", Item)))]);
  const order = compileReader(Order, { useJsonName: true });
  it.each([
    ["string where a number belongs", `{"items":[{"count":"3"}]}`, "/items/0/count", /^decode json: expected a long, got a string at \/items\/0\/count$/],
    ["escaped pointer segments", `{"items":[{},{"the/name":5}]}`, "/items/1/the~1name", /at \/items\/1\/the~1name$/],
    ["array where an object belongs", `{"items":[[]]}`, "/items/0", /expected an object, got an array/],
    ["null in a non-sparse list", `{"items":[null]}`, "/items/0", /null in a non-sparse list/],
    ["top-level mismatch", `[]`, "", /^decode json: expected an object, got an array$/],
  ])("%s", (_name, text, path, message) => {
    const error = failure(() => order(text));
    expect(error.path).toBe(path);
    expect(error.message).toMatch(message);
  });

  it.each([
    ["byte out of range", `{"b":128}`, "/b"],
    ["short out of range", `{"s":-32769}`, "/s"],
    ["integer fraction", `{"i":1.5}`, "/i"],
    ["boolean as string", `{"bool":"true"}`, "/bool"],
    ["bad base64", `{"blob":"a$=="}`, "/blob"],
    ["bad base64 length", `{"blob":"abcde"}`, "/blob"],
    ["string as number", `{"str":1}`, "/str"],
    ["double as string", `{"d":"1.5"}`, "/d"],
    ["null in dense map", `{"map":{"a":null}}`, "/map/a"],
    ["list as object", `{"list":{}}`, "/list"],
    ["intEnum fraction", `{"level":1.5}`, "/level"],
  ])("rejects %s", (_name, text, path) => {
    expect(failure(() => read(text)).path).toBe(path);
  });

  it("calls a number too large for a double out of range, not a fraction", () => {
    expect(failure(() => read(`{"i":1e400}`)).message).toBe("decode json: an integer out of range at /i");
  });

  it.each([
    ["invalid JSON", `{"str":`],
    ["trailing garbage", `{} x`],
    ["empty text", ``],
    ["invalid JSON on the exact path", `{"l":12345678901234567890,}`],
    ["invalid UTF-8 bytes", new Uint8Array([0x7b, 0xff, 0x7d])],
  ])("wraps %s in SerializationError", (_name, input) => {
    expect(failure(() => read(input)).message).toMatch(/^decode json: /);
  });

  it("prefixes fromValue paths", () => {
    const error = failure(() => order.fromValue({ items: [{ count: true }] }, "/body"));
    expect(error.path).toBe("/body/items/0/count");
  });
});

describe("structures", () => {
  it("fills defaults for absent and null members, with fresh copies", () => {
    const r = compileReader(WithDefaults);
    const a = r(`{"plain":"x","count":null}`) as { tags: string[]; labels: object };
    expect(a).toEqual({ count: 7, tags: [], labels: {}, plain: "x" });
    const b = r(`{}`) as { tags: string[] };
    expect(b.tags).not.toBe(a.tags);
    expect(r(`{"count":1,"tags":["a"]}`)).toEqual({ count: 1, tags: ["a"], labels: {} });
  });

  it.each([
    [true, `{"first_name":"Ada","at":0}`, { firstName: "Ada", when: new Date(0) }],
    [true, `{"firstName":"Ada"}`, {}],
    [false, `{"firstName":"Ada","when":0}`, { firstName: "Ada", when: new Date(0) }],
    [false, `{"first_name":"Ada"}`, {}],
  ])("useJsonName=%s reads %s", (useJsonName, text, expected) => {
    expect(compileReader(Named, { useJsonName })(text)).toEqual(expected);
  });

  it("reads recursive schemas", () => {
    const r = compileReader(Node);
    expect(r(`{"value":1,"children":[{"value":2,"children":[]}],"next":{"value":3}}`)).toEqual({
      value: 1,
      children: [{ value: 2, children: [] }],
      next: { value: 3 },
    });
  });

  it("accepts bytes", () => {
    expect(read(new TextEncoder().encode(`{"str":"✓"}`))).toEqual({ str: "✓" });
  });

  it("caches compiled readers per schema and settings", () => {
    expect(compileReader(Everything)).toBe(read);
    expect(compileReader(Everything, {})).toBe(read);
    expect(compileReader(Everything, { useJsonName: true })).not.toBe(read);
  });

  it("skips streaming members", () => {
    const S = struct("test#S", [member("a", string), member("body", string, { streaming: true })]);
    expect(compileReader(S)(`{"a":"x","body":"y"}`)).toEqual({ a: "x" });
  });
});

describe("S5: __proto__ is data, never a prototype", () => {
  it("in maps", () => {
    const value = read(`{"map":{"__proto__":"x","a":"b"}}`) as { map: Record<string, string> };
    expect(Object.getPrototypeOf(value.map)).toBe(Object.prototype);
    expect(Object.keys(value.map)).toEqual(["__proto__", "a"]);
    expect(Object.getOwnPropertyDescriptor(value.map, "__proto__")?.value).toBe("x");
  });

  it("in documents, on both parse paths", () => {
    for (const text of [`{"doc":{"__proto__":{"polluted":1}}}`, `{"doc":{"__proto__":{"polluted":1}},"l":1234567890123456789}`]) {
      const value = read(text) as { doc: Record<string, unknown> };
      expect(Object.getOwnPropertyDescriptor(value.doc, "__proto__")?.value).toEqual({ polluted: 1 });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it("as a member name", () => {
    const S = struct("test#P", [member("__proto__", string), member("constructor", string)]);
    const value = compileReader(S)(`{"__proto__":"x"}`) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toBe("x");
    expect(Object.hasOwn(value, "constructor")).toBe(false);
  });
});

describe("unions", () => {
  const r = compileReader(Shape);
  it.each([
    ["a structure variant", `{"circle":{"radius":2}}`, { $case: "circle", value: { radius: 2 } }],
    ["a string variant", `{"name":"x"}`, { $case: "name", value: "x" }],
    ["a unit variant", `{"nothing":{}}`, { $case: "nothing", value: {} }],
    ["ignoring __type", `{"__type":"test#Shape","name":"x"}`, { $case: "name", value: "x" }],
    ["ignoring null members", `{"circle":null,"name":"x"}`, { $case: "name", value: "x" }],
    ["an unknown variant", `{"square":{"side":1}}`, { $case: "$unknown", name: "square", value: { side: 1 } }],
  ])("reads %s", (_name, text, expected) => {
    expect(r(text)).toEqual(expected);
  });

  it.each([
    ["two members set", `{"name":"x","circle":{}}`, /more than one member/],
    ["known and unknown members set", `{"name":"x","other":1}`, /more than one member/],
    ["no member set", `{}`, /no member set/],
    ["only null members", `{"name":null}`, /no member set/],
    ["an array", `["name"]`, /expected an object/],
  ])("rejects %s", (_name, text, message) => {
    expect(failure(() => r(text)).message).toMatch(message);
  });
});

describe("strict reading (a server reading requests)", () => {
  const Request = struct("test#Request", [member("when", timestamp, { timestampFormat: "date-time" }), member("data", blob), member("shape", Shape)]);
  const lenient = compileReader(Request);
  const strict = compileReader(Request, { strict: true });

  it.each([
    ["a date-time with a UTC offset", `{"when":"1996-12-19T16:39:57-08:00"}`, /expected UTC, no offset/],
    ["unpadded base64", `{"data":"xyz"}`, /unpadded/],
    ["an unknown union member", `{"shape":{"square":{"side":1}}}`, /unknown union member/],
  ])("rejects %s, which the default settings accept", (_name, text, message) => {
    expect(() => lenient(text)).not.toThrow();
    expect(failure(() => strict(text)).message).toMatch(message);
  });

  it("reads well-formed values as the default settings do", () => {
    const text = `{"when":"1996-12-20T00:39:57Z","data":"YmxvYg==","shape":{"name":"x"}}`;
    expect(strict(text)).toEqual(lenient(text));
  });
});

describe("S7: depth limit", () => {
  it("rejects deep documents with SerializationError on both parse paths", () => {
    const Doc = struct("test#Doc", [member("doc", document)]);
    const deep = `{"doc":${"[".repeat(200)}${"]".repeat(200)}}`;
    expect(failure(() => compileReader(Doc)(deep)).message).toMatch(/nesting deeper than 128/);
    const deepExact = `{"doc":${"[".repeat(200)}1e400${"]".repeat(200)}}`;
    expect(failure(() => compileReader(Doc)(deepExact)).message).toMatch(/nesting deeper than 128/);
  });

  it("rejects deep recursive structures and honours maxDepth", () => {
    let text = "{}";
    for (let i = 0; i < 50; i++) text = `{"next":${text}}`;
    expect(() => compileReader(Node)(text)).not.toThrow();
    expect(failure(() => compileReader(Node, { maxDepth: 20 })(text)).message).toMatch(/nesting deeper than 20/);
  });

  it("survives very deep input without a stack overflow", () => {
    const Doc = struct("test#Doc", [member("doc", document)]);
    const deep = `{"doc":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(failure(() => compileReader(Doc, { maxDepth: 1_000_000 })(deep)).message).toMatch(/^decode json: /);
  });
});

describe("maps of structures and lists of timestamps", () => {
  it("uses the list member's timestamp format", () => {
    const S = struct("test#TS", [
      member("times", list("test#Times", member("member", timestamp, { timestampFormat: "date-time" }))),
      member("byName", map("test#ByName", member("key", string), member("value", timestamp))),
    ]);
    expect(compileReader(S)(`{"times":["1970-01-01T00:00:01Z"],"byName":{"a":2}}`)).toEqual({
      times: [new Date(1000)],
      byName: { a: new Date(2000) },
    });
  });
});

describe("parsed text is converted in place, values given to fromValue are not", () => {
  const Item = struct("test#InPlaceItem", [member("a", long), member("at", timestamp, { timestampFormat: "date-time" }), member("b", string)]);
  const Items = struct("test#InPlaceItems", [
    member("items", list("test#InPlaceList", member("member", Item))),
    member("tags", map("test#InPlaceMap", member("key", string), member("value", timestamp))),
  ]);
  const readItems = compileReader(Items);

  it("drops unknown and null members and fills defaults, as a copy would", () => {
    const r = compileReader(WithDefaults);
    expect(r(`{"plain":"x","extra":1}`)).toEqual({ count: 7, tags: [], labels: {}, plain: "x" });
    expect(r(`{"plain":null,"count":2}`)).toEqual({ count: 2, tags: [], labels: {} });
    expect(Object.keys(r(`{"plain":"x","junk":[1],"count":null}`) as object).sort()).toEqual(["count", "labels", "plain", "tags"]);
  });

  it("reports the first failing member in schema order, whatever the wire order", () => {
    expect(failure(() => readItems(`{"items":[{"b":1,"at":"x","a":"y"}]}`)).path).toBe("/items/0/a");
    expect(failure(() => readItems(`{"items":[{"b":1,"at":"2024-01-01T00:00:00Z","a":1}]}`)).path).toBe("/items/0/b");
  });

  it("leaves a value given to fromValue untouched", () => {
    const parsed = JSON.parse(`{"items":[{"a":1,"at":"2024-01-01T00:00:00Z","b":"x","junk":true}],"tags":{"t":0}}`);
    const snapshot = structuredClone(parsed);
    const out = readItems.fromValue(parsed) as { items: { at: Date }[]; tags: Record<string, Date> };
    expect(parsed).toEqual(snapshot);
    expect(out.items[0]!.at).toEqual(new Date("2024-01-01T00:00:00Z"));
    expect(out.tags.t).toEqual(new Date(0));
  });

  it("keeps a __proto__ map key as data when its value is converted in place", () => {
    const out = readItems(`{"tags":{"__proto__":0,"x":1}}`) as { tags: Record<string, unknown> };
    expect(Object.getPrototypeOf(out.tags)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out.tags, "__proto__")?.value).toEqual(new Date(0));
    expect(out.tags.x).toEqual(new Date(1000));
  });
});
