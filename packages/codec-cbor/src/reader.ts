/**
 * Schema-compiled readers: bytes → cbor-x value → Anvil value. Each schema
 * compiles once into a converter closure and a scan plan. When the pre-scan
 * proves from the bytes that cbor-x's value already is the result (the usual
 * case for a well-formed body), the converter is skipped; otherwise it checks
 * types and converts, in place where it owns the tree.
 */
import { BigDecimal, type MemberSchema, type Schema } from "@anvil/core";
import { plainBytes, setDataKey } from "@anvil/core/protocol";
import { Tag } from "cbor-x";
import { decodeItem, matchedPlan } from "./decode.js";
import { describe, fail, rethrow, toSerializationError } from "./failure.js";
import { planFor } from "./scan-plan.js";
import { resolveSettings, type CborSettings } from "./settings.js";

/** Converts one decoded (non-null) value. */
type Convert = (value: unknown) => unknown;

/** A compiled reader: call it with CBOR bytes. */
export interface CborReader<T> {
  /** Decodes one CBOR item. Throws SerializationError (`decode cbor: ...`) on anything else. */
  (bytes: Uint8Array): T;
  /**
   * Converts a value cbor-x has already decoded (with `mapsAsObjects`), such
   * as a CBOR item embedded in another message. `path` prefixes error paths.
   */
  fromValue(decoded: unknown, path?: string): T;
}

/**
 * For own-key checks inside `for...in`: V8 answers `hasOwnProperty.call(obj, key)`
 * there from the enum cache, while `Object.hasOwn` is a full lookup (about 2× slower loops).
 */
const hasOwn = Object.prototype.hasOwnProperty;

const converters = new WeakMap<Schema, Convert>();
/**
 * True while converting a tree cbor-x just decoded for us: nobody else holds
 * it, so containers are converted in place instead of copied. False for
 * `fromValue`, whose input belongs to the caller.
 */
let owned = false;
const readers = new WeakMap<Schema, Map<number, CborReader<any>>>();
/**
 * Deeper limits skip the plan: a tree cbor-x decodes without overflowing the
 * stack might still overflow the converter's, which must keep reporting it.
 */
const MAX_PLANNED_DEPTH = 512;

/**
 * Compiles a reader for a schema (cached per schema and settings).
 *
 * @example
 * ```ts
 * const read = compileReader(ForecastSchema);
 * const forecast = read(bytes);
 * ```
 */
export function compileReader<T>(schema: Schema<T>, settings?: CborSettings): CborReader<T> {
  const { maxDepth } = resolveSettings(settings);
  let bySettings = readers.get(schema);
  if (!bySettings) readers.set(schema, (bySettings = new Map()));
  const cached = bySettings.get(maxDepth);
  if (cached) return cached as CborReader<T>;
  const convert = converterFor(schema);
  const plan = maxDepth <= MAX_PLANNED_DEPTH ? planFor(schema) : undefined;
  const reader = ((bytes: Uint8Array): T => {
    const outer = owned;
    try {
      const decoded = decodeItem(bytes, maxDepth, plan);
      // the scan proved the converter would return `decoded` untouched
      if (matchedPlan) return decoded as T;
      owned = true;
      return convert(decoded) as T;
    } catch (error) {
      throw toSerializationError(error, "decode cbor");
    } finally {
      owned = outer;
    }
  }) as CborReader<T>;
  reader.fromValue = (decoded: unknown, path = ""): T => {
    const outer = owned;
    owned = false;
    try {
      return convert(decoded) as T;
    } catch (error) {
      throw toSerializationError(error, "decode cbor", path);
    } finally {
      owned = outer;
    }
  };
  bySettings.set(maxDepth, reader);
  return reader;
}

/** @internal The converter of a schema, compiled once and registered before recursing. */
export function converterFor(schema: Schema): Convert {
  const cached = converters.get(schema);
  if (cached) return cached;
  let impl: Convert | undefined;
  // recursive references reach this trampoline until the real converter exists
  const trampoline: Convert = (value) => impl!(value);
  converters.set(schema, trampoline);
  impl = build(schema);
  converters.set(schema, impl);
  return impl;
}

function build(schema: Schema): Convert {
  switch (schema.kind) {
    case "boolean":
      return readBoolean;
    case "string":
    case "enum":
      return readString;
    case "blob":
      return readBlob;
    case "byte":
      return intReader(-128, 127, "byte");
    case "short":
      return intReader(-32768, 32767, "short");
    case "integer":
    case "intEnum":
      return intReader(-2147483648, 2147483647, "integer");
    case "long":
      return readLong;
    case "bigInteger":
      return readBigInteger;
    case "float":
    case "double":
      return readFloat;
    case "bigDecimal":
      return readBigDecimal;
    case "timestamp":
      return readTimestamp;
    case "document":
      return readDocumentRoot;
    case "list":
      return listReader(schema.member, schema.traits.sparse === true);
    case "map":
      return mapReader(schema.value, schema.traits.sparse === true);
    case "structure":
      return structReader(schema.members);
    case "union":
      return unionReader(schema.members);
    default:
      throw new TypeError(`codec-cbor: unsupported schema kind ${(schema as { kind: string }).kind}`);
  }
}

function readBoolean(value: unknown): unknown {
  return typeof value === "boolean" ? value : fail(`expected boolean, got ${describe(value)}`);
}

function readString(value: unknown): unknown {
  return typeof value === "string" ? value : fail(`expected string, got ${describe(value)}`);
}

function readBlob(value: unknown): unknown {
  if (!(value instanceof Uint8Array)) fail(`expected byte string, got ${describe(value)}`);
  return plainBytes(value);
}

function intReader(min: number, max: number, name: string): Convert {
  return (value) => {
    if (typeof value === "number") {
      if (Number.isInteger(value) && value >= min && value <= max) return value;
      return fail(Number.isInteger(value) ? `${name} out of range` : `expected ${name}, got ${describe(value)}`);
    }
    if (typeof value === "bigint" && value >= BigInt(min) && value <= BigInt(max)) return Number(value);
    return fail(typeof value === "bigint" ? `${name} out of range` : `expected ${name}, got ${describe(value)}`);
  };
}

const MIN_LONG = -(2n ** 63n);
const MAX_LONG = 2n ** 63n - 1n;

function readLong(value: unknown): unknown {
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return value;
    if (!Number.isInteger(value)) return fail(`expected long, got ${describe(value)}`);
    value = BigInt(value); // an integral double beyond 2^53 is exact: keep it as bigint
  }
  if (typeof value === "bigint") {
    if (value < MIN_LONG || value > MAX_LONG) return fail("long out of range");
    return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
  }
  return fail(`expected long, got ${describe(value)}`);
}

function readBigInteger(value: unknown): unknown {
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return value;
    if (!Number.isInteger(value)) return fail(`expected bigInteger, got ${describe(value)}`);
    return BigInt(value);
  }
  if (typeof value === "bigint") return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
  return fail(`expected bigInteger, got ${describe(value)}`);
}

function readFloat(value: unknown): unknown {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  return fail(`expected number, got ${describe(value)}`);
}

function readBigDecimal(value: unknown): unknown {
  if (value instanceof Tag && value.tag === 7) {
    const pair = value.value as unknown[];
    const exponent = pair[0];
    const mantissa = pair[1];
    if (!isInteger(exponent) || !isInteger(mantissa)) return fail("decimal fraction must hold an integer exponent and mantissa");
    return BigDecimal.from(decimalText(BigInt(mantissa), BigInt(exponent)));
  }
  if (typeof value === "bigint") return BigDecimal.from(value);
  if (typeof value === "number" && Number.isFinite(value)) return BigDecimal.from(value);
  if (BigDecimal.is(value)) return value; // fromValue on an already-converted value
  return fail(`expected decimal fraction, got ${describe(value)}`);
}

/** mantissa × 10^exponent as plain decimal text where that stays short (`1.5`, `1500`), else with an exponent. */
function decimalText(mantissa: bigint, exponent: bigint): string {
  const negative = mantissa < 0n;
  const digits = (negative ? -mantissa : mantissa).toString();
  const sign = negative ? "-" : "";
  if (exponent >= 0n) return exponent <= 20n ? sign + digits + "0".repeat(Number(exponent)) : `${sign}${digits}e+${exponent}`;
  const places = -exponent;
  if (places > 1000n) return `${sign}${digits}e${exponent}`;
  const p = Number(places);
  const padded = digits.length <= p ? "0".repeat(p - digits.length + 1) + digits : digits;
  return `${sign}${padded.slice(0, padded.length - p)}.${padded.slice(padded.length - p)}`;
}

function isInteger(value: unknown): value is number | bigint {
  return typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value));
}

function readTimestamp(value: unknown): unknown {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) fail("timestamp out of range");
    return value;
  }
  if (typeof value === "number" && Number.isFinite(value)) {
    const date = new Date(Math.round(value * 1000));
    return Number.isNaN(date.getTime()) ? fail("timestamp out of range") : date;
  }
  return fail(`expected timestamp (tag 1), got ${describe(value)}`);
}

const MAX_DOCUMENT_DEPTH = 1024;

function readDocumentRoot(value: unknown): unknown {
  return readDocument(value, 0);
}

function readDocument(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "number":
      return value;
    case "bigint":
      // cbor-x hands out 64-bit integers as bigint; the value model keeps bigint only for what a double cannot hold.
      return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value;
    case "undefined":
      return null;
    case "object": {
      if (value === null) return null;
      if (depth > MAX_DOCUMENT_DEPTH) fail("document nested too deeply");
      if (Array.isArray(value)) {
        const out = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          try {
            out[i] = readDocument(value[i], depth + 1);
          } catch (error) {
            rethrow(error, i);
          }
        }
        return out;
      }
      if (value instanceof Date) return value.getTime() / 1000;
      if (value instanceof Tag && value.tag === 7) return Number((readBigDecimal(value) as BigDecimal).toString());
      if (value instanceof Uint8Array || value instanceof Tag) return fail(`unsupported ${describe(value)} in document`);
      const out: Record<string, unknown> = {};
      for (const key in value) {
        if (!hasOwn.call(value, key)) continue;
        let item: unknown;
        try {
          item = readDocument((value as Record<string, unknown>)[key], depth + 1);
        } catch (error) {
          rethrow(error, key);
        }
        setDataKey(out, key, item);
      }
      return out;
    }
    default:
      return fail(`unsupported ${typeof value} in document`);
  }
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function isMap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  // what cbor-x decodes maps to: skip the instanceof checks
  if (Object.getPrototypeOf(value) === Object.prototype) return true;
  return !(value instanceof Uint8Array) && !(value instanceof Date) && !(value instanceof Tag);
}

/**
 * Values a converter would return unchanged, recognised inline so the hot
 * loops skip the call: `accepts(check, v)` true means `convert(v) === v`.
 */
const CALL = 0;
const STRING = 1;
const BOOLEAN = 2;
const NUMBER = 3;
const INT32 = 4;
const SAFE_INTEGER = 5;
const DATE = 6;
const BYTES = 7;

function checkFor(schema: Schema): number {
  switch (schema.kind) {
    case "string":
    case "enum":
      return STRING;
    case "boolean":
      return BOOLEAN;
    case "float":
    case "double":
      return NUMBER;
    case "integer":
    case "intEnum":
      return INT32;
    case "long":
    case "bigInteger":
      return SAFE_INTEGER;
    case "timestamp":
      return DATE;
    case "blob":
      return BYTES;
    default:
      return CALL;
  }
}

function accepts(check: number, v: unknown): boolean {
  switch (check) {
    case STRING:
      return typeof v === "string";
    case BOOLEAN:
      return typeof v === "boolean";
    case NUMBER:
      return typeof v === "number";
    case INT32:
      return typeof v === "number" && (v | 0) === v;
    case SAFE_INTEGER:
      return typeof v === "number" && Number.isSafeInteger(v);
    case DATE:
      return v instanceof Date && !Number.isNaN(v.getTime());
    case BYTES:
      return v instanceof Uint8Array && v.constructor === Uint8Array;
    default:
      return false;
  }
}

function listReader(member: MemberSchema, sparse: boolean): Convert {
  const item = converterFor(member.target);
  const identity = isIdentity(member.target);
  const expected = member.target.kind === "boolean" ? "boolean" : "string";
  const check = checkFor(member.target);
  return (value) => {
    if (!Array.isArray(value)) return fail(`expected array, got ${describe(value)}`);
    const n = value.length;
    if (identity && !sparse) {
      // strings, enums, booleans: validate in place, no copy; the converter only runs to report a wrong type
      for (let i = 0; i < n; i++) {
        const v = value[i];
        if (typeof v === expected) continue;
        if (v === null || v === undefined) return rethrow(new Error("null in a non-sparse list"), i);
        try {
          item(v);
        } catch (error) {
          rethrow(error, i);
        }
      }
      return value;
    }
    if (owned) {
      // in place: store only what the converter replaced
      for (let i = 0; i < n; i++) {
        const v = value[i];
        if (accepts(check, v)) continue;
        if (v === null || v === undefined) {
          if (!sparse) return rethrow(new Error("null in a non-sparse list"), i);
          value[i] = null;
          continue;
        }
        let converted: unknown;
        try {
          converted = item(v);
        } catch (error) {
          rethrow(error, i);
        }
        if (converted !== v) value[i] = converted;
      }
      return value;
    }
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const v = value[i];
      if (v === null || v === undefined) {
        if (!sparse) return rethrow(new Error("null in a non-sparse list"), i);
        out[i] = null;
        continue;
      }
      try {
        out[i] = item(v);
      } catch (error) {
        rethrow(error, i);
      }
    }
    return out;
  };
}

function isIdentity(schema: Schema): boolean {
  const k = schema.kind;
  return k === "string" || k === "enum" || k === "boolean";
}

function mapReader(valueMember: MemberSchema, sparse: boolean): Convert {
  const item = converterFor(valueMember.target);
  const check = checkFor(valueMember.target);
  return (value) => {
    if (!isMap(value)) return fail(`expected map, got ${describe(value)}`);
    // in place: decoded maps hold exactly the wire keys, and `__proto__` only as an own property
    const inPlace = owned;
    const out: Record<string, unknown> = inPlace ? value : {};
    for (const key in value) {
      if (!hasOwn.call(value, key)) continue;
      const v = value[key];
      if (inPlace && accepts(check, v)) continue;
      let converted: unknown = null;
      if (v === null || v === undefined) {
        if (!sparse) rethrow(new Error("null in a non-sparse map"), key);
      } else {
        try {
          converted = item(v);
        } catch (error) {
          rethrow(error, key);
        }
      }
      if (inPlace) {
        if (converted !== v) value[key] = converted;
      } else if (key === "__proto__") setDataKey(out, key, converted);
      else out[key] = converted;
    }
    return out;
  };
}

function structReader(members: readonly MemberSchema[]): Convert {
  const n = members.length;
  const names: string[] = new Array(n);
  const items: Convert[] = new Array(n);
  const defaults: unknown[] = new Array(n);
  const inherited: boolean[] = new Array(n);
  const checks: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const m = members[i]!;
    names[i] = m.name;
    items[i] = converterFor(m.target);
    defaults[i] = m.traits.default;
    // a member named like an Object.prototype property must not read the inherited one
    inherited[i] = m.name in Object.prototype;
    checks[i] = checkFor(m.target);
  }
  const index = new Map<string, number>();
  let defaultCount = 0;
  for (let i = 0; i < n; i++) {
    index.set(names[i]!, i);
    if (defaults[i] !== undefined) defaultCount++;
  }
  /**
   * A member failed while members were converted in wire order. Reports what
   * schema order would have: the first failing member among those before
   * it that were not visited yet (visited ones converted fine), else this one.
   */
  const firstFailure = (value: Record<string, unknown>, failed: string, error: unknown): never => {
    const visited = new Set<string>();
    for (const key in value) {
      if (key === failed) break;
      visited.add(key);
    }
    const last = index.get(failed)!;
    for (let i = 0; i < last; i++) {
      const name = names[i]!;
      if (visited.has(name) || !Object.hasOwn(value, name)) continue;
      const v = value[name];
      if (v === null || v === undefined) continue;
      try {
        items[i]!(v);
      } catch (earlier) {
        rethrow(earlier, name);
      }
    }
    return rethrow(error, failed);
  };
  return (value) => {
    if (!isMap(value)) return fail(`expected structure, got ${describe(value)}`);
    if (owned) {
      // Convert in place, in wire order (for-in reads fields by enum cache
      // instead of a lookup per member name), storing only values that change.
      // Keep the decoded object unless it has unknown, null or undefined members.
      let clean = true;
      let next = 0;
      let withDefault = 0;
      for (const key in value) {
        // wire order usually is schema order: try the next member before the lookup
        const i = next < n && names[next] === key ? next : (index.get(key) ?? -1);
        if (i < 0 || !hasOwn.call(value, key)) {
          clean = false;
          continue;
        }
        next = i + 1;
        const v = value[key];
        if (v === null || v === undefined) {
          clean = false;
          continue;
        }
        if (defaults[i] !== undefined) withDefault++;
        if (accepts(checks[i]!, v)) continue;
        let converted: unknown;
        try {
          converted = items[i]!(v);
        } catch (error) {
          firstFailure(value, key, error);
        }
        if (converted !== v) value[key] = converted;
      }
      if (clean) {
        if (withDefault < defaultCount) {
          for (let i = 0; i < n; i++) {
            const d = defaults[i];
            if (d !== undefined && !Object.hasOwn(value, names[i]!)) value[names[i]!] = d;
          }
        }
        return value;
      }
      const out: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const name = names[i]!;
        const v = inherited[i] && !Object.hasOwn(value, name) ? undefined : value[name];
        if (v === undefined || v === null) {
          const d = defaults[i];
          if (d !== undefined) out[name] = d;
        } else out[name] = v;
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const name = names[i]!;
      const v = inherited[i] && !Object.hasOwn(value, name) ? undefined : value[name];
      if (v === undefined || v === null) {
        const d = defaults[i];
        if (d !== undefined) out[name] = d;
        continue;
      }
      try {
        out[name] = items[i]!(v);
      } catch (error) {
        rethrow(error, name);
      }
    }
    return out;
  };
}

function unionReader(members: readonly MemberSchema[]): Convert {
  const byName = new Map<string, Convert>();
  for (const m of members) byName.set(m.name, converterFor(m.target));
  return (value) => {
    if (!isMap(value)) return fail(`expected union, got ${describe(value)}`);
    let result: { $case: string; value: unknown; name?: string } | undefined;
    for (const key in value) {
      if (!hasOwn.call(value, key) || key === "__type") continue;
      const v = value[key];
      if (v === null || v === undefined) continue;
      if (result) return fail("union has more than one member set");
      const item = byName.get(key);
      if (item === undefined) {
        result = { $case: "$unknown", name: key, value: v };
        continue;
      }
      try {
        result = { $case: key, value: item(v) };
      } catch (error) {
        rethrow(error, key);
      }
    }
    return result ?? fail("union has no member set");
  };
}
