import { describe, expect, it } from "vitest";
import { ValidationError, type ValidationField } from "../errors/errors.js";
import {
  bigDecimal,
  bigInteger,
  blob,
  boolean,
  document,
  double,
  enumeration,
  float,
  integer,
  intEnum,
  list,
  long,
  map,
  member,
  scalar,
  string,
  struct,
  timestamp,
  union,
} from "../schema/builders.js";
import type { Schema } from "../schema/schema.js";
import type { Traits } from "../schema/traits.js";
import { BigDecimal } from "../values/big-decimal.js";
import { codePointLength } from "./checks.js";
import { assertValid, compileValidator, hasConstraints, NO_VIOLATIONS_VALIDATOR, validateValue } from "./validator.js";

/** A structure with one member `v` of `target` carrying `traits`. */
const one = (target: Schema, traits: Traits = {}) => struct("test#One", [member("v", target, traits)]);
const messages = (fields: readonly ValidationField[]) => fields.map((f) => f.message);
const at = (path: string, constraint: string, length?: number) =>
  `Value${length === undefined ? "" : ` with length ${length}`} at '${path}' failed to satisfy constraint: ${constraint}`;

const strList = list("test#StrList", member("member", string));
const strMap = map("test#StrMap", member("key", string), member("value", string));

describe("@length", () => {
  it.each([
    ["string below min", string, { min: 2, max: 8 }, "a", 1],
    ["string above max", string, { min: 2, max: 8 }, "abcdefghi", 9],
    ["string at min", string, { min: 2, max: 8 }, "ab", undefined],
    ["string at max", string, { min: 2, max: 8 }, "abcdefgh", undefined],
    ["one emoji is one code point (2 UTF-16 units)", string, { min: 2 }, "👍", 1],
    ["three emoji are 3 code points (6 units)", string, { max: 3 }, "👍👍👍", undefined],
    ["four emoji exceed max 3 though 8 units", string, { max: 3 }, "👍👍👍👍", 4],
    ["a lone surrogate counts as one", string, { min: 2 }, "\ud83d", 1],
    ["empty string", string, { min: 2, max: 8 }, "", 0],
    ["blob counts bytes", blob, { min: 2, max: 8 }, new Uint8Array([1]), 1],
    ["blob within", blob, { min: 2, max: 8 }, new Uint8Array(4), undefined],
    ["blob above", blob, { max: 3 }, new Uint8Array(26), 26],
    ["list counts items", strList, { min: 2, max: 8 }, ["abc"], 1],
    ["list within", strList, { min: 2 }, ["a", "b"], undefined],
    ["map counts entries", strMap, { min: 2, max: 8 }, { a: "x" }, 1],
    ["map above", strMap, { max: 1 }, { a: "x", b: "y" }, 2],
  ] as const)("%s", (_, target, length, value, violation) => {
    const fields = validateValue(one(target, { length }), { v: value });
    const expected = violation === undefined ? [] : [at("/v", lengthMessage(length), violation)];
    expect(messages(fields)).toEqual(expected);
  });

  function lengthMessage(b: { min?: number; max?: number }): string {
    if (b.min !== undefined && b.max !== undefined) return `Member must have length between ${b.min} and ${b.max}, inclusive`;
    return b.min !== undefined ? `Member must have length greater than or equal to ${b.min}` : `Member must have length less than or equal to ${b.max}`;
  }

  it.each([
    ["", 0],
    ["abc", 3],
    ["👍", 1],
    ["a👍b👍", 4],
    ["\udc4d\ud83d", 2],
    ["é", 1],
  ])("counts %j as %i code points", (s, n) => {
    expect(codePointLength(s)).toBe(n);
    expect(codePointLength(s)).toBe([...s].length);
  });
});

describe("@range", () => {
  const between = (min: unknown, max: unknown) => `Member must be between ${min} and ${max}, inclusive`;
  it.each([
    ["integer below", integer, { min: 2, max: 8 }, 1, between(2, 8)],
    ["integer above", integer, { min: 2, max: 8 }, 9, between(2, 8)],
    ["integer at bounds", integer, { min: 2, max: 8 }, 8, undefined],
    ["min only", integer, { min: 2 }, 1, "Member must be greater than or equal to 2"],
    ["max only", integer, { max: 8 }, 9, "Member must be less than or equal to 8"],
    ["double fraction", double, { min: 2.2, max: 8.8 }, 2.1, between(2.2, 8.8)],
    ["double NaN is outside every range", double, { min: 0 }, NaN, "Member must be greater than or equal to 0"],
    ["double Infinity above max", double, { max: 1 }, Infinity, "Member must be less than or equal to 1"],
    ["float compares as float32: 8.8 passes max 8.8 even as fround(8.8)", float, { max: 8.8 }, Math.fround(8.8), undefined],
    ["float 2.2 passes min 2.2", float, { min: 2.2 }, 2.2, undefined],
    ["float 8.9 fails max 8.8", float, { min: 2.2, max: 8.8 }, 8.9, between(2.2, 8.8)],
    ["long as bigint above a number bound", long, { max: 8 }, 2n ** 60n, "Member must be less than or equal to 8"],
    ["long as bigint within bigint bounds", long, { min: 2n ** 60n, max: 2n ** 61n }, 2n ** 60n + 1n, undefined],
    ["long number below a bigint bound", long, { min: 2n ** 60n }, 5, `Member must be greater than or equal to ${2n ** 60n}`],
    ["bigInteger just above a huge bound", bigInteger, { max: 10n ** 30n }, 10n ** 30n + 1n, `Member must be less than or equal to ${10n ** 30n}`],
    ["bigInteger exactly at a huge bound", bigInteger, { max: 10n ** 30n }, 10n ** 30n, undefined],
    ["bigDecimal exact above", bigDecimal, { max: 1 }, BigDecimal.from("1.0000000000000000000001"), "Member must be less than or equal to 1"],
    ["bigDecimal equal with other digits", bigDecimal, { min: 1, max: 1 }, BigDecimal.from("1.000"), undefined],
    ["bigDecimal below a fractional bound", bigDecimal, { min: 2.2 }, BigDecimal.from("2.19999999999999999999"), "Member must be greater than or equal to 2.2"],
    ["bigDecimal against a bigint bound", bigDecimal, { max: 10n ** 30n }, BigDecimal.from("1e31"), `Member must be less than or equal to ${10n ** 30n}`],
  ] as const)("%s", (_, target, range, value, constraint) => {
    const fields = validateValue(one(target, { range }), { v: value });
    expect(messages(fields)).toEqual(constraint === undefined ? [] : [at("/v", constraint)]);
  });
});

describe("@alloy#uuidFormat", () => {
  it.each([
    ["a lower-case UUID", "51216269-c0c8-454a-871e-329513e54e23", true],
    ["an upper-case UUID", "51216269-C0C8-454A-871E-329513E54E23", true],
    ["no dashes", "51216269c0c8454a871e329513e54e23", false],
    ["a short group", "51216269-c0c8-454a-871e-329513e54e2", false],
    ["not hex", "5121626g-c0c8-454a-871e-329513e54e23", false],
  ])("%s", (_, value, ok) => {
    const fields = validateValue(one(string, { uuidFormat: true }), { v: value });
    expect(messages(fields)).toEqual(ok ? [] : [at("/v", "Member must be a UUID")]);
  });
});

describe("@pattern", () => {
  it.each([
    ["unanchored matches anywhere", "[a-m]", "xyzaxyz", true],
    ["unanchored fails when nothing matches", "[a-m]", "xyz", false],
    ["anchored must cover the value", "^[a-m]+$", "abcx", false],
    ["anchored accepts", "^[a-m]+$", "abc", true],
    ["start anchor only", "^a", "ba", false],
    ["end anchor only", "a$", "ba", true],
    ["unicode flag: . is one code point", "^.$", "👍", true],
  ])("%s", (_, pattern, value, ok) => {
    const fields = validateValue(one(string, { pattern }), { v: value });
    expect(messages(fields)).toEqual(ok ? [] : [at("/v", `Member must satisfy regular expression pattern: ${pattern}`)]);
  });

  it("S10: answers the restJson1 ReDoS case quickly", () => {
    const schema = one(string, { pattern: "^([0-9]+)+$" });
    const started = performance.now();
    expect(validateValue(schema, { v: "0".repeat(84) + "!" })).toHaveLength(1);
    // Exponential backtracking would take minutes; the bound only needs to catch that, even on a loaded machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("enums", () => {
  const Color = enumeration("test#Color", [
    { name: "RED", value: "red" },
    { name: "GREEN", value: "green" },
    { name: "HIDDEN", value: "hidden", internal: true } as { name: string; value: string },
  ]);
  const Level = intEnum("test#Level", [
    { name: "LOW", value: 1 },
    { name: "HIGH", value: 10 },
  ]);
  it.each([
    ["closed enum rejects an unknown value", Color, {}, "blue", "Member must satisfy enum value set: [red, green]"],
    ["closed enum accepts a known value", Color, {}, "green", undefined],
    ["internal values validate but are not listed", Color, {}, "hidden", undefined],
    ["enum values are case-sensitive", Color, {}, "RED", "Member must satisfy enum value set: [red, green]"],
    ["open enum accepts anything", Color, { openEnum: true }, "blue", undefined],
    ["intEnum rejects an unknown number", Level, {}, 5, "Member must satisfy enum value set: [1, 10]"],
    ["intEnum accepts a known number", Level, {}, 10, undefined],
    ["open intEnum accepts anything", Level, { openEnum: true }, 5, undefined],
  ] as const)("%s", (_, target, traits, value, constraint) => {
    expect(messages(validateValue(one(target, traits), { v: value }))).toEqual(constraint === undefined ? [] : [at("/v", constraint)]);
  });

  it("an open enum shape has no constraints", () => {
    const Open = enumeration("test#Open", [{ name: "A", value: "a" }], { openEnum: true });
    expect(hasConstraints(one(Open))).toBe(false);
    expect(compileValidator(one(Open))).toBe(NO_VIOLATIONS_VALIDATOR);
  });
});

describe("@required", () => {
  const S = struct("test#Req", [
    member("a", string, { required: true }),
    member("b", string, { required: true, default: "x" }),
    member("c", string, { required: true, nullable: true }),
    member("d", string),
  ]);
  it.each([
    ["missing key", { c: "1" }, ["/a"]],
    ["undefined value", { a: undefined, c: "1" }, ["/a"]],
    ["explicit null", { a: null, c: "1" }, ["/a"]],
    ["a member with a default may be absent", { a: "1", c: "1" }, []],
    ["@nullable: null is a value, absence is not", { a: "1", c: null }, []],
    ["@nullable: absent", { a: "1" }, ["/c"]],
    ["every missing member is reported", {}, ["/a", "/c"]],
  ])("%s", (_, value, paths) => {
    const fields = validateValue(S, value as never);
    expect(fields.map((f) => f.path)).toEqual(paths);
    expect(messages(fields)).toEqual(paths.map((p) => at(p, "Member must not be null")));
  });
});

describe("@uniqueItems", () => {
  const Item = struct("test#Item", [member("name", string), member("at", timestamp)]);
  const Choice = union("test#Choice", [member("s", string), member("i", integer)]);
  const set = (target: Schema) => one(list(`test#${target.kind}Set`, member("member", target)), { uniqueItems: true });
  const bytes = (...b: number[]) => new Uint8Array(b);
  it.each([
    ["strings", string, ["a", "b", "a"], true],
    ["distinct strings", string, ["a", "b"], false],
    ["booleans", boolean, [true, true], true],
    ["numbers", integer, [1, 2, 1], true],
    ["longs as number and bigint", long, [1, 1n], true],
    ["bigints", bigInteger, [2n ** 70n, 2n ** 70n], true],
    ["blobs by content", blob, [bytes(1, 2), bytes(1, 2)], true],
    ["different blobs", blob, [bytes(1, 2), bytes(1, 3)], false],
    ["timestamps by time", timestamp, [new Date(1000), new Date(1000)], true],
    ["BigDecimals by value", bigDecimal, [BigDecimal.from("1.0"), BigDecimal.from("1")], true],
    ["different BigDecimals", bigDecimal, [BigDecimal.from("1.01"), BigDecimal.from("1")], false],
    [
      "structures deeply",
      Item,
      [
        { name: "a", at: new Date(5) },
        { name: "a", at: new Date(5) },
      ],
      true,
    ],
    ["structures: an undefined member is absent", Item, [{ name: "a", at: undefined }, { name: "a" }], true],
    ["different structures", Item, [{ name: "a" }, { name: "b" }], false],
    [
      "unions",
      Choice,
      [
        { $case: "s", value: "foo" },
        { $case: "s", value: "foo" },
      ],
      true,
    ],
    [
      "unions with other cases",
      Choice,
      [
        { $case: "s", value: "1" },
        { $case: "i", value: 1 },
      ],
      false,
    ],
    [
      "lists of lists",
      strList,
      [
        ["a", "b"],
        ["a", "b"],
      ],
      true,
    ],
    [
      "lists of lists in other order",
      strList,
      [
        ["a", "b"],
        ["b", "a"],
      ],
      false,
    ],
    ["documents", document, [{ x: [1, { y: null }] }, { x: [1, { y: null }] }], true],
    ["long list of strings (hashed)", string, [...Array.from({ length: 40 }, (_, i) => `s${i}`), "s3"], true],
    ["long list of distinct strings (hashed)", string, Array.from({ length: 40 }, (_, i) => `s${i}`), false],
    ["long list of structures (hashed)", Item, [...Array.from({ length: 40 }, (_, i) => ({ name: `n${i}` })), { name: "n7" }], true],
    ["long list of BigDecimals (hashed)", bigDecimal, [...Array.from({ length: 40 }, (_, i) => BigDecimal.from(i)), BigDecimal.from("7.000")], true],
    ["long list of distinct BigDecimals (hashed)", bigDecimal, Array.from({ length: 40 }, (_, i) => BigDecimal.from(`${i}.5`)), false],
  ] as const)("%s", (_, target, items, duplicate) => {
    const fields = validateValue(set(target), { v: items });
    expect(messages(fields)).toEqual(duplicate ? [at("/v", "Member must have unique values")] : []);
  });
});

describe("nesting and paths", () => {
  const Leaf = struct("test#Leaf", [member("name", string, { required: true, length: { min: 2 } })]);
  const Tree = struct("test#Tree", [
    member("items", list("test#Leaves", member("member", Leaf))),
    member("byKey", map("test#LeafMap", member("key", string, { pattern: "^[a-z]+$", length: { max: 3 } }), member("value", Leaf))),
    member("choice", union("test#Choice", [member("leaf", Leaf), member("text", string, { length: { max: 1 } })])),
  ]);

  it.each([
    [
      "list item member",
      { items: [{ name: "ok" }, { name: "x" }] },
      [["/items/1/name", at("/items/1/name", "Member must have length greater than or equal to 2", 1)]],
    ],
    ["required inside a list item", { items: [{}] }, [["/items/0/name", at("/items/0/name", "Member must not be null")]]],
    ["map value", { byKey: { abc: { name: "x" } } }, [["/byKey/abc/name", at("/byKey/abc/name", "Member must have length greater than or equal to 2", 1)]]],
    [
      "map key violations are reported at the map's path",
      { byKey: { ABCD: { name: "ok" } } },
      [
        ["/byKey", at("/byKey", "Member must have length less than or equal to 3", 4)],
        ["/byKey", at("/byKey", "Member must satisfy regular expression pattern: ^[a-z]+$")],
      ],
    ],
    [
      "union variant",
      { choice: { $case: "leaf", value: { name: "x" } } },
      [["/choice/leaf/name", at("/choice/leaf/name", "Member must have length greater than or equal to 2", 1)]],
    ],
    [
      "scalar union variant",
      { choice: { $case: "text", value: "xy" } },
      [["/choice/text", at("/choice/text", "Member must have length less than or equal to 1", 2)]],
    ],
    ["unknown union variant is not validated", { choice: { $case: "$unknown", name: "other", value: { name: "" } } }, []],
    [
      "map keys with / and ~ are escaped in pointers",
      { byKey: { "a/b": { name: "x" }, "c~": { name: "x" } } },
      [
        ["/byKey", at("/byKey", "Member must satisfy regular expression pattern: ^[a-z]+$")],
        ["/byKey/a~1b/name", at("/byKey/a~1b/name", "Member must have length greater than or equal to 2", 1)],
        ["/byKey", at("/byKey", "Member must satisfy regular expression pattern: ^[a-z]+$")],
        ["/byKey/c~0/name", at("/byKey/c~0/name", "Member must have length greater than or equal to 2", 1)],
      ],
    ],
    ["sparse list and map entries are skipped", { items: [null, undefined, { name: "ok" }], byKey: { a: null } }, []],
  ])("%s", (_, value, expected) => {
    const fields = validateValue(Tree, value as never);
    expect(fields.map((f) => [f.path, f.message])).toEqual(expected);
  });

  it("a root scalar reports at the empty pointer", () => {
    const S = scalar<string>("string", "test#Short", { length: { max: 1 } });
    expect(validateValue(S, "ab")).toEqual([{ path: "", message: at("", "Member must have length less than or equal to 1", 2) }]);
  });
});

describe("multiple violations", () => {
  const S = struct("test#Many", [
    member("a", string, { length: { min: 3 }, pattern: "^[0-9]+$" }),
    member("b", integer, { range: { max: 1 } }),
    member("c", string, { required: true }),
    member("d", list("test#L", member("member", string, { length: { max: 1 } })), { length: { max: 1 }, uniqueItems: true }),
  ]);

  it("reports every violation in member order, a value's own constraints before its items", () => {
    const fields = validateValue(S, { a: "x", b: 5, d: ["xx", "xx"] });
    expect(fields).toEqual([
      { path: "/a", message: at("/a", "Member must have length greater than or equal to 3", 1) },
      { path: "/a", message: at("/a", "Member must satisfy regular expression pattern: ^[0-9]+$") },
      { path: "/b", message: at("/b", "Member must be less than or equal to 1") },
      { path: "/c", message: at("/c", "Member must not be null") },
      { path: "/d", message: at("/d", "Member must have length less than or equal to 1", 2) },
      { path: "/d", message: at("/d", "Member must have unique values") },
      { path: "/d/0", message: at("/d/0", "Member must have length less than or equal to 1", 2) },
      { path: "/d/1", message: at("/d/1", "Member must have length less than or equal to 1", 2) },
    ]);
  });

  it("assertValid throws a ValidationError with all fields and the summary message", () => {
    let error: unknown;
    try {
      assertValid(S, { a: "123", b: 5 } as never);
    } catch (e) {
      error = e;
    }
    expect(ValidationError.is(error)).toBe(true);
    const v = error as ValidationError;
    expect(v.fieldList.map((f) => f.path)).toEqual(["/b", "/c"]);
    expect(v.message).toBe(`2 validation errors detected. ${at("/b", "Member must be less than or equal to 1")}; ${at("/c", "Member must not be null")}`);
  });

  it("assertValid returns quietly for a valid value", () => {
    expect(() => assertValid(S, { a: "123", c: "" } as never)).not.toThrow();
  });
});

describe("sensitive values", () => {
  const Secret = scalar<string>("string", "test#Secret", { sensitive: true, pattern: "^[a-m]+$", length: { max: 5 } });
  const SecretKeyMap = map("test#SecretKeys", member("key", Secret), member("value", string, { length: { max: 1 } }));
  const S = struct("test#Sens", [member("secret", Secret), member("byKey", SecretKeyMap), member("tagged", string, { sensitive: true, pattern: "^x$" })]);

  it("never put the value in a message (the corpus wording has no value)", () => {
    const value = { secret: "TOPSECRETVALUE", tagged: "hunter2" };
    const fields = validateValue(S, value);
    expect(messages(fields)).toEqual([
      at("/secret", "Member must have length less than or equal to 5", 14),
      at("/secret", "Member must satisfy regular expression pattern: ^[a-m]+$"),
      at("/tagged", "Member must satisfy regular expression pattern: ^x$"),
    ]);
    for (const f of fields) expect(f.message + f.path).not.toMatch(/TOPSECRET|hunter2/);
  });

  it("redact sensitive map keys in paths", () => {
    const fields = validateValue(S, { byKey: { abc: "too long" } });
    expect(fields).toEqual([{ path: "/byKey/*****", message: at("/byKey/*****", "Member must have length less than or equal to 1", 8) }]);
  });
});

describe("recursion", () => {
  const Enum = enumeration("test#E", [
    { name: "ABC", value: "abc" },
    { name: "DEF", value: "def" },
  ]);
  const One: Schema = union("test#One", [member("string", Enum), member("union", () => Two)]);
  const Two: Schema = union("test#Two", [member("string", Enum), member("union", () => One)]);
  const Input = struct("test#Input", [member("union", One)]);

  it("validates deep inside mutually recursive unions", () => {
    const value = { union: { $case: "union", value: { $case: "union", value: { $case: "string", value: "XYZ" } } } };
    expect(validateValue(Input, value)).toEqual([
      { path: "/union/union/union/string", message: at("/union/union/union/string", "Member must satisfy enum value set: [abc, def]") },
    ]);
    expect(validateValue(Input, { union: { $case: "union", value: { $case: "string", value: "abc" } } })).toHaveLength(0);
  });

  it("a recursive schema without constraints compiles to the constant validator", () => {
    const Node: Schema = struct("test#Node", [member("next", () => Node), member("items", () => Nodes), member("label", string)]);
    const Nodes: Schema = list(
      "test#Nodes",
      member("member", () => Node),
    );
    expect(hasConstraints(Node)).toBe(false);
    expect(compileValidator(Node)).toBe(NO_VIOLATIONS_VALIDATOR);
  });

  it("a constraint deep in a cycle is found from every entry point", () => {
    const A: Schema = struct("test#A", [member("b", () => B)]);
    const B: Schema = struct("test#B", [member("a", () => A), member("c", () => C)]);
    const C: Schema = struct("test#C", [member("x", string, { length: { max: 1 } })]);
    expect(hasConstraints(B)).toBe(true);
    expect(hasConstraints(A)).toBe(true);
    expect(validateValue(A, { b: { a: { b: { c: { x: "long" } } } } })).toEqual([
      { path: "/b/a/b/c/x", message: at("/b/a/b/c/x", "Member must have length less than or equal to 1", 4) },
    ]);
  });
});

describe("compilation", () => {
  it("is cached per schema", () => {
    const S = one(string, { length: { max: 1 } });
    expect(compileValidator(S)).toBe(compileValidator(S));
  });

  it.each([
    ["plain scalars", one(string)],
    ["lists and maps of plain values", struct("test#P", [member("l", strList), member("m", strMap)])],
    ["documents and timestamps", struct("test#Q", [member("d", document), member("t", timestamp)])],
    ["constraints the kind cannot have", one(boolean, { length: { max: 1 }, range: { max: 1 }, pattern: "x" })],
  ])("an unconstrained schema (%s) gets the constant validator", (_, schema) => {
    expect(hasConstraints(schema)).toBe(false);
    expect(compileValidator(schema)).toBe(NO_VIOLATIONS_VALIDATOR);
  });

  it("returns one shared frozen empty array for every valid value", () => {
    const S = one(string, { length: { max: 5 } });
    const a = validateValue(S, { v: "abc" });
    const b = validateValue(S, { v: "abcd" });
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it("applies a target's constraint once when reached through a member", () => {
    const Short = scalar<string>("string", "test#Short", { length: { max: 1 } });
    expect(validateValue(one(Short), { v: "xyz" })).toHaveLength(1);
  });

  it("uses the member's traits over its target's (override)", () => {
    const Short = scalar<string>("string", "test#Short", { length: { max: 1 } });
    expect(messages(validateValue(one(Short, { length: { max: 5 } }), { v: "xyz" }))).toEqual([]);
  });

  it("does not crash on values of the wrong type", () => {
    const S = struct("test#W", [
      member("s", string, { length: { max: 1 }, pattern: "a" }),
      member("l", strList, { length: { max: 1 } }),
      member("n", integer, { range: { max: 1 } }),
      member("u", union("test#U", [member("x", string, { length: { max: 1 } })])),
    ]);
    expect(validateValue(S, { s: 5, l: "abc", n: "9", u: "x" } as never)).toEqual([]);
    expect(validateValue(S, "not an object" as never)).toEqual([]);
  });

  it("a throwing getter does not poison later runs", () => {
    const S = one(string, { length: { max: 1 } });
    const bad = Object.defineProperty({}, "v", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(() => validateValue(S, bad as never)).toThrow("boom");
    expect(validateValue(S, { v: "xx" })).toHaveLength(1);
  });
});
