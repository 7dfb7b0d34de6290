import { BigDecimal, SerializationError, type Schema } from "@anvil/core";
import { member, struct, timestamp } from "@anvil/core/codegenv1";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileReader, compileWriter, type JsonSettings } from "./index.js";
import { Everything, Named, Node, Shape } from "./test-schemas.js";

const noNegZero = (x: number): number => (Object.is(x, -0) ? 0 : x);
const exactInt = (b: bigint): number | bigint => (Number.isSafeInteger(Number(b)) ? Number(b) : b);

function withKeys<V>(entries: [string, V][]): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
  return out;
}
const key = fc.oneof(fc.string(), fc.constant("__proto__"), fc.constant("constructor"));
const dict = <V>(value: fc.Arbitrary<V>) => fc.array(fc.tuple(key, value), { maxLength: 4 }).map(withKeys);

/** Canonical decimal text: what any JSON reader gives back for it (no trailing fraction zeros, plain notation). */
const bigDecimal = fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 6 })).map(([m, scale]) => {
  const neg = m < 0n;
  const digits = (neg ? -m : m).toString().padStart(scale + 1, "0");
  let text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  if (text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
  return BigDecimal.from(neg && text !== "0" ? `-${text}` : text);
});

const { document } = fc.letrec((tie) => ({
  document: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.string(),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
    fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(exactInt),
    fc.array(tie("document"), { maxLength: 4 }),
    dict(tie("document")),
  ),
}));

const date = fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 }).map((ms) => new Date(ms));

const everything = fc.record(
  {
    str: fc.string({ unit: "binary" }),
    bool: fc.boolean(),
    b: fc.integer({ min: -128, max: 127 }),
    s: fc.integer({ min: -32768, max: 32767 }),
    i: fc.integer({ min: -2147483648, max: 2147483647 }),
    l: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(exactInt),
    f: fc.double().map(noNegZero),
    d: fc.double().map(noNegZero),
    bi: fc.bigInt({ min: -(2n ** 100n), max: 2n ** 100n }).map(exactInt),
    bd: bigDecimal,
    blob: fc.uint8Array({ maxLength: 20 }),
    ts: date,
    doc: document.filter((d) => d !== null), // a null member is absent
    color: fc.string(),
    level: fc.integer(),
    list: fc.array(fc.string(), { maxLength: 4 }),
    sparse: fc.array(fc.option(fc.string(), { nil: null }), { maxLength: 4 }),
    map: dict(fc.string()),
    sparseMap: dict(fc.option(fc.integer(), { nil: null })),
  },
  { requiredKeys: [] },
);

const { node } = fc.letrec((tie) => ({
  node: fc.record({ value: fc.integer({ min: -1000, max: 1000 }), children: fc.array(tie("node"), { maxLength: 3 }), next: tie("node") }, { requiredKeys: [] }),
}));

const shape = fc.oneof(
  fc.record({ $case: fc.constant("circle"), value: fc.record({ radius: fc.double().map(noNegZero) }, { requiredKeys: [] }) }),
  fc.record({ $case: fc.constant("name"), value: fc.string() }),
  fc.record({ $case: fc.constant("nothing"), value: fc.constant({}) }),
);

const named = fc.record({ firstName: fc.string(), age: fc.integer({ min: 0, max: 150 }), when: date }, { requiredKeys: [] });

const DateTimes = struct("test#DT", [member("a", timestamp, { timestampFormat: "date-time" }), member("b", timestamp)]);
const dateTimes = fc.record({ a: date, b: date }, { requiredKeys: [] });

/** Values with BigDecimal replaced by canonical text, so numerically equal decimals compare equal. */
function comparable(value: unknown): unknown {
  if (BigDecimal.is(value)) return `BigDecimal(${value.toString()})`;
  if (Array.isArray(value)) return value.map(comparable);
  if (value instanceof Date || value instanceof Uint8Array || value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) Object.defineProperty(out, k, { value: comparable((value as Record<string, unknown>)[k]), enumerable: true });
  return out;
}

const cases: [string, Schema, fc.Arbitrary<unknown>, JsonSettings?][] = [
  ["every kind", Everything, everything],
  ["a recursive structure", Node, node],
  ["a union", Shape, shape],
  ["jsonName members", Named, named, { useJsonName: true }],
  ["date-time timestamps", DateTimes, dateTimes, { timestampFormat: "date-time" }],
];

describe("F2: round trip: read(write(value)) equals value", () => {
  it.each(cases)("%s", (_name, schema, arbitrary, settings) => {
    const read = compileReader(schema, settings);
    const write = compileWriter(schema, settings);
    fc.assert(
      fc.property(arbitrary, (value) => {
        expect(comparable(read(write(value)))).toEqual(comparable(value));
      }),
      { numRuns: 300 },
    );
  });
});

function onlySerializationErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    if (!SerializationError.is(error)) throw error;
  }
}

const mutation = fc.tuple(fc.nat(), fc.constantFrom("delete", "insert", "replace"), fc.constantFrom(...'{}[]":,0123456789eE.-+ntfu\\ax\u0000'));

function mutate(text: string, edits: [number, string, string][]): string {
  let out = text;
  for (const [at, op, ch] of edits) {
    const i = out.length === 0 ? 0 : at % out.length;
    out =
      op === "delete" ? out.slice(0, i) + out.slice(i + 1) : op === "insert" ? out.slice(0, i) + ch + out.slice(i) : out.slice(0, i) + ch + out.slice(i + 1);
  }
  return out;
}

describe("never throws anything but SerializationError", () => {
  it.each(cases)("on mutated %s", (_name, schema, arbitrary, settings) => {
    const read = compileReader(schema, settings);
    const write = compileWriter(schema, settings);
    fc.assert(
      fc.property(arbitrary, fc.array(mutation, { minLength: 1, maxLength: 4 }), (value, edits) => {
        onlySerializationErrors(() => read(mutate(write(value), edits)));
      }),
      { numRuns: 300 },
    );
  });

  it.each(cases)("on random text and bytes for %s", (_name, schema, _arbitrary, settings) => {
    const read = compileReader(schema, settings);
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.json()), fc.uint8Array(), (text, bytes) => {
        onlySerializationErrors(() => read(text));
        onlySerializationErrors(() => read(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it.each(cases)("on random JSON values given to fromValue for %s", (_name, schema, _arbitrary, settings) => {
    const read = compileReader(schema, settings);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        onlySerializationErrors(() => read.fromValue(value));
      }),
      { numRuns: 300 },
    );
  });

  it.each(cases)("writing arbitrary values for %s", (_name, schema, _arbitrary, settings) => {
    const write = compileWriter(schema, settings);
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withTypedArray: true, withNullPrototype: true }), (value) => {
        onlySerializationErrors(() => write(value));
      }),
      { numRuns: 300 },
    );
  });
});
