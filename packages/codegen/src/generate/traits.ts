/**
 * Schema traits as TypeScript literals. The traits themselves come from
 * `@anvil/dynamic`'s mapping (`schemaTraits`, `operationTraits`): the one
 * mapping of model traits to schema traits, so generated and dynamic schemas
 * are the same. This module only writes the objects it returns as source.
 */
import { BigDecimal, type Traits } from "@anvil/core";
import { code, literal, PURE } from "./code.js";
import type { Imports } from "./imports.js";

/**
 * The object literal of a shape's or member's traits. The `@default` value
 * is written as the expression that rebuilds it (see
 * {@link runtimeValueCode}); every other field is plain data, as are
 * operation traits (`literal` writes those as they are).
 */
export function traitsLiteral(traits: Traits, imports: Imports, indent = ""): string {
  if (!("default" in traits)) return literal(traits, indent);
  return literal({ ...traits, default: runtimeValueCode(traits.default, imports) }, indent);
}

/**
 * Code for a runtime value, as `@anvil/dynamic`'s `runtimeValue` builds it:
 * a `Date`, bytes, a `BigDecimal`, and arrays and objects frozen where the
 * value is frozen (defaults are shared by every reader). Numbers (`NaN` and
 * the infinities included), bigints, strings, booleans and null are written
 * as they are by {@link literal}; every call is marked pure. With `keepFrozen` false, frozen arrays and
 * objects are written as plain literals (fake tables: data nobody shares).
 */
export function runtimeValueCode(value: unknown, imports: Imports, keepFrozen = true): unknown {
  if (value instanceof Date) return code(`${PURE}new Date(${value.getTime()})`);
  if (value instanceof Uint8Array) return code(`${PURE}new Uint8Array(${literal([...value])})`);
  if (BigDecimal.is(value)) return code(`${PURE}${imports.value("BigDecimal")}.from(${JSON.stringify(value.toString())})`);
  if (typeof value !== "object" || value === null) return value;
  let out: unknown;
  if (Array.isArray(value)) out = value.map((v) => runtimeValueCode(v, imports, keepFrozen));
  else out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, runtimeValueCode(v, imports, keepFrozen)]));
  return keepFrozen && Object.isFrozen(value) ? code(`${PURE}Object.freeze(${literal(out)})`) : out;
}
