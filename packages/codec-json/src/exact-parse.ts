/**
 * A JSON parser for text that holds numbers a double would round. It runs
 * only when a quick scan finds such numbers and the schema can hold exact
 * ones; everything else goes through the native `JSON.parse`. Lossy numbers
 * come out as {@link RawNumber}; the compiled readers decide what they become.
 */
import { setDataKey } from "@anvil/core/protocol";
import { Failure } from "./failure.js";
import { isLossy, RawNumber } from "./numbers.js";

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** @internal Parses JSON text, keeping lossy numbers as RawNumber; throws Failure. */
export function parseExact(text: string, maxDepth: number): unknown {
  let pos = 0;
  const n = text.length;

  const fail = (what: string): Failure => new Failure(`invalid JSON: ${what} at offset ${pos}`);

  const skip = (): void => {
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === 32 || c === 10 || c === 13 || c === 9) pos++;
      else break;
    }
  };

  const parseString = (): string => {
    pos++; // opening quote
    let out = "";
    let start = pos;
    for (;;) {
      if (pos >= n) throw fail("unterminated string");
      const c = text.charCodeAt(pos);
      if (c === 34) {
        out += text.slice(start, pos);
        pos++;
        return out;
      }
      if (c < 32) throw fail("control character in string");
      if (c !== 92) {
        pos++;
        continue;
      }
      out += text.slice(start, pos);
      const e = text.charCodeAt(pos + 1);
      pos += 2;
      switch (e) {
        case 34:
          out += '"';
          break;
        case 92:
          out += "\\";
          break;
        case 47:
          out += "/";
          break;
        case 98:
          out += "\b";
          break;
        case 102:
          out += "\f";
          break;
        case 110:
          out += "\n";
          break;
        case 114:
          out += "\r";
          break;
        case 116:
          out += "\t";
          break;
        case 117: {
          const hex = text.slice(pos, pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw fail("bad unicode escape");
          out += String.fromCharCode(parseInt(hex, 16));
          pos += 4;
          break;
        }
        default:
          pos -= 2;
          throw fail("bad escape");
      }
      start = pos;
    }
  };

  const parseValue = (depth: number): unknown => {
    skip();
    if (pos >= n) throw fail("unexpected end");
    const c = text.charCodeAt(pos);
    if (c === 123) {
      if (depth >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
      pos++;
      const obj: Record<string, unknown> = {};
      skip();
      if (text.charCodeAt(pos) === 125) {
        pos++;
        return obj;
      }
      for (;;) {
        skip();
        if (text.charCodeAt(pos) !== 34) throw fail("expected a property name");
        const key = parseString();
        skip();
        if (text.charCodeAt(pos) !== 58) throw fail("expected ':'");
        pos++;
        const value = parseValue(depth + 1);
        setDataKey(obj, key, value);
        skip();
        const d = text.charCodeAt(pos);
        pos++;
        if (d === 44) continue;
        if (d === 125) return obj;
        pos--;
        throw fail("expected ',' or '}'");
      }
    }
    if (c === 91) {
      if (depth >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
      pos++;
      const arr: unknown[] = [];
      skip();
      if (text.charCodeAt(pos) === 93) {
        pos++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(depth + 1));
        skip();
        const d = text.charCodeAt(pos);
        pos++;
        if (d === 44) continue;
        if (d === 93) return arr;
        pos--;
        throw fail("expected ',' or ']'");
      }
    }
    if (c === 34) return parseString();
    if (text.startsWith("true", pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith("false", pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith("null", pos)) {
      pos += 4;
      return null;
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m === null) throw fail("unexpected character");
    const token = m[0];
    pos += token.length;
    return isLossy(token) ? new RawNumber(token) : Number(token);
  };

  const value = parseValue(0);
  skip();
  if (pos < n) throw fail("unexpected text after the value");
  return value;
}

// Quick filters (V8 runs fixed-width patterns with a fast scan) and precise
// confirmations that require a number to start after a JSON delimiter. A
// filter hit inside a string (a UUID's "3e4", a long numeric id) costs only
// the confirmation; a confirmed false positive costs only the exact parser.
const DIGITS_16 = /\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d/;
const DIGITS_16_NUMBER = /(?:^|[:,[])\s*-?\d{16}/;
const EXPONENT = /\d[eE][+-]?\d/;
const EXPONENT_NUMBER = /(?:^|[:,[])\s*-?\d+(?:\.\d+)?[eE]/;
// 16+ significant digits around a dot means 8+ on one side of it.
const LONG_DECIMAL = /\d\d\d\d\d\d\d\d\.\d|\.\d\d\d\d\d\d\d\d/;
const LONG_DECIMAL_NUMBER = /(?:^|[:,[])\s*-?(?:\d{8,}\.\d|\d+\.\d{8})/;

// One pass that matches exactly where DIGITS_16 or EXPONENT (or LONG_DECIMAL)
// would: usual text has none of them, and then one scan is all it costs.
const ANY_INTEGER_FILTER = /\d(?:[eE][+-]?\d|\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d)/;
const ANY_NUMBER_FILTER = /\d(?:[eE][+-]?\d|\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d|\d\d\d\d\d\d\d\.\d)|\.\d\d\d\d\d\d\d\d/;

function lossyInteger(text: string): boolean {
  return mayHoldLongDigits(text) || mayHoldExponent(text);
}

/**
 * @internal Whether JSON text may hold a number of 16 or more digits in a
 * row. V8 skips through text on this fixed-width pattern, so it costs a
 * fraction of the exponent scan.
 */
export function mayHoldLongDigits(text: string): boolean {
  return DIGITS_16.test(text) && DIGITS_16_NUMBER.test(text);
}

/** @internal Whether JSON text may hold a number with an exponent. */
export function mayHoldExponent(text: string): boolean {
  return EXPONENT.test(text) && EXPONENT_NUMBER.test(text);
}

/**
 * @internal Whether JSON text may hold an integer `JSON.parse` would round
 * (16+ digits or an exponent). Enough for long and bigInteger.
 */
export function mayHoldLossyInteger(text: string): boolean {
  return ANY_INTEGER_FILTER.test(text) && lossyInteger(text);
}

/** @internal Like {@link mayHoldLossyInteger}, and also decimals with 16+ significant digits (bigDecimal, document). */
export function mayHoldLossyNumber(text: string): boolean {
  return ANY_NUMBER_FILTER.test(text) && (lossyInteger(text) || (LONG_DECIMAL.test(text) && LONG_DECIMAL_NUMBER.test(text)));
}
