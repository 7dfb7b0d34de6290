/**
 * `@anvil/client-core/node`: transports that need Node's own modules:
 * HTTP/1.1 over `node:http`/`node:https` (the default transport on Node)
 * and HTTP/2 over `node:http2`.
 *
 * @packageDocumentation
 */
export { nodeHttpTransport } from "./node-http-transport.js";
export type { NodeHttpTransportOptions } from "./node-http-transport.js";
export { http2Transport } from "./node-http2.js";
export type { Http2TransportOptions } from "./http2-transport.js";
