/**
 * The Node adapter (`@anvil/server/node`): HTTP/1.1 (`node:http`),
 * cleartext HTTP/2 with prior knowledge (`node:http2`), and TLS serving h2
 * and http/1.1 on one port (ALPN). Bodies stream both ways: the request is
 * read as the pipeline pulls it, the response is written chunk by chunk,
 * waiting for `drain` when the socket is full. HTTP/2 is served on Node's
 * stream API (node-http2.ts); this module holds HTTP/1.1 and the listener.
 */
import * as http from "node:http";
import * as http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import type { SecureContextOptions } from "node:tls";
import { type ByteStream, HttpHeaders, type HttpRequest, type HttpResponse } from "@anvil/core";
import { bodyBytes, isThenable, MAX_TIMER_MS, readWholeBody, type WholeBody } from "@anvil/core/protocol";
import {
  expectsContinue,
  fetchRequest,
  fromFetchResponse,
  needsContentLength,
  pipelineRequest,
  Peer,
  BodyTiming,
  type ReadActivity,
  trailerObject,
  writeChunks,
} from "./node-common.js";
import { http2Request, IdleSessions, type StreamListener, streamListener } from "./node-http2.js";
import { retireAtAge, type SessionAge } from "./session-age.js";
import { DEFAULT_SESSION_POLICY, type SessionPolicy, SessionGuards } from "./session-guard.js";
import type { TimedBody } from "./body-limit.js";
import { type CloseOptions, endLameDuck, type Exchange, type Server } from "./server.js";

/** Limits a Node listener applies before a request reaches the pipeline. */
export interface NodeLimits {
  /** Largest total size of the request headers, in bytes (HTTP/1.1 `maxHeaderSize`, HTTP/2 `maxHeaderListSize`). Default 16 KiB. */
  readonly maxHeaderBytes?: number;
  /** Most request header fields; more get a 431. Default 100. */
  readonly maxHeaders?: number;
  /** Time to receive the request headers, in milliseconds (HTTP/1.1). Default 15 000. */
  readonly headersTimeoutMs?: number;
  /**
   * Time to receive the whole request body of an operation whose input is
   * buffered, in milliseconds (0 for none); answered 408. Default 60 000.
   * A streamed input (`@streaming` blob or event stream, gRPC client
   * streaming) is held to `bodyIdleTimeoutMs` instead, however long it
   * lasts. ({@link nodeHandler} leaves HTTP/1.1 bodies to the Node server's
   * own `requestTimeout`.)
   */
  readonly requestTimeoutMs?: number;
  /**
   * How long a streamed request body may keep its reader waiting without a
   * byte, in milliseconds (0 for no limit); then the call is answered 408
   * (or cut, once its answer began). Default: as `requestTimeoutMs`.
   */
  readonly bodyIdleTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, in milliseconds (HTTP/1.1). Default 5 000. */
  readonly keepAliveTimeoutMs?: number;
  /**
   * How long an HTTP/2 session may stay without a call in flight before it
   * is closed (GOAWAY with `max_idle`), in milliseconds; 0 for no limit.
   * Default 120 000.
   */
  readonly idleTimeoutMs?: number;
  /**
   * Maximum age of an HTTP/2 session (gRPC's "max connection age"), in
   * milliseconds, give or take 10% per session: then the session is told to
   * go away (GOAWAY with `max_age`, without losing a call being sent), so
   * that clients behind a load balancer reconnect and spread over new
   * instances. Calls in flight finish (see `maxConnectionAgeGraceMs`).
   * Default 0: no limit.
   */
  readonly maxConnectionAgeMs?: number;
  /**
   * How long calls in flight on a session retired at its maximum age may
   * take to finish before they are cut, in milliseconds. Default 0: as long
   * as they take.
   */
  readonly maxConnectionAgeGraceMs?: number;
  /**
   * Calls one HTTP/2 session may have in flight, advertised as
   * SETTINGS_MAX_CONCURRENT_STREAMS; more are refused with REFUSED_STREAM,
   * counting calls whose streams were reset while their handlers still run.
   * A session with more than ten times as many refused or reset streams in
   * a second gets GOAWAY ENHANCE_YOUR_CALM. Default 100.
   */
  readonly maxConcurrentStreams?: number;
  /**
   * How often an HTTP/2 client may PING, as gRPC servers enforce it: at most
   * every `minIntervalMs` (default 300 000) while it has calls in flight,
   * and not again without calls unless `permitWithoutCalls` (default false);
   * after `maxStrikes` (default 2) PINGs too soon, GOAWAY ENHANCE_YOUR_CALM
   * with `too_many_pings`. A call or an answer clears the strikes. gRPC
   * clients' `keepalive_time_ms` should be at least `minIntervalMs`.
   */
  readonly keepalive?: KeepalivePolicy;
  /**
   * Memory one HTTP/2 session may hold in frames not yet sent or processed
   * (Node's `maxSessionMemory`), in megabytes: past it, the session's new
   * streams are refused with ENHANCE_YOUR_CALM while those open go on, as
   * when a client stops reading its answers. Default 10 (Node's).
   */
  readonly maxSessionMemoryMb?: number;
}

/** See {@link NodeLimits.keepalive}. */
export interface KeepalivePolicy {
  /** Shortest interval between PINGs, in milliseconds. Default 300 000 (gRPC's). */
  readonly minIntervalMs?: number;
  /** Whether PINGs are permitted (at that interval) with no call in flight. Default false. */
  readonly permitWithoutCalls?: boolean;
  /** PINGs too soon tolerated before GOAWAY. Default 2. */
  readonly maxStrikes?: number;
}

/** Where and how {@link listen} serves. */
export interface ListenOptions extends NodeLimits {
  /** Port; 0 (the default) picks a free one (see {@link NodeListener.port}). */
  readonly port?: number;
  /** Address to bind. Default `127.0.0.1`. */
  readonly host?: string;
  /**
   * Without `tls`: `true` serves cleartext HTTP/2 with prior knowledge (h2c)
   * instead of HTTP/1.1; `"both"` serves HTTP/1.1 and h2c on the one port,
   * told apart by HTTP/2's connection preface (clients such as the AWS SDKs'
   * HTTP/2 handler and gRPC peers speak h2c from the first byte). Default:
   * HTTP/1.1 only (looking at each connection's first bytes costs Node's
   * HTTP/1.1 server about 3% more instructions a request). With `tls`, h2
   * and http/1.1 are both offered (ALPN) and this is ignored.
   */
  readonly http2?: boolean | "both";
  /** Serve TLS (`key`, `cert`, ...): h2 and http/1.1 on one port, chosen by ALPN. */
  readonly tls?: SecureContextOptions;
}

/** A running Node listener. */
export interface NodeListener {
  /** The base URL, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The port listened on: the one picked when {@link ListenOptions.port} was 0 or absent. */
  readonly port: number;
  /** The underlying Node server. */
  readonly server: http.Server | http2.Http2Server | http2.Http2SecureServer;
  /**
   * Graceful shutdown: stops accepting connections (readiness 503, gRPC
   * health NOT_SERVING), answers 503 to new requests on open ones, lets
   * calls in flight finish for `graceMs`, then aborts their signals and
   * closes every connection.
   *
   * With `lameDuckMs`, for up to that long, the connections already open
   * keep being served instead, so that a call a load balancer sends on
   * one as the close begins is answered rather than lost: each HTTP/1.1
   * answer says `Connection: close`, idle keep-alive connections are left
   * for the client to close (closing one could cross a request on its way
   * in), and HTTP/2 sessions get a PING when idle (a proxy closes an idle
   * upstream connection on it) and their GOAWAY only when the lame duck
   * ends. It ends early once every connection has closed.
   */
  close(options?: CloseOptions): Promise<void>;
}

type NodeRequest = http.IncomingMessage | http2.Http2ServerRequest;
type NodeResponse = http.ServerResponse | http2.Http2ServerResponse;

const DEFAULTS = {
  maxHeaderBytes: 16 * 1024,
  maxHeaders: 100,
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 120_000,
  maxConcurrentStreams: DEFAULT_SESSION_POLICY.maxConcurrentStreams,
  keepalive: {},
  maxConnectionAgeMs: 0,
  maxConnectionAgeGraceMs: 0,
  maxSessionMemoryMb: 10,
} satisfies Required<Omit<NodeLimits, "bodyIdleTimeoutMs">>;

/**
 * A Node request listener for the server, usable with `http.createServer`,
 * `http2.createServer` and `http2.createSecureServer({ allowHTTP1: true })`.
 * Starts the server (route conflicts and missing handlers throw here).
 * Register it for `checkContinue` too, to refuse bodies before the client
 * sends them ({@link listen} does). An HTTP/2 request is served on its
 * stream, as {@link nodeStreamHandler} serves it; registering that one for
 * an HTTP/2 server's `stream` event instead saves Node's compatibility
 * layer's work on every request. An HTTP/1.1 server made with
 * `joinDuplicateHeaders: true` (as {@link listen} makes its own) lets the
 * pipeline read request fields from Node's parsed headers, which costs less.
 */
export function nodeHandler(
  server: Server<any, any>,
  limits: Pick<NodeLimits, "maxHeaders" | "requestTimeoutMs"> = {},
): (req: NodeRequest, res: NodeResponse) => void {
  return listeners(server, limits).request;
}

/**
 * A listener for an HTTP/2 server's `stream` event (Node's stream API):
 * `http2.createServer().on("stream", nodeStreamHandler(server))`. Starts the
 * server (route conflicts and missing handlers throw here).
 */
export function nodeStreamHandler(
  server: Server<any, any>,
  limits: Pick<NodeLimits, "maxHeaders" | "requestTimeoutMs" | "bodyIdleTimeoutMs"> = {},
): StreamListener {
  return listeners(server, limits).stream;
}

/** The request listener (HTTP/1.1, and HTTP/2 through the compatibility layer) and the HTTP/2 stream listener of a server. */
function listeners(
  server: Server<any, any>,
  limits: Pick<NodeLimits, "maxHeaders" | "requestTimeoutMs" | "bodyIdleTimeoutMs">,
  idle?: IdleSessions,
  guards?: SessionGuards,
  /** How HTTP/1.1 request bodies are timed, when the listener times them (else Node's `requestTimeout` does). */
  h1Timing?: BodyTiming<NodeBody>,
): { request: (req: NodeRequest, res: NodeResponse) => void; stream: StreamListener } {
  const maxHeaders = limits.maxHeaders ?? DEFAULTS.maxHeaders;
  const requestTimeoutMs = limits.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const stream = streamListener(server, {
    maxHeaders,
    requestTimeoutMs,
    ...(limits.bodyIdleTimeoutMs !== undefined ? { bodyIdleTimeoutMs: limits.bodyIdleTimeoutMs } : {}),
    ...(idle !== undefined ? { idle } : {}),
    ...(guards !== undefined ? { guards } : {}),
  });
  const request = (req: NodeRequest, res: NodeResponse): void => {
    if (!isHttp1(req)) {
      // Served on its stream; the compatibility layer's own hook would answer the trailers a second time.
      req.stream.removeAllListeners("wantTrailers");
      stream(req.stream, req.headers, 0, req.rawHeaders);
      return;
    }
    const exchange = server.begin();
    (res as ExchangeResponse)[EXCHANGE] = exchange;
    res.on("close", onResponseClose);
    serve(server, exchange, req, res as http.ServerResponse, maxHeaders, h1Timing);
  };
  return { request, stream };
}

/** Where an HTTP/1.1 response holds its exchange, for {@link onResponseClose}. */
const EXCHANGE = Symbol("exchange");

type ExchangeResponse = http.ServerResponse & { [EXCHANGE]: Exchange };

/**
 * A response's `close` listener: the exchange is over, and if the answer did
 * not finish, its caller went away. One function for every response (the
 * exchange is on the response), not a closure made per request.
 */
function onResponseClose(this: ExchangeResponse): void {
  const exchange = this[EXCHANGE];
  if (!this.writableFinished) exchange.abort(new Error("the client went away"));
  exchange.end();
}

/** A settled promise: its reactions run at the next microtask checkpoint. */
const SETTLED = Promise.resolve();

/** Serves an HTTP/1.1 request: too many header fields, a mounted handler, or the pipeline. */
function serve(
  server: Server<any, any>,
  exchange: Exchange,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  maxHeaders: number,
  timing: BodyTiming<NodeBody> | undefined,
): void {
  try {
    if (req.rawHeaders.length / 2 > maxHeaders) {
      res.writeHead(431, { "content-type": "text/plain", connection: "close" });
      res.end("too many request header fields");
      return;
    }
    const mounted = server.mounted(req.url ?? "/");
    if (mounted !== undefined) {
      mounted(toFetchRequest(req))
        .then((response) => answer(req, res, fromFetchResponse(response), server.closing, undefined))
        .catch((error: unknown) => failed(res, error));
      return;
    }
    const body = nodeBody(req, res, timing);
    if (body === undefined) dispatch(server, exchange, req, res, undefined);
    // A small body comes in the packets of its headers, and Node's parser hands it over just after the
    // request event: taken whole a microtask later, the pipeline gets it as bytes, with nothing left to read.
    // (A reaction to a settled promise, not `queueMicrotask`: Node's makes an async resource and a bound
    // function for every call, which cost a small request about 3% of its time.)
    else SETTLED.then(() => dispatch(server, exchange, req, res, body));
  } catch (error) {
    failed(res, error);
  }
}

/** Serves a request through the pipeline, its body taken whole if it is all in. */
function dispatch(server: Server<any, any>, exchange: Exchange, req: http.IncomingMessage, res: http.ServerResponse, body: NodeBody | undefined): void {
  try {
    server
      .dispatch(http1Request(req, body?.takeBuffered() ?? body), exchange, new Peer(req))
      // One continuation for both outcomes: `answer` handles its own failures.
      .then(
        (response) => answer(req, res, response, server.closing, body),
        (error: unknown) => failed(res, error),
      );
  } catch (error) {
    failed(res, error);
  }
}

/** Writes the answer. Never throws or rejects: what fails is `failed`'s. */
function answer(req: http.IncomingMessage, res: http.ServerResponse, response: HttpResponse, closing: boolean, body: NodeBody | undefined): void {
  try {
    writeResponse(req, res, response, closing, body)?.catch((error: unknown) => failed(res, error));
  } catch (error) {
    failed(res, error);
  }
}

/** Headers that Node refuses, a response body that fails mid-stream: nothing more can be said to the caller. */
function failed(res: http.ServerResponse, error: unknown): void {
  if (!res.headersSent) {
    res.writeHead(500);
    res.end();
  } else {
    res.destroy(error as Error);
  }
}

function isHttp1(req: NodeRequest): req is http.IncomingMessage {
  return !("stream" in req);
}

/**
 * A Node request as the pipeline's `HttpRequest`; the body is pulled
 * lazily, never destroyed by an early stop. Given the response, a request
 * sent with `Expect: 100-continue` gets its `100 Continue` only when the
 * body is first read, so a refusal (413, 404, ...) costs the client no upload.
 */
export function toHttpRequest(req: NodeRequest, res?: NodeResponse): HttpRequest {
  if (!isHttp1(req)) return http2Request(req.stream, req.headers, req.rawHeaders);
  return http1Request(req, nodeBody(req, res as http.ServerResponse | undefined));
}

/** An HTTP/1.1 request as the pipeline's `HttpRequest`, with its body (read or still to read). */
function http1Request(req: http.IncomingMessage, body: Uint8Array | NodeBody | undefined): HttpRequest {
  const headers = joinsDuplicates(req) ? HttpHeaders.fromParsed(req.headers, req.rawHeaders) : HttpHeaders.fromRawPairs(req.rawHeaders);
  return pipelineRequest(req.method ?? "GET", req.url ?? "/", req.headers.host ?? "", headers, body);
}

/**
 * Whether Node parsed the request's headers as `Headers` would: with
 * repeated fields joined, not the later ones dropped (a server made with
 * `joinDuplicateHeaders: true`, as {@link listen} makes it).
 */
function joinsDuplicates(req: http.IncomingMessage): boolean {
  return (req as { joinDuplicateHeaders?: boolean }).joinDuplicateHeaders === true;
}

/**
 * The body of an HTTP/1.1 request, if it has one, still to be read. Given
 * the response, a request sent with `Expect: 100-continue` gets its
 * `100 Continue` only when the body is first read.
 */
function nodeBody(req: http.IncomingMessage, res: http.ServerResponse | undefined, timing?: BodyTiming<NodeBody>): NodeBody | undefined {
  // Node's own parsed headers answer these without going through `Headers` (one lookup each there costs more).
  const parsed = req.headers;
  const chunked = parsed["transfer-encoding"] !== undefined;
  const length = parsed["content-length"];
  if (!chunked && (length === undefined || length === "0")) return undefined;
  return new NodeBody(req, chunked ? -1 : Number(length), res !== undefined && expectsContinue(parsed) ? res : undefined, res, timing);
}

/** Whether a body needs no more time: all of it came, or its request is gone. */
const bodyDone = (body: NodeBody): boolean => body.ended || body.req.destroyed;

/** A body that came too slowly: a 408 that closes the connection, or, once the answer began, the connection cut. */
function bodyTimedOut(body: NodeBody): void {
  const { req, res } = body;
  const socket = req.socket;
  if (res === undefined || res.headersSent || res.destroyed) {
    socket?.destroy();
    return;
  }
  res.writeHead(408, { "content-type": "text/plain", connection: "close" });
  // The read still waiting for the body ends with the connection.
  res.end("request timeout", () => socket?.destroy());
}

/** A request body as an async iterable (a class: cheaper to make than a literal with a computed key). */
class NodeBody implements WholeBody, TimedBody {
  /** Body bytes handed out so far. */
  received = 0;
  /** The reader's waits, once the body is known to stream (timed by idleness then). */
  #activity: ReadActivity | undefined;

  constructor(
    readonly req: http.IncomingMessage,
    /** The `Content-Length`, or -1 for a chunked body. */
    readonly declared: number,
    private expecting: http.ServerResponse | undefined,
    readonly res?: http.ServerResponse,
    private readonly timing?: BodyTiming<NodeBody>,
  ) {}

  /** The operation streams this body: no deadline for all of it, a limit on how long its reader waits for bytes instead. */
  streaming(): void {
    this.#activity ??= this.timing?.streamed(this);
  }

  /** The reader has to wait for bytes: a whole body's deadline starts (if it has not), a streamed body's idleness does. */
  waiting(): void {
    const timing = this.timing;
    if (timing === undefined) return;
    if (this.#activity !== undefined) this.#activity.waiting();
    else timing.deadlines?.add(this);
  }

  /** Bytes came to a waiting reader. */
  served(): void {
    this.#activity?.served();
  }

  /** The body ended (or its request closed): nothing is timed any more. */
  finished(): void {
    this.timing?.done(this);
  }

  /**
   * Whether the whole body has been read. A body of a declared length is
   * whole once that many bytes are in, which is often before Node's parser
   * has told the request it is complete (it does so in a later callback).
   */
  get ended(): boolean {
    return this.req.complete || this.received === this.declared;
  }

  /**
   * The whole body if Node already holds all of it, taken in one read;
   * else undefined, and nothing is read. Never for a request waiting for
   * its `100 Continue`.
   */
  takeBuffered(): Uint8Array | undefined {
    const req = this.req;
    if (this.expecting !== undefined || this.declared < 0 || req.readableLength !== this.declared) return undefined;
    // Without a size, `read` hands over everything buffered, as one chunk.
    const chunk = req.read() as Uint8Array | null;
    if (chunk === null) return undefined;
    this.received += chunk.byteLength;
    return chunk;
  }

  [Symbol.asyncIterator](): BodyReader {
    const expecting = this.expecting;
    if (expecting !== undefined && !expecting.headersSent) expecting.writeContinue();
    this.expecting = undefined;
    return new BodyReader(this);
  }

  readWhole(limit: number, tooLarge: (limit: number) => Error): Promise<Uint8Array> {
    return this[Symbol.asyncIterator]().whole(limit, tooLarge);
  }
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * Reads a request body with `read()` in paused mode: nothing is pulled from
 * the socket until asked for (back-pressure), and stopping early leaves the
 * request alone (unlike `Readable`'s own iterator, which destroys it and,
 * with it, the connection the answer has to go out on). Lighter than the
 * built-in iterator, which matters on the hot path.
 */
class BodyReader implements AsyncIterator<Uint8Array, undefined> {
  #waited = false;

  constructor(private readonly body: NodeBody) {}

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    const body = this.body;
    const req = body.req;
    const chunk = req.read() as Uint8Array | null;
    if (chunk !== null) {
      body.received += chunk.byteLength;
      return Promise.resolve({ done: false, value: chunk });
    }
    // A message the parser has completed, with nothing left to read, is over though "end" is not emitted yet.
    if (req.readableEnded || body.ended) return Promise.resolve(DONE);
    if (req.destroyed) return Promise.reject(req.errored ?? new Error("the request was closed before its body ended"));
    // The request event fires before the parser pushes a body that came in the same packet as the
    // headers: by the next microtask it is there, which is cheaper to look at than to listen for.
    if (!this.#waited) {
      this.#waited = true;
      return Promise.resolve().then(() => this.next());
    }
    body.waiting();
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        req.off("readable", onReadable);
        req.off("end", onEnd);
        req.off("error", onError);
        req.off("close", onClose);
      };
      const onReadable = (): void => {
        const next = req.read() as Uint8Array | null;
        if (next === null) return; // the end is near: "end" follows
        settle();
        body.received += next.byteLength;
        body.served();
        resolve({ done: false, value: next });
      };
      const onEnd = (): void => {
        settle();
        body.finished();
        resolve(DONE);
      };
      const onError = (error: Error): void => {
        settle();
        body.finished();
        reject(error);
      };
      const onClose = (): void => {
        settle();
        body.finished();
        if (req.readableEnded) resolve(DONE);
        else reject(new Error("the request was closed before its body ended"));
      };
      req.on("readable", onReadable);
      req.on("end", onEnd);
      req.on("error", onError);
      req.on("close", onClose);
    });
  }

  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    return Promise.resolve(DONE);
  }

  /**
   * The rest of the body in one piece, refused once over `limit` bytes. An
   * HTTP/1.1 body that came in the packets of its headers is all there a
   * microtask later: it is taken then, in one read.
   */
  whole(limit: number, tooLarge: (limit: number) => Error): Promise<Uint8Array> {
    if (this.#waited) return this.#collect(null, limit, tooLarge);
    this.#waited = true;
    return Promise.resolve().then(() => {
      const body = this.body;
      const chunk = body.req.read() as Uint8Array | null;
      if (chunk === null) return this.#collect(null, limit, tooLarge);
      body.received += chunk.byteLength;
      if (chunk.byteLength <= limit && body.ended && body.req.readableLength === 0) return chunk;
      return this.#collect(chunk, limit, tooLarge);
    });
  }

  #collect(first: Uint8Array | null, limit: number, tooLarge: (limit: number) => Error): Promise<Uint8Array> {
    return readWholeBody(first === null ? this : startingWith(first, this), limit, tooLarge);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

async function* startingWith(first: Uint8Array, rest: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  yield first;
  yield* rest;
}

/** A Node request as a web-standard `Request` (for mounted handlers), with the origin the client used. */
function toFetchRequest(req: http.IncomingMessage): Request {
  const encrypted = (req.socket as { encrypted?: boolean } | null)?.encrypted === true;
  return fetchRequest(`${encrypted ? "https" : "http"}://${req.headers.host || "localhost"}`, req.url ?? "/", req.method ?? "GET", req.rawHeaders, req);
}

/**
 * Writes an answer: whole bytes at once, a stream chunk by chunk with
 * back-pressure, then trailers. Returns a promise only when it has to wait
 * (a streamed body, trailers still to come).
 */
function writeResponse(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  response: HttpResponse,
  closing: boolean,
  requestBody: NodeBody | undefined,
): Promise<void> | undefined {
  // A flat list: Node writes it without making an object of it.
  const headers = HttpHeaders.fieldList(response.headers);
  // A request body left unread (a 413, an unknown route) is not read on: the connection closes after the answer,
  // lingering so that a client still uploading reads the answer before the close.
  if (closing || !(req.complete || requestBody?.ended === true)) {
    headers.push("connection", "close");
    if (!req.complete) lingerOnClose(req.socket);
  }
  const given = response.body;
  if (typeof given === "string" && response.trailers === undefined) {
    // Node writes the head and the text as one string, encoding the text as it goes.
    if (needsContentLength(response, given.length)) headers.push("content-length", String(Buffer.byteLength(given)));
    res.writeHead(response.status, headers);
    res.end(given);
    return undefined;
  }
  const body = typeof given === "string" ? bodyBytes(given) : given;
  if (body === undefined || body instanceof Uint8Array) {
    const length = body?.byteLength ?? 0;
    if (needsContentLength(response, length)) headers.push("content-length", String(length));
    res.writeHead(response.status, headers);
    const trailers = response.trailers;
    if (trailers !== undefined && isThenable(trailers)) return addTrailers(res, trailers).then(() => endWith(res, body));
    if (trailers !== undefined) res.addTrailers(trailerObject(trailers));
    endWith(res, body);
    return undefined;
  }
  // A stream whose length the answer declares (a member bound to Content-Length) is held to it: one that runs
  // longer or shorter fails the answer and closes the connection, rather than leave a keep-alive peer misreading it.
  if (response.headers.has("content-length")) res.strictContentLength = true;
  res.writeHead(response.status, headers);
  return writeStream(res, body, response.trailers);
}

/** How long a connection closing with an upload unread goes on reading (and dropping) it after the answer. */
const LINGER_MS = 2_000;
/** How many more bytes it reads, at most, before it closes anyway. */
const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * Makes the close that follows an answer to an unfinished upload (a 413)
 * gentle. Closing a socket with unread bytes resets the connection, and a
 * reset makes the client's system drop what it had received and not yet
 * read: the answer. So the answer is followed by a half-close (FIN), and the
 * upload is read and dropped until the client closes its side, for at most
 * {@link LINGER_MS} and {@link LINGER_BYTES}. Node's server ends such a
 * connection with `destroySoon`; this socket gets its own.
 */
function lingerOnClose(socket: Socket | null): void {
  if (socket === null || Object.hasOwn(socket, "destroySoon")) return;
  socket.destroySoon = function lingeringClose(this: Socket): void {
    if (this.writable) this.end();
    const from = this.bytesRead;
    const check = setInterval(() => {
      if (this.bytesRead - from > LINGER_BYTES) this.destroy();
    }, 100);
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    check.unref();
    timer.unref();
    this.once("close", () => {
      clearInterval(check);
      clearTimeout(timer);
    });
    // The client read the answer and closed its side: nothing more to wait for.
    this.once("end", () => this.destroy());
  };
}

/** Ends an answer with its whole body, if any. */
function endWith(res: http.ServerResponse, body: Uint8Array | undefined): void {
  if (body === undefined) res.end();
  else if (body.byteLength <= ONE_WRITE_BODY) res.end(latin1(body), "latin1");
  else res.end(body);
}

/** Writes a streamed body chunk by chunk (waiting for `drain`), then its trailers, and ends the answer. */
async function writeStream(res: http.ServerResponse, body: ByteStream, trailers: HttpResponse["trailers"]): Promise<void> {
  if (!(await writeChunks(res, body))) return;
  if (trailers !== undefined) await addTrailers(res, trailers);
  if (!res.destroyed) res.end();
}

/**
 * Bodies up to this size go out as a latin1 string of the same bytes: Node
 * then writes the head and the body as one string in one `write`, where
 * bytes make it a two-chunk `writev`, which costs more per answer than the
 * copy does.
 */
const ONE_WRITE_BODY = 16 * 1024;

/** The bytes as a latin1 string: one char per byte, so writing it back as latin1 gives the same bytes. */
function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

async function addTrailers(res: http.ServerResponse, trailers: Promise<Headers> | Headers): Promise<void> {
  res.addTrailers(trailerObject(await trailers));
}

/** The session policy of a listener's limits, checked. */
function sessionPolicy(limits: Pick<Required<NodeLimits>, "maxConcurrentStreams" | "keepalive">): SessionPolicy {
  const { maxConcurrentStreams, keepalive } = limits;
  if (!Number.isInteger(maxConcurrentStreams) || maxConcurrentStreams < 1) {
    throw new RangeError(`listen: maxConcurrentStreams must be a positive integer (got ${maxConcurrentStreams})`);
  }
  const policy = {
    maxConcurrentStreams,
    minPingIntervalMs: keepalive.minIntervalMs ?? DEFAULT_SESSION_POLICY.minPingIntervalMs,
    permitPingsWithoutCalls: keepalive.permitWithoutCalls ?? DEFAULT_SESSION_POLICY.permitPingsWithoutCalls,
    maxPingStrikes: keepalive.maxStrikes ?? DEFAULT_SESSION_POLICY.maxPingStrikes,
  };
  if (!(policy.minPingIntervalMs >= 0) || !(policy.maxPingStrikes >= 0))
    throw new RangeError("listen: keepalive.minIntervalMs and keepalive.maxStrikes must not be negative");
  return policy;
}

/** The maximum session age of a listener's limits, checked; undefined if there is none. */
function sessionAge(limits: Pick<Required<NodeLimits>, "maxConnectionAgeMs" | "maxConnectionAgeGraceMs">): SessionAge | undefined {
  const { maxConnectionAgeMs: maxMs, maxConnectionAgeGraceMs: graceMs } = limits;
  if (!(maxMs >= 0) || !(graceMs >= 0)) throw new RangeError("listen: maxConnectionAgeMs and maxConnectionAgeGraceMs must not be negative");
  return maxMs > 0 ? { maxMs, graceMs } : undefined;
}

/**
 * Serves a server on a port: HTTP/1.1 by default, h2c with `http2: true`,
 * or TLS with ALPN (h2 and http/1.1) with `tls`. Starts the server first, so
 * route conflicts and missing handlers throw before anything listens.
 *
 * ```ts
 * const listener = await listen(server, { port: 8080 });
 * console.log(`listening on ${listener.url}`);
 * process.once("SIGTERM", () => void listener.close({ graceMs: 5_000 }));
 * ```
 */
export async function listen(server: Server<any, any>, options: ListenOptions = {}): Promise<NodeListener> {
  const limits = { ...DEFAULTS, ...definedOnly(options) };
  const http2Sessions = options.tls !== undefined || options.http2 === true || options.http2 === "both";
  const idle = http2Sessions && limits.idleTimeoutMs > 0 ? new IdleSessions(limits.idleTimeoutMs) : undefined;
  const guards = http2Sessions ? new SessionGuards(sessionPolicy(limits)) : undefined;
  const age = http2Sessions ? sessionAge(limits) : undefined;
  // HTTP/1.1 request bodies are timed here rather than by Node's `requestTimeout`, which would cut streamed uploads:
  // a buffered body gets `requestTimeoutMs`, a streamed one `bodyIdleTimeoutMs` of waiting for bytes.
  const h1Timing = new BodyTiming<NodeBody>(limits.requestTimeoutMs, limits.bodyIdleTimeoutMs, bodyDone, bodyTimedOut);
  const handlers = listeners(server, limits, idle, guards, h1Timing);
  const h2Settings = { maxHeaderListSize: limits.maxHeaderBytes, maxConcurrentStreams: limits.maxConcurrentStreams };
  const h2Options = { settings: h2Settings, maxHeaderListPairs: limits.maxHeaders + 8, maxSessionMemory: limits.maxSessionMemoryMb };
  let node: http.Server | http2.Http2Server | http2.Http2SecureServer;
  // The server whose sessions are HTTP/2 sessions (the same as `node`, unless h2c is served beside HTTP/1.1).
  let sessionServer: http2.Http2Server | http2.Http2SecureServer | undefined;
  if (options.tls !== undefined) {
    const secure = http2.createSecureServer({
      ...options.tls,
      ...h2Options,
      allowHTTP1: true,
      maxHeaderSize: limits.maxHeaderBytes,
    } as http2.SecureServerOptions);
    // HTTP/1.1 connections (by ALPN) answer through `request` events. Listening for those makes Node put its
    // HTTP/2 compatibility layer on `stream` events too; HTTP/2 streams are served on the stream API instead.
    secure.on("request", handlers.request);
    secure.on("checkContinue", handlers.request);
    secure.removeAllListeners("stream");
    secure.on("stream", handlers.stream);
    // The timeout is for HTTP/1.1 connections; HTTP/2 sessions are timed by `idle`.
    secure.setTimeout(limits.idleTimeoutMs);
    node = sessionServer = secure;
  } else if (options.http2 === true) {
    node = sessionServer = http2.createServer(h2Options).on("stream", handlers.stream);
  } else {
    const { headersTimeoutMs } = limits;
    const h1 = http.createServer(
      {
        maxHeaderSize: limits.maxHeaderBytes,
        headersTimeout: headersTimeoutMs,
        // Bodies are timed by the listener (see h1Timing), which knows a streamed one from a buffered one. Node's own
        // whole-request limit is set as far off as it goes rather than turned off: with it at 0, each request
        // cost about 2% more (measured with `bench server --against`).
        requestTimeout: MAX_TIMER_MS,
        // How often Node looks for timed-out headers: often enough for the timeout to mean what it says.
        connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(headersTimeoutMs / 4))),
        // Repeated fields joined as `Headers` joins them: the pipeline then reads fields from Node's parsed object.
        joinDuplicateHeaders: true,
      },
      handlers.request,
    );
    h1.keepAliveTimeout = limits.keepAliveTimeoutMs;
    // `Expect: 100-continue`: the pipeline sends `100 Continue` when it starts reading the body (see toHttpRequest).
    h1.on("checkContinue", handlers.request);
    if (options.http2 === "both") {
      sessionServer = http2.createServer(h2Options).on("stream", handlers.stream);
      servePriorKnowledge(h1, sessionServer, headersTimeoutMs);
    }
    node = h1;
  }

  // Every connection and HTTP/2 session, to close them on shutdown.
  const sockets = new Set<Socket>();
  const sessions = new Set<http2.ServerHttp2Session>();
  node.on(options.tls !== undefined ? "secureConnection" : "connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  sessionServer?.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    guards?.watch(session);
    if (age !== undefined) retireAtAge(session, age);
    if (idle !== undefined) {
      session.setTimeout(0);
      idle.watch(session);
    }
  });

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    node.once("error", reject);
    node.listen(options.port ?? 0, host, () => {
      node.off("error", reject);
      resolve();
    });
  });
  const port = (node.address() as AddressInfo).port;
  const scheme = options.tls !== undefined ? "https" : "http";
  const url = `${scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`;

  let closed: Promise<void> | undefined;
  const close = async (closeOptions: CloseOptions = {}): Promise<void> => {
    const { graceMs = 10_000, lameDuckMs = 0 } = closeOptions;
    // The server says it is closing first (readiness 503, gRPC health NOT_SERVING, new calls refused unless in a
    // lame duck), then the listener stops taking connections and the HTTP/2 sessions are told to go away (GOAWAY).
    const drained = server.close({ graceMs, lameDuckMs });
    let stopped: Promise<void>;
    if (lameDuckMs > 0 && graceMs > 0) {
      stopped = new Promise<void>((resolve) => closeLeavingIdle(node, () => resolve()));
      // HTTP/2 sessions get no GOAWAY yet: once a session has sent one, Node's (nghttp2's) takes no new stream,
      // whatever its last stream id says, so a call crossing it would be lost. An idle session gets a PING instead,
      // now, when its last call ends, and every second it stays idle: a proxy such as nginx closes an idle upstream
      // connection when anything arrives on it (and one that was busy when its PING came is idle at the next).
      // Other clients answer it and go on calling until the lame duck ends.
      const nudge = (session: http2.Http2Session) => {
        if (session.closed || session.destroyed) return;
        try {
          session.ping(() => {});
        } catch {
          // Too many PINGs unanswered: the client is told enough.
        }
      };
      if (idle === undefined) for (const session of sessions) nudge(session);
      else idle.drain(nudge);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([stopped, new Promise((resolve) => (timer = setTimeout(resolve, Math.min(lameDuckMs, graceMs, MAX_TIMER_MS))))]);
      clearTimeout(timer);
      idle?.stop();
      endLameDuck(server);
      // What the clients left open: the HTTP/1.1 connections still idle are closed now, those finishing a call after
      // it; the sessions get their last GOAWAY.
      if (node instanceof http.Server) node.closeIdleConnections();
      for (const session of sessions) session.close();
    } else {
      idle?.stop();
      stopped = new Promise<void>((resolve) => node.close(() => resolve()));
      if (node instanceof http.Server) node.closeIdleConnections();
      for (const session of sessions) session.close();
    }
    await drained;
    // Signals have fired; give handlers a moment to answer, then cut what is left.
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const session of sessions) session.destroy();
    for (const socket of sockets) socket.destroy();
    await stopped;
  };
  return Object.freeze({ url, port, server: node, close: (o?: CloseOptions) => (closed ??= close(o)) });
}

/**
 * Closes `node`'s port, as its `close` does, but leaves the idle HTTP/1.1
 * connections open (Node's HTTP/1.1 close closes them at once).
 */
function closeLeavingIdle(node: http.Server | http2.Http2Server | http2.Http2SecureServer, onClosed: () => void): void {
  if (!(node instanceof http.Server)) {
    node.close(onClosed);
    return;
  }
  node.closeIdleConnections = () => {};
  try {
    node.close(onClosed);
  } finally {
    delete (node as { closeIdleConnections?: unknown }).closeIdleConnections;
  }
}

/** HTTP/2's connection preface: what a client speaking h2c with prior knowledge sends first. */
const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/**
 * Makes an HTTP/1.1 server serve HTTP/2 with prior knowledge (h2c) on its
 * port too: a connection whose first bytes are HTTP/2's connection preface
 * goes to `h2`, any other to the HTTP/1.1 server as usual (no HTTP/1.1
 * request starts with `PRI * HTTP/2.0`). The bytes read to tell them apart
 * are put back for the server that takes the connection. A connection that
 * says nothing for `timeoutMs` is closed.
 */
function servePriorKnowledge(h1: http.Server, h2: http2.Http2Server, timeoutMs: number): void {
  const http1 = h1.listeners("connection") as ((this: http.Server, socket: Socket) => void)[];
  h1.removeAllListeners("connection");
  h1.on("connection", (socket: Socket) => {
    const silent = setTimeout(() => socket.destroy(), timeoutMs);
    silent.unref();
    // Until a server takes it, a connection reset by the peer is simply gone.
    const onError = (): void => clearTimeout(silent);
    let head: Buffer | undefined;
    const sniff = (): void => {
      const chunk = socket.read() as Buffer | null;
      if (chunk === null) return;
      head = head === undefined ? chunk : Buffer.concat([head, chunk]);
      const n = Math.min(head.length, PREFACE.length);
      const preface = head.compare(PREFACE, 0, n, 0, n) === 0;
      // A part of the preface so far: keep it, and wait for the rest.
      if (preface && n < PREFACE.length) return;
      clearTimeout(silent);
      socket.off("readable", sniff);
      socket.off("error", onError);
      socket.unshift(head);
      if (preface) h2.emit("connection", socket);
      else for (const listener of http1) listener.call(h1, socket);
    };
    socket.on("error", onError);
    socket.on("readable", sniff);
  });
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Options of {@link closeOnSignal}. */
export interface CloseOnSignalOptions {
  /** How long calls in flight may take to finish, in milliseconds. Default 10 000. */
  readonly graceMs?: number;
  /**
   * The lame duck ({@link CloseOptions.lameDuckMs}): how long, within
   * `graceMs`, connections already open keep being served, so that calls a
   * load balancer sends as the instance stops are answered, not lost. Not
   * on SIGINT (Ctrl-C: a person waits, not a load balancer). Default 0.
   */
  readonly lameDuckMs?: number;
  /** The signals that close. Default SIGTERM and SIGINT. */
  readonly signals?: readonly NodeJS.Signals[];
  /** Told when a signal arrives (to log it), before closing starts. */
  readonly onSignal?: (signal: NodeJS.Signals) => void;
  /** Told when every listener has closed. Default: nothing (the process ends when nothing else holds it). */
  readonly onClosed?: () => void;
}

/** What {@link closeOnSignal} closes: a {@link NodeListener}, or anything that closes as one does. */
export type Closable = Pick<NodeListener, "close">;

/**
 * Closes listeners gracefully when the process is told to stop (SIGTERM, as
 * Kubernetes and most process managers send, or SIGINT, Ctrl-C): each
 * server's readiness (`/readyz`) answers 503, its gRPC health service (if
 * one was added) answers NOT_SERVING and ends its watches, and new calls
 * are refused with 503 (gRPC UNAVAILABLE), or served for `lameDuckMs`
 * first; then the listeners stop taking connections (HTTP/2 sessions get
 * GOAWAY, HTTP/1.1 answers `Connection: close`), calls in flight get
 * `graceMs` to finish, and the rest are aborted and the connections closed. A second
 * signal ends the process at once (exit code 1). Returns a function that
 * takes the signal handlers off again.
 *
 * ```ts
 * const listener = await listen(server, { port: 8080 });
 * closeOnSignal(listener, { graceMs: 5_000 });
 * ```
 */
export function closeOnSignal(listeners: Closable | readonly Closable[], options: CloseOnSignalOptions = {}): () => void {
  const all = Array.isArray(listeners) ? (listeners as readonly Closable[]) : [listeners as Closable];
  const signals = options.signals ?? ["SIGTERM", "SIGINT"];
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    options.onSignal?.(signal);
    const lameDuckMs = signal === "SIGINT" ? 0 : (options.lameDuckMs ?? 0);
    void Promise.all(all.map((listener) => listener.close({ graceMs: options.graceMs ?? 10_000, lameDuckMs }))).then(() => options.onClosed?.());
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
