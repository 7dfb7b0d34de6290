/**
 * The HTTP/2 transport over Node's `node:http2`.
 */
import { connect } from "node:http2";
import { createHttp2Transport, type Http2TransportOptions } from "./http2-transport.js";
import type { Transport } from "./transport.js";

/**
 * A transport over HTTP/2: one session per origin, shared by every call,
 * opened again after GOAWAY or a dropped connection. `https:` endpoints use
 * TLS (ALPN `h2`), `http:` endpoints cleartext HTTP/2 (h2c). Call `close()`
 * to end its sessions.
 */
export function http2Transport(options: Http2TransportOptions = {}): Transport & { close(): Promise<void> } {
  return createHttp2Transport(connect, options);
}
