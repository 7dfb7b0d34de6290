/**
 * Internal error plumbing: core's codec failures (converters throw one
 * without a path; each container on the way up adds its segment), with the
 * protobuf context and type names.
 */
import type { SerializationError } from "@anvil/core";
import { codecError } from "@anvil/core/protocol";

export { CodecFailure as Failure, codecFail as fail, rethrowAt as rethrow } from "@anvil/core/protocol";

/** @internal Turns anything thrown below into the public SerializationError. */
export function toSerializationError(error: unknown, context: "decode protobuf" | "encode protobuf"): SerializationError {
  return codecError(error, context);
}

/** @internal A short description of a value's type for messages (never the value itself: it may be sensitive). */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof Uint8Array) return "bytes";
  if (value instanceof Date) return "timestamp";
  const t = typeof value;
  if (t === "number") return Number.isInteger(value) ? "integer" : "float";
  if (t === "object") return "object";
  return t;
}
