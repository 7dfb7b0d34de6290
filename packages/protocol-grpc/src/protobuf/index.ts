/**
 * The protobuf codec: schema-compiled readers and writers following alloy's
 * Smithy ↔ protobuf mapping.
 */
export { compileProtobufReader, compileProtobufWriter, protobufCodec } from "./codec.js";
export type { ProtobufReader, ProtobufWriter } from "./codec.js";
export { GoogleRpcStatusSchema, ProtoAnySchema, typeUrlOf } from "./google-rpc.js";
export type { GoogleRpcStatus, ProtoAny } from "./google-rpc.js";
