/**
 * Internal error plumbing, as in the other codecs: converters throw a
 * {@link Failure} without a path; each container that catches one on its way
 * up prepends its own segment, so the hot path never builds path strings.
 */
import { SerializationError } from "@anvil/core";

/** @internal A decode or encode failure still travelling up the value tree. */
export class Failure extends Error {
  /** Path segments, innermost first (already JSON-pointer escaped). */
  readonly segments: string[] = [];
}

/** @internal */
export function fail(message: string): never {
  throw new Failure(message);
}

function escapeSegment(segment: string): string {
  return segment.indexOf("~") < 0 && segment.indexOf("/") < 0 ? segment : segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** @internal Adds a path segment to a failure (or wraps a foreign error) and rethrows. */
export function rethrow(error: unknown, segment: string | number): never {
  const failure = error instanceof Failure ? error : new Failure(error instanceof Error ? error.message : String(error));
  failure.segments.push(typeof segment === "number" ? String(segment) : escapeSegment(segment));
  throw failure;
}

/** @internal Turns anything thrown below into the public SerializationError. */
export function toSerializationError(error: unknown, context: "decode protobuf" | "encode protobuf"): SerializationError {
  if (SerializationError.is(error)) return error;
  let path = "";
  let message: string;
  if (error instanceof Failure) {
    for (let i = error.segments.length - 1; i >= 0; i--) path += "/" + error.segments[i];
    message = error.message;
  } else if (error instanceof RangeError && /call stack/i.test(error.message)) {
    message = "value nested too deeply";
  } else {
    message = error instanceof Error ? error.message : String(error);
  }
  return new SerializationError(`${context}: ${message}${path ? ` at ${path}` : ""}`, { path, cause: error });
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
