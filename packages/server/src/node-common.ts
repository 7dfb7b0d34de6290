/**
 * What the Node adapter's HTTP/1.1 and HTTP/2 paths share: authorities,
 * answers from mounted (fetch-style) handlers, response header and trailer
 * objects in the shape Node takes them, and waiting for a full socket or
 * stream to drain.
 */
import type { Readable } from "node:stream";
import { byteChunks, type ByteStream, type HttpBody, HttpHeaders, type HttpRequest, type HttpResponse } from "@anvil/core";
import { parseQuery } from "@anvil/core/protocol";
import { CONNECTION_FIELDS } from "@anvil/core/protocol";
import type { ExchangeInfo } from "./server.js";
import { originForm } from "./target.js";

/** Whether a request asks for `100 Continue` before it sends its body (HTTP/1.1 and HTTP/2 alike). */
export function expectsContinue(headers: { readonly expect?: string | undefined }): boolean {
  return headers.expect?.toLowerCase() === "100-continue";
}

/** A request without a query string has this one (shared: a request's query is read-only). */
const NO_QUERY: HttpRequest["query"] = Object.freeze([]);

/**
 * The pipeline's request for a request target and authority (the `Host`
 * header or `:authority`), with `host` only when the authority names one.
 * Built field by field: spreading an optional field in costs an object and
 * a property copy per request.
 */
export function pipelineRequest(method: string, target: string, authority: string, headers: HttpHeaders, body: HttpBody): HttpRequest {
  const url = originForm(target);
  const q = url.indexOf("?");
  const request: { -readonly [K in keyof HttpRequest]: HttpRequest[K] } = {
    method,
    path: q < 0 ? url : url.slice(0, q),
    query: q < 0 ? NO_QUERY : parseQuery(url.slice(q + 1)),
    headers,
    body,
  };
  const host = hostName(authority);
  if (host !== "") request.host = host;
  return request;
}

/** `example.com:8080` → `example.com`; `[::1]:80` → `::1`. */
export function hostName(authority: string): string {
  if (authority.startsWith("[")) return authority.slice(1, authority.indexOf("]"));
  const colon = authority.indexOf(":");
  return colon < 0 ? authority : authority.slice(0, colon);
}

/**
 * A request as a web-standard `Request`, for a mounted handler: `origin`
 * is the scheme and authority the client used, `target` the request target,
 * and the body is read from `body` (none for GET and HEAD).
 */
export function fetchRequest(origin: string, target: string, method: string, rawHeaders: readonly string[], body: Readable): Request {
  const stream = method === "GET" || method === "HEAD" ? null : webStream(body);
  return new Request(`${origin}${originForm(target)}`, { method, headers: HttpHeaders.fromRawPairs(rawHeaders), body: stream, duplex: "half" } as RequestInit);
}

/**
 * A Node stream's chunks as a web `ReadableStream`, pulled one at a time.
 * Not `Readable.toWeb`: on Node 20 its stream of an HTTP/2 request never
 * ends, since it waits for the stream's writable side too (the answer).
 */
function webStream(body: Readable): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel(reason) {
        await chunks.return?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** A web-standard `Response` (a mounted handler's answer) as the pipeline's `HttpResponse`. */
export function fromFetchResponse(response: Response): HttpResponse {
  return { status: response.status, headers: response.headers, body: response.body ?? undefined };
}

/**
 * An answer's header fields as HTTP/2 takes them: without the
 * connection-specific fields it forbids, each `set-cookie` a field of its
 * own (`forEach` joins them).
 */
export function headerObject(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  let cookies = false;
  headers.forEach((value, name) => {
    if (name === "set-cookie") cookies = true;
    else if (!CONNECTION_FIELDS.has(name)) out[name] = value;
  });
  if (cookies) out["set-cookie"] = headers.getSetCookie();
  return out;
}

/** Trailer fields as Node takes them. */
export function trailerObject(trailers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  trailers.forEach((value, name) => (out[name] = value));
  return out;
}

/**
 * Whether an answer of `length` body bytes needs a `content-length` added:
 * not when it has one, ends with trailers (gRPC) or has no body by its status.
 */
export function needsContentLength(response: HttpResponse, length: number): boolean {
  return response.trailers === undefined && !(length === 0 && (response.status === 204 || response.status === 304)) && !response.headers.has("content-length");
}

/** Something written to that says when it can take more (an HTTP/1.1 response, an HTTP/2 stream). */
interface Drainable {
  readonly destroyed: boolean;
  write(chunk: Uint8Array): boolean;
  on(event: "drain" | "close", listener: () => void): unknown;
  off(event: "drain" | "close", listener: () => void): unknown;
}

/**
 * Writes a streamed body chunk by chunk, waiting for `drain` when the
 * target is full; false when the target went away before the body ended.
 */
export async function writeChunks(target: Drainable, body: ByteStream): Promise<boolean> {
  for await (const chunk of byteChunks(body)) {
    if (target.destroyed) return false;
    if (!target.write(chunk)) await drained(target);
  }
  return !target.destroyed;
}

/** Resolves when a response or stream can take more data, or is gone. */
function drained(target: Drainable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      target.off("drain", done);
      target.off("close", done);
      resolve();
    };
    target.on("drain", done);
    target.on("close", done);
  });
}

/**
 * A coarse clock for sweeps over many waiting things (request bodies,
 * idle sessions): one timer ticking every quarter of a period, running only
 * while `sweep` says something is still waiting. Something that began at
 * tick `t` has waited a whole period (up to a quarter more) once the tick
 * is past `t + 4`.
 */
export class QuarterTicker {
  /** The current tick. */
  tick = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `sweep` runs after each tick and says whether anything still waits. */
  constructor(
    private readonly periodMs: number,
    private readonly sweep: (tick: number) => boolean,
  ) {}

  /** Whether something that began at tick `began` has waited a whole period. */
  passed(began: number): boolean {
    return this.tick - began > 4;
  }

  /** Makes sure the timer runs (something is waiting). */
  start(): void {
    this.#timer ??= setInterval(
      () => {
        this.tick++;
        if (!this.sweep(this.tick)) this.stop();
      },
      Math.max(1, this.periodMs / 4),
    ).unref();
  }

  /** Stops the timer. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/**
 * The caller of a request (a Node request, or an HTTP/2 session), its
 * address looked up only when a handler asks for it (few do; Node's lookup
 * is not free). Undefined once the connection is gone.
 */
export class Peer implements ExchangeInfo {
  constructor(private readonly owner: { readonly socket?: { readonly remoteAddress?: string | undefined } | null | undefined } | undefined) {}

  get remoteAddress(): string | undefined {
    try {
      return this.owner?.socket?.remoteAddress;
    } catch {
      // An HTTP/2 session's socket proxy throws once the session is closed.
      return undefined;
    }
  }
}

/**
 * Request bodies that must arrive in time. One timer serves them all,
 * ticking every quarter of the time, where a timer per request would cost a
 * call more than this whole bookkeeping: a body still arriving after five
 * ticks from the one it began in (the time, up to a quarter more) is late.
 */
export class BodyDeadlines<K> {
  /** Each body awaited, with the tick it began in. */
  readonly #bodies = new Map<K, number>();
  readonly #clock: QuarterTicker;

  constructor(ms: number, ended: (body: K) => boolean, late: (body: K) => void) {
    this.#clock = new QuarterTicker(ms, () => {
      for (const [body, began] of this.#bodies) {
        if (!this.#clock.passed(began)) break; // later entries began later
        this.#bodies.delete(body);
        if (!ended(body)) late(body);
      }
      return this.#bodies.size > 0;
    });
  }

  add(body: K): void {
    if (this.#bodies.has(body)) return;
    this.#bodies.set(body, this.#clock.tick);
    this.#clock.start();
  }

  delete(body: K): void {
    this.#bodies.delete(body);
  }
}

/** Whether a streamed body's reader waits for bytes, and since which tick. */
export class ReadActivity {
  /** The tick the reader began to wait in; undefined while it does not wait. */
  since: number | undefined = undefined;

  constructor(private readonly clock: QuarterTicker) {}

  /** The reader waits for bytes. */
  waiting(): void {
    this.since = this.clock.tick;
  }

  /** Bytes came. */
  served(): void {
    this.since = undefined;
  }
}

/**
 * Streamed request bodies, held to a limit on idleness instead of a
 * deadline: a body whose reader has waited for bytes for the whole time (a
 * client that stopped sending) is late. A reader that does not ask (a
 * handler busy elsewhere, back-pressure) never makes its client late. One
 * timer serves them all, as for {@link BodyDeadlines}.
 */
export class IdleReads<K> {
  readonly #bodies = new Map<K, ReadActivity>();
  readonly #clock: QuarterTicker;

  constructor(ms: number, ended: (body: K) => boolean, late: (body: K) => void) {
    this.#clock = new QuarterTicker(ms, () => {
      for (const [body, activity] of this.#bodies) {
        if (ended(body)) this.#bodies.delete(body);
        else if (activity.since !== undefined && this.#clock.passed(activity.since)) {
          this.#bodies.delete(body);
          late(body);
        }
      }
      return this.#bodies.size > 0;
    });
  }

  add(body: K): ReadActivity {
    const activity = new ReadActivity(this.#clock);
    this.#bodies.set(body, activity);
    this.#clock.start();
    return activity;
  }

  delete(body: K): void {
    this.#bodies.delete(body);
  }
}

/**
 * How a listener times request bodies: a deadline for a whole body, a limit
 * on idleness for a streamed one (none for a limit of 0), keyed by whatever
 * stands for a body in the adapter (an HTTP/2 stream, an HTTP/1.1 body).
 */
export class BodyTiming<K> {
  readonly deadlines: BodyDeadlines<K> | undefined;
  readonly idleReads: IdleReads<K> | undefined;

  constructor(requestTimeoutMs: number, bodyIdleTimeoutMs: number | undefined, ended: (body: K) => boolean, late: (body: K) => void) {
    const idleMs = bodyIdleTimeoutMs ?? requestTimeoutMs;
    this.deadlines = requestTimeoutMs > 0 ? new BodyDeadlines(requestTimeoutMs, ended, late) : undefined;
    this.idleReads = idleMs > 0 ? new IdleReads(idleMs, ended, late) : undefined;
  }

  /** The body streams: it leaves the deadlines for the idle reads; its reader's waits go to the activity returned. */
  streamed(body: K): ReadActivity | undefined {
    this.deadlines?.delete(body);
    return this.idleReads?.add(body);
  }

  /** The body ended, or its request is gone: nothing times it any more. */
  done(body: K): void {
    this.deadlines?.delete(body);
    this.idleReads?.delete(body);
  }
}
