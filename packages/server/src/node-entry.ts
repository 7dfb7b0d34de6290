/**
 * `@anvil/server/node`: serving an Anvil server with Node's `http` and
 * `http2` modules (HTTP/1.1, h2c, TLS with ALPN). Kept apart from the main
 * entry so that fetch-based hosts never load Node built-ins.
 *
 * @packageDocumentation
 */
export { closeOnSignal, listen, nodeHandler, nodeStreamHandler, toHttpRequest as fromNodeRequest } from "./node.js";
export type { Closable, CloseOnSignalOptions, KeepalivePolicy, ListenOptions, NodeLimits, NodeListener } from "./node.js";
