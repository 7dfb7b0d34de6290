/**
 * Header fields that belong to one connection, not to the message: HTTP/2
 * forbids them (RFC 9113 §8.2.2), so answers written over HTTP/2 and requests
 * handed over in process leave them out.
 */
export const CONNECTION_FIELDS: ReadonlySet<string> = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]);
