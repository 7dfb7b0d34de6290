/**
 * Failure plumbing shared by the binary codecs (CBOR, protobuf). Compiled
 * converters throw a {@link CodecFailure} without a path; each container that
 * catches one on its way up adds its own segment, so the hot path never
 * builds path strings; the entry point turns it into a `SerializationError`
 * with a JSON-pointer path.
 */
import { SerializationError } from "./errors/errors.js";

/** A decode or encode failure still travelling up the value tree. */
export class CodecFailure extends Error {
  /** Path segments, innermost first (already JSON-pointer escaped). */
  readonly segments: string[] = [];
}

/** Throws a {@link CodecFailure}. */
export function codecFail(message: string): never {
  throw new CodecFailure(message);
}

/** Escapes one JSON-pointer reference token (`~` and `/`). */
export function escapePointerSegment(segment: string): string {
  return segment.indexOf("~") < 0 && segment.indexOf("/") < 0 ? segment : segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Adds a path segment to a failure (or wraps a foreign error in one) and rethrows it. */
export function rethrowAt(error: unknown, segment: string | number): never {
  const failure = error instanceof CodecFailure ? error : new CodecFailure(error instanceof Error ? error.message : String(error));
  failure.segments.push(typeof segment === "number" ? String(segment) : escapePointerSegment(segment));
  throw failure;
}

/**
 * Turns anything thrown inside a codec into the public `SerializationError`:
 * `context` (`decode cbor`, `encode protobuf`, ...) and the message, with the
 * path below `prefix`; a stack overflow reads "value nested too deeply".
 */
export function codecError(error: unknown, context: string, prefix = ""): SerializationError {
  if (SerializationError.is(error)) return error;
  let path = prefix;
  let message: string;
  if (error instanceof CodecFailure) {
    for (let i = error.segments.length - 1; i >= 0; i--) path += "/" + error.segments[i];
    message = error.message;
  } else if (error instanceof RangeError && /call stack/i.test(error.message)) {
    message = "value nested too deeply";
  } else {
    message = error instanceof Error ? error.message : String(error);
  }
  return new SerializationError(`${context}: ${message}${path ? ` at ${path}` : ""}`, { path, cause: error });
}
