/**
 * The schema-compiled JSON writer: a closure tree, compiled once per schema
 * and settings, that concatenates JSON text with keys quoted at compile time.
 */
import { BigDecimal, type MemberSchema, type Schema, type StructSchema, type TimestampFormat, type UnionSchema } from "@anvil/core";
import { encodeUtf8 } from "@anvil/core/protocol";
import { encodeBase64 } from "./base64.js";
import { parseExact } from "./exact-parse.js";
import { Failure, mismatch, toSerializationError, withSegment } from "./failure.js";
import { exactInteger, formatNumber, RawNumber } from "./numbers.js";
import { defineData, isPrototypeName, timestampFormatOf, wireName } from "./schema-info.js";
import { type JsonSettings, type ResolvedSettings, resolveSettings } from "./settings.js";
import { dateTimeText, formatHttpDate, quotedDateTime } from "./timestamps.js";

/**
 * A compiled JSON writer: call it with a value to get JSON text. Throws
 * `SerializationError` (message `encode json: ...`) on values that do not
 * fit the schema.
 */
export interface JsonWriter<T> {
  /** Encodes a value of the schema as JSON text. */
  (value: T): string;
  /** The JSON text as UTF-8 bytes. */
  toBytes(value: T): Uint8Array;
  /**
   * A JSON-compatible value (plain objects, arrays, strings, numbers,
   * booleans, null) for embedding in a larger document. Numbers a double
   * cannot hold exactly stay exact: `JSON.rawJSON` values where the runtime
   * has it, else `bigint` (integers) and `BigDecimal` (decimals).
   */
  toValue(value: T): unknown;
}

/** @internal A compiled encoder: value and depth in, JSON text out; throws Failure. */
export type Enc = (value: unknown, depth: number) => string;

type Obj = Record<string, unknown>;

const hasOwn = Object.hasOwn as (o: object, k: string) => boolean;
const isArray = Array.isArray;

const writers = new WeakMap<Schema, Map<string, JsonWriter<unknown>>>();
const encs = new WeakMap<Schema, Map<string, Enc>>();

/**
 * Compiles a writer for a schema. Compiled once per schema object and
 * settings; later calls return the cached writer.
 */
export function compileWriter<T>(schema: Schema<T>, settings?: JsonSettings): JsonWriter<T> {
  const s = resolveSettings(settings);
  let bySettings = writers.get(schema);
  if (bySettings === undefined) writers.set(schema, (bySettings = new Map()));
  const cached = bySettings.get(s.key);
  if (cached !== undefined) return cached as JsonWriter<T>;

  const enc = compileSchema(schema, s, timestampFormatOf(schema.traits, s));
  const write = ((value: T): string => {
    try {
      return enc(value, 0);
    } catch (error) {
      throw toSerializationError(error, "encode json");
    }
  }) as JsonWriter<T>;
  write.toBytes = (value: T): Uint8Array => encodeUtf8(write(value));
  write.toValue = (value: T): unknown => {
    const text = write(value);
    try {
      return materialize(parseExact(text, Number.MAX_SAFE_INTEGER));
    } catch (error) {
      throw toSerializationError(error, "encode json");
    }
  };
  bySettings.set(s.key, write as JsonWriter<unknown>);
  return write;
}

const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;

/** Replaces RawNumber leaves of a freshly parsed tree with exact values. */
function materialize(v: unknown): unknown {
  if (typeof v !== "object" || v === null) return v;
  if (v instanceof RawNumber) {
    if (rawJSON !== undefined) return rawJSON(v.text);
    const x = exactInteger(v.text);
    return x === undefined || x === null ? BigDecimal.from(v.text) : x;
  }
  if (isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = materialize(v[i]);
    return v;
  }
  const o = v as Obj;
  for (const key in o) {
    const e = o[key];
    if (typeof e === "object" && e !== null) defineData(o, key, materialize(e));
  }
  return o;
}

function compileMember(member: MemberSchema, s: ResolvedSettings): Enc {
  return compileSchema(member.target, s, timestampFormatOf(member.traits, s));
}

function compileSchema(schema: Schema, s: ResolvedSettings, format: TimestampFormat): Enc {
  switch (schema.kind) {
    case "string":
    case "enum":
      return writeString;
    case "boolean":
      return writeBoolean;
    case "byte":
      return writeByte;
    case "short":
      return writeShort;
    case "integer":
      return writeInteger;
    case "intEnum":
      return writeIntEnum;
    case "long":
      return writeLong;
    case "bigInteger":
      return s.bigNumbersAsStrings ? writeBigIntegerText : writeBigInteger;
    case "float":
    case "double":
      return writeDouble;
    case "bigDecimal":
      return s.bigNumbersAsStrings ? writeBigDecimalText : writeBigDecimal;
    case "blob":
      return writeBlob;
    case "timestamp":
      return format === "date-time" ? writeDateTime : format === "http-date" ? writeHttpDate : writeEpochSeconds;
    case "document":
      return documentWriter(s.maxDepth);
    default:
  }
  let bySettings = encs.get(schema);
  if (bySettings === undefined) encs.set(schema, (bySettings = new Map()));
  const cached = bySettings.get(s.key);
  if (cached !== undefined) return cached;
  switch (schema.kind) {
    case "list":
      return listWriter(schema.member, schema.traits.sparse === true, s, bySettings);
    case "map":
      return mapWriter(schema.value, schema.traits.sparse === true, s, bySettings);
    case "structure":
      return structWriter(schema, s, bySettings);
    case "union":
      if (s.alloyTraits && schema.traits.discriminated !== undefined) return discriminatedWriter(schema, schema.traits.discriminated, s, bySettings);
      if (s.alloyTraits && schema.traits.untagged) return untaggedWriter(schema, s, bySettings);
      return unionWriter(schema, s, bySettings);
    default:
      throw new Failure(`unsupported schema kind ${(schema as { kind: string }).kind}`);
  }
}

// ---- scalars ---------------------------------------------------------------

// Characters JSON.stringify escapes: quote, backslash, controls, and surrogates (lone ones get \u escapes).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Whether JSON.stringify would write a string as is between quotes (no escapes). */
function plainString(text: string): boolean {
  return !NEEDS_ESCAPE.test(text);
}

// What JSON.stringify escapes besides quote and backslash: controls (short or \u forms) and lone surrogates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters JSON escapes
const ESCAPE_HARD = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * The text of a string as JSON writes it between quotes. Strings whose only
 * escapes are quotes and backslashes (prose, paths) are escaped here, between
 * `indexOf` hits; anything else goes through JSON.stringify, whose escapes
 * this must match, and which costs more per call on such strings.
 */
function escapedBody(text: string): string {
  if (ESCAPE_HARD.test(text)) {
    const quoted = JSON.stringify(text);
    return quoted.slice(1, quoted.length - 1);
  }
  let out = "";
  let start = 0;
  let q = text.indexOf('"');
  let b = text.indexOf("\\");
  while (q >= 0 || b >= 0) {
    if (b < 0 || (q >= 0 && q < b)) {
      out += `${text.slice(start, q)}\\"`;
      start = q + 1;
      q = text.indexOf('"', start);
    } else {
      out += `${text.slice(start, b)}\\\\`;
      start = b + 1;
      b = text.indexOf("\\", start);
    }
  }
  return out + text.slice(start);
}

/** The text of a string between JSON quotes: as is when nothing needs escaping. */
function stringBody(text: string): string {
  return plainString(text) ? text : escapedBody(text);
}

/** @internal Quotes a string as JSON. */
export function quote(text: string): string {
  return `"${stringBody(text)}"`;
}

/**
 * How aggregates write a member, item or value: kinds with a fast path are
 * written inline (no closure call); everything else, and every value the fast
 * path does not accept, goes to the compiled encoder, which also reports errors.
 */
const K_OTHER = 0;
const K_STRING = 1;
const K_BOOLEAN = 2;
const K_INT32 = 3;
const K_DOUBLE = 4;
const K_LONG = 5;
const K_DATE_TIME = 6;
const K_EPOCH_SECONDS = 7;

function inlineKind(schema: Schema, format: TimestampFormat): number {
  switch (schema.kind) {
    case "string":
    case "enum":
      return K_STRING;
    case "boolean":
      return K_BOOLEAN;
    case "integer":
      return K_INT32;
    case "float":
    case "double":
      return K_DOUBLE;
    case "long":
      return K_LONG;
    case "timestamp":
      return format === "date-time" ? K_DATE_TIME : format === "http-date" ? K_OTHER : K_EPOCH_SECONDS;
    default:
      return K_OTHER;
  }
}

/** The kind of a member's value, from its target and timestamp format. */
function memberKind(member: MemberSchema, s: ResolvedSettings): number {
  return inlineKind(member.target, timestampFormatOf(member.traits, s));
}

/**
 * Aggregates leave a plain string's closing quote to the next piece they
 * append (`","` before the next item, `"]` at the end), one concatenation
 * fewer per string. Where the text stands: nothing written yet, a value
 * written, or a string value written and still open.
 */
const AT_START = 0;
const AFTER_VALUE = 1;
const IN_STRING = 2;
/** What goes before the next value, by where the text stands. */
const SEPARATOR = ["", ",", '",'];
/** {@link SEPARATOR} and the opening quote of a string. */
const SEPARATOR_QUOTE = ['"', ',"', '","'];

/** Writes a value through its kind's fast path, else its encoder. Small enough for V8 to inline into the loops. */
function encodeAs(kind: number, enc: Enc, x: unknown, d: number): string {
  switch (kind) {
    case K_STRING:
      if (typeof x === "string") return quote(x);
      break;
    case K_BOOLEAN:
      if (x === true) return "true";
      if (x === false) return "false";
      break;
    case K_INT32:
      if (typeof x === "number" && (x | 0) === x) return String(x);
      break;
    case K_DOUBLE:
      if (typeof x === "number" && x - x === 0) return formatNumber(x);
      break;
    case K_LONG:
      if (typeof x === "number" && Number.isSafeInteger(x)) return String(x);
      break;
    case K_DATE_TIME:
      if (x instanceof Date) {
        const text = dateTimeText(x.getTime(), true);
        if (text !== undefined) return text;
      }
      break;
    case K_EPOCH_SECONDS:
      if (x instanceof Date) {
        const t = x.getTime();
        if (!Number.isNaN(t)) return formatNumber(t / 1000);
      }
      break;
    default:
  }
  return enc(x, d);
}

const writeString: Enc = (v) => {
  if (typeof v === "string") return quote(v);
  throw mismatch("a string", v);
};

const writeBoolean: Enc = (v) => {
  if (v === true) return "true";
  if (v === false) return "false";
  throw mismatch("a boolean", v);
};

function integerIn(min: number, max: number, what: string): Enc {
  return (v) => {
    if (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max) return String(v);
    if (typeof v === "number") throw new Failure(Number.isInteger(v) ? `${what} out of range` : `expected ${what}, got a fraction`);
    throw mismatch(what, v);
  };
}

const writeByte = integerIn(-128, 127, "a byte");
const writeShort = integerIn(-32768, 32767, "a short");
const writeInteger = integerIn(-2147483648, 2147483647, "an integer");
const writeIntEnum = integerIn(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, "an integer");

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

const writeLong: Enc = (v) => {
  if (typeof v === "number" && Number.isSafeInteger(v)) return String(v);
  if (typeof v === "bigint") {
    if (v < LONG_MIN || v > LONG_MAX) throw new Failure("a long out of range");
    return v.toString();
  }
  if (typeof v === "number") throw new Failure(Number.isInteger(v) ? "unsafe integer number for a long (use a bigint)" : "expected a long, got a fraction");
  throw mismatch("a long", v);
};

const writeBigInteger: Enc = (v) => {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number" && Number.isInteger(v)) return Number.isSafeInteger(v) ? String(v) : BigInt(v).toString();
  if (typeof v === "number") throw new Failure(Number.isFinite(v) ? "expected an integer, got a fraction" : "expected an integer, got a non-finite number");
  throw mismatch("an integer", v);
};

const writeDouble: Enc = (v) => {
  if (typeof v === "number") {
    if (Number.isFinite(v)) return formatNumber(v);
    return Number.isNaN(v) ? '"NaN"' : v > 0 ? '"Infinity"' : '"-Infinity"';
  }
  throw mismatch("a number", v);
};

const DECIMAL_PARTS = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Decimal text (as BigDecimal accepts it) in JSON number syntax. */
function jsonNumberText(text: string): string {
  if (JSON_NUMBER.test(text)) return text;
  const m = DECIMAL_PARTS.exec(text);
  if (m === null) throw new Failure("invalid decimal text");
  const int = m[2]!.replace(/^0+(?=\d)/, "") || "0";
  const frac = m[3] ?? "";
  return `${m[1] === "-" ? "-" : ""}${int}${frac === "" ? "" : `.${frac}`}${m[4] === undefined ? "" : `e${m[4]}`}`;
}

const writeBigDecimal: Enc = (v) => {
  if (BigDecimal.is(v)) return jsonNumberText(v.toString());
  if (typeof v === "number" && Number.isFinite(v)) return formatNumber(v);
  if (typeof v === "bigint") return v.toString();
  throw mismatch("a BigDecimal", v);
};

/** A bigInteger as a JSON string (`bigNumbersAsStrings`). */
const writeBigIntegerText: Enc = (v, d) => `"${writeBigInteger(v, d)}"`;

/** A bigDecimal as a JSON string, its text kept as given (`bigNumbersAsStrings`). */
const writeBigDecimalText: Enc = (v, d) => (BigDecimal.is(v) ? JSON.stringify(v.toString()) : `"${writeBigDecimal(v, d)}"`);

const writeBlob: Enc = (v) => {
  if (v instanceof Uint8Array) return `"${encodeBase64(v)}"`;
  throw mismatch("a Uint8Array", v);
};

function dateOf(v: unknown): Date {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw new Failure("invalid Date");
    return v;
  }
  throw mismatch("a Date", v);
}

const writeEpochSeconds: Enc = (v) => formatNumber(dateOf(v).getTime() / 1000);

const writeDateTime: Enc = (v) => {
  const text = quotedDateTime(dateOf(v));
  if (text === undefined) throw new Failure("timestamp outside years 0–9999");
  return text;
};

const writeHttpDate: Enc = (v) => {
  const text = formatHttpDate(dateOf(v));
  if (text === undefined) throw new Failure("timestamp outside years 0–9999");
  return `"${text}"`;
};

const documentWriters = new Map<number, Enc>();

/** @internal The document encoder for a depth limit. */
export function documentWriter(maxDepth: number): Enc {
  let enc = documentWriters.get(maxDepth);
  if (enc !== undefined) return enc;
  const write: Enc = (v, d) => {
    switch (typeof v) {
      case "string":
        return quote(v);
      case "number":
        if (Number.isFinite(v)) return formatNumber(v);
        throw new Failure("non-finite number in a document");
      case "boolean":
        return v ? "true" : "false";
      case "bigint":
        return v.toString();
      case "object":
        break;
      default:
        throw mismatch("a JSON value", v);
    }
    if (v === null) return "null";
    if (BigDecimal.is(v)) return jsonNumberText(v.toString());
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    if (isArray(v)) {
      let out = "[";
      let i = 0;
      try {
        for (; i < v.length; i++) {
          if (i > 0) out += ",";
          out += write(v[i], d + 1);
        }
      } catch (error) {
        throw withSegment(error, String(i));
      }
      return `${out}]`;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw mismatch("a JSON value", v);
    const o = v as Obj;
    let out = "";
    let key = "";
    try {
      for (key in o) {
        const e = o[key];
        if (e === undefined) continue;
        out += `${out === "" ? "" : ","}${quote(key)}:${write(e, d + 1)}`;
      }
    } catch (error) {
      throw withSegment(error, key);
    }
    return `{${out}}`;
  };
  documentWriters.set(maxDepth, (enc = write));
  return enc;
}

// ---- aggregates --------------------------------------------------------------

function listWriter(member: MemberSchema, sparse: boolean, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const maxDepth = s.maxDepth;
  let item: Enc = writeString;
  const kind = memberKind(member, s);
  const enc: Enc = (v, d) => {
    if (!isArray(v)) throw mismatch("an array", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const n = v.length;
    if (n === 0) return "[]";
    let out = "[";
    let at = AT_START;
    let i = 0;
    try {
      for (; i < n; i++) {
        const e = v[i];
        if (kind === K_STRING && typeof e === "string") {
          out += SEPARATOR_QUOTE[at]! + stringBody(e);
          at = IN_STRING;
        } else if (e === null || e === undefined) {
          if (!sparse) throw new Failure("null in a non-sparse list");
          out += `${SEPARATOR[at]!}null`;
          at = AFTER_VALUE;
        } else {
          out += SEPARATOR[at]! + encodeAs(kind, item, e, d + 1);
          at = AFTER_VALUE;
        }
      }
    } catch (error) {
      throw withSegment(error, String(i));
    }
    return at === IN_STRING ? `${out}"]` : `${out}]`;
  };
  cache.set(s.key, enc);
  item = compileMember(member, s);
  return enc;
}

function mapWriter(member: MemberSchema, sparse: boolean, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const maxDepth = s.maxDepth;
  let value: Enc = writeString;
  const kind = memberKind(member, s);
  const enc: Enc = (v, d) => {
    if (typeof v !== "object" || v === null || isArray(v)) throw mismatch("an object", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const o = v as Obj;
    let out = "{";
    let at = AT_START;
    let key = "";
    try {
      for (key in o) {
        const e = o[key];
        if (e === undefined) continue;
        if (e === null && !sparse) throw new Failure("null in a non-sparse map");
        const open = kind === K_STRING && typeof e === "string";
        out = out + SEPARATOR_QUOTE[at]! + stringBody(key) + (open ? '":"' : '":');
        if (open) {
          out += stringBody(e);
          at = IN_STRING;
        } else {
          out += e === null ? "null" : encodeAs(kind, value, e, d + 1);
          at = AFTER_VALUE;
        }
      }
    } catch (error) {
      throw withSegment(error, key);
    }
    return at === IN_STRING ? `${out}"}` : `${out}}`;
  };
  cache.set(s.key, enc);
  value = compileMember(member, s);
  return enc;
}

function structWriter(schema: StructSchema<unknown>, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const maxDepth = s.maxDepth;
  const members = schema.members.filter((m) => !m.traits.streaming);
  const n = members.length;
  const names: string[] = [];
  const wires: string[] = [];
  // What goes before member i's value at `at * n + i`, by where the text stands (AT_START: `"wire":`,
  // AFTER_VALUE: `,"wire":`, IN_STRING: `","wire":`); `openKeys` add the opening quote of a string value.
  const keys: string[] = [];
  const openKeys: string[] = [];
  const writers: Enc[] = [];
  const kinds: number[] = [];
  const guarded: boolean[] = [];
  const nullable: boolean[] = [];
  const known: Record<string, true> = Object.create(null);
  let unknownIndex = -1;
  for (let i = 0; i < n; i++) {
    const m = members[i]!;
    names.push(m.name);
    const wire = wireName(m, s);
    wires.push(wire);
    guarded.push(isPrototypeName(m.name));
    nullable.push(s.alloyTraits && m.traits.nullable === true);
    known[wire] = true;
    if (s.alloyTraits && m.traits.jsonUnknown && m.target.kind === "map" && unknownIndex < 0) unknownIndex = i;
    writers.push(writeString);
    kinds.push(memberKind(m, s));
  }
  for (let at = AT_START; at <= IN_STRING; at++) {
    for (const wire of wires) {
      keys.push(`${SEPARATOR[at]!}${quote(wire)}:`);
      openKeys.push(`${SEPARATOR[at]!}${quote(wire)}:"`);
    }
  }
  const doc = documentWriter(maxDepth);

  // Every concatenation allocates (a rope node), so text is appended in as few pieces as possible.
  const enc: Enc = (v, d) => {
    if (typeof v !== "object" || v === null || isArray(v)) throw mismatch("an object", v);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const o = v as Obj;
    let out = "{";
    let at = AT_START;
    let i = 0;
    try {
      for (; i < n; i++) {
        const x = guarded[i] ? (hasOwn(o, names[i]!) ? o[names[i]!] : undefined) : o[names[i]!];
        if (x === undefined || i === unknownIndex) continue;
        if (x === null) {
          if (nullable[i]) {
            out += `${keys[at * n + i]!}null`;
            at = AFTER_VALUE;
          }
          continue;
        }
        const kind = kinds[i]!;
        if (kind === K_STRING) {
          if (typeof x === "string") {
            out = out + openKeys[at * n + i]! + stringBody(x);
            at = IN_STRING;
            continue;
          }
        } else if (kind === K_DATE_TIME && x instanceof Date) {
          const text = dateTimeText(x.getTime(), false);
          if (text !== undefined) {
            out = out + openKeys[at * n + i]! + text;
            at = IN_STRING;
            continue;
          }
        }
        out = out + keys[at * n + i]! + encodeAs(kind, writers[i]!, x, d + 1);
        at = AFTER_VALUE;
      }
    } catch (error) {
      throw withSegment(error, wires[i]!);
    }
    if (unknownIndex >= 0) {
      const extra = o[names[unknownIndex]!];
      if (typeof extra === "object" && extra !== null) {
        let key = "";
        try {
          for (key in extra as Obj) {
            const e = (extra as Obj)[key];
            if (e === undefined || known[key] === true) continue;
            out = out + SEPARATOR[at]! + quote(key) + ":" + doc(e, d + 1);
            at = AFTER_VALUE;
          }
        } catch (error) {
          throw withSegment(error, key);
        }
      }
    }
    return at === IN_STRING ? `${out}"}` : `${out}}`;
  };
  cache.set(s.key, enc);
  for (let i = 0; i < n; i++) writers[i] = compileMember(members[i]!, s);
  return enc;
}

interface Variants {
  names: string[];
  wires: string[];
  writers: Enc[];
  /** Member name → index. */
  index: Record<string, number>;
  unknownIndex: number;
}

function variantsOf(schema: UnionSchema<unknown>, s: ResolvedSettings): Variants {
  const index: Record<string, number> = Object.create(null);
  const names: string[] = [];
  const wires: string[] = [];
  const writers: Enc[] = [];
  let unknownIndex = -1;
  for (let i = 0; i < schema.members.length; i++) {
    const m = schema.members[i]!;
    names.push(m.name);
    wires.push(wireName(m, s));
    index[m.name] = i;
    writers.push(writeString);
    if (s.alloyTraits && m.traits.jsonUnknown && m.target.kind === "document" && unknownIndex < 0) unknownIndex = i;
  }
  return { names, wires, writers, index, unknownIndex };
}

function fillVariants(schema: UnionSchema<unknown>, vs: Variants, s: ResolvedSettings): void {
  for (let i = 0; i < schema.members.length; i++) vs.writers[i] = compileMember(schema.members[i]!, s);
}

/** Reads `$case` and checks the union value's shape; returns the variant index, or -1 for `$unknown`. */
function caseOf(v: unknown, index: Record<string, number>): number {
  if (typeof v !== "object" || v === null || isArray(v)) throw mismatch("a union value ({ $case, value })", v);
  const c = (v as Obj).$case;
  if (c === "$unknown") return -1;
  if (typeof c !== "string") throw mismatch("a $case string", c);
  const i = index[c];
  if (i === undefined) throw new Failure(`unknown union member "${c}"`);
  return i;
}

function unionWriter(schema: UnionSchema<unknown>, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const maxDepth = s.maxDepth;
  const vs = variantsOf(schema, s);
  const { wires, writers, index, unknownIndex } = vs;
  const keys = wires.map((w) => `{${quote(w)}:`);
  const doc = documentWriter(maxDepth);
  const enc: Enc = (v, d) => {
    const i = caseOf(v, index);
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    const value = (v as Obj).value;
    if (i < 0) {
      const name = (v as Obj).name;
      if (typeof name !== "string") throw mismatch("the unknown variant's name", name);
      return `{${quote(name)}:${doc(value, d + 1)}}`;
    }
    if (i === unknownIndex) return doc(value, d);
    try {
      if (value === undefined || value === null) throw new Failure("union value is missing");
      return `${keys[i]!}${writers[i]!(value, d + 1)}}`;
    } catch (error) {
      throw withSegment(error, wires[i]!);
    }
  };
  cache.set(s.key, enc);
  fillVariants(schema, vs, s);
  return enc;
}

function discriminatedWriter(schema: UnionSchema<unknown>, discriminator: string, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const maxDepth = s.maxDepth;
  const vs = variantsOf(schema, s);
  const { wires, writers, index, unknownIndex } = vs;
  const heads = wires.map((w) => `{${quote(discriminator)}:${quote(w)}`);
  const doc = documentWriter(maxDepth);
  const enc: Enc = (v, d) => {
    const i = caseOf(v, index);
    const value = (v as Obj).value;
    if (i < 0) {
      const name = (v as Obj).name;
      if (typeof name !== "string") throw mismatch("the unknown variant's name", name);
      if (typeof value !== "object" || value === null || isArray(value)) throw mismatch("an object", value);
      return splice(`{${quote(discriminator)}:${quote(name)}`, doc({ ...(value as Obj), [discriminator]: undefined }, d));
    }
    if (i === unknownIndex) return doc(value, d);
    return splice(heads[i]!, writers[i]!(value, d));
  };
  cache.set(s.key, enc);
  fillVariants(schema, vs, s);
  return enc;
}

/** `{"k":"v"` + `{...}` → `{"k":"v",...}`. */
function splice(head: string, body: string): string {
  return body === "{}" ? `${head}}` : `${head},${body.slice(1)}`;
}

function untaggedWriter(schema: UnionSchema<unknown>, s: ResolvedSettings, cache: Map<string, Enc>): Enc {
  const vs = variantsOf(schema, s);
  const { writers, index } = vs;
  const doc = documentWriter(s.maxDepth);
  const enc: Enc = (v, d) => {
    const i = caseOf(v, index);
    const value = (v as Obj).value;
    if (i < 0) return doc(value, d);
    return writers[i]!(value, d);
  };
  cache.set(s.key, enc);
  fillVariants(schema, vs, s);
  return enc;
}
