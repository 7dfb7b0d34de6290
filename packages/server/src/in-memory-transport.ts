/**
 * A client transport with no socket: a client's requests go to a server in
 * the same process, down the path the Node and fetch adapters feed (mounts,
 * routing, body limits, deserialization, validation, the handler, errors in
 * the protocol's format), and its answers come back as a transport's
 * responses. Like connect-es's `createRouterTransport`: for tests of a typed
 * client against a real server, and for calling a service in process.
 */
import { byteChunks, type ByteStream, type HttpBody, HttpHeaders, type HttpRequest, type HttpResponse, TransportError } from "@anvil/core";
import { bodyBytes, parseQuery, readBody } from "@anvil/core/protocol";
import { CONNECTION_FIELDS } from "@anvil/core/protocol";
import { bareInternalError } from "./dispatcher.js";
import type { MountedHandler } from "./mounts.js";
import type { Exchange, ExchangeInfo, Server } from "./server.js";

/** Settings of {@link createInMemoryTransport}. */
export interface InMemoryTransportOptions {
  /**
   * The caller's address, as handlers see it (`context.remoteAddress`).
   * Default undefined: there is no peer, and a made-up value would pass for
   * an IP with code that reads one (rate limits, logs). Tests of such code
   * set one, e.g. `"127.0.0.1"`.
   */
  readonly remoteAddress: string | undefined;
}

/**
 * A request as a client hands it to its transport: `@anvil/client-core`'s
 * `TransportRequest`, spelled out here because `@anvil/server` imports
 * nothing but `@anvil/core`.
 */
export interface InMemoryTransportRequest {
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The full URL; the server gets its path, query and host name. */
  readonly url: URL;
  /** The header fields; connection-specific ones (`connection`, `host`, ...) stay behind, as over HTTP/2. */
  readonly headers: Headers;
  /** Bytes, text, a stream (handed to the server as a stream, read as the server reads it), or nothing. */
  readonly body: HttpBody;
  /** Request trailers (gRPC client streaming), handed to the server's request. */
  readonly trailers?: Promise<Headers>;
  /** Aborts the call: the handler's signal fires, and so does a read of the answer's body. */
  readonly signal?: AbortSignal;
}

/**
 * A transport that hands requests to a server in process. It has the shape
 * of `@anvil/client-core`'s `Transport`, so a client takes it as it is:
 * `createClient(Weather, { endpoint, protocols, transport })`.
 */
export interface InMemoryTransport {
  /**
   * `"2"`: like HTTP/2, it carries trailers and streams both ways at once,
   * which is what protocols that need HTTP/2 (gRPC) ask of a transport.
   */
  readonly httpVersion: "2";
  /**
   * Serves one request. Resolves once the server has answered (its head: a
   * streamed body is pulled as the caller reads it); rejects with the
   * signal's reason when the call is aborted first, and with a
   * `TransportError` when the request cannot be handed over at all.
   */
  send(request: InMemoryTransportRequest): Promise<HttpResponse>;
}

const DEFAULTS: InMemoryTransportOptions = Object.freeze({ remoteAddress: undefined });

/**
 * A client transport that hands every request to `server` in the same
 * process, with no socket: serialization, routing, body limits, validation
 * and error mapping are the real ones, for every protocol, gRPC included.
 * Starts the server (route conflicts and missing handlers throw here).
 *
 * What crosses is what a socket would carry, as HTTP/2 carries it:
 *
 * - the request's path, query and host name come from its URL (nothing
 *   connects to that host); connection-specific fields (`connection`,
 *   `host`, `transfer-encoding`, ...) are left out, as HTTP/2 leaves them;
 * - headers, trailers and body bytes are copies: neither side sees what the
 *   other later does to its objects;
 * - a body crosses in the form it was written in: bytes as bytes (text as
 *   its UTF-8 bytes), a stream as a stream, pulled chunk by chunk as the
 *   reader asks, so event streams and streaming blobs go both ways, and a
 *   stream the server answers without reading is stopped;
 * - the server's buffered body limits apply as over a socket (a 413 before
 *   reading for a declared `Content-Length` over the limit, else as soon as
 *   the count passes it);
 * - a whole answer gets the `Content-Length` the Node adapter gives it; an
 *   answer to `HEAD`, and a 204 or 304, has no body;
 * - the caller's signal aborts the handler's (with "the client went away"),
 *   as does a caller that stops reading a streamed answer; a streamed answer
 *   that fails half-way fails the caller's read with a `TransportError`
 *   that tells nothing of the server's error.
 *
 * Mounted handlers are served too, with the request's body read whole.
 * What a Node listener adds in front of the server (header size and count
 * limits, request timeouts, `Date` and `Connection` fields) is not there.
 *
 * ```ts
 * const weather = createClient(Weather, {
 *   endpoint: "http://weather.test",
 *   protocols: [restJson1()],
 *   transport: createInMemoryTransport(server),
 * });
 * ```
 */
export function createInMemoryTransport(server: Server<any, any>, options: Partial<InMemoryTransportOptions> = {}): InMemoryTransport {
  server.start();
  const settings: InMemoryTransportOptions = { ...DEFAULTS, ...options };
  const info: ExchangeInfo = Object.freeze({ remoteAddress: settings.remoteAddress });
  return Object.freeze({
    httpVersion: "2" as const,
    send(request: InMemoryTransportRequest): Promise<HttpResponse> {
      if (request.signal?.aborted === true) return Promise.reject(request.signal.reason);
      const mounted = server.mounted(`${request.url.pathname}${request.url.search}`);
      if (mounted !== undefined) return sendMounted(mounted, request);
      return dispatch(server, request, info);
    },
  });
}

/** Hands a request to the server's pipeline and its answer back. */
function dispatch(server: Server<any, any>, request: InMemoryTransportRequest, info: ExchangeInfo): Promise<HttpResponse> {
  const call = new Call(server.begin(), request.signal);
  let handed: HttpRequest;
  try {
    handed = pipelineRequest(request, call);
  } catch (error) {
    call.end();
    return Promise.reject(new TransportError("InvalidRequest", `in-memory: the request cannot be sent: ${messageOf(error)}`, { cause: error }));
  }
  let answer: Promise<HttpResponse>;
  try {
    answer = server.dispatch(handed, call.exchange, info);
  } catch (error) {
    answer = Promise.reject(error);
  }
  // The dispatcher never rejects; if the server still fails, the caller gets the bare 500 a Node adapter sends.
  const response = answer.then(
    (r) => clientResponse(r, call, request.method),
    () => clientResponse(bareInternalError(), call, request.method),
  );
  // The call ends as the answer is made (a whole answer is all there): only an early stop wins over the answer.
  return untilStopped(response, call, false);
}

/** The request as the pipeline takes it, its body handed over through the call. */
function pipelineRequest(request: InMemoryTransportRequest, call: Call): HttpRequest {
  const url = request.url;
  const out: { -readonly [K in keyof HttpRequest]: HttpRequest[K] } = {
    method: request.method,
    path: url.pathname,
    query: parseQuery(url.search.slice(1)),
    headers: requestHeaders(request.headers),
    body: requestBody(request.body, call),
  };
  // As the Node adapters give it: `[::1]` as `::1`.
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (host !== "") out.host = host;
  if (request.trailers !== undefined) {
    const trailers = request.trailers.then(copyHeaders);
    // Read by few servers: a failure nobody reads is not an unhandled rejection.
    trailers.catch(ignore);
    out.trailers = trailers;
  }
  return out;
}

/** Fields HTTP/2 also leaves out of a request: `host` travels as `:authority`, `http2-settings` only upgrades HTTP/1.1. */
const REQUEST_ONLY_FIELDS: ReadonlySet<string> = new Set(["host", "http2-settings"]);

function requestHeaders(headers: Headers): HttpHeaders {
  const out = new HttpHeaders();
  headers.forEach((value, name) => {
    if (!CONNECTION_FIELDS.has(name) && !REQUEST_ONLY_FIELDS.has(name)) out.append(name, value);
  });
  return out;
}

function copyHeaders(headers: Headers): Headers {
  return new HttpHeaders(headers);
}

/** The body as the server gets it: copied bytes, or the client's stream read through the call. */
function requestBody(body: HttpBody, call: Call): HttpBody {
  if (body === undefined) return undefined;
  if (typeof body === "string") return bodyBytes(body);
  if (body instanceof Uint8Array) return copyBytes(body);
  return new RequestBody(body, call);
}

/**
 * The server's answer as the caller gets it (or, when the caller is gone
 * already, the answer dropped, its stream stopped).
 */
function clientResponse(response: HttpResponse, call: Call, method: string): HttpResponse {
  const given = response.body;
  if (call.over) {
    stopStream(given);
    return response;
  }
  let headers: HttpHeaders;
  try {
    headers = new HttpHeaders(response.headers);
  } catch {
    // Fields no HTTP stack would send: the bare 500 a Node adapter answers instead.
    stopStream(given);
    call.end();
    return bareInternalError();
  }
  const status = response.status;
  const noBody = method === "HEAD" || status === 204 || status === 304;
  if (given === undefined || given instanceof Uint8Array || typeof given === "string") {
    const bytes = given === undefined ? undefined : typeof given === "string" ? bodyBytes(given) : copyBytes(given);
    const length = bytes?.byteLength ?? 0;
    if (response.trailers === undefined && !(length === 0 && (status === 204 || status === 304)) && !headers.has("content-length"))
      headers.set("content-length", String(length));
    call.end();
    return withTrailers({ status, headers, body: noBody ? undefined : bytes }, response.trailers, call);
  }
  if (noBody) {
    stopStream(given);
    call.end();
    return withTrailers({ status, headers, body: undefined }, response.trailers, call);
  }
  return withTrailers({ status, headers, body: new ResponseBody(given, call) }, response.trailers, call);
}

/**
 * The answer with copies of the server's trailers. Trailers that are still
 * to come when the call stops early (the caller went away, the body
 * failed) never will: they resolve with no fields then, as an HTTP/2
 * client's do when its stream closes.
 */
function withTrailers(response: { status: number; headers: Headers; body: HttpBody }, trailers: HttpResponse["trailers"], call: Call): HttpResponse {
  if (trailers === undefined) return response;
  if (!(trailers instanceof Promise)) return { ...response, trailers: copyHeaders(trailers) };
  const copied = new Promise<Headers>((resolve, reject) => {
    const cut = (): void => {
      if (call.failed) resolve(new HttpHeaders());
    };
    if (call.over) cut();
    else call.done.addEventListener("abort", cut, { once: true });
    trailers.then((t) => resolve(copyHeaders(t)), reject);
  });
  copied.catch(ignore);
  return { ...response, trailers: copied };
}

/** Serves a mounted (web-standard) handler, with the request's body read whole. */
async function sendMounted(handler: MountedHandler, request: InMemoryTransportRequest): Promise<HttpResponse> {
  const { method, signal } = request;
  const body = method === "GET" || method === "HEAD" || request.body === undefined ? undefined : await readBody(request.body);
  const init: RequestInit = { method, headers: requestHeaders(request.headers) };
  if (body !== undefined) init.body = body as Uint8Array<ArrayBuffer>;
  if (signal !== undefined) init.signal = signal;
  let response: Response;
  try {
    response = await handler(new Request(request.url, init));
  } catch {
    if (signal?.aborted === true) throw signal.reason;
    return bareInternalError();
  }
  return { status: response.status, headers: copyHeaders(response.headers), body: response.body ?? undefined };
}

/**
 * One call in flight: its exchange with the server, and whether and why it
 * stopped. The call is over once its answer has been read whole (or was
 * whole), or once it stopped early: the caller's signal fired, the caller
 * stopped reading a streamed answer, or a body failed half-way. Stopping
 * early aborts the handler's signal, as a connection that goes away does.
 */
class Call {
  readonly #done = new AbortController();
  #failure: { readonly error: unknown } | undefined;

  constructor(
    readonly exchange: Exchange,
    private readonly signal: AbortSignal | undefined,
  ) {
    signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** Fires once the call is over, for whatever reason. */
  get done(): AbortSignal {
    return this.#done.signal;
  }

  get over(): boolean {
    return this.#done.signal.aborted;
  }

  /** Whether the call stopped early. */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /** What the caller hears of an early stop: the signal's reason, a body's TransportError. */
  get failure(): unknown {
    return this.#failure?.error;
  }

  readonly #onAbort = (): void => this.fail(this.signal!.reason);

  /** Stops the call early; the caller hears `error` where it still waits. */
  fail(error: unknown): void {
    if (this.over) return;
    this.#failure = { error };
    this.exchange.abort(new Error("the client went away"));
    this.end();
  }

  /** The call is over. Idempotent. */
  end(): void {
    if (this.over) return;
    this.signal?.removeEventListener("abort", this.#onAbort);
    this.#done.abort();
    this.exchange.end();
  }
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/** What the server reads from a request body whose call is over before it ended (as the Node adapter says it). */
function closedEarly(): Error {
  return new Error("the request was closed before its body ended");
}

/**
 * The client's streamed request body as the server reads it: a chunk (a
 * copy) per read, pulled from the client's stream only then. A read while
 * the call stops fails as a body cut short does; a client stream that
 * fails stops the call. Once the call is over, a stream not read to its
 * end is stopped (a `ReadableStream` cancelled, an iterator returned), as
 * an HTTP/2 reset stops a client's upload.
 */
class RequestBody implements AsyncIterableIterator<Uint8Array> {
  #iterator: AsyncIterator<Uint8Array> | undefined;
  /** The server read the body to its end, or stopped reading. */
  #finished = false;
  /** The client's stream reached its end. */
  #ended = false;

  constructor(
    private readonly source: ByteStream,
    private readonly call: Call,
  ) {
    call.done.addEventListener("abort", () => this.#stop(), { once: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.#finished) return Promise.resolve(DONE);
    const call = this.call;
    if (call.over) return Promise.reject(closedEarly());
    const iterator = (this.#iterator ??= byteChunks(this.source)[Symbol.asyncIterator]());
    return untilStopped(iterator.next(), call).then(
      (result) => {
        if (result.done === true) {
          this.#finished = this.#ended = true;
          return DONE;
        }
        return { done: false, value: copyBytes(result.value) };
      },
      (error: unknown) => {
        if (!call.over) call.fail(new TransportError("RequestBodyFailed", `in-memory: the request body failed: ${messageOf(error)}`, { cause: error }));
        throw closedEarly();
      },
    );
  }

  /** The server stops reading: later reads end at once; the client's stream is stopped when the call is over. */
  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.#finished = true;
    return Promise.resolve(DONE);
  }

  #stop(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#iterator !== undefined) stopIterator(this.#iterator);
    else stopStream(this.source);
  }
}

/**
 * A streamed answer as the caller reads it: a chunk (a copy) per read,
 * pulled from the server's source only then, so the source goes no faster
 * than the caller. Its end is the end of the call; a caller that stops
 * reading, or aborts, stops the call and the source. A source that fails
 * fails the read with a TransportError that does not carry the server's
 * error (a socket would carry none of it either).
 */
class ResponseBody implements AsyncIterableIterator<Uint8Array> {
  #iterator: AsyncIterator<Uint8Array> | undefined;
  #finished = false;
  #stopped = false;

  constructor(
    private readonly source: ByteStream,
    private readonly call: Call,
  ) {
    call.done.addEventListener("abort", () => this.#stop(), { once: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.#finished) return Promise.resolve(DONE);
    const call = this.call;
    if (call.over) return this.#afterStop();
    const iterator = (this.#iterator ??= byteChunks(this.source)[Symbol.asyncIterator]());
    return untilStopped(iterator.next(), call).then(
      (result) => {
        if (result.done !== true) return { done: false, value: copyBytes(result.value) };
        this.#finished = this.#stopped = true;
        call.end();
        return DONE;
      },
      () => {
        if (!call.over) call.fail(new TransportError("ResponseBodyFailed", "in-memory: the server's answer failed after it began"));
        return this.#afterStop();
      },
    );
  }

  /** The caller stops reading: the call stops, as a cancelled stream does. */
  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (!this.#finished) {
      this.#finished = true;
      this.call.fail(new TransportError("ResponseBodyCancelled", "in-memory: the caller stopped reading the answer"));
    }
    return Promise.resolve(DONE);
  }

  /** A read once the call stopped: the stop's error (none once the body was read to its end). */
  #afterStop(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.#finished = true;
    return this.call.failed ? Promise.reject(this.call.failure) : Promise.resolve(DONE);
  }

  #stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#iterator !== undefined) stopIterator(this.#iterator);
    else stopStream(this.source);
  }
}

/**
 * The promise's outcome, or a rejection as soon as the call stops early
 * (with what the caller hears of it), or, with `orEnd`, as soon as it is
 * over at all; whichever comes first.
 */
function untilStopped<T>(promise: Promise<T>, call: Call, orEnd = true): Promise<T> {
  if (call.failed) return Promise.reject(call.failure);
  if (call.over && orEnd) return Promise.reject(call.done.reason);
  const done = call.done;
  return new Promise<T>((resolve, reject) => {
    const onDone = (): void => {
      if (call.failed) reject(call.failure);
      else if (orEnd) reject(done.reason);
    };
    done.addEventListener("abort", onDone, { once: true });
    promise.then(
      (value) => {
        done.removeEventListener("abort", onDone);
        resolve(value);
      },
      (error: unknown) => {
        done.removeEventListener("abort", onDone);
        reject(error);
      },
    );
  });
}

/** Stops a stream nobody will read (a ReadableStream is cancelled, an iterator returned); whole bodies need nothing. */
function stopStream(body: HttpBody): void {
  if (body === undefined || typeof body === "string" || body instanceof Uint8Array) return;
  try {
    stopIterator(byteChunks(body)[Symbol.asyncIterator]());
  } catch {
    // a stream that cannot be stopped is left to the collector
  }
}

/** Returns an iterator without waiting (a generator busy in an `await` returns when it next yields). */
function stopIterator(iterator: AsyncIterator<Uint8Array>): void {
  try {
    iterator.return?.()?.then(undefined, ignore);
  } catch {
    // as above
  }
}

function copyBytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function ignore(): void {}
