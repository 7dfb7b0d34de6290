/**
 * How a server turns what a call threw into its error response, the same
 * way for every protocol: which errors are the caller's (400-class, with
 * what was wrong), which are modeled (their `@httpError` status, members
 * with defaults filled), and which are the server's own (a bare 500 that
 * says nothing of the cause). Each protocol says only how its responses are
 * written.
 */
import { ModeledError, ProtocolError, SerializationError, TransportError, ValidationError } from "../errors/errors.js";
import type { OperationSchema, ServiceSchema, StructSchema } from "../schema/schema.js";
import { fillDefaults, SERVER_OUTPUT_DEFAULTS } from "../values/defaults.js";
import { validationExceptionSchema } from "./error-type.js";
import type { HttpResponse } from "./http.js";
import { DEADLINE_EXCEEDED } from "./protocol.js";
import { queryErrorHeader } from "./query-compat.js";

/** How one protocol writes the error responses {@link errorResponse} decides on. */
export interface ErrorResponseWriter {
  /**
   * A modeled error (a thrown one, or the modeled ValidationException): its
   * schema, its members, the status, and the `x-amzn-query-error` header
   * when the service is `@awsQueryCompatible`. Throwing answers a 500.
   */
  modeled(schema: StructSchema, members: Record<string, unknown>, status: number, queryHeader: Record<string, string> | undefined): HttpResponse;
  /** An error no shape models: a status, an error code (`SerializationException`), a message. */
  plain(status: number, code: string, message: string): HttpResponse;
  /** Invalid input when neither the operation nor the service models `smithy.framework#ValidationException`. Default: a plain 400 `ValidationException`. */
  unmodeledValidation?(error: ValidationError): HttpResponse;
}

/**
 * The error response for what a call threw: a modeled error with its
 * status (`@httpError`, else 500 for a server fault and 400 for a client's)
 * and members; invalid input as the modeled ValidationException (400, every
 * violation listed); a body that could not be read as a 400
 * `SerializationException`; the server's and the transport's refusals
 * (`ProtocolError`: 404, 413, ...) with their status; a call whose deadline
 * passed (the server's `maxDeadlineMs`, a host's such as a Lambda's) as a
 * 504 `DeadlineExceeded`, as gRPC's DEADLINE_EXCEEDED maps to HTTP;
 * anything else as a 500 `InternalFailure` that says nothing of its cause.
 */
export function errorResponse(operation: OperationSchema | undefined, error: unknown, service: ServiceSchema, writer: ErrorResponseWriter): HttpResponse {
  if (ModeledError.isModeledError(error)) {
    const schema = error.$schema as StructSchema;
    const status = schema.traits.httpError ?? (error.$fault === "server" ? 500 : 400);
    try {
      const members = fillDefaults(schema, error.members(), SERVER_OUTPUT_DEFAULTS) as Record<string, unknown>;
      return writer.modeled(schema, members, status, queryErrorHeader(schema, error.$fault, service));
    } catch {
      return writer.plain(500, "InternalFailure", "Internal failure");
    }
  }
  if (ValidationError.is(error)) {
    const schema = validationExceptionSchema(operation, service);
    if (schema === undefined) return writer.unmodeledValidation?.(error) ?? writer.plain(400, "ValidationException", error.message);
    return writer.modeled(schema, { message: error.message, fieldList: error.fieldList }, schema.traits.httpError ?? 400, undefined);
  }
  if (SerializationError.is(error)) return writer.plain(400, "SerializationException", error.message);
  if (ProtocolError.is(error)) return writer.plain(error.status, error.code, error.message);
  if (TransportError.is(error) && error.code === DEADLINE_EXCEEDED) return writer.plain(504, DEADLINE_EXCEEDED, error.message);
  // Anything else is a bug or an outage: say nothing about it.
  return writer.plain(500, "InternalFailure", "Internal failure");
}
