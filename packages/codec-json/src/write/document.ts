/** The encoder of Smithy documents: any JSON value, exact numbers included. */
import { BigDecimal } from "@anvil/core";
import { Failure, mismatch, withSegment } from "../failure.js";
import { formatNumber } from "../numbers.js";
import type { Enc } from "./enc.js";
import { jsonNumberText } from "./scalars.js";
import { quote } from "./strings.js";

type Obj = Record<string, unknown>;

const isArray = Array.isArray;

const documentWriters = new Map<number, Enc>();

/** The document encoder for a depth limit. */
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
