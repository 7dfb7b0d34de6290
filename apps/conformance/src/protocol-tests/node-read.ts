/**
 * Typed reads of trait node values. Each read names the path it failed at,
 * so that a malformed test case says where it is malformed.
 */
import { isNodeObject, nodeTypeName, type NodeObject, type NodeValue } from "@anvil/model";

/** Thrown when a trait value does not have the shape a protocol test needs. */
export class CaseShapeError extends Error {
  override readonly name = "CaseShapeError";
}

function fail(where: string, expected: string, value: NodeValue | undefined): never {
  throw new CaseShapeError(`${where}: expected ${expected}, got ${value === undefined ? "nothing" : nodeTypeName(value)}`);
}

/** The value as an object. */
export function asObject(value: NodeValue | undefined, where: string): NodeObject {
  if (!isNodeObject(value)) fail(where, "an object", value);
  return value;
}

/** A required string member. */
export function requiredString(obj: NodeObject, key: string, where: string): string {
  const v = obj[key];
  if (typeof v !== "string") fail(`${where}.${key}`, "a string", v);
  return v;
}

/** An optional string member (absent or null gives undefined). */
export function optionalString(obj: NodeObject, key: string, where: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") fail(`${where}.${key}`, "a string", v);
  return v;
}

/** A required integer member. */
export function requiredInteger(obj: NodeObject, key: string, where: string): number {
  const v = obj[key];
  if (typeof v !== "number" || !Number.isInteger(v)) fail(`${where}.${key}`, "an integer", v);
  return v;
}

/** A list-of-strings member; absent gives an empty list. */
export function stringList(obj: NodeObject, key: string, where: string): string[] {
  const v = obj[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(`${where}.${key}`, "a list of strings", v);
  return v.map((item, i) => {
    if (typeof item !== "string") fail(`${where}.${key}[${i}]`, "a string", item);
    return item;
  });
}

/** A string-to-string map member; absent gives an empty map. Key order is kept. */
export function stringMap(obj: NodeObject, key: string, where: string): Record<string, string> {
  const v = obj[key];
  if (v === undefined || v === null) return {};
  const map = asObject(v, `${where}.${key}`);
  const out: Record<string, string> = {};
  for (const k of Object.keys(map)) {
    const item = map[k];
    if (typeof item !== "string") fail(`${where}.${key}.${k}`, "a string", item);
    defineKey(out, k, item);
  }
  return out;
}

/** An object member (a `Document` holding an object); absent gives an empty object. */
export function objectOrEmpty(obj: NodeObject, key: string, where: string): NodeObject {
  const v = obj[key];
  if (v === undefined || v === null) return {};
  return asObject(v, `${where}.${key}`);
}

/** Sets a key, storing `__proto__` as data rather than changing the prototype. */
export function defineKey<T>(obj: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
