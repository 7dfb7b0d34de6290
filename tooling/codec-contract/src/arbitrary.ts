/**
 * fast-check arbitraries for Anvil's value model, derived from a schema, and
 * the equality the codec contract uses to compare values.
 */
import { BigDecimal } from "@anvil/core";
import type { Document, EnumSchema, IntEnumSchema, MemberSchema, Schema } from "@anvil/core";
import fc from "fast-check";

/** Options of {@link arbitraryFor}. */
export interface ArbitraryOptions {
  /** How many levels of lists, maps, optional members and unions deep values go before they stop growing. */
  readonly maxDepth: number;
  /** The largest list, map, blob and string (in code points). */
  readonly maxLength: number;
  /** Generate `NaN`, `Infinity` and `-Infinity` for float and double. */
  readonly nonFinite: boolean;
  /** Generate `-0` for float and double. */
  readonly negativeZero: boolean;
  /** The earliest timestamp. */
  readonly minDate: Date;
  /** The latest timestamp. */
  readonly maxDate: Date;
}

const DEFAULTS: ArbitraryOptions = Object.freeze({
  maxDepth: 3,
  maxLength: 4,
  nonFinite: true,
  negativeZero: true,
  minDate: new Date("1000-01-01T00:00:00.000Z"),
  maxDate: new Date("9999-12-31T23:59:59.999Z"),
});

/** Map keys that break naive object handling, mixed into every generated map. */
export const ODD_KEYS: readonly string[] = Object.freeze([
  "__proto__",
  "",
  "constructor",
  "toString",
  "hasOwnProperty",
  "é",
  "\u{1F600}",
  "a\u0000b",
  '"',
  "\\",
]);

const TWO_63 = 2n ** 63n;
const TWO_64 = 2n ** 64n;

/** An integer as the value model holds it: a `number` when it is a safe integer, else a `bigint`. */
export function normalizeInteger(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/**
 * A fast-check arbitrary producing values of a schema in Anvil's value model:
 * structures as plain objects (required and defaulted members always present,
 * optional members sometimes absent), unions as `{ $case, value }`, enums and
 * intEnums from their values, timestamps as millisecond `Date`s (whole
 * seconds under `@timestampFormat("http-date")`), blobs as `Uint8Array`,
 * long and bigInteger as safe `number`s or `bigint`s (beyond 2^53, 2^63 and,
 * for bigInteger, 2^64), bigDecimal as `BigDecimal` from exact decimal text,
 * documents as JSON-like data with `bigint`s (never `null` as a whole: a
 * null document is absence on the wire), sparse lists and maps with
 * `null`s, and map keys including {@link ODD_KEYS}. Recursion is bounded by
 * `maxDepth`: past it, lists and maps are empty, optional members absent and
 * unions prefer variants that do not nest.
 */
export function arbitraryFor<T>(schema: Schema<T>, options: Partial<ArbitraryOptions> = {}): fc.Arbitrary<T> {
  const o: ArbitraryOptions = { ...DEFAULTS, ...options };
  const cache = new Map<string, fc.Arbitrary<unknown>>();
  const ids = new Map<Schema, number>();
  const idOf = (s: Schema) => {
    let id = ids.get(s);
    if (id === undefined) ids.set(s, (id = ids.size));
    return id;
  };

  const forMember = (m: MemberSchema, depth: number): fc.Arbitrary<unknown> => {
    const target = m.target;
    if (target.kind === "timestamp" && m.traits.timestampFormat === "http-date") return dates(o, true);
    return forSchema(target, depth);
  };

  const forSchema = (s: Schema, depth: number): fc.Arbitrary<unknown> => {
    if (depth < -20) throw new Error(`arbitraryFor: \`${s.id}\` cannot be generated finitely (required recursion)`);
    const key = `${idOf(s)}@${Math.max(depth, -21)}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const arb = build(s, depth);
    cache.set(key, arb);
    return arb;
  };

  const build = (s: Schema, depth: number): fc.Arbitrary<unknown> => {
    switch (s.kind) {
      case "boolean":
        return fc.boolean();
      case "string":
        return fc.oneof(fc.string({ unit: "binary", maxLength: o.maxLength * 2 }), fc.constantFrom(...ODD_KEYS));
      case "blob":
        return fc.uint8Array({ maxLength: o.maxLength * 4 });
      case "byte":
        return fc.integer({ min: -128, max: 127 });
      case "short":
        return fc.integer({ min: -32768, max: 32767 });
      case "integer":
        return fc.integer();
      case "long":
        return integers(-TWO_63, TWO_63 - 1n);
      case "bigInteger":
        return integers(-(2n ** 200n), 2n ** 200n);
      case "float":
        return floats(o, true);
      case "double":
        return floats(o, false);
      case "bigDecimal":
        return bigDecimals();
      case "timestamp":
        return dates(o, s.traits.timestampFormat === "http-date");
      case "document":
        return documents(o);
      case "enum":
        return enumValues(s as EnumSchema);
      case "intEnum":
        return enumValues(s as IntEnumSchema);
      case "list": {
        const item = s.member;
        if (depth <= 0) return fc.constant([]);
        const value = forMember(item, depth - 1);
        return fc.array(item.traits.sparse || s.traits.sparse ? fc.option(value, { nil: null, freq: 4 }) : value, { maxLength: o.maxLength });
      }
      case "map": {
        if (depth <= 0) return fc.constant({});
        const keyTarget = s.key.target;
        const keys: fc.Arbitrary<string> =
          keyTarget.kind === "enum"
            ? (enumValues(keyTarget as EnumSchema) as fc.Arbitrary<string>)
            : fc.oneof(fc.string({ unit: "binary", maxLength: 6 }), fc.constantFrom(...ODD_KEYS));
        const inner = forMember(s.value, depth - 1);
        const value = s.value.traits.sparse || s.traits.sparse ? fc.option(inner, { nil: null, freq: 4 }) : inner;
        return fc.uniqueArray(fc.tuple(keys, value), { selector: (e) => e[0], maxLength: o.maxLength }).map(toObject);
      }
      case "structure": {
        const parts = s.members.map((m) => {
          const present = m.traits.required === true || m.traits.default !== undefined;
          if (present) return forMember(m, depth - 1);
          if (depth <= 0) return fc.constant(ABSENT);
          return fc.option(forMember(m, depth - 1), { nil: ABSENT, freq: 3 });
        });
        const names = s.members.map((m) => m.name);
        return fc.tuple(...parts).map((values) => {
          const out: Record<string, unknown> = {};
          for (let i = 0; i < names.length; i++) if (values[i] !== ABSENT) setKey(out, names[i]!, values[i]);
          return out;
        });
      }
      case "union": {
        if (s.members.length === 0) throw new Error(`arbitraryFor: union \`${s.id}\` has no members`);
        let variants = s.members;
        if (depth <= 0) {
          const flat = s.members.filter((m) => isFlat(m.target));
          if (flat.length > 0) variants = flat;
        }
        return fc.oneof(...variants.map((m) => forMember(m, depth - 1).map((value) => ({ $case: m.name, value }))));
      }
      default:
        throw new Error(`arbitraryFor: unsupported schema kind \`${(s as Schema).kind}\``);
    }
  };

  return forSchema(schema, o.maxDepth) as fc.Arbitrary<T>;
}

const ABSENT: unique symbol = Symbol("absent");

/** Whether values of a schema never nest (scalars, enums, empty structures). */
function isFlat(s: Schema): boolean {
  return s.kind !== "list" && s.kind !== "map" && s.kind !== "union" && (s.kind !== "structure" || s.members.length === 0);
}

function toObject(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) setKey(out, k, v);
  return out;
}

/** Sets a key, storing `__proto__` as data rather than changing the prototype. */
function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

function enumValues(s: EnumSchema | IntEnumSchema): fc.Arbitrary<unknown> {
  if (s.values.length === 0) throw new Error(`arbitraryFor: enum \`${s.id}\` has no values`);
  return fc.constantFrom(...s.values.map((v) => v.value));
}

/** Integers in [min, max], biased to the edges: small, near 2^53, near 2^63 and 2^64, and the bounds. */
function integers(min: bigint, max: bigint): fc.Arbitrary<number | bigint> {
  const edges = [0n, 1n, -1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, TWO_63 - 1n, -TWO_63, TWO_64 - 1n, TWO_64, -TWO_64, min, max].filter(
    (v) => v >= min && v <= max,
  );
  return fc
    .oneof(
      fc.integer().map(BigInt),
      fc.bigInt({ min: BigInt(Number.MIN_SAFE_INTEGER), max: BigInt(Number.MAX_SAFE_INTEGER) }),
      fc.bigInt({ min, max }),
      fc.constantFrom(...edges),
    )
    .map(normalizeInteger);
}

function floats(o: ArbitraryOptions, single: boolean): fc.Arbitrary<number> {
  const finite = single ? fc.float({ noNaN: true, noDefaultInfinity: true }) : fc.double({ noNaN: true, noDefaultInfinity: true });
  const values = o.negativeZero ? finite : finite.map((v) => (Object.is(v, -0) ? 0 : v));
  const special = [...(o.nonFinite ? [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY] : []), ...(o.negativeZero ? [-0] : [])];
  if (special.length === 0) return values;
  return fc.oneof({ arbitrary: values, weight: 8 }, { arbitrary: fc.constantFrom(...special), weight: 1 });
}

/** BigDecimals from exact decimal text: sign, digits, fraction and exponent, some far beyond a double. */
function bigDecimals(): fc.Arbitrary<BigDecimal> {
  const digits = (max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: max });
  const text = fc
    .tuple(fc.boolean(), digits(40), fc.option(digits(30), { nil: undefined }), fc.option(fc.integer({ min: -400, max: 400 }), { nil: undefined }))
    .map(([neg, whole, fraction, exp]) => `${neg ? "-" : ""}${whole}${fraction === undefined ? "" : `.${fraction}`}${exp === undefined ? "" : `e${exp}`}`);
  return fc
    .oneof(text, fc.constantFrom("0", "-0.0", "1", "0.1", "3.14159", "1e-400", "123456789012345678901234567890.0987654321"))
    .map((t) => BigDecimal.from(t));
}

function dates(o: ArbitraryOptions, wholeSeconds: boolean): fc.Arbitrary<Date> {
  const d = fc.date({ min: o.minDate, max: o.maxDate, noInvalidDate: true });
  const edges = fc.constantFrom(new Date(0), new Date(-1), new Date(1), new Date(1_700_000_000_123), new Date("1969-12-31T23:59:59.999Z"));
  const all = fc.oneof({ arbitrary: d, weight: 6 }, { arbitrary: edges, weight: 1 });
  return wholeSeconds ? all.map((v) => new Date(Math.floor(v.getTime() / 1000) * 1000)) : all;
}

/**
 * JSON-like documents, `null` only inside arrays and objects. Numbers are
 * finite doubles (no `-0`); integers beyond ±2^53 are bigints, as a reader
 * sees them (it cannot tell `2^60` written from a double from a bigint).
 */
function documents(o: ArbitraryOptions): fc.Arbitrary<Document> {
  const { doc } = fc.letrec<{ doc: Document }>((tie) => ({
    doc: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(documentNumber),
      integers(-(2n ** 100n), 2n ** 100n),
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.array(tie("doc"), { maxLength: o.maxLength }),
      fc
        .uniqueArray(fc.tuple(fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom(...ODD_KEYS)), tie("doc")), {
          selector: (e) => e[0],
          maxLength: o.maxLength,
        })
        .map((e) => toObject(e) as { [key: string]: Document }),
    ),
  }));
  return doc.filter((d) => d !== null);
}

function documentNumber(v: number): number | bigint {
  if (Object.is(v, -0)) return 0;
  return Number.isInteger(v) && !Number.isSafeInteger(v) ? BigInt(v) : v;
}

/**
 * Compares two values of the value model and returns the JSON pointer of the
 * first difference, or `undefined` when they are equal. Numbers compare with
 * `Object.is` (so `NaN` equals `NaN` and `-0` differs from `0`), bigints by
 * value (a bigint never equals a number: the value model has one form per
 * integer), dates by time, bytes by content (any `Uint8Array`, `Buffer`
 * included), BigDecimals numerically, and objects by their own enumerable
 * keys, ignoring order and prototype.
 */
export function firstDifference(a: unknown, b: unknown, path = ""): string | undefined {
  if (typeof a === "number" || typeof b === "number")
    return typeof a === "number" && typeof b === "number" && Object.is(a, b) ? undefined : `${path || "/"}: ${show(a)} ≠ ${show(b)}`;
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return a === b ? undefined : `${path || "/"}: ${show(a)} ≠ ${show(b)}`;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime()) ? undefined : `${path || "/"}: ${show(a)} ≠ ${show(b)}`;
  }
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    const same = a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
    return same ? undefined : `${path || "/"}: ${show(a)} ≠ ${show(b)}`;
  }
  if (BigDecimal.is(a) || BigDecimal.is(b)) return BigDecimal.is(a) && BigDecimal.is(b) && a.equals(b) ? undefined : `${path || "/"}: ${show(a)} ≠ ${show(b)}`;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${path || "/"}: ${show(a)} ≠ ${show(b)}`;
    if (a.length !== b.length) return `${path || "/"}: length ${a.length} ≠ ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}/${i}`);
      if (d) return d;
    }
    return undefined;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  const kb = Object.keys(rb);
  for (const k of ka) if (!Object.hasOwn(rb, k)) return `${path}/${pointer(k)}: present (${show(ra[k])}) ≠ absent`;
  for (const k of kb) if (!Object.hasOwn(ra, k)) return `${path}/${pointer(k)}: absent ≠ present (${show(rb[k])})`;
  for (const k of ka) {
    const d = firstDifference(ra[k], rb[k], `${path}/${pointer(k)}`);
    if (d) return d;
  }
  return undefined;
}

const pointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** A short description of a value for failure messages. */
export function show(v: unknown): string {
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (v instanceof Date) return `Date(${Number.isNaN(v.getTime()) ? "invalid" : v.toISOString()})`;
  if (v instanceof Uint8Array) return `bytes[${v.length}]`;
  if (BigDecimal.is(v)) return `BigDecimal(${v.toString()})`;
  if (v === undefined) return "undefined";
  try {
    const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x));
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  } catch {
    return String(v);
  }
}
