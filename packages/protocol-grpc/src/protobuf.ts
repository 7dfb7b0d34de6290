/**
 * `@anvil/protocol-grpc/protobuf`: the protobuf codec alone, compiled from
 * schemas following alloy's Smithy ↔ protobuf mapping, byte-compatible with
 * protoc-generated code for the `.proto` that `emitProto` writes; and the
 * `google.rpc.Status` and `google.protobuf.Any` schemas of gRPC's rich
 * error details.
 *
 * @packageDocumentation
 */
export { compileProtobufReader, compileProtobufWriter, GoogleRpcStatusSchema, ProtoAnySchema, protobufCodec, typeUrlOf } from "./protobuf/index.js";
export type { GoogleRpcStatus, ProtoAny, ProtobufReader, ProtobufWriter } from "./protobuf/index.js";
