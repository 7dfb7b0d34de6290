/**
 * The schema-compiled JSON reader. Text goes through the native JSON.parse
 * (or the exact parser, when big numbers may be present); a closure tree
 * compiled once per schema and settings then checks and converts the parsed
 * value into Anvil's value model.
 */
import { BigDecimal, type MemberSchema, type Schema, type StructSchema, type TimestampFormat, type UnionSchema } from "@anvil/core";
import { decodeBase64 } from "./base64.js";
import { mayHoldExponent, mayHoldLongDigits, mayHoldLossyNumber, parseExact } from "./exact-parse.js";
import { Failure, mismatch, toSerializationError, withSegment } from "./failure.js";
import { exactInteger, RawNumber } from "./numbers.js";
import { defaultMaker, defineData, isPrototypeName, exactNumbersOf, timestampFormatOf, wireName } from "./schema-info.js";
import { type JsonSettings, type ResolvedSettings, resolveSettings } from "./settings.js";
import { parseDateTime, parseHttpDate } from "./timestamps.js";

/**
 * A compiled JSON reader: call it with JSON text or UTF-8 bytes. Throws
 * `SerializationError` (message `decode json: ...`, `path` a JSON pointer)
 * on anything that is not valid JSON of the schema.
 */
export interface JsonReader<T> {
  /** Decodes one JSON document, given as text or UTF-8 bytes, into a value of the schema. */
  (input: string | Uint8Array): T;
  /**
   * Converts an already-parsed JSON value (from `JSON.parse`), e.g. a payload
   * member or an error body. `path` is the JSON pointer of `parsed` within
   * its document, prefixed to error paths. The value may be reused in the result.
   */
  fromValue(parsed: unknown, path?: string): T;
}

/** @internal A compiled converter: parsed JSON value and nesting depth in, runtime value out; throws Failure. */
export type Conv = (value: unknown, depth: number) => unknown;

type Obj = Record<string, unknown>;

const hasOwn = Object.hasOwn as (o: object, k: string) => boolean;
const isArray = Array.isArray;

const readers = new WeakMap<Schema, Map<string, JsonReader<unknown>>>();
const convs = new WeakMap<Schema, Map<string, Conv>>();

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * True while converting a tree this module's own JSON.parse (or exact parse)
 * just produced: nobody else holds it, so lists, maps and structures are
 * converted in place instead of copied. False for `fromValue`, whose input
 * belongs to the caller, and while an untagged union tries its variants (a
 * variant that fails must leave the value as it found it for the next one).
 */
let owned = false;

/**
 * True while converting what the native JSON.parse made of text that was
 * pre-scanned only for runs of 16 digits (schemas whose exact numbers are
 * integers: long, bigInteger). The exponent scan is left for later, as it
 * costs a sizeable part of a parse: a number there may still stand for an
 * integer no double holds (`1e30`, `1e400`) or a fraction that underflowed
 * to zero (`1e-400`). The long, bigInteger and document converters check
 * with {@link checkNative}; the reader parses again exactly when they throw
 * {@link RETRY_EXACT}, or when {@link underflowSeen} and the text has an
 * exponent.
 */
let unsure = false;
/** Whether an unsure conversion met a number that may have underflowed (zero, or subnormal in a document). */
let underflowSeen = false;

/** Thrown (never escaping the reader) when a number the native parser made may not be exact. */
const RETRY_EXACT: object = Object.freeze({ retry: "exact" });

/** Checks a number of an unsure conversion: throws RETRY_EXACT when it may be rounded, notes a possible underflow. */
function checkNative(v: number): void {
  if (Number.isSafeInteger(v)) {
    if (v === 0) underflowSeen = true;
  } else if (Number.isInteger(v) || !Number.isFinite(v)) throw RETRY_EXACT;
  else if (v < 2.3e-308 && v > -2.3e-308) underflowSeen = true;
}

/** Whether Object.prototype has enumerable properties, which for-in over parsed objects would visit. */
function prototypePolluted(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/**
 * Compiles a reader for a schema. Compiled once per schema object and
 * settings; later calls return the cached reader.
 */
export function compileReader<T>(schema: Schema<T>, settings?: JsonSettings): JsonReader<T> {
  const s = resolveSettings(settings);
  let bySettings = readers.get(schema);
  if (bySettings === undefined) readers.set(schema, (bySettings = new Map()));
  const cached = bySettings.get(s.key);
  if (cached !== undefined) return cached as JsonReader<T>;

  const conv = compileSchema(schema, s, timestampFormatOf(schema.traits, s));
  const exact = exactNumbersOf(schema);
  const maxDepth = s.maxDepth;
  /** Converts a tree parsed from `text`; `sure` when its numbers are known to be exact. */
  const convertParsed = (parsed: unknown, sure: boolean, text: string): T => {
    const outer = owned;
    const outerUnsure = unsure;
    const outerUnderflow = underflowSeen;
    owned = !prototypePolluted();
    unsure = !sure;
    underflowSeen = false;
    try {
      const value = conv(parsed, 0) as T;
      if (sure || !underflowSeen || !mayHoldExponent(text)) return value;
    } catch (error) {
      if (error !== RETRY_EXACT) throw error;
    } finally {
      owned = outer;
      unsure = outerUnsure;
      underflowSeen = outerUnderflow;
    }
    return convertParsed(parseExact(text, maxDepth), true, text);
  };
  const read = ((input: string | Uint8Array): T => {
    try {
      let text: string;
      if (typeof input === "string") text = input;
      else if (input instanceof Uint8Array) text = decodeUtf8(input);
      else throw mismatch("JSON text or bytes", input);
      if (exact === 2 ? mayHoldLossyNumber(text) : exact === 1 && mayHoldLongDigits(text)) return convertParsed(parseExact(text, maxDepth), true, text);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Failure("invalid JSON text");
      }
      return convertParsed(parsed, exact !== 1, text);
    } catch (error) {
      throw toSerializationError(error, "decode json");
    }
  }) as JsonReader<T>;
  read.fromValue = (parsed: unknown, path = ""): T => {
    const outer = owned;
    const outerUnsure = unsure;
    owned = false;
    unsure = false;
    try {
      return conv(parsed, 0) as T;
    } catch (error) {
      throw toSerializationError(error, "decode json", path);
    } finally {
      owned = outer;
      unsure = outerUnsure;
    }
  };
  bySettings.set(s.key, read as JsonReader<unknown>);
  return read;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new Failure("invalid UTF-8");
  }
}

/** @internal The converter of a member: its target's, with the member's timestamp format. */
function compileMember(member: MemberSchema, s: ResolvedSettings): Conv {
  return compileSchema(member.target, s, timestampFormatOf(member.traits, s));
}

/** @internal The converter of a schema; `format` applies when it is a timestamp. */
export function compileSchema(schema: Schema, s: ResolvedSettings, format: TimestampFormat): Conv {
  switch (schema.kind) {
    case "string":
    case "enum":
      return readString;
    case "boolean":
      return readBoolean;
    case "byte":
      return readByte;
    case "short":
      return readShort;
    case "integer":
      return readInteger;
    case "intEnum":
      return readIntEnum;
    case "long":
      return readLong;
    case "bigInteger":
      return s.bigNumbersAsStrings ? readBigIntegerText : readBigInteger;
    case "float":
    case "double":
      return readDouble;
    case "bigDecimal":
      return s.bigNumbersAsStrings ? readBigDecimalText : readBigDecimal;
    case "blob":
      return s.strict ? readPaddedBlob : readBlob;
    case "timestamp":
      if (format === "date-time") return s.strict ? readUtcDateTime : readDateTime;
      return format === "http-date" ? readHttpDate : readEpochSeconds;
    case "document":
      return documentReader(s.maxDepth);
    default:
  }
  let bySettings = convs.get(schema);
  if (bySettings === undefined) convs.set(schema, (bySettings = new Map()));
  const cached = bySettings.get(s.key);
  if (cached !== undefined) return cached;
  switch (schema.kind) {
    case "list":
      return listReader(schema.member, schema.traits.sparse === true, s, bySettings);
    case "map":
      return mapReader(schema.value, schema.traits.sparse === true, s, bySettings);
    case "structure":
      return structReader(schema, s, bySettings);
    case "union":
      if (s.alloyTraits && schema.traits.discriminated !== undefined) return discriminatedReader(schema, schema.traits.discriminated, s, bySettings);
      if (s.alloyTraits && schema.traits.untagged) return untaggedReader(schema, s, bySettings);
      return unionReader(schema, s, bySettings);
    default:
      throw new Failure(`unsupported schema kind ${(schema as { kind: string }).kind}`);
  }
}

// ---- scalars ---------------------------------------------------------------

const readString: Conv = (v) => {
  if (typeof v === "string") return v;
  throw mismatch("a string", v);
};

const readBoolean: Conv = (v) => {
  if (typeof v === "boolean") return v;
  throw mismatch("a boolean", v);
};

function integerIn(min: number, max: number, what: string): Conv {
  return (v) => {
    if (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max) return v;
    if (typeof v === "number" || v instanceof RawNumber) {
      const n = typeof v === "number" ? v : Number(v.text);
      // 1e400 reads as Infinity: a number out of range, not a fraction.
      throw new Failure(Number.isInteger(n) || !Number.isFinite(n) ? `${what} out of range` : `expected ${what}, got a fraction`);
    }
    throw mismatch(what, v);
  };
}

const readByte = integerIn(-128, 127, "a byte");
const readShort = integerIn(-32768, 32767, "a short");
const readInteger = integerIn(-2147483648, 2147483647, "an integer");
const readIntEnum = integerIn(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, "an integer");

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

function exactIntegerOf(v: unknown, what: string): number | bigint {
  if (typeof v === "number") {
    if (Number.isSafeInteger(v)) return v;
    // Only reachable from fromValue(): the caller's JSON.parse already rounded it.
    if (Number.isInteger(v)) return BigInt(v);
    throw new Failure(Number.isFinite(v) ? `expected ${what}, got a fraction` : `expected ${what}, got a non-finite number`);
  }
  if (v instanceof RawNumber) {
    const x = exactInteger(v.text);
    if (x === undefined) throw new Failure(`expected ${what}, got a fraction`);
    if (x === null) throw new Failure(`${what} out of range`);
    return x;
  }
  if (typeof v === "bigint") return v;
  throw mismatch(what, v);
}

const readLong: Conv = (v) => {
  if (typeof v === "number") {
    if (unsure) checkNative(v);
    if (Number.isSafeInteger(v)) return v;
  }
  const x = exactIntegerOf(v, "a long");
  if (typeof x === "bigint" && (x < LONG_MIN || x > LONG_MAX)) throw new Failure("a long out of range");
  return x;
};

const readBigInteger: Conv = (v) => {
  if (typeof v === "number") {
    if (unsure) checkNative(v);
    if (Number.isSafeInteger(v)) return v;
  }
  return exactIntegerOf(v, "an integer");
};

const readDouble: Conv = (v) => {
  if (typeof v === "number") return v;
  if (v instanceof RawNumber) return Number(v.text);
  if (v === "NaN") return NaN;
  if (v === "Infinity") return Infinity;
  if (v === "-Infinity") return -Infinity;
  throw mismatch("a number", v);
};

const readBigDecimal: Conv = (v) => {
  if (typeof v === "number" && Number.isFinite(v)) return BigDecimal.from(v);
  if (v instanceof RawNumber) return BigDecimal.from(v.text);
  if (BigDecimal.is(v)) return v;
  if (typeof v === "bigint") return BigDecimal.from(v);
  throw mismatch("a number", v);
};

const INTEGER_TEXT = /^-?\d+$/;

/** A bigInteger from a JSON string (or number), as `bigNumbersAsStrings` writes it. */
const readBigIntegerText: Conv = (v, d) => {
  if (typeof v !== "string") return readBigInteger(v, d);
  if (!INTEGER_TEXT.test(v)) throw new Failure("invalid integer text");
  const n = BigInt(v);
  return n >= MIN_SAFE && n <= MAX_SAFE ? Number(n) : n;
};

/** A bigDecimal from a JSON string (or number), as `bigNumbersAsStrings` writes it. */
const readBigDecimalText: Conv = (v, d) => {
  if (typeof v !== "string") return readBigDecimal(v, d);
  if (!JSON_DECIMAL_TEXT.test(v)) throw new Failure("invalid decimal text");
  return BigDecimal.from(v);
};

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const JSON_DECIMAL_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const readBlob: Conv = (v) => {
  if (typeof v !== "string") throw mismatch("a base64 string", v);
  const bytes = decodeBase64(v);
  if (bytes === undefined) throw new Failure("invalid base64");
  return bytes;
};

/** Strict base64: the length a multiple of four (padded), as RFC 4648 writes it. */
const readPaddedBlob: Conv = (v, d) => {
  if (typeof v === "string" && v.length % 4 !== 0) throw new Failure("invalid base64 (unpadded)");
  return readBlob(v, d);
};

const readEpochSeconds: Conv = (v) => {
  const n = typeof v === "number" ? v : v instanceof RawNumber ? Number(v.text) : NaN;
  if (typeof v !== "number" && !(v instanceof RawNumber)) throw mismatch("epoch seconds (a number)", v);
  const ms = Math.round(n * 1000);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw new Failure("epoch seconds out of range");
  return new Date(ms);
};

const readDateTime: Conv = (v) => {
  if (typeof v !== "string") throw mismatch("a date-time string", v);
  const date = parseDateTime(v);
  if (date === undefined || Number.isNaN(date.getTime())) throw new Failure("invalid date-time timestamp");
  return date;
};

/** Strict date-time: UTC only (`Z`), as Smithy's date-time format says (no offset). */
const readUtcDateTime: Conv = (v, d) => {
  if (typeof v === "string" && !/[Zz]$/.test(v)) throw new Failure("invalid date-time timestamp (expected UTC, no offset)");
  return readDateTime(v, d);
};

const readHttpDate: Conv = (v) => {
  if (typeof v !== "string") throw mismatch("an http-date string", v);
  const date = parseHttpDate(v);
  if (date === undefined || Number.isNaN(date.getTime())) throw new Failure("invalid http-date timestamp");
  return date;
};

/**
 * Values a converter would return unchanged, recognized by a type check
 * inline in the aggregate loops instead of a call: what each kind lets
 * through. Anything else goes to the converter, which converts or fails.
 * A const enum, so that the build inlines the numbers: the optimizing
 * compiler does not fold module-level constants, and loaded a context slot
 * (with a hole check) for every `case`.
 */
const enum Pass {
  Call = 0,
  String = 1,
  Boolean = 2,
  Number = 3,
  Int32 = 4,
  SafeInteger = 5,
  /** Like SafeInteger without zero, which the converter sees: it may be an underflowed exponent (see `unsure`). */
  NonzeroSafeInteger = 6,
}

/** The bits of a structure member's flags above its {@link Pass} kind. */
const enum Member {
  PassMask = 7,
  /** The member has a `@default`. */
  Default = 8,
  /** `null` is a value of the member (`@alloy#nullable`). */
  Nullable = 16,
  /**
   * The converter usually returns the value it is given (aggregates converted
   * in place, documents, integers): store only what changed. Other converters
   * (timestamps, blobs) always make a new value: store without comparing.
   */
  Kept = 32,
}

function passThrough(schema: Schema): Pass {
  switch (schema.kind) {
    case "string":
    case "enum":
      return Pass.String;
    case "boolean":
      return Pass.Boolean;
    case "float":
    case "double":
      return Pass.Number;
    case "integer":
      return Pass.Int32;
    case "intEnum":
      return Pass.SafeInteger;
    case "long":
    case "bigInteger":
      return Pass.NonzeroSafeInteger;
    default:
      return Pass.Call;
  }
}

/** Whether `v` passes through a converter of pass-through kind `check` unchanged. Small enough to inline. */
function passes(check: Pass | number, v: unknown): boolean {
  switch (check) {
    case Pass.String:
      return typeof v === "string";
    case Pass.Boolean:
      return typeof v === "boolean";
    case Pass.Number:
      return typeof v === "number";
    case Pass.Int32:
      return typeof v === "number" && (v | 0) === v;
    case Pass.SafeInteger:
      return typeof v === "number" && Number.isSafeInteger(v);
    case Pass.NonzeroSafeInteger:
      return typeof v === "number" && v !== 0 && Number.isSafeInteger(v);
    default:
      return false;
  }
}

/** Whether the converter of `schema` usually returns the value it is given (see {@link Member.Kept}). */
function keepsValue(schema: Schema): boolean {
  switch (schema.kind) {
    case "timestamp":
    case "blob":
    case "bigDecimal":
      return false;
    default:
      return true;
  }
}

const documentReaders = new Map<number, Conv>();

/** @internal The document converter for a depth limit: checks values and makes lossy numbers exact, in place. */
export function documentReader(maxDepth: number): Conv {
  let conv = documentReaders.get(maxDepth);
  if (conv !== undefined) return conv;
  const read: Conv = (v, d) => {
    switch (typeof v) {
      case "string":
      case "boolean":
      case "bigint":
        return v;
      case "number":
        if (unsure) checkNative(v);
        if (Number.isFinite(v)) return v;
        throw new Failure("non-finite number in a document");
      default:
    }
    if (v === null) return null;
    if (typeof v !== "object") throw mismatch("a JSON value", v);
    if (v instanceof RawNumber) {
      const x = exactInteger(v.text);
      if (x === undefined) return BigDecimal.from(v.text);
      if (x === null) throw new Failure("number too large");
      return x;
    }
    if (BigDecimal.is(v)) return v;
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    if (isArray(v)) {
      let i = 0;
      try {
        for (; i < v.length; i++) {
          const e = v[i];
          if (typeof e === "object" && e !== null) {
            const r = read(e, d + 1);
            if (r !== e) v[i] = r;
          } else if (e === undefined || (typeof e === "number" && (unsure || !Number.isFinite(e)))) read(e, d + 1);
        }
      } catch (error) {
        throw withSegment(error, String(i));
      }
      return v;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw mismatch("a JSON value", v);
    const o = v as Obj;
    let key = "";
    try {
      for (key in o) {
        const e = o[key];
        if (typeof e === "object" && e !== null) {
          const r = read(e, d + 1);
          if (r !== e) defineData(o, key, r);
        } else if (e === undefined || typeof e === "function" || typeof e === "symbol" || (typeof e === "number" && (unsure || !Number.isFinite(e))))
          read(e, d + 1);
      }
    } catch (error) {
      throw withSegment(error, key);
    }
    return v;
  };
  documentReaders.set(maxDepth, (conv = read));
  return conv;
}

// ---- aggregates --------------------------------------------------------------

function listReader(member: MemberSchema, sparse: boolean, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const maxDepth = s.maxDepth;
  let item: Conv = readString;
  const check = passThrough(member.target);
  const conv: Conv = (v, d) => {
    if (!isArray(v)) throw mismatch("an array", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const n = v.length;
    let i = 0;
    if (owned) {
      // In place: store only what the item converter replaced.
      try {
        for (; i < n; i++) {
          const e = v[i];
          if (e === null) {
            if (!sparse) throw new Failure("null in a non-sparse list");
          } else if (!passes(check, e)) {
            const r = item(e, d + 1);
            if (r !== e) v[i] = r;
          }
        }
      } catch (error) {
        throw withSegment(error, String(i));
      }
      return v;
    }
    const out = new Array<unknown>(n);
    try {
      for (; i < n; i++) {
        const e = v[i];
        if (e === null) {
          if (!sparse) throw new Failure("null in a non-sparse list");
          out[i] = null;
        } else out[i] = passes(check, e) ? e : item(e, d + 1);
      }
    } catch (error) {
      throw withSegment(error, String(i));
    }
    return out;
  };
  cache.set(s.key, conv);
  item = compileMember(member, s);
  return conv;
}

function mapReader(member: MemberSchema, sparse: boolean, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const maxDepth = s.maxDepth;
  let value: Conv = readString;
  const check = passThrough(member.target);
  const conv: Conv = (v, d) => {
    if (typeof v !== "object" || v === null || isArray(v) || v instanceof RawNumber) throw mismatch("an object", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const o = v as Obj;
    let key = "";
    if (owned) {
      // In place: parsed objects hold exactly the wire keys (`__proto__` as an own data property).
      try {
        for (key in o) {
          const e = o[key];
          if (e === null) {
            if (!sparse) throw new Failure("null in a non-sparse map");
          } else if (!passes(check, e)) {
            const r = value(e, d + 1);
            if (r !== e) {
              if (key === "__proto__") defineData(o, key, r);
              else o[key] = r;
            }
          }
        }
      } catch (error) {
        throw withSegment(error, key);
      }
      return o;
    }
    const out: Obj = {};
    try {
      for (key in o) {
        const e = o[key];
        let r: unknown = null;
        if (e === null) {
          if (!sparse) throw new Failure("null in a non-sparse map");
        } else r = passes(check, e) ? e : value(e, d + 1);
        if (key === "__proto__") defineData(out, key, r);
        else out[key] = r;
      }
    } catch (error) {
      throw withSegment(error, key);
    }
    return out;
  };
  cache.set(s.key, conv);
  value = compileMember(member, s);
  return conv;
}

function structReader(schema: StructSchema<unknown>, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const maxDepth = s.maxDepth;
  const members = schema.members.filter((m) => !m.traits.streaming);
  const n = members.length;
  const names: string[] = [];
  const wires: string[] = [];
  const readers: Conv[] = [];
  const checks: number[] = [];
  const guarded: boolean[] = []; // wire name shadows Object.prototype: read own properties only
  const protoName: boolean[] = []; // member named __proto__: define, never assign
  const defaults: ((() => unknown) | undefined)[] = [];
  const nullable: boolean[] = [];
  const flags: number[] = []; // Pass kind | Member bits, for the in-place loop
  let unknownIndex = -1;
  let defaultCount = 0;
  const known: Record<string, true> = Object.create(null);
  const index = new Map<string, number>(); // wire name → member
  for (let i = 0; i < n; i++) {
    const m = members[i]!;
    const t = m.traits;
    names.push(m.name);
    wires.push(wireName(m, s));
    checks.push(passThrough(m.target));
    guarded.push(isPrototypeName(wires[i]!));
    protoName.push(m.name === "__proto__");
    defaults.push(defaultMaker(t.default));
    if (defaults[i] !== undefined) defaultCount++;
    nullable.push(s.alloyTraits && t.nullable === true);
    known[wires[i]!] = true;
    if (!index.has(wires[i]!)) index.set(wires[i]!, i);
    if (s.alloyTraits && t.jsonUnknown && m.target.kind === "map" && unknownIndex < 0) unknownIndex = i;
    readers.push(readString);
    flags.push(checks[i]! | (defaults[i] === undefined ? 0 : Member.Default) | (nullable[i] ? Member.Nullable : 0) | (keepsValue(m.target) ? Member.Kept : 0));
  }
  const unknownDoc = documentReader(maxDepth);
  // A parsed object can become the result when it is keyed by member names.
  const adoptable = unknownIndex < 0 && index.size === n && names.every((name, i) => name === wires[i] && name !== "__proto__");

  /**
   * A member failed while members were converted in wire order. Reports what
   * schema order reports: the first member before it in the schema that was
   * not visited yet and fails too, else this one.
   */
  const firstFailure = (o: Obj, failed: number, error: unknown, d: number): unknown => {
    const visited = new Set<string>();
    for (const key in o) {
      if (key === wires[failed]) break;
      visited.add(key);
    }
    for (let i = 0; i < failed; i++) {
      const w = wires[i]!;
      if (visited.has(w)) continue;
      const x = guarded[i] ? (hasOwn(o, w) ? o[w] : undefined) : o[w];
      if (x === undefined || x === null || passes(checks[i]!, x)) continue;
      try {
        readers[i]!(x, d + 1);
      } catch (earlier) {
        return withSegment(earlier, w);
      }
    }
    return withSegment(error, wires[failed]!);
  };

  /** Converts members in place, in wire order (for-in reads by enum cache, not a lookup per name); the object itself when it can be the result. */
  const inPlace = (o: Obj, d: number): Obj => {
    let clean = true; // only member keys, no nulls to drop
    let next = 0;
    let present = 0; // members with a default that are present
    for (const key in o) {
      // Wire order usually is schema order: try the next member before the lookup.
      let i = next;
      if (i >= n || wires[i] !== key) {
        i = index.get(key) ?? -1;
        if (i < 0) {
          clean = false;
          continue;
        }
      }
      next = i + 1;
      const w = o[key];
      const f = flags[i]!;
      if (w === null || w === undefined) {
        if (w !== null || (f & Member.Nullable) === 0) clean = false;
        else if ((f & Member.Default) !== 0) present++;
        continue;
      }
      if ((f & Member.Default) !== 0) present++;
      if (passes(f & Member.PassMask, w)) continue;
      let r: unknown;
      try {
        r = readers[i]!(w, d + 1);
      } catch (error) {
        throw firstFailure(o, i, error, d);
      }
      if ((f & Member.Kept) === 0 || r !== w) o[key] = r;
    }
    if (clean) {
      if (present < defaultCount) {
        for (let i = 0; i < n; i++) {
          const make = defaults[i];
          if (make !== undefined && !hasOwn(o, wires[i]!)) o[wires[i]!] = make();
        }
      }
      return o;
    }
    // Members are converted; copy them in schema order, dropping nulls and unknown keys.
    const out: Obj = {};
    for (let i = 0; i < n; i++) {
      const w = guarded[i] ? (hasOwn(o, wires[i]!) ? o[wires[i]!] : undefined) : o[wires[i]!];
      let r: unknown = w;
      if (w === undefined || w === null) {
        if (w === null && nullable[i]) r = null;
        else {
          const make = defaults[i];
          if (make === undefined) continue;
          r = make();
        }
      }
      out[names[i]!] = r;
    }
    return out;
  };

  const conv: Conv = (v, d) => {
    if (typeof v !== "object" || v === null || isArray(v) || v instanceof RawNumber) throw mismatch("an object", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const o = v as Obj;
    if (owned && adoptable) return inPlace(o, d);
    const out: Obj = {};
    let i = 0;
    try {
      for (; i < n; i++) {
        if (i === unknownIndex) continue;
        const w = guarded[i] ? (hasOwn(o, wires[i]!) ? o[wires[i]!] : undefined) : o[wires[i]!];
        let r: unknown;
        if (w === undefined || w === null) {
          if (w === null && nullable[i]) r = null;
          else {
            const make = defaults[i];
            if (make === undefined) continue;
            r = make();
          }
        } else r = passes(checks[i]!, w) ? w : readers[i]!(w, d + 1);
        if (protoName[i]) defineData(out, names[i]!, r);
        else out[names[i]!] = r;
      }
    } catch (error) {
      throw withSegment(error, wires[i]!);
    }
    if (unknownIndex >= 0) {
      let extra: Obj | undefined;
      let key = "";
      try {
        for (key in o) {
          if (known[key] === true) continue;
          extra ??= {};
          defineData(extra, key, unknownDoc(o[key], d + 1));
        }
      } catch (error) {
        throw withSegment(error, key);
      }
      if (extra !== undefined) out[names[unknownIndex]!] = extra;
    }
    return out;
  };
  cache.set(s.key, conv);
  for (let i = 0; i < n; i++) readers[i] = compileMember(members[i]!, s);
  return conv;
}

interface Variants {
  names: string[];
  wires: string[];
  readers: Conv[];
  /** Wire name → index. */
  index: Record<string, number>;
  /** The `@alloy#jsonUnknown` document member that takes unknown variants, or -1. */
  unknownIndex: number;
}

function variantsOf(schema: UnionSchema<unknown>, s: ResolvedSettings): Variants {
  const members = schema.members;
  const index: Record<string, number> = Object.create(null);
  const names: string[] = [];
  const wires: string[] = [];
  const readers: Conv[] = [];
  let unknownIndex = -1;
  for (let i = 0; i < members.length; i++) {
    const m = members[i]!;
    names.push(m.name);
    wires.push(wireName(m, s));
    index[wires[i]!] = i;
    readers.push(readString);
    if (s.alloyTraits && m.traits.jsonUnknown && m.target.kind === "document" && unknownIndex < 0) unknownIndex = i;
  }
  return { names, wires, readers, index, unknownIndex };
}

function fillVariants(schema: UnionSchema<unknown>, variants: Variants, s: ResolvedSettings): void {
  for (let i = 0; i < schema.members.length; i++) variants.readers[i] = compileMember(schema.members[i]!, s);
}

function unionReader(schema: UnionSchema<unknown>, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const maxDepth = s.maxDepth;
  const vs = variantsOf(schema, s);
  const { names, readers, index, unknownIndex } = vs;
  const doc = documentReader(maxDepth);
  const strict = s.strict;
  const conv: Conv = (v, d) => {
    if (typeof v !== "object" || v === null || isArray(v) || v instanceof RawNumber) throw mismatch("an object", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const o = v as Obj;
    let wire: string | undefined;
    for (const key in o) {
      if (key === "__type" || o[key] === null) continue;
      if (wire !== undefined) throw new Failure("union has more than one member set");
      wire = key;
    }
    if (wire === undefined) throw new Failure("union has no member set");
    const i = index[wire];
    try {
      if (i === undefined) {
        if (unknownIndex >= 0) return { $case: names[unknownIndex], value: doc(o, d) };
        if (strict) throw new Failure("unknown union member");
        return { $case: "$unknown", name: wire, value: doc(o[wire], d + 1) };
      }
      return { $case: names[i], value: readers[i]!(o[wire], d + 1) };
    } catch (error) {
      throw withSegment(error, wire);
    }
  };
  cache.set(s.key, conv);
  fillVariants(schema, vs, s);
  return conv;
}

function discriminatedReader(schema: UnionSchema<unknown>, discriminator: string, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const maxDepth = s.maxDepth;
  const vs = variantsOf(schema, s);
  const { names, readers, index, unknownIndex } = vs;
  const doc = documentReader(maxDepth);
  const strict = s.strict;
  const conv: Conv = (v, d) => {
    if (typeof v !== "object" || v === null || isArray(v) || v instanceof RawNumber) throw mismatch("an object", v);
    const o = v as Obj;
    const tag = hasOwn(o, discriminator) ? o[discriminator] : undefined;
    if (typeof tag !== "string") throw withSegment(mismatch("a discriminator string", tag), discriminator);
    const i = index[tag];
    if (i === undefined || i === unknownIndex) {
      if (unknownIndex >= 0) return { $case: names[unknownIndex], value: doc(o, d) };
      if (strict) throw withSegment(new Failure("unknown union member"), discriminator);
      return { $case: "$unknown", name: tag, value: doc(o, d) };
    }
    return { $case: names[i], value: readers[i]!(o, d) };
  };
  cache.set(s.key, conv);
  fillVariants(schema, vs, s);
  return conv;
}

function untaggedReader(schema: UnionSchema<unknown>, s: ResolvedSettings, cache: Map<string, Conv>): Conv {
  const vs = variantsOf(schema, s);
  const { names, readers } = vs;
  const n = names.length;
  // Structure variants match only when their required members are present, so
  // that a variant ignoring unknown members does not swallow every object.
  const required: string[][] = schema.members.map((m) =>
    m.target.kind === "structure" ? m.target.members.filter((x) => x.traits.required && x.traits.default === undefined).map((x) => wireName(x, s)) : [],
  );
  const conv: Conv = (v, d) => {
    for (let i = 0; i < n; i++) {
      const req = required[i]!;
      if (req.length > 0) {
        if (typeof v !== "object" || v === null) continue;
        let ok = true;
        for (let k = 0; k < req.length; k++) if (!hasOwn(v, req[k]!) || (v as Obj)[req[k]!] === null) ok = false;
        if (!ok) continue;
      }
      const outer = owned;
      owned = false;
      try {
        return { $case: names[i], value: readers[i]!(v, d) };
      } catch (error) {
        if (!(error instanceof Failure)) throw error;
      } finally {
        owned = outer;
      }
    }
    throw new Failure("no variant of the untagged union matches");
  };
  cache.set(s.key, conv);
  fillVariants(schema, vs, s);
  return conv;
}
