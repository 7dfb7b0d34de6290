/**
 * The RPC v2 JSON protocol factory.
 */
import type { ClientProtocol, ServerProtocol } from "@anvil/core";
import { createRpcV2JsonClient } from "./client.js";
import { createRpcV2JsonServer } from "./server.js";

/** Both sides of RPC v2 JSON. */
export interface RpcV2JsonProtocol {
  /** For `client-core`: serializes input, reads output and errors. */
  readonly client: ClientProtocol;
  /** For `server`: routes by path and `smithy-protocol`, reads input, writes output and errors. */
  readonly server: ServerProtocol;
}

/**
 * `smithy.protocols#rpcv2Json`: `POST /service/<Service>/operation/<Operation>`,
 * `smithy-protocol: rpc-v2-json`, JSON objects as bodies (`Content-Type:
 * application/json`, none for an operation without input), timestamps always
 * epoch seconds; errors carry `__type` as the absolute shape id.
 */
export function rpcv2Json(): RpcV2JsonProtocol {
  return Object.freeze({ client: createRpcV2JsonClient(), server: createRpcV2JsonServer() });
}
