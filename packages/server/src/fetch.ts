/**
 * The web-standard adapter: a `(Request) => Promise<Response>` function for
 * hosts built on the Fetch API (Bun, Deno, Cloudflare Workers, Node's own
 * `Request`; AWS Lambda through `@anvil/server/lambda`, which turns events
 * into requests for it). Bodies stream both ways; a response stream is
 * pulled only as fast as the host reads it.
 */
import { byteChunks, type ByteStream, type HttpRequest } from "@anvil/core";
import { bodyBytes, parseQuery } from "@anvil/core/protocol";
import type { Exchange, Server } from "./server.js";

/** Per-request details a host can pass next to the `Request`. */
export interface FetchInfo {
  /** The caller's address (e.g. Deno's `info.remoteAddr.hostname`, Bun's `server.requestIP(request)?.address`). */
  readonly remoteAddress?: string;
  /**
   * When the host ends the call, in epoch milliseconds (a Lambda's timeout,
   * less a margin): the call runs under it as under a protocol's deadline,
   * so the handler sees it as `context.deadline`, its signal aborts when it
   * passes, and the answer is then the protocol's deadline error.
   */
  readonly deadline?: number;
}

/** A fetch handler: what Bun's `serve({ fetch })`, `Deno.serve` and Workers' `fetch` take. */
export type FetchHandler = (request: Request, info?: FetchInfo) => Promise<Response>;

/** Options of {@link fetchHandler}. */
export interface FetchHandlerOptions {
  /**
   * Whether the handler's signal follows `request.signal`, so that a handler
   * still working on its answer learns that the client went away. Default
   * true, except on Deno: its `Deno.serve` (2.x) also aborts `request.signal`
   * after every successful response, and warns the first time code reads it
   * ("legacy behavior"); pass true there when Deno runs with
   * `--unstable-no-legacy-abort`. A streamed answer learns that the client
   * went away either way: the host cancels its body. (Workers fire
   * `request.signal` only with the `enable_request_signal` compatibility flag.)
   */
  readonly requestSignal?: boolean;
}

/** Deno's `request.signal` aborts on successful responses too unless it runs with `--unstable-no-legacy-abort`, which code cannot see. */
function legacyAbortHost(): boolean {
  return typeof (globalThis as { Deno?: unknown }).Deno === "object";
}

/**
 * The server as a fetch handler. Starts the server (route conflicts and
 * missing handlers throw here). The handler's signal fires when the
 * request's own signal does (the host saw the client go away; see
 * {@link FetchHandlerOptions.requestSignal}), when the host cancels a
 * streamed answer, and on `server.close()`. Nothing here runs when the
 * module loads, so it fits hosts that forbid work at load time (Workers).
 *
 * ```ts
 * const handle = fetchHandler(server);
 * Deno.serve((request, info) => handle(request, { remoteAddress: info.remoteAddr.hostname }));
 * ```
 */
export function fetchHandler(server: Server<any, any>, options: FetchHandlerOptions = {}): FetchHandler {
  server.start();
  const followSignal = options.requestSignal ?? !legacyAbortHost();
  return async (request, info = {}) => {
    const mounted = server.mounted(request.url);
    if (mounted !== undefined) return mounted(request);
    const exchange = server.begin();
    const signal = followSignal ? request.signal : undefined;
    const onAbort = (): void => exchange.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    const end = (): void => {
      signal?.removeEventListener("abort", onAbort);
      exchange.end();
    };
    try {
      const response = await server.dispatch(toHttpRequest(request), exchange, info);
      const init = { status: response.status, headers: response.headers };
      const body = response.body;
      if (body === undefined || body instanceof Uint8Array || typeof body === "string") {
        end();
        if (nullBodyStatus(response.status)) return new Response(null, init);
        // Text goes as it is (the host encodes it), unless `Response` would label it text/plain for want of a type.
        const content = typeof body === "string" && !response.headers.has("content-type") ? bodyBytes(body) : body;
        return new Response(content as Uint8Array<ArrayBuffer> | string, init);
      }
      return new Response(toReadableStream(body, exchange, end), init);
    } catch (error) {
      end();
      throw error;
    }
  };
}

/** Statuses whose responses cannot carry a body in the Fetch API. */
function nullBodyStatus(status: number): boolean {
  return status === 101 || status === 204 || status === 205 || status === 304;
}

/** A `Request` as the pipeline's `HttpRequest`. */
export function toHttpRequest(request: Request): HttpRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    query: parseQuery(url.search.slice(1)),
    headers: request.headers,
    body: request.body ?? undefined,
    host: url.hostname,
  };
}

/**
 * A pull-based stream over a response body: one chunk per read, so the
 * source advances only as fast as the host sends. Cancelling (the client
 * went away) stops the source and aborts the exchange.
 */
function toReadableStream(body: ByteStream, exchange: Exchange, end: () => void): ReadableStream<Uint8Array> {
  let iterator: AsyncIterator<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        iterator ??= byteChunks(body)[Symbol.asyncIterator]();
        try {
          const { done, value } = await iterator.next();
          if (done) {
            controller.close();
            end();
          } else {
            controller.enqueue(value);
          }
        } catch (error) {
          controller.error(error);
          end();
        }
      },
      async cancel(reason) {
        exchange.abort(reason);
        end();
        await iterator?.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
