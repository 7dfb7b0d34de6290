/**
 * A Smithy node value: the JSON-like values used by traits, metadata and
 * examples. Objects keep their insertion order. Numbers are JS numbers, except
 * integers a double cannot hold exactly (beyond ±2^53, or beyond the double
 * range), which are `bigint` so that `long`, `bigInteger` and `bigDecimal`
 * values are never silently rounded.
 */
export type NodeValue = null | boolean | number | bigint | string | NodeValue[] | NodeObject;

/** An object node value. */
export interface NodeObject {
  /** The value of each key. */
  [key: string]: NodeValue;
}

/** Whether a node value is an object (not null, not an array). */
export function isNodeObject(value: NodeValue | undefined): value is NodeObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The Smithy name of a node value's type, as used in messages. */
export function nodeTypeName(value: NodeValue | undefined): string {
  if (value === undefined || value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return "object";
  if (typeof value === "bigint") return "number";
  return typeof value;
}

/** Whether a node value is a number (`number` or, for very large integers, `bigint`). */
export function isNodeNumber(value: NodeValue | undefined): value is number | bigint {
  return typeof value === "number" || typeof value === "bigint";
}

const DIGITS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * Converts the text of a JSON/IDL number to a node value without losing an
 * integer: a `number` when the double is exact (or the value has a fraction),
 * a `bigint` when the value is an integer a double cannot hold.
 */
export function numberFromText(text: string): number | bigint {
  const value = Number(text);
  if (Number.isSafeInteger(value)) return value;
  if (Number.isFinite(value) && !Number.isInteger(value)) return value;
  const m = DIGITS.exec(text);
  if (!m) return value;
  const [, sign, whole, fraction = "", exp = "0"] = m;
  const shift = Number(exp) - fraction.length;
  let digits = whole! + fraction;
  if (shift < 0) {
    // Only an integer if the dropped digits are zeros.
    const dropped = digits.slice(shift);
    if (!/^0*$/.test(dropped)) return value;
    digits = digits.slice(0, shift);
  } else if (shift > 100_000) {
    return value; // absurd exponents stay Infinity rather than allocate
  } else {
    digits += "0".repeat(shift);
  }
  const big = BigInt(`${sign}${digits || "0"}`);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

/**
 * Source texts of numbers a double holds only approximately (decimals with
 * more significant digits than a double keeps, such as
 * `0.100000000000000000000001`), by container and key. The node value stays a
 * plain `number`; readers that need the exact value (a `bigDecimal`) ask
 * {@link exactNumberText}.
 */
const exactTexts = new WeakMap<object, Map<string | number, string>>();

/**
 * Whether a number's source text says more than its node value: a decimal
 * (a fraction or an exponent) with over 15 significant digits, which a
 * double only approximates, or whose written scale a `bigint` drops
 * (`100000000000000000000001.0`).
 */
export function isApproximateNumber(text: string, value: number | bigint): boolean {
  if (typeof value === "number" && Number.isSafeInteger(value)) return false;
  if (!/[.eE]/.test(text)) return false;
  let digits = 0;
  let leading = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 101 || c === 69) break; // exponent
    if (c < 48 || c > 57) continue;
    if (leading && c === 48) continue;
    leading = false;
    digits++;
  }
  return digits > 15;
}

/** Records that `container[key]` was written as `text` (see {@link exactNumberText}). */
export function noteExactNumber(container: object, key: string | number, text: string): void {
  let texts = exactTexts.get(container);
  if (texts === undefined) exactTexts.set(container, (texts = new Map()));
  texts.set(key, text);
}

/**
 * The source text of the number at `container[key]` when the double there is
 * only an approximation of it; `undefined` for every other value.
 */
export function exactNumberText(container: object, key: string | number): string | undefined {
  return exactTexts.get(container)?.get(key);
}

/** Carries the exact number texts of one container over to its copy. */
export function copyExactNumbers(from: object, to: object): void {
  const texts = exactTexts.get(from);
  if (texts !== undefined) exactTexts.set(to, new Map(texts));
}

/**
 * JSON text of a node value; `bigint`s are written as plain JSON numbers, and
 * numbers with a recorded exact text (see {@link exactNumberText}) as that text.
 * `replacer` may map other values first (as JSON.stringify's does).
 */
export function stringifyNode(value: unknown, indent?: number, replacer?: (value: unknown) => unknown): string {
  let marked = false;
  const text = JSON.stringify(
    value,
    function (this: unknown, key: string, raw: unknown) {
      const v = replacer ? replacer(raw) : raw;
      if (typeof v !== "bigint" && typeof v !== "number") return v;
      const exact = typeof this === "object" && this !== null ? exactNumberText(this, Array.isArray(this) ? Number(key) : key) : undefined;
      if (exact === undefined && typeof v === "number") return v;
      marked = true;
      return `\u0000number:${exact ?? v}`;
    },
    indent,
  );
  return marked ? text.replace(/"\\u0000number:(-?[0-9.eE+-]+)"/g, "$1") : text;
}

/** Deep equality of node values; object key order does not matter. */
export function nodeEquals(a: NodeValue | undefined, b: NodeValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
  if (typeof a === "bigint" || typeof b === "bigint") return false;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!nodeEquals(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  for (const k of ak) if (!Object.hasOwn(b, k) || !nodeEquals(a[k], b[k])) return false;
  return true;
}

/**
 * Sets a key of an object node, storing `__proto__` as data (a plain
 * assignment would change the prototype instead).
 */
export function setNodeKey<T>(obj: { [key: string]: T }, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
