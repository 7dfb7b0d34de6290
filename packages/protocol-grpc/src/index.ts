/**
 * gRPC for Anvil (`alloy.proto#grpc`): the protocol value clients and
 * servers take (`grpc()`), its status codes, and `.proto` emission. Nothing
 * here needs protoc, protobufjs or grpc-js at run time.
 *
 * The protobuf codec on its own is `@anvil/protocol-grpc/protobuf`; the
 * gRPC wire pieces (length-prefixed frames, timeouts, metadata, status
 * messages, paths) are `@anvil/protocol-grpc/wire`.
 *
 * @packageDocumentation
 */
export { GRPC_PROTOCOL_ID } from "./constants.js";
export { grpc } from "./grpc.js";
export type { GrpcProtocol } from "./grpc.js";
export type { GrpcOptions } from "./options.js";
export { GrpcStatus, statusName } from "./status.js";
export type { GrpcStatusCode, GrpcStatusName } from "./status.js";
export { emitProto, protoTypeNames } from "./emit-proto.js";
export type { EmitProtoOptions } from "./emit-proto.js";
export { grpcHealth, HealthService } from "./health.js";
export type { GrpcHealth, GrpcHealthStatus, GrpcServingStatus, HealthCheckRequest, HealthCheckResponse, HealthWatchEvent } from "./health.js";
export { grpcReflection } from "./reflection.js";
