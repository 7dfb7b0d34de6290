/**
 * `grpc-status-details-bin`: a `google.rpc.Status` whose details are
 * `google.protobuf.Any`. Anvil puts one detail there for a modeled error:
 * the type URL names the error shape's message
 * (`type.googleapis.com/<namespace>.<Name>`), the value holds its members in
 * the message codec. The Status itself is always protobuf.
 *
 * @internal
 */
import { compileProtobufReader, compileProtobufWriter } from "./protobuf/codec.js";
import { type GoogleRpcStatus, GoogleRpcStatusSchema } from "./protobuf/google-rpc.js";

const writeStatus = compileProtobufWriter(GoogleRpcStatusSchema);
const readStatus = compileProtobufReader(GoogleRpcStatusSchema);

/** Encodes a `google.rpc.Status`. */
export function encodeRpcStatus(status: GoogleRpcStatus): Uint8Array {
  return writeStatus(status);
}

/** Decodes a `google.rpc.Status`; throws a SerializationError on bytes that are not one. */
export function decodeRpcStatus(bytes: Uint8Array): GoogleRpcStatus {
  return readStatus(bytes);
}
