/**
 * gRPC for Anvil (`alloy.proto#grpc`): a protobuf codec compiled from
 * schemas, `.proto` emission, and gRPC over HTTP/2 for clients and servers.
 * Nothing here needs protoc, protobufjs or grpc-js at run time.
 *
 * @packageDocumentation
 */
export { GRPC_PROTOCOL_ID } from "./constants.js";
export { grpc } from "./grpc.js";
export type { GrpcProtocol } from "./grpc.js";
export type { GrpcOptions } from "./options.js";
export { GrpcStatus, statusFromHttp, statusName } from "./status.js";
export type { GrpcStatusCode, GrpcStatusName } from "./status.js";
export { DEFAULT_MAX_RECEIVE_BYTES, frameMessage, readMessages } from "./frames.js";
export type { ReadMessagesOptions } from "./frames.js";
export { formatTimeout, parseTimeout } from "./timeout.js";
export { decodeGrpcMessage, encodeGrpcMessage } from "./message-text.js";
export { customMetadata, decodeBinaryHeader, encodeBinaryHeader, isBinaryKey } from "./metadata.js";
export { grpcPath, protoFullName } from "./names.js";
export { compileProtobufReader, compileProtobufWriter, GoogleRpcStatusSchema, ProtoAnySchema, protobufCodec, typeUrlOf } from "./protobuf/index.js";
export type { GoogleRpcStatus, ProtoAny, ProtobufReader, ProtobufWriter } from "./protobuf/index.js";
export { emitProto, protoTypeNames } from "./emit-proto.js";
export type { EmitProtoOptions } from "./emit-proto.js";
