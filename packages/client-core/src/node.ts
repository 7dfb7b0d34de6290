/**
 * `@anvil/client-core/node`: transports that need Node's own modules.
 *
 * @packageDocumentation
 */
export { http2Transport } from "./node-http2.js";
export type { Http2TransportOptions } from "./http2-transport.js";
