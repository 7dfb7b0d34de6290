/**
 * The well-known messages the mapping uses: `google.protobuf.Timestamp` for
 * timestamps and `google.protobuf.Value` (with `Struct` and `ListValue`) for
 * documents, hand-written against the wire.
 */
import type { Document, Traits } from "@anvil/core";
import { setDataKey } from "@anvil/core/protocol";
import { describe, fail, rethrow } from "./failure.js";
import { failWideTag, LEN, VARINT, type ProtoReader } from "./reader-buffer.js";
import { Fast } from "./fast-kinds.js";
import type { ValueType } from "./scalars.js";
import { split64, type ProtoWriter } from "./writer-buffer.js";

/** @internal The deepest message nesting read or written. */
export const MAX_DEPTH = 100;

/** @internal Enters a nested message on write (cycle and depth guard). */
export function enterWrite(w: ProtoWriter): void {
  if (++w.depth > MAX_DEPTH) fail(`value nested deeper than ${MAX_DEPTH} messages (or cyclic)`);
}

/** @internal Enters a nested message on read (depth guard). */
export function enterRead(r: ProtoReader): void {
  if (++r.depth > MAX_DEPTH) tooDeep();
}

/** @internal */
export function tooDeep(): never {
  return fail(`message nested deeper than ${MAX_DEPTH}`);
}

/** @internal Reads a tag and rejects field number 0 and field numbers beyond 2^29 - 1. Returns the tag. */
export function readTag(r: ProtoReader): number {
  const start = r.pos;
  const tag = r.uint32();
  if (r.pos - start > 4) failWideTag(r.buf, start, r.pos);
  if (tag < 8) fail("field number 0");
  return tag;
}

/** @internal The error for a known field on the wrong wire type. */
export function wrongWireType(field: number, wireType: number): never {
  return fail(`field ${field} has wire type ${wireType}, which its type cannot have`);
}

const MIN_SECONDS = -62135596800; // 0001-01-01T00:00:00Z, the range google.protobuf.Timestamp allows
const MAX_SECONDS = 253402300799; // 9999-12-31T23:59:59Z

/** `google.protobuf.Timestamp { int64 seconds = 1; int32 nanos = 2; }` from a millisecond `Date`. */
export const timestampType: ValueType = {
  wireType: LEN,
  packable: false,
  write: (value, w) => {
    if (!(value instanceof Date)) fail(`expected Date, got ${describe(value)}`);
    const ms = value.getTime();
    if (Number.isNaN(ms)) fail("invalid Date");
    const seconds = Math.floor(ms / 1000);
    const nanos = (ms - seconds * 1000) * 1_000_000;
    const start = w.fork();
    if (seconds !== 0) {
      w.uint32(0x08);
      w.int64(seconds);
    }
    if (nanos !== 0) {
      w.uint32(0x10);
      w.uint32(nanos);
    }
    w.join(start);
  },
  read: (r) => readTimestamp(r),
  zero: () => new Date(0),
  fast: Fast.timestamp,
};

/** @internal Reads a length-delimited google.protobuf.Timestamp as a `Date`. */
export function readTimestamp(r: ProtoReader): Date {
  const end = r.length();
  const outer = r.end;
  r.end = end;
  let seconds = 0;
  let nanos = 0;
  const b = r.buf;
  while (r.pos < end) {
    let tag = b[r.pos]!;
    if (tag === 0x08 || tag === 0x10) r.pos++;
    else tag = readTag(r);
    if (tag === 0x08) {
      const s = r.int64();
      if (typeof s !== "number" || s < MIN_SECONDS || s > MAX_SECONDS) fail("timestamp seconds out of range");
      seconds = s;
    } else if (tag === 0x10) {
      nanos = r.uint32() | 0;
      if (nanos < 0 || nanos > 999_999_999) fail("timestamp nanos out of range");
    } else if (tag >>> 3 === 1 || tag >>> 3 === 2) wrongWireType(tag >>> 3, tag & 7);
    else r.skip(tag & 7, tag >>> 3);
  }
  r.end = outer;
  // Dates hold milliseconds: finer digits are dropped
  return new Date(seconds * 1000 + Math.floor(nanos / 1_000_000));
}

/** `@alloy.proto#protoTimestampFormat`, read from a member's (or its target's) traits. */
export function protoTimestampFormat(traits: Traits): "PROTOBUF" | "EPOCH_MILLIS" | "RFC3339_STRING" {
  const format = traits.custom?.["alloy.proto#protoTimestampFormat"];
  return format === "EPOCH_MILLIS" || format === "RFC3339_STRING" ? format : "PROTOBUF";
}

function checkDate(value: unknown): number {
  if (!(value instanceof Date)) return fail(`expected Date, got ${describe(value)}`);
  const ms = value.getTime();
  return Number.isNaN(ms) ? fail("invalid Date") : ms;
}

/** `@protoTimestampFormat("EPOCH_MILLIS")`: an `int64` of milliseconds since the epoch. */
const epochMillisType: ValueType = {
  wireType: VARINT,
  packable: true,
  write: (value, w) => {
    const [lo, hi] = split64(checkDate(value));
    w.varint64(lo, hi);
  },
  read: (r) => {
    const ms = r.int64();
    if (typeof ms !== "number" || Math.abs(ms) > 8.64e15) fail("timestamp out of range");
    return new Date(ms);
  },
  zero: () => new Date(0),
  isZero: (value) => value instanceof Date && value.getTime() === 0,
};

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** `@protoTimestampFormat("RFC3339_STRING")`: an RFC 3339 date-time string. */
const rfc3339Type: ValueType = {
  wireType: LEN,
  packable: false,
  write: (value, w) => {
    const text = new Date(checkDate(value)).toISOString();
    // RFC 3339 has four-digit years only
    if (text.length !== 24) fail("timestamp outside years 0000-9999 cannot be written as RFC 3339");
    w.string(text);
  },
  read: (r) => {
    const text = r.string();
    const ms = RFC3339.test(text) ? Date.parse(text) : Number.NaN;
    return Number.isNaN(ms) ? fail("malformed RFC 3339 timestamp") : new Date(ms);
  },
  zero: () => new Date(0),
};

/** The value type of a timestamp under its `@protoTimestampFormat` (google.protobuf.Timestamp by default). */
export function timestampTypeFor(traits: Traits): ValueType {
  const format = protoTimestampFormat(traits);
  return format === "EPOCH_MILLIS" ? epochMillisType : format === "RFC3339_STRING" ? rfc3339Type : timestampType;
}

// google.protobuf.Value: oneof kind { NullValue null_value = 1; double number_value = 2; string string_value = 3;
// bool bool_value = 4; Struct struct_value = 5; ListValue list_value = 6; }

function writeValueBody(value: unknown, w: ProtoWriter): void {
  switch (typeof value) {
    case "string":
      w.uint32(0x1a);
      return w.string(value);
    case "boolean":
      w.uint32(0x20);
      return w.uint32(value ? 1 : 0);
    case "number":
      w.uint32(0x11);
      return w.double(value);
    case "bigint":
      // google.protobuf.Value has only doubles: integers beyond 2^53 round
      w.uint32(0x11);
      return w.double(Number(value));
    case "undefined":
      w.uint32(0x08);
      return w.uint32(0);
    case "object": {
      if (value === null) {
        w.uint32(0x08);
        return w.uint32(0);
      }
      enterWrite(w);
      if (Array.isArray(value)) {
        w.uint32(0x32);
        const list = w.fork();
        for (let i = 0; i < value.length; i++) {
          w.uint32(0x0a);
          const item = w.fork();
          try {
            writeValueBody(value[i], w);
          } catch (error) {
            rethrow(error, i);
          }
          w.join(item);
        }
        w.join(list);
      } else if (value instanceof Uint8Array || value instanceof Date || value instanceof Map) {
        fail(`unsupported ${describe(value)} in document`);
      } else {
        w.uint32(0x2a);
        const struct = w.fork();
        for (const key in value) {
          if (!Object.hasOwn(value, key)) continue;
          w.uint32(0x0a);
          const entry = w.fork();
          w.uint32(0x0a);
          w.string(key);
          w.uint32(0x12);
          const item = w.fork();
          try {
            writeValueBody((value as Record<string, unknown>)[key], w);
          } catch (error) {
            rethrow(error, key);
          }
          w.join(item);
          w.join(entry);
        }
        w.join(struct);
      }
      w.depth--;
      return;
    }
    default:
      fail(`unsupported ${typeof value} in document`);
  }
}

/** Reads a Value body up to `end` (the reader's `end` is already set to it). */
function readValueBody(r: ProtoReader, end: number): Document {
  let out: Document = null;
  while (r.pos < end) {
    const tag = readTag(r);
    switch (tag) {
      case 0x08:
        r.uint32();
        out = null;
        break;
      case 0x11:
        out = r.double();
        break;
      case 0x1a:
        out = r.string();
        break;
      case 0x20:
        r.varint64();
        out = (r.lo | r.hi) !== 0;
        break;
      case 0x2a:
        out = nested(r, readStructBody);
        break;
      case 0x32:
        out = nested(r, readListBody);
        break;
      default:
        if (tag >>> 3 <= 6) wrongWireType(tag >>> 3, tag & 7);
        r.skip(tag & 7, tag >>> 3);
    }
  }
  return out;
}

function nested<T>(r: ProtoReader, body: (r: ProtoReader, end: number) => T): T {
  const end = r.length();
  const outer = r.end;
  r.end = end;
  enterRead(r);
  const out = body(r, end);
  r.depth--;
  r.end = outer;
  return out;
}

function readStructBody(r: ProtoReader, end: number): Document {
  const out: { [key: string]: Document } = {};
  while (r.pos < end) {
    const tag = readTag(r);
    if (tag !== 0x0a) {
      if (tag >>> 3 === 1) wrongWireType(1, tag & 7);
      r.skip(tag & 7, tag >>> 3);
      continue;
    }
    let key = "";
    let value: Document = null;
    nested(r, (r, entryEnd) => {
      while (r.pos < entryEnd) {
        const t = readTag(r);
        if (t === 0x0a) key = r.string();
        else if (t === 0x12) value = nested(r, readValueBody);
        else if (t >>> 3 <= 2) wrongWireType(t >>> 3, t & 7);
        else r.skip(t & 7, t >>> 3);
      }
    });
    setDataKey(out, key, value);
  }
  return out;
}

function readListBody(r: ProtoReader, end: number): Document {
  const out: Document[] = [];
  while (r.pos < end) {
    const tag = readTag(r);
    if (tag === 0x0a) {
      try {
        out.push(nested(r, readValueBody));
      } catch (error) {
        rethrow(error, out.length);
      }
    } else if (tag >>> 3 === 1) wrongWireType(1, tag & 7);
    else r.skip(tag & 7, tag >>> 3);
  }
  return out;
}

/** `google.protobuf.Value` for documents (`bigint`s are written as doubles). */
export const documentType: ValueType = {
  wireType: LEN,
  packable: false,
  write: (value, w) => {
    const start = w.fork();
    writeValueBody(value, w);
    w.join(start);
  },
  read: (r) => nested(r, readValueBody),
  zero: () => null,
};
