/**
 * Value equality for `@uniqueItems`, over Anvil's value model: numbers and
 * bigints by numeric value, `Date`s by time, bytes by content, `BigDecimal`s
 * by numeric value (`1.0` equals `1`), lists item by item, structures, unions
 * and maps by their present (not `undefined`) members.
 *
 * @internal
 */
import { BigDecimal, canonicalDecimalText } from "../values/big-decimal.js";

/** Deep equality of two values of the value model. NaN equals NaN, as in a Smithy set. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ta = typeof a;
  const tb = typeof b;
  if (ta === "number" || ta === "bigint") {
    if (tb !== "number" && tb !== "bigint") return false;
    // Loose equality compares a number and a bigint exactly.
    // biome-ignore lint/suspicious/noDoubleEquals: a number and a bigint compare exactly only with ==
    return a == b || (Number.isNaN(a) && Number.isNaN(b));
  }
  if (ta !== "object" || tb !== "object" || a === null || b === null) return false;
  if (a instanceof Date) return b instanceof Date && Object.is(a.getTime(), b.getTime());
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b);
  if (BigDecimal.is(a)) return BigDecimal.is(b) && a.compare(b) === 0;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || b instanceof Date || b instanceof Uint8Array || BigDecimal.is(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const k in x) {
    const v = x[k];
    if (v === undefined || !Object.hasOwn(x, k)) continue;
    count++;
    if (!Object.hasOwn(y, k) || !deepEqual(v, y[k])) return false;
  }
  for (const k in y) if (y[k] !== undefined && Object.hasOwn(y, k)) count--;
  return count === 0;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A string that two values share exactly when {@link deepEqual} holds, for
 * hashing the items of long lists.
 */
export function canonicalKey(v: unknown): string {
  switch (typeof v) {
    case "undefined":
      return "u";
    case "boolean":
      return v ? "t" : "f";
    case "string":
      return "s" + JSON.stringify(v);
    case "bigint":
      return "i" + v.toString();
    case "number":
      if (Number.isNaN(v)) return "N";
      return Number.isInteger(v) ? "i" + BigInt(v).toString() : "d" + String(v);
    case "object": {
      if (v === null) return "n";
      if (v instanceof Date) return "D" + String(v.getTime());
      if (v instanceof Uint8Array) return "b" + v.join(",");
      if (BigDecimal.is(v)) return "m" + canonicalDecimalText(v.toString());
      if (Array.isArray(v)) return "[" + v.map(canonicalKey).join(",") + "]";
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort();
      return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalKey(o[k])).join(",") + "}";
    }
    default:
      return "?" + String(v);
  }
}

const PAIRWISE_MAX = 16;

/** Whether a list holds two equal items. Short lists compare pairwise without allocating. */
export function hasDuplicates(items: readonly unknown[]): boolean {
  const n = items.length;
  if (n < 2) return false;
  if (n <= PAIRWISE_MAX) {
    for (let i = 1; i < n; i++) {
      const a = items[i];
      for (let j = 0; j < i; j++) if (deepEqual(a, items[j])) return true;
    }
    return false;
  }
  // Primitives by SameValueZero (bigints folded to numbers when exact); the rest by canonical key.
  const raw = new Set<unknown>();
  let keyed: Set<string> | undefined;
  for (let i = 0; i < n; i++) {
    let item = items[i];
    if (typeof item === "bigint" && BigInt(Number(item)) === item) item = Number(item);
    if (typeof item !== "object" || item === null) {
      if (raw.has(item)) return true;
      raw.add(item);
    } else {
      const key = canonicalKey(item);
      if ((keyed ??= new Set()).has(key)) return true;
      keyed.add(key);
    }
  }
  return false;
}
