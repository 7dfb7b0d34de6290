/**
 * `@anvil/protocol-rpcv2cbor`: the `smithy.protocols#rpcv2Cbor` protocol,
 * client and server sides.
 *
 * @packageDocumentation
 */
export { rpcv2Cbor } from "./rpcv2-cbor.js";
export type { RpcV2CborProtocol } from "./rpcv2-cbor.js";
