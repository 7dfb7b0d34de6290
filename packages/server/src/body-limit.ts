/**
 * The buffered body limit: a request for an operation without a streaming
 * input member is read into memory, so its size is bounded. A declared
 * `Content-Length` over the limit is refused before a byte is read; a body
 * without one is counted as it streams in and refused as soon as it passes
 * the limit.
 */
import { type HttpBody, type OperationSchema, ProtocolError } from "@anvil/core";
import { bodyBytes, DEFAULT_BODY_LIMIT, readWholeBody } from "@anvil/core/protocol";

/**
 * The buffered body limit an operation gets unless configured:
 * {@link DEFAULT_BODY_LIMIT}, or the `@length` maximum of its input's
 * `@httpPayload` blob when that is larger (the model says such bodies are
 * valid: SageMaker's invocation bodies go up to 6 MB).
 */
export function defaultBodyLimit(operation: OperationSchema): number {
  let limit = DEFAULT_BODY_LIMIT;
  for (const m of operation.input.members) {
    if (m.traits.httpPayload !== true || m.target.kind !== "blob") continue;
    const max = (m.traits.length ?? m.target.traits.length)?.max;
    if (typeof max === "number" && max > limit) limit = max;
  }
  return limit;
}

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
  if (body instanceof Uint8Array || typeof body === "string") {
    const bytes = bodyBytes(body);
    if (bytes.byteLength > limit) throw payloadTooLarge(limit);
    return bytes;
  }
  return readWholeBody(body, limit, payloadTooLarge);
}

/**
 * A request body an adapter times: told that its operation streams it, it
 * trades the deadline for all of it for a limit on how long its reader
 * waits for bytes (a long upload is not cut; a client that stops sending is).
 */
export interface TimedBody {
  streaming(): void;
}

/** Tells a request body that its operation streams it, if an adapter times it. */
export function markStreaming(body: HttpBody): void {
  if (typeof body === "object" && typeof (body as Partial<TimedBody>).streaming === "function") (body as unknown as TimedBody).streaming();
}
