/**
 * Compile-time facts about schemas, shared by the reader and the writer.
 */
import type { MemberSchema, Schema, TimestampFormat } from "@anvil/core";
import type { ResolvedSettings } from "./settings.js";

/**
 * @internal Which exact numbers values of a schema can hold: 0 none, 1
 * integers only (long, bigInteger), 2 decimals too (bigDecimal, document).
 */
export function exactNumbersOf(schema: Schema, seen: Set<Schema> = new Set()): 0 | 1 | 2 {
  if (seen.has(schema)) return 0;
  seen.add(schema);
  switch (schema.kind) {
    case "long":
    case "bigInteger":
      return 1;
    case "bigDecimal":
    case "document":
      return 2;
    case "list":
      return exactNumbersOf(schema.member.target, seen);
    case "map":
      return exactNumbersOf(schema.value.target, seen);
    case "structure":
    case "union": {
      let most: 0 | 1 | 2 = 0;
      for (const m of schema.members) {
        const x = exactNumbersOf(m.target, seen);
        if (x > most) most = x;
        if (most === 2) break;
      }
      return most;
    }
    default:
      return 0;
  }
}

/** @internal The wire name of a member under these settings. */
export function wireName(member: MemberSchema, settings: ResolvedSettings): string {
  const jsonName = member.traits.jsonName;
  return settings.useJsonName && jsonName !== undefined ? jsonName : member.name;
}

/**
 * @internal The timestamp format of a member (its own trait, its target's,
 * then the settings'; only the settings' when they ignore the trait).
 */
export function timestampFormatOf(traits: { readonly timestampFormat?: TimestampFormat }, settings: ResolvedSettings): TimestampFormat {
  if (settings.ignoreTimestampFormat) return settings.timestampFormat;
  return traits.timestampFormat ?? settings.timestampFormat;
}

/** @internal Names a plain object's own property can shadow on Object.prototype (`toString`, `__proto__`, ...). */
export function isPrototypeName(name: string): boolean {
  return name in Object.prototype;
}

/** @internal Defines a property as data, even `__proto__`. */
export function defineData(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** @internal A function returning a fresh copy of a `@default` value (arrays, maps, dates and bytes are copied). */
export function defaultMaker(value: unknown): (() => unknown) | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object") return () => value;
  return () => deepCopy(value);
}

function deepCopy(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof Uint8Array) return value.slice();
  if (Array.isArray(value)) return value.map(deepCopy);
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) defineData(out, key, deepCopy((value as Record<string, unknown>)[key]));
  return out;
}
