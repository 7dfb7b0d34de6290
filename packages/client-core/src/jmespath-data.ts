/**
 * Values as a waiter's JMESPath expressions see them (Smithy's waiters
 * specification, "JMESPath data model"): structures and maps as objects
 * keyed by member name, unions as an object with the one member set,
 * timestamps as epoch seconds, blobs as base64 text, every number a
 * number. Objects have no prototype, so a path such as `constructor`
 * finds nothing that is not data.
 */
import { BigDecimal, type Schema } from "@anvil/core";

/** A value of `schema` in the JMESPath data model. */
export function jmespathValue(schema: Schema, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (schema.kind) {
    case "structure": {
      if (typeof value !== "object") return null;
      const out: Record<string, unknown> = Object.create(null);
      for (const m of schema.members) {
        const v = (value as Record<string, unknown>)[m.name];
        if (v !== undefined && Object.hasOwn(value, m.name)) out[m.name] = jmespathValue(m.target, v);
      }
      return out;
    }
    case "union": {
      const { $case, value: inner, name } = value as { $case?: unknown; value?: unknown; name?: unknown };
      const out: Record<string, unknown> = Object.create(null);
      if ($case === "$unknown" && typeof name === "string") out[name] = plain(inner);
      else if (typeof $case === "string") {
        const member = schema.members.find((m) => m.name === $case);
        out[$case] = member ? jmespathValue(member.target, inner) : plain(inner);
      }
      return out;
    }
    case "list":
      return Array.isArray(value) ? value.map((v) => jmespathValue(schema.member.target, v)) : null;
    case "map": {
      if (typeof value !== "object") return null;
      const out: Record<string, unknown> = Object.create(null);
      for (const [k, v] of Object.entries(value)) out[k] = jmespathValue(schema.value.target, v);
      return out;
    }
    case "document":
      return plain(value);
    default:
      return scalar(value);
  }
}

/** A scalar: timestamps to epoch seconds, blobs to base64, big numbers to numbers. */
function scalar(value: unknown): unknown {
  if (value instanceof Date) return value.getTime() / 1000;
  if (value instanceof Uint8Array) return base64(value);
  if (typeof value === "bigint") return Number(value);
  if (BigDecimal.is(value)) return value.toNumber();
  // A streaming blob (a stream, not bytes) has no JMESPath form.
  if (typeof value === "object") return null;
  return value;
}

/** A document (or a value of no known schema) as JSON-like data. */
function plain(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && !(value instanceof Date) && !(value instanceof Uint8Array) && !BigDecimal.is(value)) {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(value)) out[k] = plain(v);
    return out;
  }
  return scalar(value);
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
