/**
 * The request and response that protocols produce and consume. They are
 * transport-neutral (the server's Node and fetch adapters and the client's
 * transports convert them) and carry trailers, which gRPC needs.
 */
import type { ByteStream } from "../values/streams.js";
import { percentEncodingProblem } from "./percent-encoding.js";

/**
 * A body: nothing, whole bytes, whole text, or a stream of bytes. Text is
 * sent as its UTF-8 bytes; the transport encodes it as it writes (a server
 * answering with JSON text saves the encoding in JavaScript) and adds its
 * `Content-Length`.
 */
export type HttpBody = Uint8Array | string | ByteStream | undefined;

/** A whole body's bytes: text as UTF-8. */
export function bodyBytes(body: Uint8Array | string): Uint8Array {
  return typeof body === "string" ? textEncoder.encode(body) : body;
}

/** A body with text as its UTF-8 bytes, for readers of bytes and streams. */
export function binaryBody(body: HttpBody): Exclude<HttpBody, string> {
  return typeof body === "string" ? bodyBytes(body) : body;
}

const textEncoder = new TextEncoder();

/** An HTTP request as a protocol sees it. */
export interface HttpRequest {
  /** HTTP method, e.g. `GET` or `POST`. */
  readonly method: string;
  /** Path without the query, percent-encoded as on the wire (`/cities/new%20york`). */
  readonly path: string;
  /** Query parameters in order; a name may repeat. */
  readonly query: readonly (readonly [string, string])[];
  /** Request headers; names are case-insensitive. */
  readonly headers: Headers;
  /** The request body: undefined for none, else bytes, text (sent as UTF-8) or a byte stream. */
  readonly body: HttpBody;
  /** Request trailers, for protocols that stream (gRPC client streaming). */
  readonly trailers?: Promise<Headers>;
  /** Host name the request is sent to or was received on (for `@endpoint` host prefixes). */
  readonly host?: string;
}

/** An HTTP response as a protocol sees it. */
export interface HttpResponse {
  /** HTTP status code, e.g. `200`. */
  readonly status: number;
  /** Response headers; names are case-insensitive. */
  readonly headers: Headers;
  /** The response body: undefined for none, else bytes, text (sent as UTF-8) or a byte stream. */
  readonly body: HttpBody;
  /** Response trailers (gRPC `grpc-status`), resolved when the body ends. */
  readonly trailers?: Promise<Headers> | Headers;
}

/**
 * Parses a query string (without `?`) into ordered pairs, decoding `+` and
 * percent escapes. A name or value that is not valid percent-encoding is
 * kept as written (`+` still a space); {@link queryPairProblem} says which
 * pairs those are and why, for servers that refuse them.
 */
export function parseQuery(search: string): [string, string][] {
  const out: [string, string][] = [];
  if (!search) return out;
  for (const part of search.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const name = plusAsSpace(eq < 0 ? part : part.slice(0, eq));
    const value = plusAsSpace(eq < 0 ? "" : part.slice(eq + 1));
    const decodedName = safeDecode(name);
    const decodedValue = safeDecode(value);
    const pair: [string, string] = [decodedName ?? name, decodedValue ?? value];
    if (decodedName === undefined || decodedValue === undefined) {
      undecodable.set(pair, decodedName === undefined ? `in its name, ${percentEncodingProblem(name)}` : `in its value, ${percentEncodingProblem(value)}`);
    }
    out.push(pair);
  }
  return out;
}

/**
 * Why {@link parseQuery} kept this pair's name or value as written (`in
 * its value, "%zz" is not a percent-escape (% and two hex digits)`), or
 * undefined for a pair it decoded, or did not make. The pair is known by
 * identity: copying the list of pairs keeps the answer, copying a pair does
 * not.
 */
export function queryPairProblem(pair: readonly [string, string]): string | undefined {
  return undecodable.get(pair);
}

/** The pairs {@link parseQuery} could not decode, with the reason. */
const undecodable = new WeakMap<readonly [string, string], string>();

function plusAsSpace(text: string): string {
  return text.includes("+") ? text.replace(/\+/g, " ") : text;
}

/** The text percent-decoded, or undefined when it is not valid percent-encoding. */
function safeDecode(text: string): string | undefined {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
