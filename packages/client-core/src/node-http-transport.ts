/**
 * An HTTP/1.1 transport on `node:http` and `node:https`: a keep-alive pool
 * of sockets per origin, bounded, whose idle sockets close before the
 * server would close them. It costs a fraction of the CPU of Node's
 * `fetch` per call, and streams bodies both ways with back-pressure.
 *
 * Node-only: `@anvil/client-core/node` exports it, and it is the default
 * transport on Node (see `default-transport-node.ts`), reached through the
 * package's `#default-transport` import, which bundlers for browsers and
 * Workers resolve to the fetch transport instead.
 */
import { once } from "node:events";
import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, request as httpRequest, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import type { ConnectionOptions } from "node:tls";
import { byteChunks, type ByteStream, HttpHeaders, type HttpResponse, TransportError } from "@anvil/core";
import { CONNECT_TIMEOUT } from "./retry.js";
import type { Transport, TransportRequest } from "./transport.js";

/** Settings of {@link nodeHttpTransport}. */
export interface NodeHttpTransportOptions {
  /**
   * Sockets open at once to one origin (scheme, host and port). A call
   * that finds them all busy waits for one (its `timeoutMs` running).
   * Default 50.
   */
  readonly maxSockets: number;
  /**
   * How long an idle socket stays in the pool for the next call, in
   * milliseconds. Default 4 000, below the 5 s Node's servers keep an idle
   * connection. A server that announces its own limit (`Keep-Alive:
   * timeout=N`) has its sockets closed a second before it would: a call
   * never goes out on a socket the server is closing.
   */
  readonly idleSocketTimeoutMs: number;
  /**
   * How long a new connection (with its TLS handshake) may take, in
   * milliseconds, before the call fails with a `TransportError` coded
   * `ConnectTimeout` (a request that never left: retried like a refused
   * connection). Default 10 000; `Infinity` for none.
   */
  readonly connectTimeoutMs: number;
  /**
   * TLS settings for `https:` endpoints, as `https.request` takes them:
   * `ca` (to trust a private certificate authority), `cert` and `key` (a
   * client certificate), `rejectUnauthorized`, `servername`, ...
   */
  readonly tls: ConnectionOptions;
}

const DEFAULTS: NodeHttpTransportOptions = Object.freeze({ maxSockets: 50, idleSocketTimeoutMs: 4_000, connectTimeoutMs: 10_000, tls: Object.freeze({}) });

/** The largest delay a Node timer takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Methods that carry no body unless given one: a request of theirs without one says nothing of its length (as Node and fetch do). */
const BODYLESS_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "DELETE", "OPTIONS", "TRACE", "CONNECT"]);

/**
 * A transport over HTTP/1.1 with `node:http` (and `node:https` for
 * `https:` endpoints): keep-alive sockets, at most `maxSockets` per origin,
 * idle ones closed after `idleSocketTimeoutMs` or before the server's own
 * `Keep-Alive` timeout. Bytes and text go out with a `Content-Length`,
 * streams chunked as they are read; response bodies stream, and a complete
 * one gives its socket back to the pool whether or not it is read. Idle
 * sockets never keep a process alive; `close()` closes them, and each busy
 * one once its call is over (it resolves then), as an HTTP/2 session
 * closing lets its streams finish.
 *
 * It is the default transport on Node: pass one of your own to change its
 * settings.
 *
 * @example
 * ```ts
 * import { nodeHttpTransport } from "@anvil/client-core/node";
 * const transport = nodeHttpTransport({ maxSockets: 200, tls: { ca: readFileSync("ca.pem") } });
 * const client = createClient(Weather, { endpoint: "https://weather.internal", protocols: [restJson1()], transport });
 * // ...
 * await transport.close();
 * ```
 */
export function nodeHttpTransport(options: Partial<NodeHttpTransportOptions> = {}): Transport & { close(): Promise<void> } {
  const settings: NodeHttpTransportOptions = { ...DEFAULTS, ...options };
  const { maxSockets, idleSocketTimeoutMs, connectTimeoutMs } = settings;
  if (!(maxSockets >= 1) || (!Number.isInteger(maxSockets) && maxSockets !== Number.POSITIVE_INFINITY)) {
    throw new RangeError(`nodeHttpTransport: maxSockets must be a positive integer, got ${maxSockets}`);
  }
  if (!(idleSocketTimeoutMs >= 1 && idleSocketTimeoutMs <= MAX_TIMER_MS)) {
    throw new RangeError(`nodeHttpTransport: idleSocketTimeoutMs must be between 1 and ${MAX_TIMER_MS}, got ${idleSocketTimeoutMs}`);
  }
  if (!(connectTimeoutMs >= 1 && (connectTimeoutMs <= MAX_TIMER_MS || connectTimeoutMs === Number.POSITIVE_INFINITY))) {
    throw new RangeError(`nodeHttpTransport: connectTimeoutMs must be positive (Infinity for none), got ${connectTimeoutMs}`);
  }
  // `timeout` is what Node's agent closes idle sockets after, lowered by a server's Keep-Alive hint.
  const agentOptions = { keepAlive: true, maxSockets, timeout: idleSocketTimeoutMs, noDelay: true, scheduling: "lifo" as const };
  // Made on first use: a transport that is never called opens nothing, and one closed starts afresh.
  let http: HttpAgent | undefined;
  let https: HttpsAgent | undefined;
  const connect = Number.isFinite(connectTimeoutMs) ? connectTimeoutMs : undefined;

  return Object.freeze({
    httpVersion: "1.1" as const,
    send(request: TransportRequest): Promise<HttpResponse> {
      const signal = request.signal;
      if (signal?.aborted) return Promise.reject(signal.reason);
      const url = request.url;
      let req: ClientRequest;
      try {
        const options = requestOptions(request);
        if (url.protocol === "https:") {
          options.agent = https ??= new HttpsAgent({ ...settings.tls, ...agentOptions });
          req = httpsRequest(options);
        } else if (url.protocol === "http:") {
          options.agent = http ??= new HttpAgent(agentOptions);
          req = httpRequest(options);
        } else {
          throw new TransportError("ERR_INVALID_PROTOCOL", `http: ${url.protocol} URLs cannot be sent over HTTP/1.1 (http: or https: only)`);
        }
      } catch (error) {
        return Promise.reject(transportErrorOf(error, false));
      }
      return exchange(req, request, connect);
    },
    async close(): Promise<void> {
      const agents = [http, https];
      http = https = undefined;
      const closing: Promise<unknown>[] = [];
      for (const agent of agents) {
        if (agent === undefined) continue;
        // Calls in flight finish (and calls waiting for a socket of this pool are still sent), as on an HTTP/2
        // session closing; then no socket goes back to the pool: each closes as its exchange ends.
        agent.keepSocketAlive = () => false;
        for (const sockets of [...Object.values(agent.sockets), ...Object.values(agent.freeSockets)]) {
          for (const socket of sockets ?? []) if (!socket.closed) closing.push(once(socket, "close"));
        }
        for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
      }
      await Promise.all(closing);
    },
  });
}

/**
 * What `http.request` takes for a request: its headers as a flat list, with
 * `Host` and the body's framing decided here (Node then writes them as they
 * are, without an object of headers in between).
 */
function requestOptions(request: TransportRequest): RequestOptions {
  const url = request.url;
  const fields = HttpHeaders.fieldList(request.headers);
  if (!request.headers.has("host")) fields.push("host", url.host);
  const body = request.body;
  if (!request.headers.has("content-length") && !request.headers.has("transfer-encoding")) {
    if (body === undefined) {
      if (!BODYLESS_METHODS.has(request.method)) fields.push("content-length", "0");
    } else if (typeof body === "string" || body instanceof Uint8Array) {
      const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
      if (length > 0 || !BODYLESS_METHODS.has(request.method)) fields.push("content-length", String(length));
    } else {
      fields.push("transfer-encoding", "chunked");
    }
  }
  const hostname = url.hostname;
  return {
    // An IPv6 address goes to `net.connect` without its brackets.
    hostname: hostname.charCodeAt(0) === 91 /* [ */ ? hostname.slice(1, -1) : hostname,
    ...(url.port === "" ? {} : { port: Number(url.port) }),
    path: `${url.pathname}${url.search}`,
    method: request.method,
    headers: fields as unknown as RequestOptions["headers"],
  };
}

/**
 * Sends the request's body and resolves with the response once its head
 * arrives. The signal aborts the exchange at any point, the response body
 * included; its listener comes off once the body has ended, failed or been
 * let go.
 */
function exchange(req: ClientRequest, request: TransportRequest, connectTimeoutMs: number | undefined): Promise<HttpResponse> {
  const signal = request.signal;
  return new Promise<HttpResponse>((resolve, reject) => {
    let headed = false;
    let settled = false;
    let connectTimer: ReturnType<typeof setTimeout> | undefined;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      if (connectTimer !== undefined) clearTimeout(connectTimer);
    };
    const fail = (error: unknown): void => {
      if (headed) return;
      headed = true;
      settle();
      reject(error);
    };
    const onAbort = (): void => {
      // A call still waiting for a socket of a full pool has nothing to fail it until one frees: it fails now.
      fail(signal!.reason);
      req.destroy();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    // Errors keep coming after the response (a write of the body that fails, a reset): the listener stays.
    req.on("error", (error: Error) => fail(signal?.aborted ? signal.reason : transportErrorOf(error, req.reusedSocket)));
    req.on("close", () => {
      if (!headed) fail(signal?.aborted ? signal.reason : transportErrorOf(closed("the connection closed before the response"), req.reusedSocket));
    });
    if (connectTimeoutMs !== undefined) {
      req.once("socket", (socket: Socket) => {
        if (!socket.connecting) return; // a socket of the pool
        connectTimer = setTimeout(() => {
          const error = new TransportError(CONNECT_TIMEOUT, `http: no connection to ${request.url.host} after ${connectTimeoutMs} ms`);
          fail(error);
          req.destroy(error);
        }, connectTimeoutMs);
        const connected = (): void => {
          if (connectTimer !== undefined) clearTimeout(connectTimer);
          connectTimer = undefined;
        };
        // A TLS socket is ready for the request once its handshake is done.
        socket.once((socket as { encrypted?: boolean }).encrypted === true ? "secureConnect" : "connect", connected);
        socket.once("close", connected);
      });
    }
    req.once("response", (res: IncomingMessage) => {
      if (headed) return; // aborted: Node discards what comes
      headed = true;
      if (connectTimer !== undefined) clearTimeout(connectTimer);
      const status = res.statusCode ?? 0;
      const headers = HttpHeaders.fromRawPairs(res.rawHeaders);
      if (request.method === "HEAD" || status === 204 || status === 304) {
        // No body: the socket goes back to the pool once Node has read the message's end.
        res.resume();
        settle();
        resolve({ status, headers, body: undefined });
        return;
      }
      resolve({ status, headers, body: new ResponseBody(res, signal, settle) });
    });
    writeBody(req, request.body).catch((error: unknown) => req.destroy(error instanceof Error ? error : new Error(String(error))));
  });
}

/** Writes the body: bytes or text at once, a stream as it is read, waiting for the socket to drain (back-pressure). */
async function writeBody(req: ClientRequest, body: TransportRequest["body"]): Promise<void> {
  if (body === undefined) {
    req.end();
    return;
  }
  if (typeof body === "string" || body instanceof Uint8Array) {
    req.end(body);
    return;
  }
  // Bytes beyond a Content-Length the request declared fail it, rather than corrupt the connection.
  (req as ClientRequest & { strictContentLength: boolean }).strictContentLength = true; // declared on ServerResponse only
  for await (const chunk of byteChunks(body as ByteStream)) {
    if (req.destroyed) return;
    if (!req.write(chunk)) await drained(req);
  }
  if (!req.destroyed) req.end();
}

function drained(req: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      req.off("drain", done);
      req.off("close", done);
      resolve();
    };
    req.on("drain", done);
    req.on("close", done);
  });
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * A response body, read with `read()` in paused mode: bytes are pulled from
 * the socket only as the reader asks (back-pressure). A message that has
 * arrived whole is taken out of Node's buffer at once, so that its socket
 * goes back to the pool even if nobody reads it (as undici does): only a
 * body still streaming holds a socket, and the client's
 * `unreadBodyTimeoutMs` releases one left unread.
 */
/** A read of a response body waiting for bytes. */
interface WaitingRead {
  resolve(result: IteratorResult<Uint8Array, undefined>): void;
  reject(error: unknown): void;
}

class ResponseBody implements AsyncIterableIterator<Uint8Array, undefined> {
  /** Bytes taken from a message that has arrived whole, for the reader. */
  #taken: Uint8Array[] = [];
  /** The message has ended (what is left of it is in `#taken`), failed, or been let go. */
  #over = false;
  #failure: unknown;
  /** The read waiting for bytes, and its promise: a read asked for meanwhile comes after it. */
  #reader: WaitingRead | undefined;
  #waiting: Promise<IteratorResult<Uint8Array, undefined>> | undefined;

  constructor(
    private readonly res: IncomingMessage,
    private readonly signal: AbortSignal | undefined,
    /** Takes the exchange's abort listener off. */
    private readonly settle: () => void,
  ) {
    res.on("readable", this.#onReadable);
    res.on("end", this.#onEnd);
    res.on("error", this.#onError);
    res.on("close", this.#onClose);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    // A read asked for while another waits comes after it, as a generator's would.
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      const after = (): Promise<IteratorResult<Uint8Array, undefined>> => this.next();
      return waiting.then(after, after);
    }
    if (this.#taken.length > 0) return Promise.resolve({ done: false, value: this.#taken.shift()! });
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#over) return Promise.resolve(DONE);
    const res = this.res;
    const chunk = res.read() as Uint8Array | null;
    if (chunk !== null) return Promise.resolve({ done: false, value: chunk });
    // A complete message with nothing left to read has ended ("end" follows on the next tick).
    if (res.complete) return Promise.resolve(DONE);
    const read = new Promise<IteratorResult<Uint8Array, undefined>>((resolve, reject) => (this.#reader = { resolve, reject }));
    this.#waiting = read;
    return read;
  }

  /** Takes the waiting read, if any, to settle it. */
  #takeReader(): WaitingRead | undefined {
    const reader = this.#reader;
    this.#reader = this.#waiting = undefined;
    return reader;
  }

  /**
   * The reader stops. A message that has arrived whole is read past, and
   * its socket goes back to the pool; one still coming takes its socket
   * with it (what is left of it cannot be skipped cheaply). A read left
   * waiting ends.
   */
  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.#taken = [];
    if (!this.#over) {
      const res = this.res;
      if (res.complete) while (res.read() !== null);
      else res.destroy();
      this.#finish();
    }
    this.#takeReader()?.resolve(DONE);
    return Promise.resolve(DONE);
  }

  readonly #onReadable = (): void => {
    const res = this.res;
    if (this.#reader !== undefined) {
      const chunk = res.read() as Uint8Array | null;
      if (chunk !== null) this.#takeReader()!.resolve({ done: false, value: chunk });
      else if (res.complete) this.#takeReader()!.resolve(DONE);
    }
    // The whole message is in: take it, so that the socket goes back to the pool now, read or not.
    if (res.complete) for (let chunk = res.read() as Uint8Array | null; chunk !== null; chunk = res.read() as Uint8Array | null) this.#taken.push(chunk);
  };

  readonly #onEnd = (): void => {
    this.#finish();
    this.#takeReader()?.resolve(DONE);
  };

  readonly #onError = (error: Error): void => this.#fail(error);

  readonly #onClose = (): void => {
    if (!this.#over) this.#fail(closed("the connection closed before the response body ended"));
  };

  #fail(error: Error): void {
    if (this.#over) return;
    const signal = this.signal;
    this.#failure = signal?.aborted ? signal.reason : transportErrorOf(error, false, "the response body");
    this.#finish();
    this.#takeReader()?.reject(this.#failure);
  }

  #finish(): void {
    this.#over = true;
    const res = this.res;
    res.off("readable", this.#onReadable).off("end", this.#onEnd).off("error", this.#onError).off("close", this.#onClose);
    // An error after this point (the socket destroyed by `return`) must not go uncaught.
    res.on("error", ignore);
    this.settle();
  }
}

function ignore(): void {}

/** A connection lost without a system error to say so. */
function closed(message: string): Error {
  return Object.assign(new Error(message), { code: "ECONNRESET" });
}

/**
 * A Node error as a TransportError with its system code (`ECONNREFUSED`,
 * `ECONNRESET`, ...). A connection a kept-alive socket lost before any
 * answer keeps its code: the server may have read the request (it is sent
 * again only when the operation is idempotent).
 */
function transportErrorOf(error: unknown, reusedSocket: boolean, what = "the request"): TransportError {
  if (TransportError.is(error)) return error;
  let code = codeOf(error);
  // `connect` tries each address of a name (IPv4 and IPv6) and reports them together when all fail.
  const errors = (error as { errors?: unknown } | null)?.errors;
  if (code === undefined && Array.isArray(errors)) code = codeOf(errors[0]);
  const message = error instanceof Error ? error.message : String(error);
  const reused = reusedSocket ? " (on a kept-alive connection, before any answer)" : "";
  return new TransportError(code ?? "NetworkError", `http: ${what} failed: ${message}${reused}`, { cause: error });
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
