/**
 * `@anvil/client-core/node`: transports that need Node's own modules.
 *
 * @packageDocumentation
 */
export { http2Transport } from "./http2-transport.js";
export type { Http2TransportOptions } from "./http2-transport.js";
