/**
 * The RPC v2 CBOR protocol factory.
 */
import type { ClientProtocol, ServerProtocol } from "@anvil/core";
import { createRpcV2CborClient } from "./client.js";
import { createRpcV2CborServer } from "./server.js";

/** Both sides of RPC v2 CBOR. */
export interface RpcV2CborProtocol {
  /** For `client-core`: serializes input, reads output and errors. */
  readonly client: ClientProtocol;
  /** For `server`: routes by path and `smithy-protocol`, reads input, writes output and errors. */
  readonly server: ServerProtocol;
}

/**
 * `smithy.protocols#rpcv2Cbor`: `POST /service/<Service>/operation/<Operation>`,
 * `smithy-protocol: rpc-v2-cbor`, CBOR maps as bodies (`Content-Type:
 * application/cbor`, none for an operation without input); errors carry
 * `__type` as the absolute shape id.
 */
export function rpcv2Cbor(): RpcV2CborProtocol {
  return Object.freeze({ client: createRpcV2CborClient(), server: createRpcV2CborServer() });
}
