/**
 * Body helpers every protocol needs, on web-standard APIs only
 * (CompressionStream works in Node 18+, Deno, Bun and browsers).
 */
import { ProtocolError, SerializationError } from "../errors/errors.js";
import { collectBytes, concatBytes } from "../values/streams.js";
import type { HttpBody } from "./http.js";
import type { ServerCallContext } from "./protocol.js";

const EMPTY = new Uint8Array(0);

/** A whole body as bytes: nothing is empty bytes, streams are collected. */
export async function readBody(body: HttpBody): Promise<Uint8Array> {
  if (body === undefined) return EMPTY;
  return collectBytes(body);
}

/** Whether bytes hold nothing but JSON whitespace (an empty body for protocols that read it as `{}`). */
export function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  }
  return true;
}

async function pipe(bytes: Uint8Array, transform: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Gzips bytes (`@requestCompression`). */
export function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return pipe(bytes, new CompressionStream("gzip"));
}

/** How much {@link gunzip} may inflate, and what it says past that. */
export interface GunzipLimit {
  /** The most bytes the output may hold. */
  readonly maxBytes: number;
  /** The error once the output passes `maxBytes`. Default: a 413 `PayloadTooLargeException` ProtocolError. */
  readonly tooLarge?: (maxBytes: number) => Error;
}

/**
 * Gunzips bytes (a request sent with `Content-Encoding: gzip`); rejects on
 * data that is not gzip. With a limit, it stops as soon as the output passes
 * it and rejects with `tooLarge`: a small body that inflates without end (a
 * zip bomb) is refused after `maxBytes`, never held whole.
 */
export async function gunzip(bytes: Uint8Array, limit?: GunzipLimit): Promise<Uint8Array> {
  if (limit === undefined) return pipe(bytes, new DecompressionStream("gzip"));
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("gzip")).getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit.maxBytes) {
      await reader.cancel();
      throw (limit.tooLarge ?? inflatedTooLarge)(limit.maxBytes);
    }
    parts.push(value);
  }
  return concatBytes(parts, size);
}

/**
 * The buffered request body limit a server applies unless configured: 1 MiB
 * (`@anvil/server` reads bodies into memory up to it); also how far
 * {@link gunzipRequest} inflates a body when the call gives no limit.
 */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Gunzips a request body (`Content-Encoding: gzip`), holding the output to
 * the call's body limit: past it, a 413 `PayloadTooLargeException`
 * ProtocolError. Data that is not gzip is a SerializationError
 * (`decode <protocol>: request body is not valid gzip`).
 */
export async function gunzipRequest(bytes: Uint8Array, context: Pick<ServerCallContext, "bodyLimit">, protocol: string): Promise<Uint8Array> {
  try {
    return await gunzip(bytes, { maxBytes: context.bodyLimit ?? DEFAULT_BODY_LIMIT });
  } catch (cause) {
    if (ProtocolError.is(cause)) throw cause;
    throw new SerializationError(`decode ${protocol}: request body is not valid gzip`, { cause });
  }
}

function inflatedTooLarge(maxBytes: number): ProtocolError {
  return new ProtocolError("PayloadTooLargeException", 413, `request body is larger than ${maxBytes} bytes once decompressed`);
}

/** Whether a message's `Content-Encoding` lists gzip. */
export function isGzipEncoded(headers: Headers): boolean {
  const encoding = headers.get("content-encoding");
  return encoding !== null && encoding.split(",").some((e) => e.trim().toLowerCase() === "gzip");
}
