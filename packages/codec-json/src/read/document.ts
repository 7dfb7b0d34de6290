/** The converter of Smithy documents: any JSON value, checked and made exact in place. */
import { BigDecimal } from "@anvil/core";
import { Failure, mismatch, withSegment } from "../failure.js";
import { exactInteger, RawNumber } from "../numbers.js";
import { defineData } from "../schema-info.js";
import { checkNative, type Conv } from "./pass.js";

type Obj = Record<string, unknown>;

const isArray = Array.isArray;

const documentReaders = new Map<number, Conv>();

/** The document converter for a depth limit: checks values and makes lossy numbers exact, in place. */
export function documentReader(maxDepth: number): Conv {
  let conv = documentReaders.get(maxDepth);
  if (conv !== undefined) return conv;
  const read: Conv = (v, d, p) => {
    switch (typeof v) {
      case "string":
      case "boolean":
      case "bigint":
        return v;
      case "number":
        if (p.unsure) checkNative(v, p);
        if (Number.isFinite(v)) return v;
        throw new Failure("non-finite number in a document");
      default:
    }
    if (v === null) return null;
    if (typeof v !== "object") throw mismatch("a JSON value", v);
    if (v instanceof RawNumber) {
      const x = exactInteger(v.text);
      if (x === undefined) return BigDecimal.from(v.text);
      if (x === null) throw new Failure("number too large");
      return x;
    }
    if (BigDecimal.is(v)) return v;
    if (d >= maxDepth) throw new Failure(`nesting deeper than ${maxDepth}`);
    if (isArray(v)) {
      let i = 0;
      try {
        for (; i < v.length; i++) {
          const e = v[i];
          if (typeof e === "object" && e !== null) {
            const r = read(e, d + 1, p);
            if (r !== e) v[i] = r;
          } else if (e === undefined || (typeof e === "number" && (p.unsure || !Number.isFinite(e)))) read(e, d + 1, p);
        }
      } catch (error) {
        throw withSegment(error, String(i));
      }
      return v;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw mismatch("a JSON value", v);
    const o = v as Obj;
    let key = "";
    try {
      for (key in o) {
        const e = o[key];
        if (typeof e === "object" && e !== null) {
          const r = read(e, d + 1, p);
          if (r !== e) defineData(o, key, r);
        } else if (e === undefined || typeof e === "function" || typeof e === "symbol" || (typeof e === "number" && (p.unsure || !Number.isFinite(e))))
          read(e, d + 1, p);
      }
    } catch (error) {
      throw withSegment(error, key);
    }
    return v;
  };
  documentReaders.set(maxDepth, (conv = read));
  return conv;
}
