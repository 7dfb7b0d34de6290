/**
 * Failures inside compiled readers and writers. They are plain objects (no
 * stack capture on the failure path) that collect JSON pointer segments while
 * the stack unwinds; the entry points turn them into SerializationError.
 */
import { SerializationError } from "@anvil/core";

/** @internal A decode or encode failure on its way out. */
export class Failure {
  /** Pointer segments, innermost first. */
  readonly segments: string[] = [];
  constructor(readonly reason: string) {}
}

/** @internal Describes a JSON value's type for messages, never its content. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "bigint":
      return "a bigint";
    case "undefined":
      return "undefined";
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}

/** @internal A type mismatch failure. */
export function mismatch(expected: string, got: unknown): Failure {
  return new Failure(`expected ${expected}, got ${typeName(got)}`);
}

/** @internal Adds a pointer segment to a failure passing through a container. */
export function withSegment(error: unknown, segment: string): unknown {
  if (error instanceof Failure) error.segments.push(segment);
  return error;
}

function escapeSegment(segment: string): string {
  return segment.indexOf("~") < 0 && segment.indexOf("/") < 0 ? segment : segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** @internal The JSON pointer of a failure, below an optional prefix. */
export function pointerOf(failure: Failure, prefix: string): string {
  let out = prefix;
  for (let i = failure.segments.length - 1; i >= 0; i--) out += `/${escapeSegment(failure.segments[i]!)}`;
  return out;
}

/** @internal Turns anything thrown inside a reader or writer into a SerializationError. */
export function toSerializationError(error: unknown, context: "decode json" | "encode json", prefix = ""): SerializationError {
  if (error instanceof Failure) {
    const path = pointerOf(error, prefix);
    return new SerializationError(`${context}: ${error.reason}${path === "" ? "" : ` at ${path}`}`, { path });
  }
  if (SerializationError.is(error)) return error;
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return new SerializationError(`${context}: value nested too deeply`, { path: prefix, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new SerializationError(`${context}: ${message}`, { path: prefix, cause: error });
}
