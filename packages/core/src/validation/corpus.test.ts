/**
 * The restJson1 validation protocol tests (`httpMalformedRequestTests` in
 * smithy-aws-protocol-tests/model/restJson1/validation): for every case,
 * after `testParameters` expansion, the input value the request implies is
 * built by hand from the request body, query and headers, validated against
 * hand-built schemas that mirror the model, and the fieldList and message are
 * compared exactly with the expected ValidationException.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors/errors.js";
import * as b from "../schema/builders.js";
import type { Schema } from "../schema/schema.js";
import type { Traits } from "../schema/traits.js";
import { BigDecimal } from "../values/big-decimal.js";
import { validateValue } from "./validator.js";

const CORPUS = join(dirname(fileURLToPath(import.meta.url)), "../../../../../shared/conformance");
const FOLDER = join(CORPUS, "protocol-tests/smithy-aws-protocol-tests/model/restJson1/validation");

// ------------------------------------------------------------ a minimal Smithy node-value reader

type NodeValue = string | number | boolean | null | NodeValue[] | { [k: string]: NodeValue };

function readNode(src: string, start: number): [NodeValue, number] {
  let i = start;
  const ws = (): void => {
    for (;;) {
      while (i < src.length && /[\s,]/.test(src[i]!)) i++;
      if (src.startsWith("//", i)) i = src.indexOf("\n", i) < 0 ? src.length : src.indexOf("\n", i);
      else return;
    }
  };
  const value = (): NodeValue => {
    ws();
    const c = src[i]!;
    if (c === "{") {
      i++;
      const o: Record<string, NodeValue> = {};
      for (;;) {
        ws();
        if (src[i] === "}") return (i++, o);
        const key = src[i] === '"' ? (value() as string) : /^[\w.#$]+/.exec(src.slice(i))![0];
        if (src[i - 1] !== '"') i += key.length;
        ws();
        if (src[i] !== ":") throw new Error(`expected : at ${i}`);
        i++;
        o[key] = value();
      }
    }
    if (c === "[") {
      i++;
      const a: NodeValue[] = [];
      for (;;) {
        ws();
        if (src[i] === "]") return (i++, a);
        a.push(value());
      }
    }
    if (src.startsWith('"""', i)) {
      const end = src.indexOf('"""', i + 3);
      const raw = src.slice(i + 3, end);
      i = end + 3;
      return unescapeString(textBlock(raw));
    }
    if (c === '"') {
      let j = i + 1;
      while (src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
      const raw = src.slice(i + 1, j);
      i = j + 1;
      return unescapeString(raw);
    }
    const word = /^[-\w.#$+]+/.exec(src.slice(i))![0];
    i += word.length;
    if (word === "true" || word === "false") return word === "true";
    if (word === "null") return null;
    return /^-?\d/.test(word) ? Number(word) : word;
  };
  const v = value();
  return [v, i];
}

/** Text blocks drop the first line break and the common indentation. */
function textBlock(raw: string): string {
  const lines = raw.replace(/^\r?\n/, "").split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^ */.exec(l)![0].length), /^ */.exec(lines[lines.length - 1]!)![0].length);
  return lines.map((l) => l.slice(indent).replace(/[ \t]+$/, "")).join("\n");
}

function unescapeString(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/gs, (_, e: string) =>
    e.length > 1
      ? String.fromCharCode(parseInt(e.slice(1), 16))
      : (({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "\n": "" } as Record<string, string>)[e] ?? e),
  );
}

interface MalformedCase {
  readonly id: string;
  readonly operation: string;
  readonly body: string;
  readonly queryParams: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  readonly expected: { message: string; fieldList: { message: string; path: string }[] };
}

/** Every case of every `apply Op @httpMalformedRequestTests([...])`, with testParameters expanded. */
function loadCases(): MalformedCase[] {
  const cases: MalformedCase[] = [];
  for (const file of readdirSync(FOLDER).filter((f) => f.endsWith(".smithy"))) {
    const src = readFileSync(join(FOLDER, file), "utf8");
    for (const m of src.matchAll(/apply (\w+) @httpMalformedRequestTests\(/g)) {
      const [list] = readNode(src, m.index + m[0].length) as [Record<string, NodeValue>[], number];
      for (const c of list) {
        const params = (c.testParameters ?? {}) as Record<string, string[]>;
        const names = Object.keys(params);
        const count = names.length === 0 ? 1 : params[names[0]!]!.length;
        for (let k = 0; k < count; k++) {
          const expand = (s: string): string => {
            for (const n of names) s = s.split(`$${n}:L`).join(params[n]![k]!).split(`$${n}:S`).join(JSON.stringify(params[n]![k]!));
            return s.split("$$").join("$"); // `$$` is a literal `$` in these templates
          };
          const request = c.request as Record<string, NodeValue>;
          const response = c.response as { body: { assertion: { contents: string } } };
          cases.push({
            id: names.length === 0 ? (c.id as string) : `${c.id as string}[${k}]`,
            operation: m[1]!,
            body: expand((request.body as string | undefined) ?? ""),
            queryParams: ((request.queryParams ?? []) as string[]).map(expand),
            headers: (request.headers ?? {}) as Record<string, string>,
            expected: JSON.parse(expand(response.body.assertion.contents)),
          });
        }
      }
    }
  }
  return cases;
}

// ------------------------------------------------------------ the model, by hand

const ns = "aws.protocoltests.restjson.validation#";
const m = (name: string, target: Schema | (() => Schema), traits?: Traits) => b.member(name, target, traits);
const mk = (name: string, target: Schema, traits?: Traits) => b.member<string>(name, target as Schema<string>, traits);
const scalar = (kind: Parameters<typeof b.scalar>[0], name: string, traits: Traits) => b.scalar(kind, ns + name, traits);

// malformed-enum
const EnumString = b.enumeration(ns + "EnumString", [
  { name: "ABC", value: "abc" },
  { name: "DEF", value: "def" },
  { name: "GHI", value: "ghi", internal: true } as { name: string; value: string }, // @internal
  { name: "JKL", value: "jkl" }, // only tagged "internal": still listed
]);
const EnumTraitString = b.enumeration(ns + "EnumTraitString", [
  { name: "ABC", value: "abc" },
  { name: "DEF", value: "def" },
  { name: "GHI", value: "ghi", internal: true } as { name: string; value: string }, // legacy @enum tag "internal"
]);
const MalformedEnumInput = b.struct(ns + "MalformedEnumInput", [
  m("string", EnumString),
  m("stringWithEnumTrait", EnumTraitString),
  m("list", b.list(ns + "EnumList", m("member", EnumString))),
  m("map", b.map(ns + "EnumMap", mk("key", EnumString), m("value", EnumString))),
  m("union", b.union(ns + "EnumUnion", [m("first", EnumString), m("second", EnumString)])),
]);

// malformed-length
const LengthBlob = scalar("blob", "LengthBlob", { length: { min: 2, max: 8 } });
const LengthString = scalar("string", "LengthString", { length: { min: 2, max: 8 } });
const MinLengthString = scalar("string", "MinLengthString", { length: { min: 2 } });
const MaxLengthString = scalar("string", "MaxLengthString", { length: { max: 8 } });
const LengthList = b.list(ns + "LengthList", m("member", LengthString), { length: { min: 2, max: 8 } });
const LengthMap = b.map(ns + "LengthMap", mk("key", LengthString), m("value", LengthList), { length: { min: 2, max: 8 } });
const override = { length: { min: 4, max: 6 } };
const MalformedLengthInput = b.struct(ns + "MalformedLengthInput", [
  m("blob", LengthBlob),
  m("string", LengthString),
  m("minString", MinLengthString),
  m("maxString", MaxLengthString),
  m("list", LengthList),
  m("map", LengthMap),
]);
const MalformedLengthOverrideInput = b.struct(ns + "MalformedLengthOverrideInput", [
  m("blob", LengthBlob, override),
  m("string", LengthString, override),
  m("minString", MinLengthString, { length: { min: 4 } }),
  m("maxString", MaxLengthString, { length: { max: 6 } }),
  m("list", LengthList, override),
  m("map", LengthMap, override),
]);
const MalformedLengthQueryStringInput = b.struct(ns + "MalformedLengthQueryStringInput", [m("string", LengthString, { httpQuery: "string" })]);

// malformed-pattern
const PatternString = scalar("string", "PatternString", { pattern: "^[a-m]+$" });
const gm = { pattern: "^[g-m]+$" };
const MalformedPatternInput = b.struct(ns + "MalformedPatternInput", [
  m("string", PatternString),
  m("evilString", scalar("string", "EvilString", { pattern: "^([0-9]+)+$" })),
  m("list", b.list(ns + "PatternList", m("member", PatternString))),
  m("map", b.map(ns + "PatternMap", mk("key", PatternString), m("value", PatternString))),
  m("union", b.union(ns + "PatternUnion", [m("first", PatternString), m("second", PatternString)])),
]);
const MalformedPatternOverrideInput = b.struct(ns + "MalformedPatternOverrideInput", [
  m("string", PatternString, gm),
  m("list", b.list(ns + "PatternListOverride", m("member", PatternString, gm))),
  m("map", b.map(ns + "PatternMapOverride", mk("key", PatternString, gm), m("value", PatternString, gm))),
  m("union", b.union(ns + "PatternUnionOverride", [m("first", PatternString, gm), m("second", PatternString, gm)])),
]);

// malformed-range
const kinds = [
  ["byte", "Byte", 2, 8, 4, 6],
  ["short", "Short", 2, 8, 4, 6],
  ["integer", "Integer", 2, 8, 4, 6],
  ["long", "Long", 2, 8, 4, 6],
  ["float", "Float", 2.2, 8.8, 4.4, 6.6],
] as const;
const rangeMembers = (over: boolean) =>
  kinds.flatMap(([kind, name, min, max, omin, omax]) => [
    m(kind, scalar(kind, `Range${name}`, { range: { min, max } }), over ? { range: { min: omin, max: omax } } : undefined),
    m(`min${name}`, scalar(kind, `Min${name}`, { range: { min } }), over ? { range: { min: omin } } : undefined),
    m(`max${name}`, scalar(kind, `Max${name}`, { range: { max } }), over ? { range: { max: omax } } : undefined),
  ]);
const MalformedRangeInput = b.struct(ns + "MalformedRangeInput", rangeMembers(false));
const MalformedRangeOverrideInput = b.struct(ns + "MalformedRangeOverrideInput", rangeMembers(true));

// malformed-required
const MalformedRequiredInput = b.struct(ns + "MalformedRequiredInput", [
  m("string", b.string, { required: true }),
  m("stringInQuery", b.string, { required: true, httpQuery: "stringInQuery" }),
  m("stringInHeader", b.string, { required: true, httpHeader: "string-in-headers" }),
]);

// malformed-uniqueItems (with aws.protocoltests.shared shapes)
const set = (name: string, target: Schema) => b.list(`aws.protocoltests.shared#${name}`, m("member", target), { uniqueItems: true });
const shared = "aws.protocoltests.shared#";
const MalformedUniqueItemsInput = b.struct(ns + "MalformedUniqueItemsInput", [
  m("blobList", set("BlobSet", b.blob)),
  m("booleanList", set("BooleanSet", b.boolean)),
  m("stringList", set("StringSet", b.string)),
  m("byteList", set("ByteSet", b.byte)),
  m("shortList", set("ShortSet", b.short)),
  m("integerList", set("IntegerSet", b.integer)),
  m("longList", set("LongSet", b.long)),
  m("timestampList", set("TimestampSet", b.timestamp)),
  m("dateTimeList", set("DateTimeSet", b.scalar("timestamp", shared + "DateTime", { timestampFormat: "date-time" }))),
  m("httpDateList", set("HttpDateSet", b.scalar("timestamp", shared + "HttpDate", { timestampFormat: "http-date" }))),
  m(
    "enumList",
    set(
      "FooEnumSet",
      b.enumeration(shared + "FooEnum", [
        { name: "FOO", value: "Foo" },
        { name: "BAZ", value: "Baz" },
        { name: "BAR", value: "Bar" },
        { name: "ONE", value: "1" },
        { name: "ZERO", value: "0" },
      ]),
    ),
  ),
  m(
    "intEnumList",
    set(
      "IntegerEnumSet",
      b.intEnum(shared + "IntegerEnum", [
        { name: "A", value: 1 },
        { name: "B", value: 2 },
        { name: "C", value: 3 },
      ]),
    ),
  ),
  m("listList", set("ListSet", b.list(shared + "StringList", m("member", b.string)))),
  m("structureList", set("StructureSet", b.struct(shared + "GreetingStruct", [m("hi", b.string)]))),
  m(
    "structureListWithNoKey",
    b.list(ns + "StructureSetWithNoKey", m("member", b.struct(ns + "MissingKeyStructure", [m("hi", b.string, { required: true })])), { uniqueItems: true }),
  ),
  m("unionList", set("UnionSet", b.union(shared + "FooUnion", [m("string", b.string), m("integer", b.integer)]))),
]);

// recursive-structures
const RecursiveEnumString = b.enumeration(ns + "RecursiveEnumString", [
  { name: "ABC", value: "abc" },
  { name: "DEF", value: "def" },
]);
const RecursiveUnionOne: Schema = b.union(ns + "RecursiveUnionOne", [m("string", RecursiveEnumString), m("union", () => RecursiveUnionTwo)]);
const RecursiveUnionTwo: Schema = b.union(ns + "RecursiveUnionTwo", [m("string", RecursiveEnumString), m("union", () => RecursiveUnionOne)]);
const RecursiveStructuresInput = b.struct(ns + "RecursiveStructuresInput", [m("union", RecursiveUnionOne)]);

// sensitive-validation
const SensitiveValidationInput = b.struct(ns + "SensitiveValidationInput", [
  m("string", scalar("string", "SensitivePatternString", { sensitive: true, pattern: "^[a-m]+$" })),
]);

const INPUTS: Record<string, Schema> = {
  MalformedEnum: MalformedEnumInput,
  MalformedLength: MalformedLengthInput,
  MalformedLengthOverride: MalformedLengthOverrideInput,
  MalformedLengthQueryString: MalformedLengthQueryStringInput,
  MalformedPattern: MalformedPatternInput,
  MalformedPatternOverride: MalformedPatternOverrideInput,
  MalformedRange: MalformedRangeInput,
  MalformedRangeOverride: MalformedRangeOverrideInput,
  MalformedRequired: MalformedRequiredInput,
  MalformedUniqueItems: MalformedUniqueItemsInput,
  RecursiveStructures: RecursiveStructuresInput,
  SensitiveValidation: SensitiveValidationInput,
};

// ------------------------------------------------------------ the request, as a codec would read it

function fromJson(schema: Schema, json: unknown): unknown {
  if (json === null) return undefined;
  switch (schema.kind) {
    case "structure": {
      const out: Record<string, unknown> = {};
      for (const mem of schema.members) {
        const v = (json as Record<string, unknown>)[mem.name];
        if (v !== undefined) out[mem.name] = fromJson(mem.target, v);
      }
      return out;
    }
    case "union": {
      const [name, v] = Object.entries(json as object)[0]!;
      const mem = schema.members.find((x) => x.name === name);
      return mem ? { $case: name, value: fromJson(mem.target, v) } : { $case: "$unknown", name, value: v };
    }
    case "list":
      return (json as unknown[]).map((x) => fromJson(schema.member.target, x));
    case "map":
      return Object.fromEntries(Object.entries(json as object).map(([k, v]) => [k, fromJson(schema.value.target, v)]));
    case "blob":
      return new Uint8Array(Buffer.from(json as string, "base64"));
    case "timestamp":
      return typeof json === "number" ? new Date(json * 1000) : new Date(json as string);
    case "bigDecimal":
      return BigDecimal.from(json as number);
    default:
      return json;
  }
}

function inputOf(c: MalformedCase, schema: Schema): Record<string, unknown> {
  const value = (c.body.trim() === "" ? {} : fromJson(schema, JSON.parse(c.body))) as Record<string, unknown>;
  if (schema.kind !== "structure") return value;
  for (const mem of schema.members) {
    const q = mem.traits.httpQuery;
    if (q !== undefined) {
      for (const p of c.queryParams) {
        const [k, v] = p.includes("=") ? [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)] : [p, ""]; // no value: an empty string
        if (k === q) value[mem.name] = decodeURIComponent(v);
      }
    }
    const h = mem.traits.httpHeader;
    if (h !== undefined && c.headers[h] !== undefined) value[mem.name] = c.headers[h];
  }
  return value;
}

// ------------------------------------------------------------ the tests

const present = existsSync(FOLDER);
const cases = present ? loadCases() : [];

describe.skipIf(!present)("restJson1 validation corpus (httpMalformedRequestTests)", () => {
  it("finds every case of the validation folder", () => {
    // 8 files, some cases expanded by testParameters.
    expect(cases.length).toBe(125); // 84 cases, 125 after expansion
    expect(new Set(cases.map((c) => c.operation))).toEqual(new Set(Object.keys(INPUTS)));
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s", (_, c) => {
    const schema = INPUTS[c.operation];
    expect(schema, `no hand-built input for ${c.operation}`).toBeDefined();
    const fields = validateValue(schema!, inputOf(c, schema!) as never);
    expect(fields).toEqual(c.expected.fieldList);
    expect(new ValidationError(fields).message).toBe(c.expected.message);
  });
});

if (!present) {
  describe("restJson1 validation corpus", () => {
    it.skip(`skipped: the conformance corpus is absent at ${CORPUS}`, () => {});
  });
}
