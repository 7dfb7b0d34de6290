/**
 * The client: one async method per operation. A call serializes its input
 * once, then makes attempts (interceptors, signing, transport, protocol)
 * until one succeeds or the retry strategy gives up.
 */
import {
  AnvilError,
  type AuthScheme,
  type CallOptions,
  type ClientCallContext,
  type ClientMethod,
  HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  type OperationSchema,
  type OutputOf,
  type ServiceSchema,
  type SigningContext,
  TransportError,
} from "@anvil/core";
import { startTimer, stopTimer } from "@anvil/core/protocol";
import { selectAuthScheme } from "./auth/auth-scheme.js";
import { type ClientConfig, resolveConfig, type ResolvedConfig } from "./config.js";
import type { AttemptContext, AttemptResult, ClientNext } from "./interceptor.js";
import { attachMetadata, type CallFacts, metadataOf, type WithMetadata } from "./metadata.js";
import { ABORTED, TIMED_OUT } from "./retry.js";
import { requestUrl, type TransportRequest } from "./transport.js";

/** Per-call options. */
export interface ClientCallOptions extends CallOptions {
  /** Time limit of this call in milliseconds, retries included (overrides the client's `timeoutMs`). */
  readonly timeoutMs?: number;
  /**
   * When the call must be over, in milliseconds since the epoch (as
   * `Date.now()`): the call gets what is left of it, or the time limit if
   * that is shorter. A handler passes its own on, so a call it makes
   * inherits the rest of its caller's budget (gRPC sends it on as
   * `grpc-timeout`): `client.getCity(input, { signal: context.signal,
   * deadline: context.deadline })`. Undefined for none.
   */
  readonly deadline?: number | undefined;
}

/**
 * The client of a service: one method per operation, taking the input and
 * resolving to the output with its `$metadata` (a streaming blob input may
 * also be whole bytes or text), or rejecting with the
 * modeled error class (or an `UnmodeledError`, `TransportError`, ...).
 * Assignable to core's `ClientOf<S>`.
 */
export type Client<S extends ServiceSchema> = {
  readonly [K in keyof S["operations"]]: ClientMethod<S["operations"][K], ClientCallOptions, WithMetadata<OutputOf<S["operations"][K]>>>;
};

/**
 * Makes a client for a service.
 *
 * @example
 * ```ts
 * const weather = createClient(Weather, { endpoint: "http://localhost:8080", protocols: [restJson1()] });
 * const { forecast } = await weather.getForecast({ cityId: "paris" }, { timeoutMs: 5_000 });
 * ```
 */
export function createClient<S extends ServiceSchema>(service: S, config: ClientConfig): Client<S> {
  const resolved = resolveConfig(service, config);
  const schemes = new Map<OperationSchema, AuthScheme | undefined>();
  const schemeOf = (operation: OperationSchema): AuthScheme | undefined => {
    if (!schemes.has(operation)) schemes.set(operation, selectAuthScheme(service, operation, resolved.auth));
    return schemes.get(operation);
  };
  const client: Record<string, unknown> = {};
  const wrappers = resolved.callInterceptors;
  for (const [name, operation] of Object.entries(service.operations)) {
    // Which sides of the operation stream, worked out on its first call (its schemas may still be loading now).
    let streaming: Streaming | undefined;
    const direct = (input: unknown, options: ClientCallOptions) =>
      call(resolved, service, operation, schemeOf(operation), (streaming ??= streamingOf(operation)), input, options);
    let method: (input?: unknown, options?: ClientCallOptions) => Promise<unknown>;
    if (wrappers.length === 0) method = (input, options) => direct(input ?? NO_INPUT, options ?? {});
    else {
      // The call interceptors, outermost first, around the call itself.
      let next: ClientNext = (c) => direct(c.input, c.options);
      for (let i = wrappers.length - 1; i >= 0; i--) next = wrappers[i]!(next);
      const intercepted = next;
      method = (input, options) => {
        try {
          return intercepted({ service, operation, method: name, input: input ?? NO_INPUT, options: options ?? {} });
        } catch (error) {
          return Promise.reject(error);
        }
      };
    }
    Object.defineProperty(client, name, { value: method, enumerable: true });
  }
  return Object.freeze(client) as Client<S>;
}

/** The input of a call made without one (every member of its input is optional). */
const NO_INPUT: Readonly<Record<string, never>> = Object.freeze({});

/** Why a call's signal fired when the client's timer fired it. */
class CallTimeout {
  constructor(readonly ms: number) {}
}

async function call(
  config: ResolvedConfig,
  service: ServiceSchema,
  operation: OperationSchema,
  scheme: AuthScheme | undefined,
  streaming: Streaming,
  input: unknown,
  options: ClientCallOptions,
): Promise<unknown> {
  const outer = options.signal;
  const limit = options.timeoutMs ?? config.timeoutMs;
  const deadline = options.deadline;
  // What is left of a deadline the caller was given, when it comes sooner than the time limit (never below 0).
  const timeoutMs = deadline === undefined ? limit : Math.max(0, Math.min(deadline - Date.now(), limit ?? Number.POSITIVE_INFINITY));
  // Without a time limit, for an output read whole, the caller's signal (or none) serves as it is: no controller, no listener.
  if (timeoutMs === undefined && !streaming.output) return attempts(config, service, operation, scheme, input, options, outer, undefined);
  // A streamed output gets a signal of its own even without a time limit: it is how its body is released.
  const controller = new AbortController();
  const signal = controller.signal;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else if (timeoutMs !== undefined && timeoutMs <= 0)
    controller.abort(new CallTimeout(0)); // a deadline that has passed: nothing is sent
  else outer?.addEventListener("abort", onAbort, { once: true });
  // Any length: a timeoutMs beyond setTimeout's 2^31 - 1 ms is chained, not fired at once.
  const timer = timeoutMs === undefined ? undefined : startTimer(timeoutMs, () => controller.abort(new CallTimeout(timeoutMs)));
  let bodyOutlivesCall = false;
  try {
    const output = await attempts(config, service, operation, scheme, input, options, signal, timeoutMs === undefined ? undefined : Date.now() + timeoutMs);
    if (streaming.output) {
      let leases = streamedOutputs;
      try {
        leases ??= streamedOutputs = await import("./streamed-output.js");
      } catch (error) {
        controller.abort(error); // the body is nobody's to read: release it
        throw error;
      }
      // The caller's signal still cancels the body until it ends or is released.
      const settled = () => outer?.removeEventListener("abort", onAbort);
      const unreadMs = streaming.input ? undefined : config.unreadBodyTimeoutMs;
      bodyOutlivesCall = leases.leaseStreams(output, operation, controller, unreadMs, settled, (error) => callError(error, signal, operation));
    }
    return output;
  } finally {
    stopTimer(timer);
    if (!bodyOutlivesCall) outer?.removeEventListener("abort", onAbort);
  }
}

/**
 * What hands streamed outputs out (`streamed-output.ts`), loaded by the first
 * call with one: a bundle of a client without streamed outputs leaves it in a
 * chunk of its own, never fetched.
 */
let streamedOutputs: typeof import("./streamed-output.js") | undefined;

/** Which sides of an operation stream: its output (a blob or an event stream), its input. */
interface Streaming {
  readonly output: boolean;
  readonly input: boolean;
}

function streamingOf(operation: OperationSchema): Streaming {
  const streams = (m: { readonly traits: { readonly streaming?: boolean } }) => m.traits.streaming === true;
  return Object.freeze({ output: operation.output.members.some(streams), input: operation.input.members.some(streams) });
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

async function attempts(
  config: ResolvedConfig,
  service: ServiceSchema,
  operation: OperationSchema,
  scheme: AuthScheme | undefined,
  input: unknown,
  options: ClientCallOptions,
  signal: AbortSignal | undefined,
  deadline: number | undefined,
): Promise<unknown> {
  // Built field by field: optional fields spread in would cost an object each, on every call.
  const context: Mutable<ClientCallContext> = { endpoint: config.endpoint, service };
  if (signal !== undefined) context.signal = signal;
  if (deadline !== undefined) context.deadline = deadline;
  if (config.idempotencyToken !== undefined) context.idempotencyToken = config.idempotencyToken;
  let attempt = 0;
  let totalRetryDelay = 0;
  let request: HttpRequest;
  try {
    if (signal?.aborted) throw signal.reason;
    request = withExtraHeaders(await config.protocol.serializeRequest(operation, input, context), config.headers, options.headers);
  } catch (error) {
    throw finish(callError(error, signal, operation), { attempts: 0, totalRetryDelay: 0 });
  }
  const replayable = request.body === undefined || request.body instanceof Uint8Array;
  let signing: Mutable<SigningContext> | undefined;
  if (scheme !== undefined) {
    signing = { service, operation, endpoint: config.endpoint };
    if (signal !== undefined) signing.signal = signal;
  }
  const hooks = config.interceptors;
  // Whether the scheme has had its one attempt after correcting itself (see AuthScheme.recoverFrom).
  let recovered = scheme?.recoverFrom === undefined;

  for (;;) {
    attempt++;
    let attemptContext: AttemptContext | undefined;
    if (hooks.length > 0) {
      const c: Mutable<AttemptContext> = { service, operation, protocol: config.protocol.id, endpoint: config.endpoint, input, attempt };
      if (signal !== undefined) c.signal = signal;
      attemptContext = c;
    }
    // Interceptors may change headers in place; each attempt starts from the serialized request.
    let sent = hooks.length === 0 ? request : { ...request, headers: new HttpHeaders(request.headers) };
    let response: HttpResponse | undefined;
    let output: unknown;
    let failure: { error: unknown } | undefined;
    try {
      for (const interceptor of hooks) {
        if (interceptor.beforeAttempt) sent = (await interceptor.beforeAttempt(sent, attemptContext!)) ?? sent;
      }
      if (scheme !== undefined) sent = await scheme.sign(sent, signing!);
      const outgoing: Mutable<TransportRequest> = { method: sent.method, url: urlOf(config.endpoint, sent), headers: sent.headers, body: sent.body };
      if (signal !== undefined) outgoing.signal = signal;
      if (sent.trailers !== undefined) outgoing.trailers = sent.trailers;
      response = await config.transport.send(outgoing);
      output = await config.protocol.deserializeResponse(operation, response, context);
    } catch (error) {
      failure = { error: callError(error, signal, operation) };
    }
    if (hooks.length > 0) {
      const result: AttemptResult =
        failure === undefined
          ? { request: sent, response: response!, output }
          : { request: sent, ...(response === undefined ? {} : { response }), error: failure.error };
      for (const interceptor of hooks) {
        if (interceptor.afterAttempt) await interceptor.afterAttempt(result, attemptContext!);
      }
    }
    // The metadata describes the last attempt: a response of an earlier one does not carry over.
    const facts: Mutable<CallFacts> = { attempts: attempt, totalRetryDelay };
    if (response !== undefined) {
      facts.status = response.status;
      facts.headers = response.headers;
    }
    if (failure === undefined) return attachMetadata(output, metadataOf(facts));

    // Refused for how it was signed (a skewed clock): signed again at once, once; the server did not act on it.
    if (!recovered && !signal?.aborted && scheme!.recoverFrom!(failure.error, response)) {
      recovered = true;
      if (replayable) continue;
    }
    const delay = signal?.aborted ? undefined : config.retry.retryDelay({ operation, error: failure.error, attempt, replayable });
    if (delay === undefined) throw finish(failure.error, facts);
    totalRetryDelay += delay;
    try {
      await config.sleep(delay, signal);
    } catch (error) {
      throw finish(callError(error, signal, operation), { ...facts, totalRetryDelay });
    }
  }
}

/**
 * The URL of a request ({@link requestUrl}). A request without a query gets
 * the URL made for the last one to its host and path (most RPC calls go to
 * one of a few), unless that URL was changed since.
 */
function urlOf(endpoint: URL, request: HttpRequest): URL {
  const { path, host } = request;
  const plain = request.query.length === 0;
  let urls = madeUrls.get(endpoint);
  if (urls === undefined) madeUrls.set(endpoint, (urls = new Map()));
  const made = urls.get(path);
  // The href a URL was made with is the same string while nobody changes it.
  if (plain && made !== undefined && made.host === host && made.url.href === made.href) return made.url;
  const url = requestUrl(endpoint, request);
  if (plain) {
    if (urls.size >= 256) urls.clear(); // paths with labels: keep it small
    urls.set(path, { url, href: url.href, host });
  }
  return url;
}

/** URLs made per endpoint, by request path. */
const madeUrls = new WeakMap<URL, Map<string, { readonly url: URL; readonly href: string; readonly host: string | undefined }>>();

/** Adds the client's and the call's headers to a request. */
function withExtraHeaders(
  request: HttpRequest,
  fixed: readonly (readonly [string, string])[],
  perCall: Readonly<Record<string, string>> | undefined,
): HttpRequest {
  if (fixed.length === 0 && perCall === undefined) return request;
  const headers = new HttpHeaders(request.headers);
  for (const [name, value] of fixed) headers.set(name, value);
  if (perCall !== undefined) for (const [name, value] of Object.entries(perCall)) headers.set(name, value);
  return { ...request, headers };
}

/**
 * The error a call fails with: once its signal fired, whatever happened is
 * reported as the abort or timeout (a TransportError the strategy never
 * retries); otherwise the error as it is.
 */
function callError(error: unknown, signal: AbortSignal | undefined, operation: OperationSchema): unknown {
  if (signal === undefined || !signal.aborted) return error;
  const reason: unknown = signal.reason;
  if (reason instanceof CallTimeout) return new TransportError(TIMED_OUT, `${operation.name}: timed out after ${reason.ms} ms`, { cause: error });
  return new TransportError(ABORTED, `${operation.name}: the call was aborted`, { cause: reason });
}

/** Puts the call's metadata on the error it fails with. */
function finish(error: unknown, facts: CallFacts): unknown {
  if (AnvilError.isAnvilError(error)) error.$metadata = metadataOf(facts, error.$metadata);
  return error;
}
