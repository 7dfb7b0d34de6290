/**
 * gRPC for Anvil (`alloy.proto#grpc`): a protobuf codec compiled from
 * schemas, `.proto` emission, and gRPC over HTTP/2 for clients and servers.
 * Nothing here needs protoc, protobufjs or grpc-js at run time.
 *
 * @packageDocumentation
 */

/** The protocol trait id this package implements. */
export const GRPC_PROTOCOL_ID = "alloy.proto#grpc";

export { compileProtobufReader, compileProtobufWriter, GoogleRpcStatusSchema, ProtoAnySchema, protobufCodec, typeUrlOf } from "./protobuf/index.js";
export type { GoogleRpcStatus, ProtoAny, ProtobufReader, ProtobufWriter } from "./protobuf/index.js";
export { emitProto, protoTypeNames } from "./emit-proto.js";
export type { EmitProtoOptions } from "./emit-proto.js";
