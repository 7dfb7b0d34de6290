/**
 * Scalars as text, for the parts of a message that are not the body:
 * `@httpLabel` path segments, `@httpQuery` values and `@httpHeader` values.
 * Timestamps default to date-time in labels and query strings and to
 * http-date in headers; `@mediaType` strings are base64 in headers.
 *
 * @internal
 */
import { BigDecimal, type MemberSchema, type Schema, SerializationError, type TimestampFormat } from "@anvil/core";
import { decodeBase64, encodeBase64, formatDateTime, formatHttpDate, parseDateTime, parseHttpDate } from "@anvil/codec-json";

/** Where a value is bound. */
export type Location = "label" | "query" | "header";

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

/** The timestamp format of a member in a location: its `@timestampFormat`, else the location's default. */
export function timestampFormatIn(traits: MemberSchema["traits"], location: Location): TimestampFormat {
  return traits.timestampFormat ?? (location === "header" ? "http-date" : "date-time");
}

/** Writes epoch seconds as the shortest decimal (`1576540098`, `1576540098.52`). */
function epochText(date: Date): string {
  return String(date.getTime() / 1000);
}

/**
 * The text of a scalar value bound to a location. Throws a
 * SerializationError for values that have no text form (a non-scalar, an
 * invalid date).
 */
export function scalarToText(schema: Schema, traits: MemberSchema["traits"], value: unknown, location: Location, path: string): string {
  switch (schema.kind) {
    case "string":
    case "enum":
      if (typeof value !== "string") break;
      if (location === "header" && traits.mediaType !== undefined) return encodeBase64(utf8Encoder.encode(value));
      return value;
    case "boolean":
      if (typeof value !== "boolean") break;
      return value ? "true" : "false";
    case "byte":
    case "short":
    case "integer":
    case "long":
    case "intEnum":
    case "bigInteger":
    case "float":
    case "double":
      if (typeof value === "number" || typeof value === "bigint") return String(value);
      break;
    case "bigDecimal":
      if (BigDecimal.is(value) || typeof value === "number" || typeof value === "bigint") return String(value);
      break;
    case "blob":
      if (value instanceof Uint8Array) return encodeBase64(value);
      if (typeof value === "string") return encodeBase64(utf8Encoder.encode(value));
      break;
    case "timestamp": {
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) break;
      const format = timestampFormatIn(traits, location);
      const text = format === "epoch-seconds" ? epochText(value) : format === "http-date" ? formatHttpDate(value) : formatDateTime(value);
      if (text !== undefined) return text;
      break;
    }
    default:
      break;
  }
  throw new SerializationError(`encode restJson: ${path} cannot be written as ${location} text`, { path });
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const RANGES: Partial<Record<string, readonly [number, number]>> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
};

/**
 * Reads a scalar bound to a location from its text. Throws a
 * SerializationError when the text is not of the type. `strict` (a server
 * reading a request) takes date-times in UTC only, as Smithy's format says.
 */
export function textToScalar(schema: Schema, traits: MemberSchema["traits"], text: string, location: Location, path: string, strict = false): unknown {
  const bad = (what: string): never => {
    throw new SerializationError(`decode restJson: ${location} ${path} is not ${what}`, { path });
  };
  switch (schema.kind) {
    case "string":
      if (location === "header" && traits.mediaType !== undefined) {
        const bytes = decodeBase64(text.trim());
        if (bytes === undefined) return bad("base64");
        try {
          return utf8Decoder.decode(bytes);
        } catch {
          return bad("base64 of UTF-8 text");
        }
      }
      return text;
    case "enum":
      return text;
    case "boolean":
      if (text === "true") return true;
      if (text === "false") return false;
      return bad("a boolean");
    case "byte":
    case "short":
    case "integer":
    case "intEnum": {
      if (!INTEGER.test(text)) return bad("an integer");
      const n = Number(text);
      const range = RANGES[schema.kind];
      if (range !== undefined && (n < range[0] || n > range[1]))
        return bad(`${schema.kind === "integer" ? "an" : "a"} ${schema.kind} from ${range[0]} to ${range[1]}`);
      if (!Number.isSafeInteger(n)) return bad("an integer in range");
      return n;
    }
    case "long":
    case "bigInteger": {
      if (!INTEGER.test(text)) return bad("an integer");
      const n = Number(text);
      if (Number.isSafeInteger(n)) return n;
      const big = BigInt(text);
      if (schema.kind === "long" && (big < -(2n ** 63n) || big > 2n ** 63n - 1n)) return bad("a long in range");
      return big;
    }
    case "float":
    case "double":
      if (text === "NaN") return NaN;
      if (text === "Infinity") return Infinity;
      if (text === "-Infinity") return -Infinity;
      if (!DECIMAL.test(text)) return bad("a number");
      return Number(text);
    case "bigDecimal":
      if (!DECIMAL.test(text)) return bad("a number");
      return BigDecimal.from(text);
    case "blob": {
      const bytes = decodeBase64(text.trim());
      return bytes ?? bad("base64");
    }
    case "timestamp": {
      const format = timestampFormatIn(traits, location);
      if (format === "epoch-seconds") {
        if (!DECIMAL.test(text)) return bad("epoch seconds");
        const ms = Math.round(Number(text) * 1000);
        if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return bad("epoch seconds in range");
        return new Date(ms);
      }
      if (strict && format === "date-time" && !/[Zz]$/.test(text)) return bad("a UTC date-time (no offset)");
      const date = format === "http-date" ? parseHttpDate(text) : parseDateTime(text);
      return date ?? bad(format === "http-date" ? "an http-date" : "a date-time");
    }
    default:
      return bad("a scalar");
  }
}

/** Percent-encodes text as RFC 3986 unreserved characters allow; a greedy label keeps its `/`. */
export function encodeLabel(text: string, greedy: boolean): string {
  return greedy ? text.split("/").map(strictEncode).join("/") : strictEncode(text);
}

function strictEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A header list item: quoted when it holds a comma or a double quote. */
export function quoteHeaderItem(text: string): string {
  return /[",]/.test(text) ? `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"` : text;
}

/**
 * Splits a list header value at commas, honouring double-quoted items
 * (unquoted, `\` escapes undone) and trimming whitespace around items. An
 * http-date list splits after every second comma (the date has one).
 */
export function splitHeaderList(value: string, httpDates: boolean): string[] {
  if (value.trim() === "") return [];
  if (httpDates) {
    const parts = value.split(",").map((p) => p.trim());
    const out: string[] = [];
    for (let i = 0; i < parts.length; i += 2) out.push(i + 1 < parts.length ? `${parts[i]!}, ${parts[i + 1]!}` : parts[i]!);
    return out;
  }
  const out: string[] = [];
  let i = 0;
  const n = value.length;
  while (i <= n) {
    while (i < n && (value[i] === " " || value[i] === "\t")) i++;
    if (value[i] === '"') {
      let item = "";
      i++;
      while (i < n && value[i] !== '"') {
        if (value[i] === "\\" && i + 1 < n) i++;
        item += value[i];
        i++;
      }
      i++; // closing quote
      while (i < n && value[i] !== ",") i++;
      out.push(item);
      i++;
    } else {
      const comma = value.indexOf(",", i);
      const end = comma < 0 ? n : comma;
      out.push(value.slice(i, end).trim());
      i = end + 1;
    }
  }
  return out;
}
