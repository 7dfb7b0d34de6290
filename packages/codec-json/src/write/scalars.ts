/** The encoders of JSON's scalar kinds: strings, booleans, numbers, blobs and timestamps. */
import { BigDecimal, type Schema, type TimestampFormat } from "@anvil/core";
import { encodeBase64 } from "../base64.js";
import { Failure, mismatch } from "../failure.js";
import { formatNumber } from "../numbers.js";
import type { ResolvedSettings } from "../settings.js";
import { formatHttpDate, quotedDateTime } from "../timestamps.js";
import type { Enc } from "./enc.js";
import { quote } from "./strings.js";

/** The encoder of a scalar schema (`format` applies to a timestamp), or undefined for documents and aggregates. */
export function scalarWriter(schema: Schema, s: ResolvedSettings, format: TimestampFormat): Enc | undefined {
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
    default:
      return undefined;
  }
}

/** The encoder of strings and enums. */
export const writeString: Enc = (v) => {
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
export function jsonNumberText(text: string): string {
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
