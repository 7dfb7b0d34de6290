/**
 * Helpers every protocol uses to turn a wire error type into a modeled error
 * and to read bodies.
 */
import { shapeName } from "../schema/builders.js";
import type { StructSchema } from "../schema/schema.js";
import { collectBytes } from "../values/streams.js";
import type { HttpBody } from "./http.js";

/**
 * The error shape name from a wire type marker: `ns#Name:qualifier` →
 * `Name`. Services send the namespace and a URL qualifier in various
 * combinations (`X-Amzn-Errortype`, `__type`, `code`).
 */
export function sanitizeErrorType(raw: string): string {
  let name = raw.trim();
  const colon = name.indexOf(":");
  if (colon >= 0) name = name.slice(0, colon);
  const hash = name.indexOf("#");
  if (hash >= 0) name = name.slice(hash + 1);
  return name;
}

/** The error schema among `errors` with this shape name. */
export function findErrorSchema(errors: readonly StructSchema[], name: string): StructSchema | undefined {
  for (const e of errors) if (shapeName(e.id) === name) return e;
  return undefined;
}

const EMPTY = new Uint8Array(0);

/** A whole body as bytes: nothing is empty bytes, streams are collected. */
export async function readBody(body: HttpBody): Promise<Uint8Array> {
  if (body === undefined) return EMPTY;
  return collectBytes(body);
}
