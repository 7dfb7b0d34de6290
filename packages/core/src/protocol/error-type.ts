/**
 * Helpers every protocol uses to turn a wire error type into a modeled error.
 */
import { shapeName } from "../schema/builders.js";
import type { OperationSchema, ServiceSchema, StructSchema } from "../schema/schema.js";

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

/**
 * The message of an error body (a parsed JSON or CBOR object): its
 * `message` field, else `Message` (AWS services send either, whatever the
 * model spells its member); undefined when it has neither as a string.
 */
export function bodyMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { message, Message } = body as { message?: unknown; Message?: unknown };
  if (typeof message === "string") return message;
  return typeof Message === "string" ? Message : undefined;
}

/** The error schema among `errors` with this shape name. */
export function findErrorSchema(errors: readonly StructSchema[], name: string): StructSchema | undefined {
  for (const e of errors) if (shapeName(e.id) === name) return e;
  return undefined;
}

/** The shape id of Smithy's validation error, `smithy.framework#ValidationException`. */
export const VALIDATION_EXCEPTION_ID = "smithy.framework#ValidationException";

/**
 * The ValidationException schema an operation models (or else its service),
 * which servers answer invalid input with; undefined when neither models it.
 */
export function validationExceptionSchema(operation: OperationSchema | undefined, service: ServiceSchema): StructSchema | undefined {
  const fromOperation = operation?.errors.find((e) => e.id === VALIDATION_EXCEPTION_ID);
  return fromOperation ?? service.errors.find((e) => e.id === VALIDATION_EXCEPTION_ID);
}
