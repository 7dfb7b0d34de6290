/**
 * How a client turns an error response into the error its call rejects
 * with, the same way for every protocol: the modeled error the response
 * names (by type, else by awsQuery code or by status when the protocol
 * says so), decoded from the response; an `UnmodeledError` when it names
 * none, or when its body does not fit the shape it names. Each protocol
 * says only where its error type, message and members are.
 */
import { createModeledError, UnmodeledError } from "../errors/errors.js";
import type { OperationSchema, ServiceSchema, StructSchema } from "../schema/schema.js";
import { shapeName } from "../schema/builders.js";
import { isBlank } from "./body.js";
import { BODY_EXCERPT_LENGTH } from "../errors/errors.js";
import { bodyMessage, findErrorSchema, sanitizeErrorType } from "./error-type.js";
import type { HttpResponse } from "./http.js";
import { findErrorByQueryCode, responseQueryCode } from "./query-compat.js";

/** What a client protocol read of an error response it received. */
export interface ReceivedError {
  /** The protocol, as messages name it (`awsJson`, `restJson1`). */
  readonly protocol: string;
  /** The error response as received: status, headers and body. */
  readonly response: HttpResponse;
  /** The error type the response names (a header or a body field), as sent: `ns#Name:url` forms are fine. */
  readonly type: string | undefined;
  /** The message the body carries, if any. */
  readonly message: string | undefined;
  /** The start of the body, as text, for errors that cannot be decoded. */
  readonly bodyExcerpt: string;
  /** Reads the members of the error `schema` from the response; throws when they do not fit it. */
  readonly members: (schema: StructSchema) => Record<string, unknown>;
  /** Also look the error up by its awsQuery-compatible code (`x-amzn-query-error`) when the service is `@awsQueryCompatible`. */
  readonly queryCompatible?: boolean;
  /** With no error type named, the operation's (then the service's) first error sent with the response's status. */
  readonly statusOf?: (schema: StructSchema) => number | undefined;
}

/**
 * The error a non-2xx response stands for: the modeled error it names (the
 * operation's errors first, then the service's), else an `UnmodeledError`
 * whose code is the awsQuery code, the type or `Http<status>`. Both carry
 * `$metadata` (status and request id).
 */
export function responseError(operation: OperationSchema, service: ServiceSchema, error: ReceivedError): Error {
  const { response } = error;
  const requestId = requestIdOf(response.headers);
  const $metadata = requestId === undefined ? { httpStatus: response.status } : { httpStatus: response.status, requestId };
  let name = error.type === undefined ? undefined : sanitizeErrorType(error.type);
  let schema = name ? (findErrorSchema(operation.errors, name) ?? findErrorSchema(service.errors, name)) : undefined;
  const queryCode = error.queryCompatible ? responseQueryCode(response.headers, service) : undefined;
  if (schema === undefined && queryCode !== undefined) schema = findErrorByQueryCode([...operation.errors, ...service.errors], queryCode);
  if (!name && schema === undefined && error.statusOf !== undefined) {
    schema = errorWithStatus(operation.errors, response.status, error.statusOf) ?? errorWithStatus(service.errors, response.status, error.statusOf);
    if (schema !== undefined) name = shapeName(schema.id);
  }
  const { bodyExcerpt } = error;
  if (schema !== undefined) {
    try {
      return createModeledError(schema, error.members(schema), { $metadata, message: error.message });
    } catch (cause) {
      return new UnmodeledError(name ?? "UnknownError", `${error.protocol}: error ${name ?? queryCode} body does not match its shape`, {
        $metadata,
        cause,
        bodyExcerpt,
      });
    }
  }
  const code = queryCode || name || `Http${response.status}`;
  const message = error.message ?? `${error.protocol}: HTTP ${response.status} error response${name ? ` (${name})` : ""}`;
  return new UnmodeledError(code, message, { $metadata, bodyExcerpt });
}

/** Headers that carry a request id, in order of preference: AWS JSON services', their older spelling, S3's, and the common one. */
const REQUEST_ID_HEADERS = ["x-amzn-requestid", "x-amzn-request-id", "x-amz-request-id", "x-request-id"] as const;

/** The request id a response carries (see {@link REQUEST_ID_HEADERS} for the headers and their preference). */
export function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value !== null) return value;
  }
  return undefined;
}

/** The first error sent with this status code. */
function errorWithStatus(errors: readonly StructSchema[], status: number, statusOf: (schema: StructSchema) => number | undefined): StructSchema | undefined {
  for (const e of errors) if (statusOf(e) === status) return e;
  return undefined;
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** A JSON error body, as the JSON protocols read it. */
export interface JsonErrorBody {
  /** The object the body holds: undefined for an empty body, a proxy's HTML page, a truncated or non-object document. */
  readonly body: Record<string, unknown> | undefined;
  /** The body's `message` (or `Message`). */
  readonly message: string | undefined;
  /** The start of the body's text. */
  readonly bodyExcerpt: string;
}

/** Reads a JSON error body; never throws. */
export function jsonErrorBody(bytes: Uint8Array): JsonErrorBody {
  let parsed: unknown;
  let text = "";
  if (!isBlank(bytes)) {
    text = utf8.decode(bytes);
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined; // reported with the body's start
    }
  }
  const body = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  return { body, message: bodyMessage(body), bodyExcerpt: text.slice(0, BODY_EXCERPT_LENGTH) };
}

/** A string member of a JSON body, if it is one. */
export function stringField(body: Record<string, unknown> | undefined, key: string): string | undefined {
  const v = body?.[key];
  return typeof v === "string" ? v : undefined;
}
