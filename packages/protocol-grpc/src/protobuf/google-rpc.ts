/**
 * Schemas of the Google messages gRPC error details use, so the transport
 * encodes them with this codec like any other message:
 * `google.protobuf.Any` and `google.rpc.Status` (the payload of the
 * `grpc-status-details-bin` trailer).
 */
import type { StructSchema } from "@anvil/core";
import { blob, integer, list, member, string, struct } from "@anvil/core/codegenv1";

/** A `google.protobuf.Any` value: a message of the type named by `typeUrl`, as bytes. */
export interface ProtoAny {
  /** `type.googleapis.com/<full message name>`. */
  readonly typeUrl: string;
  /** The message's bytes. */
  readonly value: Uint8Array;
}

/** A `google.rpc.Status` value. */
export interface GoogleRpcStatus {
  /** The gRPC status code. */
  readonly code: number;
  /** The developer-facing message. */
  readonly message: string;
  /** Details, each a message packed in an Any. */
  readonly details: readonly ProtoAny[];
}

/**
 * `google.protobuf.Any { string type_url = 1; bytes value = 2; }`.
 *
 * @example
 * ```ts
 * const any = { typeUrl: "type.googleapis.com/weather.NotFound", value: compileProtobufWriter(NotFound)(error) };
 * ```
 */
export const ProtoAnySchema: StructSchema<ProtoAny> = struct<ProtoAny>("google.protobuf#Any", [
  member("typeUrl", string, { protoIndex: 1, required: true }),
  member("value", blob, { protoIndex: 2, required: true }),
]);

/**
 * `google.rpc.Status { int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3; }`.
 *
 * @example
 * ```ts
 * const bytes = compileProtobufWriter(GoogleRpcStatusSchema)({ code: 5, message: "not found", details: [] });
 * const status = compileProtobufReader(GoogleRpcStatusSchema)(bytes);
 * ```
 */
export const GoogleRpcStatusSchema: StructSchema<GoogleRpcStatus> = struct<GoogleRpcStatus>("google.rpc#Status", [
  member("code", integer, { protoIndex: 1, required: true }),
  member("message", string, { protoIndex: 2, required: true }),
  member("details", list("google.rpc#Details", member("member", ProtoAnySchema)), { protoIndex: 3, required: true }),
]);

/** The `type_url` of an Any holding a message of the given full name (`package.Message`). */
export function typeUrlOf(fullName: string): string {
  return `type.googleapis.com/${fullName}`;
}
