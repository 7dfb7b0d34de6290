import type { Schema } from "@anvil/core";
import { member, string, struct } from "@anvil/core/codegenv1";
import { encode } from "cbor-x";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileReader, compileWriter } from "./index.js";
import { planFor } from "./scan-plan.js";
import { MATCHES_PLAN, scan } from "./scan.js";
import { Choice, Defaults, Everything, Scalars, TreeSchema } from "./test-schemas.js";

/**
 * The plan lets a read skip the converter; it must never change a result.
 * Readers with maxDepth above 512 run without a plan, so the same bytes
 * through both readers must give the same value or the same error.
 */
const schemas: [string, Schema][] = [
  ["Everything", Everything],
  ["Defaults", Defaults],
  ["TreeSchema", TreeSchema],
  ["Scalars", Scalars],
  ["Choice", Choice],
];

/** A canonical text of a read result: types, key order, prototypes and own-ness included. */
function canonical(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v !== "object") return String(v);
  if (v instanceof Date) return `Date(${v.getTime()})`;
  if (v instanceof Uint8Array) return `${v.constructor.name}[${Array.from(v).join(",")}]`;
  if (Array.isArray(v)) return `[${Array.from(v, canonical).join(",")}]`;
  const proto = Object.getPrototypeOf(v) === Object.prototype ? "" : `<${String(Object.getPrototypeOf(v)?.constructor?.name)}>`;
  return `${proto}{${Reflect.ownKeys(v)
    .map((k) => `${String(k)}:${canonical((v as Record<string | symbol, unknown>)[k])}`)
    .join(",")}}`;
}

function outcome(read: (b: Uint8Array) => unknown, bytes: Uint8Array): string {
  try {
    return `ok ${canonical(read(bytes))}`;
  } catch (error) {
    return `error ${(error as Error).message}`;
  }
}

/** Values near each schema's shape: right, wrong and missing types, nulls, unknown members. */
const anyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, undefined, true, false, 0, -1, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e300, NaN, "", "red", "x"),
    fc.integer(),
    fc.double(),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.string({ maxLength: 6 }),
    fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "value", "children", "name", "size", "tags", "stringValue", "__type"), tie("value"), { maxKeys: 3 }),
  ),
})).value;

const memberNames = [
  "bool",
  "str",
  "bytes",
  "i8",
  "i16",
  "i32",
  "i64",
  "big",
  "f32",
  "f64",
  "time",
  "color",
  "level",
  "strings",
  "sparseStrings",
  "times",
  "counts",
  "sparseCounts",
  "value",
  "children",
  "name",
  "size",
  "tags",
  "plain",
  "stringValue",
  "integerValue",
  "doubleValue",
  "extra",
];
const bodies = fc.dictionary(fc.constantFrom(...memberNames), anyValue, { maxKeys: 6 });

describe("scan plan", () => {
  it.each(schemas)("reads %s exactly like the converter path", (_name, schema) => {
    const planned = compileReader(schema);
    const converted = compileReader(schema, { maxDepth: 600 });
    fc.assert(
      fc.property(bodies, (body) => {
        const bytes = encode(body);
        expect(outcome(planned, bytes)).toBe(outcome(converted, bytes));
      }),
      { numRuns: 1500 },
    );
  });

  it("reads written and mutated bodies exactly like the converter path", () => {
    const write = compileWriter(Everything);
    const planned = compileReader(Everything);
    const converted = compileReader(Everything, { maxDepth: 600 });
    const body = fc.record(
      {
        str: fc.string(),
        i8: fc.integer({ min: -128, max: 127 }),
        i32: fc.integer(),
        i64: fc.integer(),
        f64: fc.double(),
        time: fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }),
        strings: fc.array(fc.string(), { maxLength: 3 }),
        sparseStrings: fc.array(fc.option(fc.string(), { nil: null }), { maxLength: 3 }),
        counts: fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 3 }),
        sparseCounts: fc.dictionary(fc.string({ maxLength: 3 }), fc.option(fc.integer(), { nil: null }), { maxKeys: 3 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(body, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 2 }), (value, edits) => {
        const bytes = write(value as never);
        for (const [at, byte] of edits) bytes[at % bytes.length] = byte;
        expect(outcome(planned, bytes)).toBe(outcome(converted, bytes));
      }),
      { numRuns: 3000 },
    );
  });

  it("matches the plan on a written body, and not on one with an unknown member", () => {
    const plan = planFor(Defaults);
    const bytes = compileWriter(Defaults)({ name: "n", size: 1, tags: ["a"], plain: "p" });
    expect(scan(bytes, 128, false, plan) & MATCHES_PLAN).toBe(MATCHES_PLAN);
    expect(scan(encode({ name: "n", size: 1, tags: [], extra: 1 }), 128, false, plan) & MATCHES_PLAN).toBe(0);
    // a member with a default is missing: the converter fills it in
    expect(scan(encode({ name: "n", tags: [] }), 128, false, plan) & MATCHES_PLAN).toBe(0);
  });

  it("finds members in any order, and no key after the last one", () => {
    const plan = planFor(Defaults);
    expect(scan(encode({ plain: "p", tags: [], size: 1, name: "n" }), 128, false, plan) & MATCHES_PLAN).toBe(MATCHES_PLAN);
    expect(scan(encode({ name: "n", size: 1, tags: [], plain: "p", more: "m" }), 128, false, plan) & MATCHES_PLAN).toBe(0);
    expect(scan(encode({ name: "n", size: 1, tags: [], plain: "p", name2: "m" }), 128, false, plan) & MATCHES_PLAN).toBe(0);
    // nested structures each keep their own place in their members
    const tree = planFor(TreeSchema);
    const nested = {
      children: [
        { value: 1, children: [{ value: 2 }] },
        { children: [], value: 3 },
      ],
      value: 4,
    };
    expect(scan(encode(nested), 128, false, tree) & MATCHES_PLAN).toBe(MATCHES_PLAN);
    expect(scan(encode({ children: [{ value: 1, extra: 2 }], value: 4 }), 128, false, tree) & MATCHES_PLAN).toBe(0);
  });

  it("never keeps a structure's null member, whatever its member count", () => {
    for (const names of [["a"], ["a", "b"]]) {
      const schema = struct(
        `test#Null${names.length}`,
        names.map((name) => member(name, string)),
      );
      expect(scan(encode({ a: null }), 128, false, planFor(schema)) & MATCHES_PLAN).toBe(0);
      expect(Object.keys(compileReader(schema)(encode({ a: null })) as object)).toEqual([]);
    }
  });

  it("matches a member name only when every byte of it matches, at any length", () => {
    for (let len = 1; len <= 14; len++) {
      const name = "abcdefghijklmn".slice(0, len);
      const plan = planFor(struct(`test#Len${len}`, [member(name, string)]));
      expect(scan(encode({ [name]: "v" }), 128, false, plan) & MATCHES_PLAN).toBe(MATCHES_PLAN);
      for (let at = 0; at < len; at++) {
        const other = `${name.slice(0, at)}Z${name.slice(at + 1)}`;
        expect(scan(encode({ [other]: "v" }), 128, false, plan) & MATCHES_PLAN).toBe(0);
      }
    }
  });

  it("never changes what the scan rejects", () => {
    const plan = planFor(Everything);
    const result = (f: () => number) => {
      try {
        return `ok ${f() & ~MATCHES_PLAN}`;
      } catch (error) {
        return `error ${(error as Error).message}`;
      }
    };
    fc.assert(
      fc.property(bodies, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }), fc.nat(), (body, edits, cut) => {
        const bytes = encode(body);
        for (const [at, byte] of edits) bytes[at % bytes.length] = byte;
        const input = bytes.subarray(0, bytes.length - (cut % 3));
        for (const depth of [2, 128]) expect(result(() => scan(input, depth, false, plan))).toBe(result(() => scan(input, depth)));
      }),
      { numRuns: 3000 },
    );
  });
});
