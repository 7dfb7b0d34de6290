/**
 * The gRPC protocol factory.
 */
import type { ClientProtocol, ServerProtocol } from "@anvil/core";
import { createGrpcClient } from "./client.js";
import { type GrpcOptions, resolveGrpcOptions } from "./options.js";
import { protobufCodec } from "./protobuf/codec.js";
import { createGrpcServer } from "./server.js";

/** Both sides of gRPC. */
export interface GrpcProtocol {
  /** For `client-core` (needs an HTTP/2 transport). */
  readonly client: ClientProtocol;
  /** For `server` (serve it over HTTP/2: h2c, or TLS with ALPN). */
  readonly server: ServerProtocol;
}

/**
 * `alloy.proto#grpc`: `POST /<package>.<Service>/<Operation>` over
 * HTTP/2, length-prefixed protobuf messages, `grpc-status` trailers;
 * server, client and bidirectional streaming for `@streaming` union
 * members.
 */
export function grpc(options: Partial<GrpcOptions> = {}): GrpcProtocol {
  const resolved = resolveGrpcOptions(options, protobufCodec);
  return Object.freeze({ client: createGrpcClient(resolved), server: createGrpcServer(resolved) });
}
