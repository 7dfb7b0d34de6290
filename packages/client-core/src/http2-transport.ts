/**
 * An HTTP/2 transport on `node:http2`: one session per origin, shared by
 * every call, opened on first use and opened again after the server sends
 * GOAWAY or the connection closes. `https:` endpoints use TLS (ALPN `h2`),
 * `http:` endpoints cleartext HTTP/2 (h2c, prior knowledge).
 *
 * The module takes `node:http2`'s `connect` as a value (no import of a Node
 * module at run time): `@anvil/client-core/node` passes it, and a client
 * whose protocol needs HTTP/2 makes one itself where the platform has it.
 */
import type {
  ClientHttp2Session,
  ClientHttp2Stream,
  connect as Connect,
  Http2Session,
  IncomingHttpHeaders,
  OutgoingHttpHeaders,
  SecureClientSessionOptions,
} from "node:http2";
import { byteChunks, HttpHeaders, type HttpResponse, TransportError } from "@anvil/core";
import { CONNECTION_FIELDS } from "@anvil/core/protocol";
import type { Transport, TransportRequest } from "./transport.js";

/** Settings of {@link http2Transport}. */
export interface Http2TransportOptions {
  /** Options for `http2.connect` (TLS settings such as `ca`, `rejectUnauthorized`). */
  readonly connect?: SecureClientSessionOptions;
}

/** Headers HTTP/2 forbids (RFC 9113 §8.2.2), and HTTP/1.1's upgrade to it; `host` becomes `:authority`. */
const CONNECTION_HEADERS: ReadonlySet<string> = new Set([...CONNECTION_FIELDS, "host", "http2-settings"]);

/** Errors of `session.request` on a session that can take no new streams. */
const STALE_SESSION_CODES = new Set(["ERR_HTTP2_GOAWAY_SESSION", "ERR_HTTP2_INVALID_SESSION"]);

/** `node:http2`'s pseudo-headers and the stream error codes the transport uses. */
const METHOD = ":method";
const PATH = ":path";
const AUTHORITY = ":authority";
const SCHEME = ":scheme";
const STATUS = ":status";
const NGHTTP2_REFUSED_STREAM = 7;
const NGHTTP2_NO_ERROR = 0;
const NGHTTP2_CANCEL = 8;

/** A transport over HTTP/2 sessions made by `connect`. Call `close()` to end its sessions. */
export function createHttp2Transport(connect: typeof Connect, options: Http2TransportOptions = {}): Transport & { close(): Promise<void> } {
  // The session new calls of each origin go to.
  const sessions = new Map<string, ClientHttp2Session>();
  // Every session not yet closed: the current ones, and those draining their streams after GOAWAY.
  const open = new Set<ClientHttp2Session>();

  const sessionFor = (origin: string): ClientHttp2Session => {
    const existing = sessions.get(origin);
    if (existing !== undefined && !existing.closed && !existing.destroyed) return existing;
    const session = connect(origin, options.connect);
    sessions.set(origin, session);
    open.add(session);
    const forget = () => {
      if (sessions.get(origin) === session) sessions.delete(origin);
    };
    // The listeners stay until the session closes. Streams in flight fail on their own; the session's
    // error must not become an uncaught exception, however late it comes.
    session.on("error", forget);
    session.on("goaway", (code: number, lastStreamId: number) => {
      forget();
      goaways.set(session, { code, lastStreamId });
    });
    session.on("close", () => {
      forget();
      open.delete(session);
    });
    session.unref();
    return session;
  };

  const transport = {
    httpVersion: "2" as const,
    send(request: TransportRequest): Promise<HttpResponse> {
      if (request.signal?.aborted) return Promise.reject(request.signal.reason);
      const url = request.url;
      const options = { endStream: request.body === undefined && request.trailers === undefined, waitForTrailers: request.trailers !== undefined };
      const start = () => sessionFor(url.origin).request(headersOf(request), options);
      let stream: ClientHttp2Stream;
      try {
        try {
          stream = start();
        } catch (error) {
          // The session got GOAWAY or closed just now: nothing was sent, so a fresh session may take it.
          if (!STALE_SESSION_CODES.has(codeOf(error) ?? "")) throw error;
          sessions.delete(url.origin);
          stream = start();
        }
      } catch (error) {
        return Promise.reject(transportErrorOf(error));
      }
      return exchange(stream, request);
    },
    async close(): Promise<void> {
      const closing = [...open];
      sessions.clear();
      // A destroyed session is done (its socket may still wait for the server's FIN): `close` would never call back.
      await Promise.all(closing.map((s) => new Promise<void>((resolve) => (s.closed || s.destroyed ? resolve() : s.close(() => resolve())))));
    },
  };
  openSessions.set(transport, open);
  return transport;
}

/** The sessions of each transport that are not closed yet, for {@link openSessionCount}. */
const openSessions = new WeakMap<Transport, ReadonlySet<ClientHttp2Session>>();

/**
 * How many sessions of a transport made by {@link createHttp2Transport} are
 * still open: the one new calls go to, and any draining the streams they
 * had when the server sent GOAWAY. A session that has ended its side waits
 * for the server to close the connection, and no longer counts.
 *
 * @internal For tests; not exported from the package.
 */
export function openSessionCount(transport: Transport): number {
  let count = 0;
  for (const session of openSessions.get(transport) ?? []) if (!session.destroyed) count++;
  return count;
}

/** The GOAWAY a session received: streams above `lastStreamId` were never processed (RFC 9113 §6.8). */
const goaways = new WeakMap<Http2Session, { readonly code: number; readonly lastStreamId: number }>();

/** Streams in flight per session: a session keeps the process alive only while it has some. */
const inFlight = new WeakMap<Http2Session, number>();

/** Counts a stream in flight on its session; returns what counts it out when it closes. */
function holdOpen(stream: ClientHttp2Stream): () => void {
  const session = stream.session;
  if (session === undefined) return () => {};
  inFlight.set(session, (inFlight.get(session) ?? 0) + 1);
  session.ref();
  return () => {
    const left = (inFlight.get(session) ?? 1) - 1;
    inFlight.set(session, left);
    if (left === 0 && !session.destroyed) session.unref();
  };
}

function headersOf(request: TransportRequest): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {
    [METHOD]: request.method,
    [PATH]: `${request.url.pathname}${request.url.search}`,
    [AUTHORITY]: request.url.host,
    [SCHEME]: request.url.protocol.slice(0, -1),
  };
  request.headers.forEach((value, name) => {
    if (!CONNECTION_HEADERS.has(name)) out[name] = value;
  });
  return out;
}

/** Writes the body, and resolves with the response head; the body streams from there. */
function exchange(stream: ClientHttp2Stream, request: TransportRequest): Promise<HttpResponse> {
  // Node takes a stream's session away when it is destroyed, before its error is emitted.
  const session = stream.session;
  const release = holdOpen(stream);
  const signal = request.signal;
  const onAbort = (): void => void stream.close(NGHTTP2_CANCEL);
  signal?.addEventListener("abort", onAbort, { once: true });

  return new Promise<HttpResponse>((resolve, reject) => {
    let headed = false;
    let resolveTrailers!: (trailers: Headers) => void;
    const trailers = new Promise<Headers>((settle) => (resolveTrailers = settle));
    const onError = (error: Error): void => {
      if (!headed) reject(signal?.aborted ? signal.reason : streamError(stream, session, error));
    };
    const onTrailers = (head: IncomingHttpHeaders): void => resolveTrailers(toHeaders(head));
    const onResponse = (head: IncomingHttpHeaders): void => {
      headed = true;
      const status = Number(head[STATUS]);
      // An answer to HEAD, a 204 and a 304 carry no body, whatever their content-length says.
      const length = request.method === "HEAD" || status === 204 || status === 304 ? undefined : head["content-length"];
      resolve({ status, headers: toHeaders(head), body: bodyOf(stream, signal, length), trailers });
    };
    // The stream's one close listener takes the exchange's listeners off: Node keeps a closed stream until a
    // full collection, and with it whatever its listeners hold (the response among them).
    const onClose = (): void => {
      stream.off("error", onError).off("trailers", onTrailers).off("response", onResponse).off("close", onClose);
      signal?.removeEventListener("abort", onAbort);
      release();
      resolveTrailers(new HttpHeaders());
      if (!headed) reject(signal?.aborted ? signal.reason : streamError(stream, session, undefined));
    };
    stream.on("error", onError).on("trailers", onTrailers).on("response", onResponse).on("close", onClose);
    writeBody(stream, request).catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  });
}

/**
 * Writes the request body as it is read, with back-pressure. A plain loop
 * rather than `stream.pipeline`: a pipeline whose source hangs keeps the
 * session from closing after the stream is cancelled.
 */
async function writeBody(stream: ClientHttp2Stream, request: TransportRequest): Promise<void> {
  const body = request.body;
  if (request.trailers !== undefined) {
    const trailers = request.trailers;
    stream.once("wantTrailers", () => {
      trailers.then(
        (headers) => {
          if (!stream.destroyed) stream.sendTrailers(Object.fromEntries(headersEntries(headers)));
        },
        (error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }
  if (body === undefined) {
    if (request.trailers !== undefined) stream.end(); // the stream is open for the trailers
    return;
  }
  if (body instanceof Uint8Array || typeof body === "string") {
    stream.end(body);
    return;
  }
  for await (const chunk of byteChunks(body)) {
    if (stream.destroyed) return;
    if (!stream.write(chunk)) await drained(stream);
  }
  if (!stream.destroyed) stream.end();
}

function drained(stream: ClientHttp2Stream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}

function headersEntries(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, name) => out.push([name, value]));
  return out;
}

/**
 * The response body: the stream's chunks (Buffers are Uint8Arrays), errors
 * as TransportErrors. Node ends the readable side of a reset stream as if
 * the body were complete, so a body cut short fails here instead of ending
 * quietly: when the caller aborted, when the server reset the stream with
 * an error code, or when fewer bytes came than its `content-length` said
 * (a server may reset with NO_ERROR).
 */
async function* bodyOf(stream: ClientHttp2Stream, signal: AbortSignal | undefined, contentLength: string | undefined): AsyncIterable<Uint8Array> {
  let received = 0;
  try {
    for await (const chunk of stream) {
      received += (chunk as Uint8Array).byteLength;
      yield chunk as Uint8Array;
    }
  } catch (error) {
    throw signal?.aborted ? signal.reason : transportErrorOf(error);
  }
  if (signal?.aborted) throw signal.reason;
  const code = stream.rstCode;
  if (code !== undefined && code !== NGHTTP2_NO_ERROR) {
    throw new TransportError("ERR_HTTP2_STREAM_ERROR", `http2: the server reset stream ${stream.id} (code ${code}) before its body ended`);
  }
  if (contentLength !== undefined && received !== Number(contentLength)) {
    throw new TransportError(
      "ERR_HTTP2_STREAM_ERROR",
      `http2: stream ${stream.id} ended after ${received} of the ${contentLength} bytes its content-length announced`,
    );
  }
}

function toHeaders(head: IncomingHttpHeaders): Headers {
  const headers = new HttpHeaders();
  for (const [name, value] of Object.entries(head)) {
    if (name.startsWith(":") || value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  return headers;
}

/**
 * Why a stream failed before its response came. A stream the server never
 * processed is reported as `REFUSED_STREAM` (one of the unsent codes, so
 * that even a call that is not idempotent may be sent again): one the server
 * refused, and one above the last stream id of a GOAWAY (RFC 9113 §6.8 and
 * §8.7), whatever the GOAWAY's code, or one never sent at all.
 */
function streamError(stream: ClientHttp2Stream, session: Http2Session | undefined, error: Error | undefined): TransportError {
  const goaway = session === undefined ? undefined : goaways.get(session);
  if (goaway !== undefined && (stream.id === undefined || stream.id > goaway.lastStreamId)) {
    return new TransportError(
      "REFUSED_STREAM",
      `http2: the server sent GOAWAY (code ${goaway.code}, last stream ${goaway.lastStreamId}) without processing stream ${stream.id ?? "(not sent)"}`,
      error === undefined ? {} : { cause: error },
    );
  }
  if (stream.rstCode === NGHTTP2_REFUSED_STREAM) {
    return new TransportError("REFUSED_STREAM", `http2: the server refused stream ${stream.id}`, error === undefined ? {} : { cause: error });
  }
  if (error !== undefined) return transportErrorOf(error);
  return new TransportError("ERR_HTTP2_STREAM_CLOSED", `http2: the stream closed before a response (code ${stream.rstCode ?? "none"})`);
}

function transportErrorOf(error: unknown): TransportError {
  if (TransportError.is(error)) return error;
  let code = codeOf(error) ?? "NetworkError";
  // A stream still pending when its session failed to connect: the session's error says why.
  if (code === "ERR_HTTP2_STREAM_CANCEL") code = codeOf((error as { cause?: unknown }).cause) ?? code;
  const message = error instanceof Error ? error.message : String(error);
  return new TransportError(code, `http2: ${message}`, { cause: error });
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
