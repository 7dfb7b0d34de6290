/**
 * Schema-compiled writers: Anvil value → CBOR bytes, straight into a reused
 * buffer. The schema decides every wire type (integers as ints, `float` as
 * single and `double` as double precision, timestamps as tag 1), which
 * cbor-x's value-driven encoder cannot, and member names are pre-encoded.
 */
import { BigDecimal, type MemberSchema, type Schema } from "@anvil/core";
import { Tag } from "cbor-x";
import { ByteWriter, encodeKey } from "./byte-writer.js";
import { describe, fail, rethrow, toSerializationError } from "./failure.js";
import { resolveSettings, type CborSettings } from "./settings.js";

/** Writes one non-null value. */
type Write = (value: unknown, w: ByteWriter) => void;
/** Converts one non-null value for cbor-x. */
type ToValue = (value: unknown) => unknown;

/** A compiled writer: call it with a value. */
export interface CborWriter<T> {
  /** Encodes a value as one CBOR item. Throws SerializationError (`encode cbor: ...`) on values that do not fit the schema. */
  (value: T): Uint8Array;
  /**
   * Converts a value to what cbor-x's `encode` writes as the same CBOR data
   * model (for embedding in a message built with cbor-x). cbor-x picks
   * number encodings by value, so integral doubles come out as integers.
   */
  toValue(value: T): unknown;
}

const writes = new WeakMap<Schema, Write>();
const toValues = new WeakMap<Schema, ToValue>();
const writers = new WeakMap<Schema, Map<number, CborWriter<any>>>();
const shared = new ByteWriter();
let maxDepthNow = 128;

/**
 * Compiles a writer for a schema (cached per schema and settings).
 *
 * @example
 * ```ts
 * const write = compileWriter(ForecastSchema);
 * const bytes = write({ date: new Date(), highC: 21 });
 * ```
 */
export function compileWriter<T>(schema: Schema<T>, settings?: CborSettings): CborWriter<T> {
  const { maxDepth } = resolveSettings(settings);
  let bySettings = writers.get(schema);
  if (!bySettings) writers.set(schema, (bySettings = new Map()));
  const cached = bySettings.get(maxDepth);
  if (cached) return cached as CborWriter<T>;
  const write = writerFor(schema);
  const convert = toValueFor(schema);
  const writer = ((value: T): Uint8Array => {
    // a getter in the value could call back into a writer: give it its own buffer
    const w = shared.busy ? new ByteWriter(256) : shared;
    w.busy = true;
    w.reset();
    const outerDepth = maxDepthNow;
    maxDepthNow = maxDepth;
    try {
      if (value === undefined || value === null) fail(`expected ${schema.kind}, got ${describe(value)}`);
      write(value, w);
      return w.result();
    } catch (error) {
      throw toSerializationError(error, "encode cbor");
    } finally {
      maxDepthNow = outerDepth;
      w.busy = false;
      if (w.buf.length > 1 << 22) {
        // do not pin a huge buffer after one large write
        w.buf = new Uint8Array(8192);
        w.view = new DataView(w.buf.buffer);
      }
    }
  }) as CborWriter<T>;
  writer.toValue = (value: T): unknown => {
    try {
      if (value === undefined || value === null) fail(`expected ${schema.kind}, got ${describe(value)}`);
      return convert(value);
    } catch (error) {
      throw toSerializationError(error, "encode cbor");
    }
  };
  bySettings.set(maxDepth, writer);
  return writer;
}

function enter(w: ByteWriter): void {
  if (++w.depth > maxDepthNow) fail(`value nested deeper than ${maxDepthNow} (or cyclic)`);
}

/** @internal The write function of a schema, compiled once and registered before recursing. */
export function writerFor(schema: Schema): Write {
  const cached = writes.get(schema);
  if (cached) return cached;
  let impl: Write | undefined;
  writes.set(schema, (value, w) => impl!(value, w));
  impl = buildWrite(schema);
  writes.set(schema, impl);
  return impl;
}

function buildWrite(schema: Schema): Write {
  switch (schema.kind) {
    case "boolean":
      return (value, w) => {
        if (typeof value !== "boolean") fail(`expected boolean, got ${describe(value)}`);
        w.byte(value ? 0xf5 : 0xf4);
      };
    case "string":
    case "enum":
      return (value, w) => {
        if (typeof value !== "string") fail(`expected string, got ${describe(value)}`);
        w.string(value);
      };
    case "blob":
      return (value, w) => {
        if (!(value instanceof Uint8Array)) fail(`expected Uint8Array, got ${describe(value)}`);
        w.bytes(value);
      };
    case "byte":
      return intWriter(-128, 127, "byte");
    case "short":
      return intWriter(-32768, 32767, "short");
    case "integer":
    case "intEnum":
      return intWriter(-2147483648, 2147483647, "integer");
    case "long":
      return (value, w) => {
        const v = checkLong(value);
        if (typeof v === "number") w.int(v);
        else w.bigint(v);
      };
    case "bigInteger":
      return (value, w) => {
        const v = checkBigInteger(value);
        if (typeof v === "number") w.int(v);
        else w.bigint(v);
      };
    case "float":
      return (value, w) => {
        if (typeof value !== "number") fail(`expected number, got ${describe(value)}`);
        w.float32(value);
      };
    case "double":
      return (value, w) => {
        if (typeof value !== "number") fail(`expected number, got ${describe(value)}`);
        w.float64(value);
      };
    case "bigDecimal":
      return (value, w) => {
        const [exponent, mantissa] = decimalParts(value);
        w.byte(0xc4);
        w.byte(0x82);
        writeInteger(exponent, w);
        writeInteger(mantissa, w);
      };
    case "timestamp":
      return (value, w) => {
        const ms = checkDate(value);
        w.byte(0xc1);
        w.float64(ms / 1000);
      };
    case "document":
      return writeDocument;
    case "list":
      return listWriter(schema.member, schema.traits.sparse === true);
    case "map":
      return mapWriter(schema.value, schema.traits.sparse === true);
    case "structure":
      return structWriter(schema.members);
    case "union":
      return unionWriter(schema.members);
    default:
      throw new TypeError(`codec-cbor: unsupported schema kind ${(schema as { kind: string }).kind}`);
  }
}

function intWriter(min: number, max: number, name: string): Write {
  return (value, w) => {
    if (typeof value !== "number" || !Number.isInteger(value)) fail(`expected ${name}, got ${describe(value)}`);
    if (value < min || value > max) fail(`${name} out of range`);
    w.int(value);
  };
}

const MIN_LONG = -(2n ** 63n);
const MAX_LONG = 2n ** 63n - 1n;

function checkLong(value: unknown): number | bigint {
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return value;
    if (Number.isInteger(value)) value = BigInt(value);
    else fail(`expected long, got ${describe(value)}`);
  }
  if (typeof value !== "bigint") return fail(`expected long, got ${describe(value)}`);
  if (value < MIN_LONG || value > MAX_LONG) fail("long out of range");
  return value;
}

function checkBigInteger(value: unknown): number | bigint {
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return value;
    if (Number.isInteger(value)) return BigInt(value);
    return fail(`expected bigInteger, got ${describe(value)}`);
  }
  if (typeof value !== "bigint") return fail(`expected bigInteger, got ${describe(value)}`);
  return value;
}

function checkDate(value: unknown): number {
  if (!(value instanceof Date)) return fail(`expected Date, got ${describe(value)}`);
  const ms = value.getTime();
  if (Number.isNaN(ms)) fail("invalid Date");
  return ms;
}

function writeInteger(value: bigint, w: ByteWriter): void {
  if (value >= -9007199254740991n && value <= 9007199254740991n) w.int(Number(value));
  else w.bigint(value);
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** A decimal as [exponent, mantissa] with value mantissa × 10^exponent (RFC 8949 §3.4.4). */
function decimalParts(value: unknown): [bigint, bigint] {
  let decimal: BigDecimal;
  if (BigDecimal.is(value)) decimal = value;
  else if (typeof value === "number" || typeof value === "bigint" || typeof value === "string") {
    try {
      decimal = BigDecimal.from(value);
    } catch {
      return fail(`expected BigDecimal, got ${describe(value)}`);
    }
  } else return fail(`expected BigDecimal, got ${describe(value)}`);
  const match = DECIMAL_TEXT.exec(decimal.toString().trim());
  if (!match) return fail("malformed BigDecimal");
  const fraction = match[3] ?? "";
  const digits = (match[2] ?? "") + fraction;
  let mantissa = BigInt(digits === "" ? "0" : digits);
  if (match[1] === "-") mantissa = -mantissa;
  const exponent = BigInt(match[4] ?? "0") - BigInt(fraction.length);
  if (exponent < -(2n ** 63n) || exponent >= 2n ** 63n) fail("BigDecimal exponent out of range");
  return [exponent, mantissa];
}

function writeDocument(value: unknown, w: ByteWriter): void {
  switch (typeof value) {
    case "string":
      return w.string(value);
    case "boolean":
      return w.byte(value ? 0xf5 : 0xf4);
    case "number":
      if (Number.isSafeInteger(value)) return w.int(value);
      return w.float64(value);
    case "bigint":
      return w.bigint(value);
    case "undefined":
      return w.byte(0xf6);
    case "object": {
      if (value === null) return w.byte(0xf6);
      enter(w);
      if (Array.isArray(value)) {
        w.head(4, value.length);
        for (let i = 0; i < value.length; i++) {
          try {
            writeDocument(value[i], w);
          } catch (error) {
            rethrow(error, i);
          }
        }
      } else if (value instanceof Uint8Array || value instanceof Date || value instanceof Map) {
        fail(`unsupported ${describe(value)} in document`);
      } else {
        let count = 0;
        for (const key in value) if (Object.hasOwn(value, key)) count++;
        w.head(5, count);
        for (const key in value) {
          if (!Object.hasOwn(value, key)) continue;
          w.string(key);
          try {
            writeDocument((value as Record<string, unknown>)[key], w);
          } catch (error) {
            rethrow(error, key);
          }
        }
      }
      w.depth--;
      return;
    }
    default:
      fail(`unsupported ${typeof value} in document`);
  }
}

function listWriter(member: MemberSchema, sparse: boolean): Write {
  const item = writerFor(member.target);
  return (value, w) => {
    if (!Array.isArray(value)) return fail(`expected array, got ${describe(value)}`);
    enter(w);
    const n = value.length;
    w.head(4, n);
    for (let i = 0; i < n; i++) {
      const v = value[i];
      if (v === null || v === undefined) {
        if (!sparse) rethrow(new Error("null in a non-sparse list"), i);
        w.byte(0xf6);
        continue;
      }
      try {
        item(v, w);
      } catch (error) {
        rethrow(error, i);
      }
    }
    w.depth--;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array) && !(value instanceof Date);
}

function mapWriter(valueMember: MemberSchema, sparse: boolean): Write {
  const item = writerFor(valueMember.target);
  return (value, w) => {
    if (!isPlainObject(value)) return fail(`expected map object, got ${describe(value)}`);
    enter(w);
    let count = 0;
    for (const key in value) if (Object.hasOwn(value, key) && value[key] !== undefined) count++;
    w.head(5, count);
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const v = value[key];
      if (v === undefined) continue;
      w.string(key);
      if (v === null) {
        if (!sparse) rethrow(new Error("null in a non-sparse map"), key);
        w.byte(0xf6);
        continue;
      }
      try {
        item(v, w);
      } catch (error) {
        rethrow(error, key);
      }
    }
    w.depth--;
  };
}

function structWriter(members: readonly MemberSchema[]): Write {
  const n = members.length;
  const names: string[] = new Array(n);
  const keys: Uint8Array[] = new Array(n);
  const items: Write[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const m = members[i]!;
    names[i] = m.name;
    keys[i] = encodeKey(m.name);
    items[i] = writerFor(m.target);
  }
  const patchHeader = n < 24;
  return (value, w) => {
    if (!isPlainObject(value)) return fail(`expected structure object, got ${describe(value)}`);
    enter(w);
    let headerAt = -1;
    if (patchHeader) {
      // fewer than 24 members: the count fits the initial byte, patched after writing
      w.ensure(1);
      headerAt = w.pos++;
    } else {
      let count = 0;
      for (let i = 0; i < n; i++) {
        const v = value[names[i]!];
        if (v !== undefined && v !== null) count++;
      }
      w.head(5, count);
    }
    let count = 0;
    for (let i = 0; i < n; i++) {
      const v = value[names[i]!];
      if (v === undefined || v === null) continue;
      w.raw(keys[i]!);
      try {
        items[i]!(v, w);
      } catch (error) {
        rethrow(error, names[i]!);
      }
      count++;
    }
    if (headerAt >= 0) w.buf[headerAt] = 0xa0 | count;
    w.depth--;
  };
}

function unionWriter(members: readonly MemberSchema[]): Write {
  const byName = new Map<string, { key: Uint8Array; item: Write }>();
  for (const m of members) byName.set(m.name, { key: encodeKey(m.name), item: writerFor(m.target) });
  return (value, w) => {
    if (!isPlainObject(value) || typeof value.$case !== "string") return fail(`expected union value { $case, value }, got ${describe(value)}`);
    const variant = byName.get(value.$case);
    if (variant === undefined)
      return fail(value.$case === "$unknown" ? "cannot write an unknown union variant" : `unknown union member ${JSON.stringify(value.$case)}`);
    const v = value.value;
    if (v === undefined || v === null) return rethrow(new Error("union value is null"), value.$case);
    enter(w);
    w.byte(0xa1);
    w.raw(variant.key);
    try {
      variant.item(v, w);
    } catch (error) {
      rethrow(error, value.$case);
    }
    w.depth--;
  };
}

// ---- toValue: the same checks, producing a value for cbor-x's encoder ----

const hasBuffer = typeof Buffer === "function";

/** @internal */
export function toValueFor(schema: Schema): ToValue {
  const cached = toValues.get(schema);
  if (cached) return cached;
  let impl: ToValue | undefined;
  toValues.set(schema, (value) => impl!(value));
  impl = buildToValue(schema);
  toValues.set(schema, impl);
  return impl;
}

function checkedBy(write: Write): ToValue {
  // scalars: validate with the writer into a scratch buffer, return the value itself
  const scratch = new ByteWriter(64);
  return (value) => {
    scratch.reset();
    write(value, scratch);
    return value;
  };
}

function buildToValue(schema: Schema): ToValue {
  switch (schema.kind) {
    case "blob":
      return (value) => {
        if (!(value instanceof Uint8Array)) fail(`expected Uint8Array, got ${describe(value)}`);
        // cbor-x tags plain Uint8Arrays (tag 64) under Node unless they are Buffers
        return hasBuffer ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
      };
    case "long":
      return checkLong;
    case "bigInteger":
      return checkBigInteger;
    case "bigDecimal":
      return (value) => {
        const [exponent, mantissa] = decimalParts(value);
        return new Tag([small(exponent), small(mantissa)], 4);
      };
    case "timestamp":
      return (value) => {
        checkDate(value);
        return value;
      };
    case "document":
      return (value) => {
        const scratch = new ByteWriter(256);
        writeDocument(value, scratch);
        return value;
      };
    case "list": {
      const item = toValueFor(schema.member.target);
      const sparse = schema.traits.sparse === true;
      return (value) => {
        if (!Array.isArray(value)) return fail(`expected array, got ${describe(value)}`);
        const out = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          const v = value[i];
          if (v === null || v === undefined) {
            if (!sparse) rethrow(new Error("null in a non-sparse list"), i);
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
    case "map": {
      const item = toValueFor(schema.value.target);
      const sparse = schema.traits.sparse === true;
      return (value) => {
        if (!isPlainObject(value)) return fail(`expected map object, got ${describe(value)}`);
        const out: Record<string, unknown> = {};
        for (const key in value) {
          if (!Object.hasOwn(value, key)) continue;
          const v = value[key];
          if (v === undefined) continue;
          let converted: unknown = null;
          if (v === null) {
            if (!sparse) rethrow(new Error("null in a non-sparse map"), key);
          } else {
            try {
              converted = item(v);
            } catch (error) {
              rethrow(error, key);
            }
          }
          Object.defineProperty(out, key, { value: converted, enumerable: true, writable: true, configurable: true });
        }
        return out;
      };
    }
    case "structure": {
      const members = schema.members.map((m) => ({ name: m.name, item: toValueFor(m.target) }));
      return (value) => {
        if (!isPlainObject(value)) return fail(`expected structure object, got ${describe(value)}`);
        const out: Record<string, unknown> = {};
        for (let i = 0; i < members.length; i++) {
          const { name, item } = members[i]!;
          const v = value[name];
          if (v === undefined || v === null) continue;
          try {
            out[name] = item(v);
          } catch (error) {
            rethrow(error, name);
          }
        }
        return out;
      };
    }
    case "union": {
      const byName = new Map(schema.members.map((m) => [m.name, toValueFor(m.target)] as const));
      return (value) => {
        if (!isPlainObject(value) || typeof value.$case !== "string") return fail(`expected union value { $case, value }, got ${describe(value)}`);
        const item = byName.get(value.$case);
        if (item === undefined)
          return fail(value.$case === "$unknown" ? "cannot write an unknown union variant" : `unknown union member ${JSON.stringify(value.$case)}`);
        if (value.value === undefined || value.value === null) return rethrow(new Error("union value is null"), value.$case);
        const out: Record<string, unknown> = {};
        try {
          Object.defineProperty(out, value.$case, { value: item(value.value), enumerable: true, writable: true, configurable: true });
        } catch (error) {
          rethrow(error, value.$case);
        }
        return out;
      };
    }
    default:
      return checkedBy(buildWrite(schema));
  }
}

function small(value: bigint): number | bigint {
  return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
}
