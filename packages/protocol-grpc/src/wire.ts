/**
 * `@anvil/protocol-grpc/wire`: gRPC over HTTP/2 as bytes and headers, for
 * tools, proxies and tests that speak it without a client or server:
 * length-prefixed message frames (with a receive limit), `grpc-timeout`
 * values, custom and binary (`-bin`) metadata, percent-encoded
 * `grpc-message` text, the status an HTTP status maps to, and method paths.
 *
 * @packageDocumentation
 */
export { DEFAULT_MAX_RECEIVE_BYTES, frameMessage, readMessages } from "./frames.js";
export type { ReadMessagesOptions } from "./frames.js";
export { formatTimeout, parseTimeout } from "./timeout.js";
export { decodeGrpcMessage, encodeGrpcMessage } from "./message-text.js";
export { customMetadata, decodeBinaryHeader, encodeBinaryHeader, isBinaryKey } from "./metadata.js";
export { grpcPath, protoFullName } from "./names.js";
export { statusFromHttp } from "./status.js";
