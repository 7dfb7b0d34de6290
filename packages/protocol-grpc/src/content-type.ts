/**
 * gRPC's media types.
 *
 * @internal
 */
import { baseMediaType } from "@anvil/core/protocol";

/** The media type Anvil sends. */
export const GRPC_PROTO = "application/grpc+proto";

/** Whether a `Content-Type` is gRPC's with protobuf messages (`application/grpc` or `application/grpc+proto`, parameters ignored). */
export function isGrpcContentType(value: string | null): boolean {
  // What callers send, compared as it is before it is taken apart.
  if (value === GRPC_PROTO || value === "application/grpc") return true;
  if (value === null) return false;
  const type = baseMediaType(value);
  return type === "application/grpc" || type === GRPC_PROTO;
}

/** Whether a `Content-Type` is any gRPC one (`application/grpc+json` included): such a caller expects a gRPC answer. */
export function isAnyGrpcContentType(value: string | null): boolean {
  // What gRPC peers send, compared as it is before a lower-case copy is made.
  if (value === GRPC_PROTO || value === "application/grpc") return true;
  return value !== null && value.toLowerCase().startsWith("application/grpc");
}
