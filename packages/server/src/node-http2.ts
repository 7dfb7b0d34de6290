/**
 * HTTP/2 on Node's stream API: every request is a `ServerHttp2Stream` with
 * its header block, answered with `respond`, `end` and `sendTrailers` on the
 * stream itself. The compatibility layer's request and response objects,
 * with the half-dozen listeners each puts on a stream, are never made: on a
 * unary gRPC call they cost about a fifth of the server's work.
 */
import * as http2 from "node:http2";
import { type ByteStream, HttpHeaders, type HttpRequest, type HttpResponse } from "@anvil/core";
import { concatBytes, isThenable, type WholeBody } from "@anvil/core/protocol";
import {
  expectsContinue,
  fetchRequest,
  fromFetchResponse,
  headerObject,
  needsContentLength,
  pipelineRequest,
  Peer,
  QuarterTicker,
  type ReadActivity,
  BodyTiming,
  trailerObject,
  writeChunks,
} from "./node-common.js";
import { CheckPhase } from "./check-phase.js";
import { retire } from "./session-age.js";
import type { SessionGuard, SessionGuards } from "./session-guard.js";
import type { TimedBody } from "./body-limit.js";
import type { Exchange, Server } from "./server.js";

const { NGHTTP2_NO_ERROR, NGHTTP2_STREAM_STATE_HALF_CLOSED_REMOTE, NGHTTP2_STREAM_STATE_CLOSED } = http2.constants;

/** A listener for an HTTP/2 server's `stream` event. */
export type StreamListener = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, flags: number, rawHeaders: string[]) => void;

/** What the HTTP/2 path needs to know besides the server. */
export interface StreamLimits {
  /** Most request header fields (pseudo-headers included); more get a 431. */
  readonly maxHeaders: number;
  /** Time for a request body to arrive, in milliseconds (0 for none); late ones get a 408. */
  readonly requestTimeoutMs: number;
  /**
   * How long a streamed request body (an operation with a `@streaming`
   * input, gRPC client streaming) may keep its reader waiting without a
   * byte, in milliseconds (0 for no limit); such bodies are not held to
   * `requestTimeoutMs`, however long they last.
   */
  readonly bodyIdleTimeoutMs?: number;
  /** The sessions closed when idle, told of every stream that opens and closes; none when sessions are not timed. */
  readonly idle?: IdleSessions;
  /** The bounds on what one session may ask (calls in flight, resets, PINGs); none for no bounds. */
  readonly guards?: SessionGuards;
}

/**
 * A listener serving the server's requests on an HTTP/2 server's `stream`
 * event. Starts the server (route conflicts and missing handlers throw here).
 */
export function streamListener(server: Server<any, any>, limits: StreamLimits): StreamListener {
  server.start();
  const timing = new BodyTiming(limits.requestTimeoutMs, limits.bodyIdleTimeoutMs, remoteEndedOrGone, bodyTimedOut);
  const idle = limits.idle;
  const guards = limits.guards;
  return (stream, headers, _flags, rawHeaders) => {
    const session = stream.session;
    const guard = session === undefined ? undefined : guards?.of(session);
    if (guard !== undefined && !guard.admit(stream)) return;
    const exchange = server.begin();
    if (session !== undefined) idle?.opened(session);
    let body: StreamBody | undefined;
    // A stream reset with an error code is destroyed with an error: heard here, not as an uncaught exception.
    // ("on" rather than "once" for events a stream emits once: Node's once-wrapper costs more than it saves.)
    stream.on("error", ignore);
    // The stream's one "close" listener; it tells the body too (a second listener would cost every call more).
    // It takes itself off: Node keeps a closed stream until a full collection, and with it whatever its
    // listeners hold (young collections copy, then promote, all of it: about 0.7 KB a call).
    const closed = (): void => {
      stream.off("close", closed);
      body?.closed();
      timing.done(stream);
      if (session !== undefined) idle?.closed(session);
      const away = wentAway(stream);
      guard?.closed(away);
      if (away) exchange.abort(new Error("the client went away"));
      exchange.end();
    };
    stream.on("close", closed);
    if (answeredApart(server, stream, headers, rawHeaders, limits.maxHeaders)) {
      guard?.settled();
      return;
    }
    if (stream.endAfterHeaders) {
      dispatch(server, exchange, stream, headers, rawHeaders, undefined, guard);
      return;
    }
    // A small body comes in the frames Node reads with its headers, but Node hands those over one by one, with
    // the event loop's microtasks run in between. Once the whole read is handled (the check phase), such a body is
    // all there: the pipeline gets it as bytes, with nothing left to read and no reader to set up.
    checkPhase.run(() => {
      if (stream.destroyed) {
        // The client went away before the call began (the close listener has seen to the rest).
        guard?.settled();
        return;
      }
      const whole = takeWhole(stream);
      if (whole === undefined) {
        body = new StreamBody(stream, expectsContinue(headers), true, timing);
        timing.deadlines?.add(stream);
      }
      dispatch(server, exchange, stream, headers, rawHeaders, whole ?? body, guard);
    });
  };
}

/** Where the stream listeners of every server wait for a small body (see {@link streamListener}). */
const checkPhase = new CheckPhase();

/**
 * The whole request body, if the client has sent all of it (END_STREAM) and
 * none was read yet; else undefined, and nothing is read. Node hands a
 * stream each DATA frame, and then its end, as nghttp2 takes them in, so a
 * stream the client has ended holds all of its body.
 */
function takeWhole(stream: http2.ServerHttp2Stream): Uint8Array | undefined {
  if (stream.readableDidRead || !remoteEnded(stream)) return undefined;
  // Without a size, `read` hands over everything buffered, as one chunk (null for an empty body).
  const chunk = stream.read() as Uint8Array | null;
  return chunk ?? new Uint8Array(0);
}

function ignore(): void {}

/**
 * Whether a closed stream ended before its answer did: reset by the client
 * (RST_STREAM with an error code, e.g. a gRPC cancellation) or closed before
 * the answer ended.
 */
function wentAway(stream: http2.ServerHttp2Stream): boolean {
  return !stream.writableEnded || (stream.rstCode !== undefined && stream.rstCode !== NGHTTP2_NO_ERROR);
}

/**
 * Answers a request that does not go through the pipeline: one with too many
 * header fields (431), or one for a mounted handler. True if answered.
 */
function answeredApart(
  server: Server<any, any>,
  stream: http2.ServerHttp2Stream,
  headers: http2.IncomingHttpHeaders,
  rawHeaders: string[],
  maxHeaders: number,
): boolean {
  try {
    if (rawHeaders.length / 2 > maxHeaders) {
      stream.respond({ ":status": 431, "content-type": "text/plain" });
      stream.end("too many request header fields");
      return true;
    }
    const mounted = server.mounted(headers[":path"] ?? "/");
    if (mounted === undefined) return false;
    void mounted(toFetchRequest(stream, headers, rawHeaders))
      .then((response) => answer(stream, fromFetchResponse(response)))
      .catch((error: unknown) => failed(stream, error));
  } catch (error) {
    failed(stream, error);
  }
  return true;
}

/** Serves a request through the pipeline. */
function dispatch(
  server: Server<any, any>,
  exchange: Exchange,
  stream: http2.ServerHttp2Stream,
  headers: http2.IncomingHttpHeaders,
  rawHeaders: string[],
  body: Uint8Array | StreamBody | undefined,
  guard: SessionGuard | undefined,
): void {
  try {
    server
      .dispatch(http2Request(stream, headers, rawHeaders, body), exchange, new Peer(stream.session))
      // One continuation for both outcomes: `answer` handles its own failures.
      .then(
        (response) => {
          if (guard !== undefined) {
            guard.settled();
            guard.answered();
          }
          answer(stream, response);
        },
        (error: unknown) => {
          guard?.settled();
          failed(stream, error);
        },
      );
  } catch (error) {
    guard?.settled();
    failed(stream, error);
  }
}

/**
 * Writes the answer; then, if the request body was left unread (a refusal,
 * a stream the handler stopped reading), resets the stream with NO_ERROR,
 * which tells the client to stop sending (RFC 9113 §8.1), so the stream does
 * not stay half open. Never throws or rejects: what fails is `failed`'s.
 */
function answer(stream: http2.ServerHttp2Stream, response: HttpResponse): void {
  try {
    const written = writeResponse(stream, response);
    const trailers = response.trailers !== undefined;
    if (written === undefined) resetUnread(stream, trailers);
    else written.then(() => resetUnread(stream, trailers)).catch((error: unknown) => failed(stream, error));
  } catch (error) {
    failed(stream, error);
  }
}

/** Fields Node refuses, a body that fails half-way: nothing more can be said, so the stream is reset (or a bare 500 sent). */
function failed(stream: http2.ServerHttp2Stream, error: unknown): void {
  if (stream.destroyed || stream.closed) return;
  if (!stream.headersSent) stream.respond({ ":status": 500 }, { endStream: true });
  else stream.destroy(error as Error);
}

/** An HTTP/2 request as the pipeline's `HttpRequest`; its body is read as the pipeline asks. */
export function http2Request(
  stream: http2.ServerHttp2Stream,
  headers: http2.IncomingHttpHeaders,
  rawHeaders: string[],
  body: Uint8Array | WholeBody | undefined = stream.endAfterHeaders ? undefined : new StreamBody(stream, expectsContinue(headers), false),
): HttpRequest {
  const authority = headers[":authority"];
  // As RFC 9113 §8.3.1 has a conversion to HTTP/1.1 do: a Host field copied from :authority (signatures cover it, as SigV4's does).
  if (authority !== undefined && headers.host === undefined) rawHeaders.push("host", authority);
  return pipelineRequest(headers[":method"] ?? "GET", headers[":path"] ?? "/", authority ?? headers.host ?? "", HttpHeaders.fromRawPairs(rawHeaders), body);
}

/** The request as a web-standard `Request`, for a mounted handler. */
function toFetchRequest(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, rawHeaders: string[]): Request {
  const scheme = headers[":scheme"] ?? (stream.session?.encrypted === true ? "https" : "http");
  return fetchRequest(`${scheme}://${headers[":authority"] || "localhost"}`, headers[":path"] ?? "/", headers[":method"] ?? "GET", rawHeaders, stream);
}

/**
 * A request body. Sends `100 Continue` when first read if the client asked
 * for it, so a refusal (413, 404, ...) costs the client no upload.
 */
class StreamBody implements WholeBody, TimedBody {
  /** What a whole-body read waiting on the stream does when it closes. */
  #onClose: (() => void) | undefined;
  /** The reader's waits, once the body is known to stream (timed by idleness then). */
  #activity: ReadActivity | undefined;

  constructor(
    private readonly stream: http2.ServerHttp2Stream,
    private expectsContinue: boolean,
    /** Whether the stream's owner calls {@link StreamBody.closed} when it closes; if not, the body listens itself. */
    private readonly closeReported: boolean,
    private readonly timing?: BodyTiming<http2.ServerHttp2Stream>,
  ) {}

  /** The stream closed. */
  closed(): void {
    this.#onClose?.();
  }

  /** The operation streams this body: no deadline for all of it, a limit on how long its reader waits for bytes instead. */
  streaming(): void {
    this.#activity ??= this.timing?.streamed(this.stream);
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array, undefined> {
    this.#started();
    return new StreamReader(this.stream, this.#activity);
  }

  readWhole(limit: number, tooLarge: (limit: number) => Error): Promise<Uint8Array> {
    this.#started();
    return this.#readWhole(limit, tooLarge);
  }

  /** The whole body, taken as it flows in; refused with `tooLarge(limit)` as soon as it passes `limit` bytes (the stream is paused there). */
  #readWhole(limit: number, tooLarge: (limit: number) => Error): Promise<Uint8Array> {
    const stream = this.stream;
    if (stream.readableEnded) return Promise.resolve(new Uint8Array(0));
    if (stream.destroyed) return Promise.reject(stream.errored ?? new Error(CLOSED_EARLY));
    return new Promise((resolve, reject) => {
      const chunks: Uint8Array[] = [];
      let size = 0;
      // Every listener comes off once the body is settled: a closed stream outlives its call (see streamListener).
      const detach = (): void => {
        stream.off("data", onData);
        stream.off("end", onEnd);
        if (this.closeReported) this.#onClose = undefined;
        else stream.off("close", onClose);
      };
      const onData = (chunk: Uint8Array): void => {
        size += chunk.byteLength;
        if (size <= limit) {
          chunks.push(chunk);
          return;
        }
        detach();
        stream.pause();
        reject(tooLarge(limit));
      };
      const onEnd = (): void => {
        detach();
        resolve(concatBytes(chunks, size));
      };
      // Every stream closes: one that closes before its end is an error.
      const onClose = (): void => {
        detach();
        reject(stream.errored ?? new Error(CLOSED_EARLY));
      };
      stream.on("data", onData);
      stream.on("end", onEnd);
      if (this.closeReported) this.#onClose = onClose;
      else stream.on("close", onClose);
    });
  }

  #started(): void {
    if (this.expectsContinue && !this.stream.headersSent && !this.stream.destroyed) this.stream.additionalHeaders({ ":status": 100 });
    this.expectsContinue = false;
  }
}

const CLOSED_EARLY = "the request was closed before its body ended";

/** Bytes a reader holds before it pauses the stream (and with it HTTP/2 flow control) until they are taken. */
const HIGH_WATER = 64 * 1024;

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * Reads a request body chunk by chunk as it flows in, pausing the stream
 * while more than {@link HIGH_WATER} bytes wait to be taken (back-pressure
 * reaches the client through HTTP/2 flow control). Stopping early pauses
 * the stream and leaves it alone.
 */
class StreamReader implements AsyncIterator<Uint8Array, undefined> {
  readonly #stream: http2.ServerHttp2Stream;
  readonly #chunks: Uint8Array[] = [];
  #queued = 0;
  #ended = false;
  #failure: Error | undefined;
  #waiting: { resolve: (result: IteratorResult<Uint8Array, undefined>) => void; reject: (error: Error) => void } | undefined;

  constructor(
    stream: http2.ServerHttp2Stream,
    /** Where the reader's waits are told, for a body timed by idleness. */
    private readonly activity?: ReadActivity,
  ) {
    this.#stream = stream;
    if (stream.readableEnded) this.#ended = true;
    else if (stream.destroyed) this.#failure = stream.errored ?? new Error(CLOSED_EARLY);
    else {
      stream.on("data", this.#onData);
      stream.on("end", this.#onEnd);
      stream.on("close", this.#onClose);
    }
  }

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.#chunks.length > 0) {
      const chunk = this.#chunks.shift()!;
      this.#queued -= chunk.byteLength;
      if (this.#queued < HIGH_WATER && this.#stream.isPaused() && !this.#ended) this.#stream.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#ended) return Promise.resolve(DONE);
    this.activity?.waiting();
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (!this.#ended && this.#failure === undefined) {
      this.#stop();
      this.#stream.pause();
    }
    this.#ended = true;
    this.#chunks.length = 0;
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  readonly #onData = (chunk: Uint8Array): void => {
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      this.activity?.served();
      waiting.resolve({ done: false, value: chunk });
      return;
    }
    this.#chunks.push(chunk);
    this.#queued += chunk.byteLength;
    if (this.#queued >= HIGH_WATER) this.#stream.pause();
  };

  // The listeners come off at the end (or the close): a closed stream outlives its call (see streamListener).
  readonly #onEnd = (): void => {
    this.#stop();
    this.#ended = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve(DONE);
  };

  readonly #onClose = (): void => {
    this.#stop();
    if (this.#ended) return;
    this.#failure = this.#stream.errored ?? new Error(CLOSED_EARLY);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(this.#failure);
  };

  #stop(): void {
    this.#stream.off("data", this.#onData);
    this.#stream.off("end", this.#onEnd);
    this.#stream.off("close", this.#onClose);
  }
}

/**
 * Writes an answer: whole bytes at once, a stream chunk by chunk with
 * back-pressure, then trailers. An answer with neither body nor trailers
 * (a gRPC trailers-only answer) is one HEADERS frame that ends the stream.
 * Returns a promise only when it has to wait.
 */
function writeResponse(stream: http2.ServerHttp2Stream, response: HttpResponse): Promise<void> | undefined {
  if (stream.destroyed) return undefined;
  const fields = headerObject(response.headers);
  fields[":status"] = String(response.status);
  const { body, trailers } = response;
  if (body === undefined || body instanceof Uint8Array || typeof body === "string") {
    const length = body === undefined ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    if (needsContentLength(response, length)) fields["content-length"] = String(length);
    if (trailers === undefined) {
      if (length === 0) stream.respond(fields, { endStream: true });
      else {
        stream.respond(fields);
        // A HEAD request's answer ended with its headers.
        if (!stream.writableEnded) stream.end(body);
      }
      return undefined;
    }
    stream.respond(fields, { waitForTrailers: true });
    if (isThenable(trailers)) return trailers.then((t) => endWithTrailers(stream, body, t));
    endWithTrailers(stream, body, trailers);
    return undefined;
  }
  stream.respond(fields, trailers === undefined ? undefined : { waitForTrailers: true });
  return writeStream(stream, body, trailers);
}

/** Ends the answer; its trailers follow the last DATA frame (Node asks for them with `wantTrailers`). */
function endWithTrailers(stream: http2.ServerHttp2Stream, body: Uint8Array | string | undefined, trailers: Headers): void {
  if (stream.destroyed) return;
  // A listener that takes itself off: a closed stream outlives its call (see streamListener).
  const send = (): void => {
    stream.off("wantTrailers", send);
    if (!stream.destroyed) stream.sendTrailers(trailerObject(trailers));
  };
  stream.on("wantTrailers", send);
  if (body === undefined) stream.end();
  else stream.end(body);
}

/** Writes a streamed body chunk by chunk (waiting for `drain`), then its trailers, and ends the answer. */
async function writeStream(stream: http2.ServerHttp2Stream, body: ByteStream, trailers: HttpResponse["trailers"]): Promise<void> {
  if (!(await writeChunks(stream, body))) return;
  if (trailers !== undefined) endWithTrailers(stream, undefined, await trailers);
  else if (!stream.destroyed) stream.end();
}

/**
 * Resets a stream whose request body was left unread, once the answer is
 * out. An answer with trailers is out only when they are: Node asks for
 * them after the last DATA frame, and a reset submitted in the same turn
 * makes nghttp2 drop the queued trailers, so the reset waits a turn.
 */
function resetUnread(stream: http2.ServerHttp2Stream, trailers: boolean): void {
  if (stream.endAfterHeaders || stream.destroyed || remoteEnded(stream)) return;
  const reset = (): void => {
    if (!stream.destroyed && !remoteEnded(stream)) stream.close(NGHTTP2_NO_ERROR);
  };
  if (trailers) stream.once("wantTrailers", () => setImmediate(reset));
  else reset();
}

/** Whether the client has sent all of its request (END_STREAM), read or not. */
/** Whether a stream's body needs no more time: all of it came, or the stream is gone. */
function remoteEndedOrGone(stream: http2.ServerHttp2Stream): boolean {
  return stream.destroyed || remoteEnded(stream);
}

function remoteEnded(stream: http2.ServerHttp2Stream): boolean {
  if (stream.readableEnded) return true;
  const state = stream.state.state;
  return state === NGHTTP2_STREAM_STATE_HALF_CLOSED_REMOTE || state === NGHTTP2_STREAM_STATE_CLOSED;
}

/** The request body did not arrive in time: 408 if nothing was answered yet, else the stream is cut. */
function bodyTimedOut(stream: http2.ServerHttp2Stream): void {
  if (stream.destroyed) return;
  if (!stream.headersSent) {
    stream.respond({ ":status": 408, "content-type": "text/plain" });
    // Once the answer is out, the stream is reset: the body still being read stops with an error.
    stream.end("request timeout", () => stream.destroy());
  } else {
    stream.destroy();
  }
}

/**
 * Closes HTTP/2 sessions that stay without a call for the idle time. A
 * session with a stream open is never idle (gRPC's "max connection idle"
 * counts the same way). One timer serves every session, ticking every
 * quarter of the time: a session is closed five ticks after its last stream
 * closed (the time, up to a quarter more). Node's own session timeouts
 * reset a timer on every frame, which costs a call more than this does.
 */
export class IdleSessions {
  readonly #sessions = new Map<http2.Http2Session, { open: number; since: number }>();
  readonly #clock: QuarterTicker;

  constructor(ms: number) {
    this.#clock = new QuarterTicker(ms, () => {
      for (const [session, activity] of this.#sessions) {
        if (activity.open > 0 || !this.#clock.passed(activity.since)) continue;
        this.#sessions.delete(session);
        retire(session, "max_idle");
      }
      return this.#sessions.size > 0;
    });
  }

  /** Starts watching a new session. */
  watch(session: http2.Http2Session): void {
    this.#sessions.set(session, { open: 0, since: this.#clock.tick });
    session.once("close", () => this.#sessions.delete(session));
    this.#clock.start();
  }

  /** A stream of the session opened. */
  opened(session: http2.Http2Session): void {
    const activity = this.#sessions.get(session);
    if (activity !== undefined) activity.open++;
  }

  /** A stream of the session closed. */
  closed(session: http2.Http2Session): void {
    const activity = this.#sessions.get(session);
    if (activity === undefined) return;
    activity.open--;
    activity.since = this.#clock.tick;
    if (activity.open === 0) this.#onIdle?.(session);
  }

  /** While draining: told of each session as it becomes idle. */
  #onIdle: ((session: http2.Http2Session) => void) | undefined;
  #draining: ReturnType<typeof setInterval> | undefined;

  /**
   * Stops timing the sessions (the server is closing) and tells `onIdle` of
   * each session that has no stream open: now, when its last stream closes,
   * and again every `everyMs` while it stays idle, until {@link stop}.
   */
  drain(onIdle: (session: http2.Http2Session) => void, everyMs = 1_000): void {
    this.stop();
    this.#onIdle = onIdle;
    const tell = () => {
      for (const [session, activity] of this.#sessions) if (activity.open === 0) onIdle(session);
    };
    tell();
    this.#draining = setInterval(tell, everyMs);
    this.#draining.unref();
  }

  /** Stops the timer (the server is closing its sessions itself). */
  stop(): void {
    this.#clock.stop();
    clearInterval(this.#draining);
    this.#onIdle = undefined;
  }
}
