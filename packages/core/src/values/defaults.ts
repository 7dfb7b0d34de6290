/**
 * Smithy 2.0 default values and error correction, applied to values on
 * their way out (client input, server output) or in (client output). Every
 * protocol applies the same rules, so they live here.
 */
import type { MemberSchema, Schema, StructSchema } from "../schema/schema.js";
import { BigDecimal } from "./big-decimal.js";

type Obj = Record<string, unknown>;

/** Where defaults are filled. */
export interface DefaultsMode {
  /** Fill the top-level structure's own members (servers do; clients leave them to the server). */
  readonly topLevel: boolean;
  /** Leave out defaults of `@clientOptional` members (clients). */
  readonly skipClientOptional: boolean;
}

/** The client filling its input: nested defaults only, `@clientOptional` members left out. */
export const CLIENT_INPUT_DEFAULTS: DefaultsMode = Object.freeze({ topLevel: false, skipClientOptional: true });
/** The server filling its output: every default. */
export const SERVER_OUTPUT_DEFAULTS: DefaultsMode = Object.freeze({ topLevel: true, skipClientOptional: false });

/** Whether anything at or below a schema has a member with a default, by schema. */
const hasDefaults = new WeakMap<Schema, boolean>();

/**
 * Computed once per schema: a walk's answer is final for the schema it
 * started from (a `true` is final anywhere; a `false` below the start may
 * only be so because a cycle led back to a schema still being walked).
 */
function anyDefaults(schema: Schema, seen?: Set<Schema>): boolean {
  const known = hasDefaults.get(schema);
  if (known !== undefined) return known;
  const start = seen === undefined;
  seen ??= new Set();
  if (seen.has(schema)) return false;
  seen.add(schema);
  let members: readonly MemberSchema[] = [];
  if (schema.kind === "structure" || schema.kind === "union") members = schema.members;
  else if (schema.kind === "list") members = [schema.member];
  else if (schema.kind === "map") members = [schema.value];
  let result = false;
  for (const m of members) {
    if ((schema.kind === "structure" && m.traits.default !== undefined) || anyDefaults(m.target, seen)) {
      result = true;
      break;
    }
  }
  if (result || start || members.length === 0) hasDefaults.set(schema, result);
  return result;
}

/** A copy of `value` with the absent members that have a `@default` filled in (`value` is not changed). */
export function fillDefaults(schema: Schema, value: unknown, mode: DefaultsMode, top = true): unknown {
  if (value === null || value === undefined || typeof value !== "object" || !anyDefaults(schema)) return value;
  switch (schema.kind) {
    case "structure": {
      const obj = value as Obj;
      let out: Obj | undefined;
      for (const m of schema.members) {
        const current = obj[m.name];
        if (current === undefined) {
          if (m.traits.default === undefined || (top && !mode.topLevel) || (mode.skipClientOptional && m.traits.clientOptional)) continue;
          out ??= { ...obj };
          out[m.name] = m.traits.default;
          continue;
        }
        const next = fillDefaults(m.target, current, mode, false);
        if (next !== current) (out ??= { ...obj })[m.name] = next;
      }
      return out ?? obj;
    }
    case "union": {
      const u = value as { $case: string; value: unknown };
      const m = schema.members.find((x) => x.name === u.$case);
      if (m === undefined) return value;
      const next = fillDefaults(m.target, u.value, mode, false);
      return next === u.value ? value : { ...u, value: next };
    }
    case "list": {
      if (!Array.isArray(value)) return value;
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const next = fillDefaults(schema.member.target, value[i], mode, false);
        if (next !== value[i]) (out ??= [...value])[i] = next;
      }
      return out ?? value;
    }
    case "map": {
      const obj = value as Obj;
      let out: Obj | undefined;
      for (const key of Object.keys(obj)) {
        const next = fillDefaults(schema.value.target, obj[key], mode, false);
        if (next !== obj[key]) (out ??= { ...obj })[key] = next;
      }
      return out ?? obj;
    }
    default:
      return value;
  }
}

/**
 * Client error correction: a `@required` member without a default that a
 * response left out gets its type's zero value (Smithy 2.0 "error
 * correction"), so the output still has the shape its type promises.
 */
export function correctRequired(schema: StructSchema, value: Obj): Obj {
  let out: Obj | undefined;
  for (const m of schema.members) {
    if (!m.traits.required || m.traits.default !== undefined || value[m.name] !== undefined) continue;
    const zero = zeroOf(m.target);
    if (zero === undefined) continue;
    (out ??= { ...value })[m.name] = zero;
  }
  return out ?? value;
}

function zeroOf(schema: Schema): unknown {
  switch (schema.kind) {
    case "string":
    case "enum":
      return "";
    case "boolean":
      return false;
    case "byte":
    case "short":
    case "integer":
    case "long":
    case "float":
    case "double":
    case "bigInteger":
    case "intEnum":
      return 0;
    case "bigDecimal":
      return BigDecimal.from(0);
    case "timestamp":
      return new Date(0);
    case "blob":
      return new Uint8Array(0);
    case "list":
      return [];
    case "map":
    case "structure":
      return {};
    default:
      return undefined; // documents and unions have no zero value
  }
}
