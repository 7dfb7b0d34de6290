/**
 * Compares runtime values as the protocol tests mean them: `Date`s by time,
 * bytes by content, numbers and bigints numerically (NaN equals NaN),
 * `BigDecimal`s numerically, lists item by item, structures, maps and
 * unions by their present (not `undefined`) members. Reports the first
 * difference with its JSON pointer, so a failure says where it is.
 */
import { BigDecimal } from "@anvil/core";

/** The first difference between two values, as `path: expected X, got Y`; undefined when they are equal. */
export function valueDiff(expected: unknown, actual: unknown, path = ""): string | undefined {
  if (expected === actual) return undefined;
  const where = path || "/";
  const te = typeof expected;
  const ta = typeof actual;
  if (te === "number" || te === "bigint" || BigDecimal.is(expected)) {
    if (numericEqual(expected, actual)) return undefined;
    return `${where}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (te !== "object" || ta !== "object" || expected === null || actual === null) {
    return `${where}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (expected instanceof Date) {
    if (actual instanceof Date && Object.is(expected.getTime(), actual.getTime())) return undefined;
    return `${where}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (expected instanceof Uint8Array) {
    if (actual instanceof Uint8Array && bytesEqual(expected, actual)) return undefined;
    return `${where}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${where}: expected a list, got ${show(actual)}`;
    if (expected.length !== actual.length) return `${where}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = valueDiff(expected[i], actual[i], `${path}/${i}`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (Array.isArray(actual) || actual instanceof Date || actual instanceof Uint8Array || BigDecimal.is(actual)) {
    return `${where}: expected ${show(expected)}, got ${show(actual)}`;
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  for (const key of Object.keys(e)) {
    if (e[key] === undefined) continue;
    if (a[key] === undefined) return `${path}/${pointerToken(key)}: expected ${show(e[key])}, got nothing`;
    const d = valueDiff(e[key], a[key], `${path}/${pointerToken(key)}`);
    if (d !== undefined) return d;
  }
  for (const key of Object.keys(a)) {
    if (a[key] !== undefined && e[key] === undefined) return `${path}/${pointerToken(key)}: unexpected ${show(a[key])}`;
  }
  return undefined;
}

function numericEqual(a: unknown, b: unknown): boolean {
  if (BigDecimal.is(a) || BigDecimal.is(b)) {
    const x = toDecimal(a);
    const y = toDecimal(b);
    return x !== undefined && y !== undefined && x.compare(y) === 0;
  }
  if ((typeof a !== "number" && typeof a !== "bigint") || (typeof b !== "number" && typeof b !== "bigint")) return false;
  if (typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b)) return true;
  // Loose equality compares a number and a bigint exactly.
  // biome-ignore lint/suspicious/noDoubleEquals: a number and a bigint compare exactly only with ==
  return a == b;
}

function toDecimal(v: unknown): BigDecimal | undefined {
  if (BigDecimal.is(v)) return v;
  if ((typeof v === "number" && Number.isFinite(v)) || typeof v === "bigint") return BigDecimal.from(v);
  return undefined;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const pointerToken = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");

function show(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v instanceof Date) return `Date(${Number.isNaN(v.getTime()) ? "invalid" : v.toISOString()})`;
  if (v instanceof Uint8Array) return `bytes(${JSON.stringify(new TextDecoder().decode(v.subarray(0, 60)))}${v.length > 60 ? "..." : ""})`;
  if (BigDecimal.is(v)) return `BigDecimal(${v.toString()})`;
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return String(v);
  try {
    const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x));
    return text === undefined ? String(v) : text.length > 120 ? `${text.slice(0, 120)}...` : text;
  } catch {
    return String(v);
  }
}
