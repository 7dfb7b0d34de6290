/** The kinds aggregates write inline, without calling the member's encoder, and where the text stands between pieces. */
import type { MemberSchema, Schema, TimestampFormat } from "@anvil/core";
import { formatNumber } from "../numbers.js";
import { timestampFormatOf } from "../schema-info.js";
import type { ResolvedSettings } from "../settings.js";
import { dateTimeText } from "../timestamps.js";
import type { Enc } from "./enc.js";
import { quote } from "./strings.js";

/**
 * How aggregates write a member, item or value: kinds with a fast path are
 * written inline (no closure call); everything else, and every value the fast
 * path does not accept, goes to the compiled encoder, which also reports errors.
 * Const enums, so that the build inlines the numbers (see the reader's `Pass`).
 */
export const enum Kind {
  Other = 0,
  String = 1,
  Boolean = 2,
  Int32 = 3,
  Double = 4,
  Long = 5,
  DateTime = 6,
  EpochSeconds = 7,
}

/** The fast-path kind of a value of `schema`, written with `format` when a timestamp. */
function inlineKind(schema: Schema, format: TimestampFormat): Kind {
  switch (schema.kind) {
    case "string":
    case "enum":
      return Kind.String;
    case "boolean":
      return Kind.Boolean;
    case "integer":
      return Kind.Int32;
    case "float":
    case "double":
      return Kind.Double;
    case "long":
      return Kind.Long;
    case "timestamp":
      return format === "date-time" ? Kind.DateTime : format === "http-date" ? Kind.Other : Kind.EpochSeconds;
    default:
      return Kind.Other;
  }
}

/** The kind of a member's value, from its target and timestamp format. */
export function memberKind(member: MemberSchema, s: ResolvedSettings): Kind {
  return inlineKind(member.target, timestampFormatOf(member.traits, s));
}

/**
 * Aggregates leave a plain string's closing quote to the next piece they
 * append (`","` before the next item, `"]` at the end), one concatenation
 * fewer per string. Where the text stands: nothing written yet, a value
 * written, or a string value written and still open.
 */
export const enum At {
  Start = 0,
  AfterValue = 1,
  InString = 2,
}
/** What goes before the next value, by where the text stands. */
export const SEPARATOR = ["", ",", '",'];
/** {@link SEPARATOR} and the opening quote of a string. */
export const SEPARATOR_QUOTE = ['"', ',"', '","'];

/** Writes a value through its kind's fast path, else its encoder. Small enough for V8 to inline into the loops. */
export function encodeAs(kind: Kind, enc: Enc, x: unknown, d: number): string {
  switch (kind) {
    case Kind.String:
      if (typeof x === "string") return quote(x);
      break;
    case Kind.Boolean:
      if (x === true) return "true";
      if (x === false) return "false";
      break;
    case Kind.Int32:
      if (typeof x === "number" && (x | 0) === x) return String(x);
      break;
    case Kind.Double:
      if (typeof x === "number" && x - x === 0) return formatNumber(x);
      break;
    case Kind.Long:
      if (typeof x === "number" && Number.isSafeInteger(x)) return String(x);
      break;
    case Kind.DateTime:
      if (x instanceof Date) {
        const text = dateTimeText(x.getTime(), true);
        if (text !== undefined) return text;
      }
      break;
    case Kind.EpochSeconds:
      if (x instanceof Date) {
        const t = x.getTime();
        if (!Number.isNaN(t)) return formatNumber(t / 1000);
      }
      break;
    default:
  }
  return enc(x, d);
}
