/** The default transport: the platform's `fetch` (undici on Node, HTTP/1.1). */
import { byteChunks, type HttpBody, type HttpResponse, TransportError } from "@anvil/core";
import type { Transport, TransportRequest } from "./transport.js";

/** Settings of {@link fetchTransport}. */
export interface FetchTransportOptions {
  /** The `fetch` to call (default: `globalThis.fetch`, looked up per call so that test doubles apply). */
  readonly fetch?: typeof globalThis.fetch;
}

/** A transport over `fetch`. Streamed request bodies go out chunked, as they are read. */
export function fetchTransport(options: FetchTransportOptions = {}): Transport {
  return Object.freeze({
    httpVersion: "1.1" as const,
    async send(request: TransportRequest): Promise<HttpResponse> {
      const doFetch = options.fetch ?? globalThis.fetch;
      const init: RequestInit & { duplex?: "half" } = { method: request.method, headers: request.headers, redirect: "manual" };
      if (request.signal !== undefined) init.signal = request.signal;
      const body = bodyInit(request.method, request.body);
      if (body !== undefined) {
        init.body = body;
        if (body instanceof ReadableStream) init.duplex = "half";
      }
      let response: Response;
      try {
        response = await doFetch(request.url, init);
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason;
        throw transportErrorOf(error);
      }
      const received = response.body;
      return { status: response.status, headers: response.headers, body: received === null ? undefined : failingAsTransport(received, request.signal) };
    },
  });
}

function bodyInit(method: string, body: HttpBody): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (typeof body === "string") return body === "" && (method === "GET" || method === "HEAD") ? undefined : body;
  if (body instanceof Uint8Array) {
    // fetch refuses any body on GET and HEAD, even an empty one.
    if (body.byteLength === 0 && (method === "GET" || method === "HEAD")) return undefined;
    return body as Uint8Array<ArrayBuffer>;
  }
  if (body instanceof ReadableStream) return body as ReadableStream<Uint8Array<ArrayBuffer>>;
  return iterableToStream(byteChunks(body));
}

function iterableToStream(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array<ArrayBuffer>> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value as Uint8Array<ArrayBuffer>);
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}

/**
 * A response body that fails with a TransportError when the connection is
 * lost before it ends (undici says `TypeError("terminated")`), as the other
 * transports' bodies do, so that callers and retries see what happened; an
 * abort still fails it with the signal's reason. It reads from the body
 * only as its reader asks (no chunk ahead), and its cancellation cancels
 * the body.
 */
function failingAsTransport(body: ReadableStream<Uint8Array>, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          controller.error(signal?.aborted ? signal.reason : transportErrorOf(error));
          return;
        }
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** undici reports network failures as `TypeError("fetch failed")` with the system error as its cause. */
function transportErrorOf(error: unknown): TransportError {
  let code = "NetworkError";
  let message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (typeof cause === "object" && cause !== null) {
    const c = cause as { code?: unknown; message?: unknown };
    if (typeof c.code === "string") code = c.code;
    if (typeof c.message === "string") message = `${message}: ${c.message}`;
  }
  return new TransportError(code, `fetch: ${message}`, { cause: error });
}
