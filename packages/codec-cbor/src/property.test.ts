import { BigDecimal, SerializationError } from "@anvil/core";
import { document } from "@anvil/core/codegenv1";
import { decode, encode } from "cbor-x";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileReader, compileWriter } from "./index.js";
import { Everything, TreeSchema } from "./test-schemas.js";

const int = (min: number, max: number) => fc.integer({ min, max });
const key = fc.string({ maxLength: 8 });
const everything = fc.record(
  {
    bool: fc.boolean(),
    str: fc.string({ unit: "grapheme", maxLength: 40 }),
    bytes: fc.uint8Array({ maxLength: 40 }),
    i8: int(-128, 127),
    i16: int(-32768, 32767),
    i32: fc.integer(),
    i64: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((v) => (Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v ? Number(v) : v)),
    big: fc.bigInt({ min: -(2n ** 130n), max: 2n ** 130n }).map((v) => (v >= -(2n ** 53n) + 1n && v <= 2n ** 53n - 1n ? Number(v) : v)),
    f32: fc.float({ noDefaultInfinity: false }).map(Math.fround),
    f64: fc.double(),
    dec: fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), int(0, 12)).map(([m, s]) =>
      BigDecimal.from(
        s === 0
          ? m.toString()
          : `${m < 0n ? "-" : ""}${(m < 0n ? -m : m)
              .toString()
              .padStart(s + 1, "0")
              .replace(new RegExp(`(\\d{${s}})$`), ".$1")}`,
      ),
    ),
    // epoch seconds as a double keep milliseconds exactly for years 1..9999
    time: fc.date({ min: new Date(-62135596800000), max: new Date(253402300799999), noInvalidDate: true }),
    // a null member is absent in a structure
    doc: fc
      .jsonValue({ maxDepth: 3 })
      .map((v) => JSON.parse(JSON.stringify(v)))
      .filter((v) => v !== null),
    color: fc.constantFrom("red", "blue"),
    level: fc.constantFrom(1, 2),
    strings: fc.array(fc.string(), { maxLength: 5 }),
    sparseStrings: fc.array(fc.option(fc.string(), { nil: null }), { maxLength: 5 }),
    times: fc.array(fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }), { maxLength: 3 }),
    counts: fc.dictionary(key, fc.integer(), { maxKeys: 5 }),
    sparseCounts: fc.dictionary(key, fc.option(fc.integer(), { nil: null }), { maxKeys: 5 }),
    choice: fc.oneof(
      fc.string().map((value) => ({ $case: "stringValue", value })),
      fc.integer().map((value) => ({ $case: "numberValue", value })),
      fc.string().map((value) => ({ $case: "unionValue", value: { $case: "stringValue", value } })),
    ),
  },
  { requiredKeys: [] },
);

const write = compileWriter(Everything);
const read = compileReader(Everything);

/** BigDecimal compares by value; normalize for deep equality. */
const normalize = (v: Record<string, unknown>) => ({ ...v, dec: v.dec === undefined ? undefined : (v.dec as BigDecimal).toNumber() });

describe("properties", () => {
  it("round-trips every value of a hand-built schema", () => {
    fc.assert(
      fc.property(everything, (value) => {
        const back = read(write(value as never)) as Record<string, unknown>;
        expect(normalize(back)).toEqual(normalize(value));
        if (value.dec) expect((back.dec as BigDecimal).equals(value.dec)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("round-trips recursive values", () => {
    const tree = fc.letrec((tie) => ({
      node: fc.record({ value: fc.integer(), children: fc.array(tie("node"), { maxLength: 3 }) }, { requiredKeys: [] }),
    })).node;
    const w = compileWriter(TreeSchema);
    const r = compileReader(TreeSchema);
    fc.assert(
      fc.property(tree, (value) => void expect(r(w(value as never))).toEqual(value)),
      { numRuns: 200 },
    );
  });

  it("random bytes only ever throw SerializationError", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          read(bytes);
        } catch (error) {
          expect(SerializationError.is(error)).toBe(true);
          expect((error as Error).message).toMatch(/^decode cbor: /);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("mutated valid bodies only ever throw SerializationError, and terminate", () => {
    fc.assert(
      fc.property(everything, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(), (value, edits, cut) => {
        const bytes = write(value as never);
        for (const [at, byte] of edits) bytes[at % bytes.length] = byte;
        for (const input of [bytes, bytes.subarray(0, cut % (bytes.length + 1))]) {
          try {
            read(input);
          } catch (error) {
            expect(SerializationError.is(error)).toBe(true);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  /** cbor-x gives 64-bit integers as bigint; Anvil's value model keeps bigint only beyond ±2^53. */
  const safeIntegersAsNumbers = (v: unknown): unknown => {
    if (typeof v === "bigint") return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    if (Array.isArray(v)) return v.map(safeIntegersAsNumbers);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, safeIntegersAsNumbers(x)]));
    return v;
  };

  it("F2: documents decode like raw cbor-x (differential)", () => {
    const readDoc = compileReader(document);
    fc.assert(
      // raw cbor-x renames a `__proto__` key to `__proto_`; Anvil keeps it (see "reader: __proto__ keys")
      fc.property(
        fc.jsonValue({ maxDepth: 4 }).filter((json) => !JSON.stringify(json).includes('"__proto__":')),
        (json) => {
          const bytes = encode(json);
          expect(readDoc(bytes)).toEqual(safeIntegersAsNumbers(decode(bytes)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("F2: our bytes decode with raw cbor-x to the same data (differential)", () => {
    fc.assert(
      fc.property(everything, (value) => {
        const raw = decode(write(value as never)) as Record<string, unknown>;
        const ours = read(write(value as never)) as Record<string, unknown>;
        for (const k of ["str", "strings", "counts", "i32", "f64", "bool", "time"]) {
          if (k in value) expect(raw[k]).toEqual(ours[k]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
