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

/**
 * The options of `session.request` for each kind of request, made once
 * (Node copies them). A request without a body ends its stream with its
 * headers; one with trailers keeps it open for them.
 */
const NO_BODY = Object.freeze({ endStream: true });
const WITH_BODY = Object.freeze({ endStream: false });
const WITH_TRAILERS = Object.freeze({ endStream: false, waitForTrailers: true });

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
      const target = targetOf(request.url);
      const origin = target.origin;
      const headers = headersOf(request, target);
      const options = request.trailers !== undefined ? WITH_TRAILERS : request.body === undefined ? NO_BODY : WITH_BODY;
      let stream: ClientHttp2Stream;
      try {
        try {
          stream = sessionFor(origin).request(headers, options);
        } catch (error) {
          // The session got GOAWAY or closed just now: nothing was sent, so a fresh session may take it.
          if (!STALE_SESSION_CODES.has(codeOf(error) ?? "")) throw error;
          sessions.delete(origin);
          stream = sessionFor(origin).request(headers, options);
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

/** Counts a stream in flight on its session (see {@link release}). */
function holdOpen(session: Http2Session | undefined): void {
  if (session === undefined) return;
  const count = inFlight.get(session) ?? 0;
  inFlight.set(session, count + 1);
  if (count === 0) session.ref();
}

/** Counts a stream of {@link holdOpen} out once it closed. */
function release(session: Http2Session | undefined): void {
  if (session === undefined) return;
  const left = (inFlight.get(session) ?? 1) - 1;
  inFlight.set(session, left);
  if (left === 0 && !session.destroyed) session.unref();
}

/** What a request's head takes from its URL. */
interface Target {
  /** The `href` it was read from: the same string while the URL is not changed. */
  readonly href: string;
  readonly origin: string;
  readonly path: string;
  readonly authority: string;
  readonly scheme: string;
}

/** The targets of URLs seen: a client hands the same URL to the calls of one path (each getter of a URL makes a string). */
const targets = new WeakMap<URL, Target>();

function targetOf(url: URL): Target {
  const known = targets.get(url);
  if (known !== undefined && known.href === url.href) return known;
  const target: Target = {
    href: url.href,
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    authority: url.host,
    scheme: url.protocol.slice(0, -1),
  };
  targets.set(url, target);
  return target;
}

function headersOf(request: TransportRequest, target: Target): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {
    [METHOD]: request.method,
    [PATH]: target.path,
    [AUTHORITY]: target.authority,
    [SCHEME]: target.scheme,
  };
  const headers = request.headers;
  if (headers instanceof HttpHeaders) {
    // A copy of its list: no callback per field.
    const fields = HttpHeaders.fieldList(headers);
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i]!;
      if (CONNECTION_HEADERS.has(name)) continue;
      const value = fields[i + 1]!;
      // `set-cookie` comes a field at a time; any other name once, its values joined.
      const had = out[name];
      out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had as string, value];
    }
  } else {
    headers.forEach((value, name) => {
      if (!CONNECTION_HEADERS.has(name)) out[name] = value;
    });
  }
  return out;
}

/**
 * One exchange on a stream: the promise of its response head, then its
 * body and trailers. Its listeners are functions shared by every exchange
 * (the stream they are called on leads to it), not closures made per call.
 */
class Exchange implements AsyncIterableIterator<Uint8Array, undefined> {
  /** Settles the promise `send` returned; undefined once it has. */
  settleHead: { resolve(response: HttpResponse): void; reject(error: unknown): void } | undefined;
  /** The body's reader waiting for bytes or the end, and the promise it was given. */
  reader: { resolve(result: IteratorResult<Uint8Array, undefined>): void; reject(error: unknown): void } | undefined;
  waiting: Promise<IteratorResult<Uint8Array, undefined>> | undefined;
  /** The reader stopped (`return`): the body gives nothing more. */
  returned = false;
  /** What the body fails with, once it has failed. */
  failure: unknown;
  /** Settles the response's trailers (once they came, or empty ones once the stream closed without them); undefined once it has. */
  settleTrailers: ((trailers: Headers) => void) | undefined;
  /** The response's `content-length`, which its body must match (none for HEAD, 204, 304). */
  contentLength: string | undefined;
  /** Body bytes read so far. */
  received = 0;
  /** The body has ended (`end`, or trailers, which end the stream), or the stream closed. */
  ended = false;
  closed = false;
  /** Whether the body's own listeners (`readable`, `end`) are on: only once a reader had to wait. */
  listening = false;

  constructor(
    readonly stream: ClientHttp2Stream,
    /** Node takes a stream's session away when it is destroyed, before its error is emitted. */
    readonly session: Http2Session | undefined,
    readonly request: TransportRequest,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    // A read asked for while another waits comes after it, as a generator's would.
    const waiting = this.waiting;
    if (waiting !== undefined) {
      const after = (): Promise<IteratorResult<Uint8Array, undefined>> => this.next();
      return waiting.then(after, after);
    }
    if (this.returned) return Promise.resolve(DONE);
    const signal = this.request.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.failure !== undefined) return Promise.reject(this.failure);
    // Paused mode: bytes are taken from the stream only as they are asked for (HTTP/2 flow control does the rest).
    const chunk = this.closed ? null : (this.stream.read() as Uint8Array | null);
    if (chunk !== null) {
      this.received += chunk.byteLength;
      return Promise.resolve({ done: false, value: chunk });
    }
    // `readableEnded`: the end was emitted while the body's listeners were not on.
    if (!this.ended && this.stream.readableEnded) this.ended = true;
    if (this.ended || this.closed) return this.settled();
    if (!this.listening) {
      // A body that came whole with its head never gets here: no listener, no event for it. (Node's servers send the head first.)
      this.listening = true;
      this.stream.on("readable", onReadable).on("end", onEnd);
    }
    const read = new Promise<IteratorResult<Uint8Array, undefined>>((resolve, reject) => (this.reader = { resolve, reject }));
    this.waiting = read;
    return read;
  }

  /** The signal's listener (an `EventListener` object: no closure per call): the exchange is cancelled. */
  handleEvent(): void {
    this.stream.close(NGHTTP2_CANCEL);
  }

  /** The reader stops: a body still coming is cancelled (the stream reset), one that has ended is left as it is. */
  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (!this.ended && !this.closed && !this.stream.destroyed) this.stream.destroy();
    this.returned = true;
    const reader = this.reader;
    this.reader = this.waiting = undefined;
    reader?.resolve(DONE);
    return Promise.resolve(DONE);
  }

  /** The end of the body: done, or the error of a body cut short. */
  settled(): Promise<IteratorResult<Uint8Array, undefined>> {
    const error = this.shortfall();
    if (error === undefined) return Promise.resolve(DONE);
    this.failure = error;
    return Promise.reject(error);
  }

  /**
   * Why a body that has no more bytes did not end well, if it did not.
   * Node ends the readable side of a reset stream as if the body were
   * complete, so a body cut short is told here: the caller aborted, the
   * server reset the stream with an error code, the stream closed before
   * its end, or fewer bytes came than its `content-length` said (a server
   * may reset with NO_ERROR).
   */
  shortfall(): unknown {
    const signal = this.request.signal;
    if (signal?.aborted) return signal.reason;
    const stream = this.stream;
    const code = stream.rstCode;
    if (code !== undefined && code !== NGHTTP2_NO_ERROR) {
      return new TransportError("ERR_HTTP2_STREAM_ERROR", `http2: the server reset stream ${stream.id} (code ${code}) before its body ended`);
    }
    if (!this.ended) return new TransportError("ERR_HTTP2_STREAM_ERROR", `http2: stream ${stream.id} closed before its body ended`);
    const length = this.contentLength;
    if (length !== undefined && this.received !== Number(length)) {
      return new TransportError(
        "ERR_HTTP2_STREAM_ERROR",
        `http2: stream ${stream.id} ended after ${this.received} of the ${length} bytes its content-length announced`,
      );
    }
    return undefined;
  }

  /** Hands the waiting reader what there is now: bytes, the end, or the failure. */
  wake(): void {
    const reader = this.reader;
    if (reader === undefined) return;
    this.reader = this.waiting = undefined;
    this.next().then(reader.resolve, reader.reject);
  }

  gotTrailers(trailers: Headers): void {
    const settle = this.settleTrailers;
    this.settleTrailers = undefined;
    settle?.(trailers);
  }
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/** The exchange a stream carries, for the shared listeners. */
const EXCHANGE = Symbol("anvil.http2.exchange");
type Carrier = ClientHttp2Stream & { [EXCHANGE]: Exchange };

/** A closed stream, let go of its exchange. */
type Closed = ClientHttp2Stream & { [EXCHANGE]: undefined };

function onResponse(this: Carrier, head: IncomingHttpHeaders, _flags: number, raw: readonly string[] | undefined): void {
  const x = this[EXCHANGE];
  const settle = x.settleHead;
  if (settle === undefined) return;
  x.settleHead = undefined;
  const status = Number(head[STATUS]);
  // An answer to HEAD, a 204 and a 304 carry no body, whatever their content-length says.
  if (x.request.method !== "HEAD" && status !== 204 && status !== 304) x.contentLength = head["content-length"];
  // The fields as they came (Node's flat list, pseudo-headers left out by HttpHeaders): no object in between.
  const headers = raw === undefined ? toHeaders(head) : HttpHeaders.fromRawPairs(raw);
  // A plain object of own properties: callers copy responses with a spread.
  const trailers = new Promise<Headers>((resolve) => (x.settleTrailers = resolve));
  settle.resolve({ status, headers, body: x, trailers });
}

function onTrailers(this: Carrier, head: IncomingHttpHeaders, _flags: number, raw: readonly string[] | undefined): void {
  const x = this[EXCHANGE];
  x.gotTrailers(raw === undefined ? toHeaders(head) : HttpHeaders.fromRawPairs(raw));
  // Trailers end the stream (END_STREAM): what the stream holds now is the whole body.
  x.ended = true;
}

function onReadable(this: Carrier): void {
  this[EXCHANGE].wake();
}

function onEnd(this: Carrier): void {
  const x = this[EXCHANGE];
  x.ended = true;
  x.wake();
}

function onError(this: Carrier, error: Error): void {
  const x = this[EXCHANGE];
  const signal = x.request.signal;
  const settle = x.settleHead;
  if (settle !== undefined) {
    x.settleHead = undefined;
    settle.reject(signal?.aborted ? signal.reason : streamError(this, x.session, error));
    return;
  }
  if (x.failure === undefined && !x.ended) x.failure = signal?.aborted ? signal.reason : transportErrorOf(error);
  x.wake();
}

/**
 * The stream's one close listener takes the exchange's listeners off, and
 * the exchange itself: Node keeps a closed stream until a full collection,
 * and with it whatever it holds (the request, the response's trailers).
 */
function onClose(this: Carrier): void {
  const x = this[EXCHANGE];
  (this as ClientHttp2Stream as Closed)[EXCHANGE] = undefined;
  this.off("error", onError).off("trailers", onTrailers).off("response", onResponse).off("close", onClose);
  if (x.listening) this.off("readable", onReadable).off("end", onEnd);
  x.request.signal?.removeEventListener("abort", x);
  release(x.session);
  x.closed = true;
  x.gotTrailers(new HttpHeaders());
  const settle = x.settleHead;
  if (settle !== undefined) {
    x.settleHead = undefined;
    const signal = x.request.signal;
    settle.reject(signal?.aborted ? signal.reason : streamError(this, x.session, undefined));
    return;
  }
  x.wake();
}

/** Writes the body, and resolves with the response head; the body streams from there. */
function exchange(stream: ClientHttp2Stream, request: TransportRequest): Promise<HttpResponse> {
  const session = stream.session;
  const x = new Exchange(stream, session, request);
  (stream as Carrier)[EXCHANGE] = x;
  holdOpen(session);
  // The exchange is the signal's listener (`handleEvent`): no closure per call.
  request.signal?.addEventListener("abort", x, { once: true });
  const head = new Promise<HttpResponse>((resolve, reject) => (x.settleHead = { resolve, reject }));
  stream.on("error", onError).on("trailers", onTrailers).on("response", onResponse).on("close", onClose);
  const body = request.body;
  if (request.trailers === undefined && (body === undefined || body instanceof Uint8Array || typeof body === "string")) {
    // The common case, at once: a stream without a body was ended with its headers.
    if (body !== undefined) stream.end(body);
  } else {
    writeBody(stream, request).catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  }
  return head;
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

/** Fields from Node's object of them, where it gives no flat list. */
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
