/**
 * A Smithy node value: the JSON-like values used by traits, metadata and
 * examples. Objects keep their insertion order.
 */
export type NodeValue = null | boolean | number | string | NodeValue[] | NodeObject;

/** An object node value. */
export interface NodeObject {
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
  return typeof value;
}

/** Deep equality of node values; object key order does not matter. */
export function nodeEquals(a: NodeValue | undefined, b: NodeValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
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
