/**
 * Internal error plumbing: core's codec failures (converters throw one
 * without a path; each container on the way up adds its segment), with the
 * CBOR context and type names.
 */
import type { SerializationError } from "@anvil/core";
import { codecError } from "@anvil/core/protocol";

export { CodecFailure as Failure, codecFail as fail, escapePointerSegment as escapeSegment, rethrowAt as rethrow } from "@anvil/core/protocol";

/** @internal Turns anything thrown below into the public SerializationError. */
export function toSerializationError(error: unknown, context: "decode cbor" | "encode cbor", prefix = ""): SerializationError {
  return codecError(error, context, prefix);
}

/** @internal A short description of a value's type for messages (never the value itself: it may be sensitive). */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof Uint8Array) return "byte string";
  if (value instanceof Date) return "timestamp";
  if (value instanceof Map) return "map";
  const t = typeof value;
  if (t === "number") return Number.isInteger(value) ? "integer" : "float";
  if (t === "object") return "map";
  return t;
}
