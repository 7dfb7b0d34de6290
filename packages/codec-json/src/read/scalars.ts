/** The converters of JSON's scalar kinds: strings, booleans, numbers, blobs and timestamps. */
import { BigDecimal, type Schema, type TimestampFormat } from "@anvil/core";
import { decodeBase64 } from "../base64.js";
import { Failure, mismatch } from "../failure.js";
import { exactInteger, RawNumber } from "../numbers.js";
import type { ResolvedSettings } from "../settings.js";
import { parseDateTime, parseHttpDate } from "../timestamps.js";
import { checkNative, type Conv } from "./pass.js";

/** The converter of a scalar schema (`format` applies to a timestamp), or undefined for documents and aggregates. */
export function scalarReader(schema: Schema, s: ResolvedSettings, format: TimestampFormat): Conv | undefined {
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
    default:
      return undefined;
  }
}

/** The converter of strings and enums. */
export const readString: Conv = (v) => {
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

const readLong: Conv = (v, _d, p) => {
  if (typeof v === "number") {
    if (p.unsure) checkNative(v, p);
    if (Number.isSafeInteger(v)) return v;
  }
  const x = exactIntegerOf(v, "a long");
  if (typeof x === "bigint" && (x < LONG_MIN || x > LONG_MAX)) throw new Failure("a long out of range");
  return x;
};

const readBigInteger: Conv = (v, _d, p) => {
  if (typeof v === "number") {
    if (p.unsure) checkNative(v, p);
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
const readBigIntegerText: Conv = (v, d, p) => {
  if (typeof v !== "string") return readBigInteger(v, d, p);
  if (!INTEGER_TEXT.test(v)) throw new Failure("invalid integer text");
  const n = BigInt(v);
  return n >= MIN_SAFE && n <= MAX_SAFE ? Number(n) : n;
};

/** A bigDecimal from a JSON string (or number), as `bigNumbersAsStrings` writes it. */
const readBigDecimalText: Conv = (v, d, p) => {
  if (typeof v !== "string") return readBigDecimal(v, d, p);
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
const readPaddedBlob: Conv = (v, d, p) => {
  if (typeof v === "string" && v.length % 4 !== 0) throw new Failure("invalid base64 (unpadded)");
  return readBlob(v, d, p);
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
const readUtcDateTime: Conv = (v, d, p) => {
  if (typeof v === "string" && !/[Zz]$/.test(v)) throw new Failure("invalid date-time timestamp (expected UTC, no offset)");
  return readDateTime(v, d, p);
};

const readHttpDate: Conv = (v) => {
  if (typeof v !== "string") throw mismatch("an http-date string", v);
  const date = parseHttpDate(v);
  if (date === undefined || Number.isNaN(date.getTime())) throw new Failure("invalid http-date timestamp");
  return date;
};
