/**
 * The buffered body limit: a request for an operation without a streaming
 * input member is read into memory, so its size is bounded. A declared
 * `Content-Length` over the limit is refused before a byte is read; a body
 * without one is counted as it streams in and refused as soon as it passes
 * the limit.
 */
import { byteChunks, type ByteStream, concatBytes, type HttpBody, type OperationSchema, ProtocolError } from "@anvil/core";

/** The default buffered body limit: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Whether an operation's input streams (a `@streaming` blob or event stream member): its body is never buffered here. */
export function hasStreamingInput(operation: OperationSchema): boolean {
  return operation.input.members.some((m) => m.traits.streaming === true);
}

/** The 413 answer, in the protocol's error format. */
export function payloadTooLarge(limit: number): ProtocolError {
  return new ProtocolError("PayloadTooLargeException", 413, `request body is larger than ${limit} bytes`);
}

/**
 * A body as bytes, refusing it with a 413 {@link ProtocolError} once it is
 * over `limit` bytes (or declares more in `contentLength`). Bytes already
 * at hand come back as they are; a stream is read into one buffer (a
 * promise), and reading stops as soon as it passes the limit: the rest of
 * the body is never pulled.
 */
export function readLimited(body: HttpBody, limit: number, contentLength: string | null): Uint8Array | undefined | Promise<Uint8Array> {
  if (contentLength !== null && Number(contentLength) > limit) throw payloadTooLarge(limit);
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) {
    if (body.byteLength > limit) throw payloadTooLarge(limit);
    return body;
  }
  if (isWholeBody(body)) return body.readWhole(limit);
  return collectLimited(byteChunks(body), limit);
}

/**
 * A request body that can hand over all its bytes at once (the Node
 * adapter's): one wait instead of one per chunk through the async-iterator
 * protocol, which matters for the small bodies most requests have.
 */
export interface WholeBody extends AsyncIterable<Uint8Array> {
  /** The whole body; rejects with {@link payloadTooLarge} as soon as it is over `limit` bytes, without reading the rest. */
  readWhole(limit: number): Promise<Uint8Array>;
}

function isWholeBody(body: ByteStream): body is WholeBody {
  return typeof (body as Partial<WholeBody>).readWhole === "function";
}

/** Reads chunks into one buffer, refusing with {@link payloadTooLarge} (and reading no further) once they pass `limit` bytes. */
export async function collectLimited(body: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) throw payloadTooLarge(limit);
    chunks.push(chunk);
  }
  return concatBytes(chunks, size);
}
