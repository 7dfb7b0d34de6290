/**
 * How errors travel, both ways: the status, its percent-encoded message
 * and, for a modeled error, a `google.rpc.Status` in
 * `grpc-status-details-bin` whose one detail names the error's message and
 * holds its members.
 *
 * @internal
 */
import {
  ModeledError,
  type OperationSchema,
  ProtocolError,
  SerializationError,
  type ServiceSchema,
  type StructSchema,
  TransportError,
  UnmodeledError,
  ValidationError,
} from "@anvil/core";
import { createModeledError, DEADLINE_EXCEEDED, findErrorSchema, VALIDATION_EXCEPTION_ID, validationExceptionSchema } from "@anvil/core/protocol";
import { list, member, string, struct } from "@anvil/core/codegenv1";
import { decodeGrpcMessage, encodeGrpcMessage } from "./message-text.js";
import { decodeBinaryHeader, encodeBinaryHeader } from "./metadata.js";
import { protoTypeName } from "./names.js";
import type { ResolvedGrpcOptions } from "./options.js";
import { GrpcStatus, type GrpcStatusCode, isStatusName, statusName, statusOfHttpError } from "./status.js";
import { typeUrlOf } from "./protobuf/google-rpc.js";
import { decodeRpcStatus, encodeRpcStatus } from "./status-details.js";

/** The header (or trailer) names gRPC answers with. */
export const GRPC_STATUS = "grpc-status";
export const GRPC_MESSAGE = "grpc-message";
export const GRPC_STATUS_DETAILS = "grpc-status-details-bin";

/**
 * `smithy.framework#ValidationException` with field numbers, for
 * validation errors of operations that do not model it (SPEC §2.3 answers
 * invalid input with it on every protocol).
 */
export const BuiltinValidationException = struct(
  VALIDATION_EXCEPTION_ID,
  [
    member("message", string, { required: true, protoIndex: 1 }),
    member(
      "fieldList",
      list(
        "smithy.framework#ValidationExceptionFieldList",
        member(
          "member",
          struct("smithy.framework#ValidationExceptionField", [
            member("path", string, { required: true, protoIndex: 1 }),
            member("message", string, { required: true, protoIndex: 2 }),
          ]),
        ),
      ),
      { protoIndex: 2 },
    ),
  ],
  { error: "client" },
);

/** A status as the server sends it. */
export interface StatusAnswer {
  readonly code: GrpcStatusCode;
  readonly message: string;
  /** The error's schema and members, for `grpc-status-details-bin`. */
  readonly detail?: { readonly schema: StructSchema; readonly members: Record<string, unknown> };
}

/** What the server answers an error with: never a word about an error that is not the caller's business. */
export function statusOfError(operation: OperationSchema | undefined, error: unknown, service: ServiceSchema): StatusAnswer {
  if (ModeledError.isModeledError(error)) {
    const schema = error.$schema as StructSchema;
    const httpError = schema.traits.httpError;
    const code = httpError !== undefined ? statusOfHttpError(httpError) : error.$fault === "server" ? GrpcStatus.INTERNAL : GrpcStatus.UNKNOWN;
    return { code, message: error.message, detail: { schema, members: error.members() as Record<string, unknown> } };
  }
  if (ValidationError.is(error)) {
    const schema = validationExceptionSchema(operation, service) ?? BuiltinValidationException;
    return { code: GrpcStatus.INVALID_ARGUMENT, message: error.message, detail: { schema, members: { message: error.message, fieldList: error.fieldList } } };
  }
  if (SerializationError.is(error)) return { code: GrpcStatus.INVALID_ARGUMENT, message: error.message };
  if (ProtocolError.is(error)) {
    return { code: isStatusName(error.code) ? GrpcStatus[error.code] : statusOfHttpError(error.status), message: error.message };
  }
  if (TransportError.is(error) && error.code === DEADLINE_EXCEEDED) return { code: GrpcStatus.DEADLINE_EXCEEDED, message: "Deadline exceeded" };
  return { code: GrpcStatus.INTERNAL, message: "Internal failure" };
}

/** Adds a status to headers (a trailers-only answer) or trailers; a status with a detail needs the service (its message names). */
export function writeStatus(target: Headers, answer: StatusAnswer, service: ServiceSchema | undefined, options: ResolvedGrpcOptions): Headers {
  target.set(GRPC_STATUS, String(answer.code));
  if (answer.message !== "") target.set(GRPC_MESSAGE, encodeGrpcMessage(answer.message));
  if (answer.detail !== undefined && service !== undefined) {
    const { schema, members } = answer.detail;
    let value: Uint8Array;
    try {
      value = options.codec.writer(schema)(members);
    } catch {
      return target; // the status still says what happened
    }
    const details = [{ typeUrl: typeUrlOf(protoTypeName(service, schema)), value }];
    target.set(GRPC_STATUS_DETAILS, encodeBinaryHeader(encodeRpcStatus({ code: answer.code, message: answer.message, details })));
  }
  return target;
}

/** A received status: its code, message and details. */
export interface ReceivedStatus {
  readonly code: number;
  readonly message: string;
  readonly details: string | null;
}

/** The status in headers or trailers, or undefined when they carry none. */
export function readStatus(headers: Headers): ReceivedStatus | undefined {
  const raw = headers.get(GRPC_STATUS);
  if (raw === null) return undefined;
  const code = /^\d+$/.test(raw) ? Number(raw) : GrpcStatus.UNKNOWN;
  const message = headers.get(GRPC_MESSAGE);
  return { code, message: message === null ? "" : decodeGrpcMessage(message), details: headers.get(GRPC_STATUS_DETAILS) };
}

/**
 * The error a failed call rejects with: the modeled error its details name
 * (an instance of the generated class), else an UnmodeledError whose code
 * is the status name (`UNAVAILABLE`).
 */
export function errorOfStatus(status: ReceivedStatus, operation: OperationSchema, service: ServiceSchema, options: ResolvedGrpcOptions): Error {
  const $metadata = { httpStatus: status.code };
  if (status.details !== null) {
    try {
      for (const detail of decodeRpcStatus(decodeBinaryHeader(status.details)).details) {
        const schema = errorSchemaOf(detail.typeUrl, operation, service);
        if (schema !== undefined)
          return createModeledError(schema, options.codec.reader(schema)(detail.value) as Record<string, unknown>, {
            $metadata,
            message: status.message || undefined,
          });
      }
    } catch (cause) {
      return new UnmodeledError(statusName(status.code), `grpc: the status details of a ${statusName(status.code)} answer cannot be read`, {
        $metadata,
        cause,
      });
    }
  }
  return new UnmodeledError(statusName(status.code), status.message || `grpc: the call ended with ${statusName(status.code)}`, { $metadata });
}

function errorSchemaOf(typeUrl: string, operation: OperationSchema, service: ServiceSchema): StructSchema | undefined {
  const fullName = typeUrl.slice(typeUrl.lastIndexOf("/") + 1);
  const all = [...operation.errors, ...service.errors];
  const exact = all.find((e) => protoTypeName(service, e) === fullName);
  return exact ?? findErrorSchema(all, fullName.slice(fullName.lastIndexOf(".") + 1));
}
