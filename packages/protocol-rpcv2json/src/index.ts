/**
 * `@anvil/protocol-rpcv2json`: the `smithy.protocols#rpcv2Json` protocol,
 * client and server sides.
 *
 * @packageDocumentation
 */
export { rpcv2Json } from "./rpcv2-json.js";
export type { RpcV2JsonProtocol } from "./rpcv2-json.js";
