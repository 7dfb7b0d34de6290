/**
 * Transports move a protocol's request to the server and bring its response
 * back. They are values, like protocols: `@anvil/client-core/node` has the
 * `node:http` one (the default on Node) and the HTTP/2 one, the fetch
 * transport is the default elsewhere, and tests pass fakes.
 */
import type { HttpBody, HttpRequest, HttpResponse } from "@anvil/core";

/** A request as a transport sends it: the protocol's request with its full URL. */
export interface TransportRequest {
  /** HTTP method, e.g. `GET` or `POST`. */
  readonly method: string;
  /** Scheme, host, path and query, ready to send. The client may hand the same URL to other calls: read it, never change it. */
  readonly url: URL;
  /** Request headers as they are to be sent (after interceptors and signing); names are case-insensitive. */
  readonly headers: Headers;
  /** Bytes, a stream (sent as it is read, never buffered), or nothing. */
  readonly body: HttpBody;
  /** Request trailers, for transports that send them. */
  readonly trailers?: Promise<Headers>;
  /**
   * Aborts the exchange, the response body included. Absent when nothing can
   * abort the call (a shared never-firing signal would collect listeners).
   */
  readonly signal?: AbortSignal;
}

/**
 * Sends requests. `send` resolves once the response head arrives; its body
 * streams. Failures below HTTP reject with a `TransportError` (see
 * `UNSENT_ERROR_CODES` for the codes that mean the request never left); an
 * aborted signal rejects with the signal's reason.
 */
export interface Transport {
  /**
   * The HTTP version the transport speaks. Protocols that need HTTP/2
   * (gRPC) refuse a transport that does not say `"2"`.
   */
  readonly httpVersion?: "1.1" | "2";
  /** Sends one request; resolves with the response once its head arrives, its body still streaming. */
  send(request: TransportRequest): Promise<HttpResponse>;
  /** Releases connections; calls made after it may reconnect. */
  close?(): Promise<void>;
}

/**
 * The URL of a protocol's request: the endpoint's scheme, the request's host
 * (protocols put `@endpoint` host prefixes there) and its already-encoded
 * path and query.
 */
export function requestUrl(endpoint: URL, request: HttpRequest): URL {
  let search = "";
  for (const [name, value] of request.query) search += `${search === "" ? "?" : "&"}${encodeQueryPart(name)}=${encodeQueryPart(value)}`;
  return new URL(`${endpoint.protocol}//${request.host ?? endpoint.host}${request.path}${search}`);
}

/** RFC 3986 percent-encoding: everything but the unreserved characters. */
function encodeQueryPart(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
