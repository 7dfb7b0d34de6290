/**
 * Interceptors, of two kinds. A call interceptor wraps the whole call as the
 * server's interceptors wrap a handler (connect-es style: it gets the next
 * step and returns one): it sees the operation and input, and the output or
 * error, and may change the input or options, answer without calling the
 * service, or throw. Attempt hooks run around each attempt (retries
 * included) and see the HTTP request and response.
 */
import type { HttpRequest, HttpResponse, OperationSchema, ServiceSchema } from "@anvil/core";
import type { ClientCallOptions } from "./client.js";

/** What an interceptor knows of the attempt it runs around. */
export interface AttemptContext {
  /** The service the client calls. */
  readonly service: ServiceSchema;
  /** The operation being called. */
  readonly operation: OperationSchema;
  /** The id of the protocol the client speaks, e.g. `aws.protocols#restJson1`. */
  readonly protocol: string;
  /** The client's endpoint, as configured (requests go to paths below it). */
  readonly endpoint: URL;
  /** The call's input, as the caller gave it. */
  readonly input: unknown;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The call's signal, when it has one (a caller's signal or a time limit). */
  readonly signal?: AbortSignal;
}

/** How an attempt ended, as {@link Interceptor.afterAttempt} sees it. */
export interface AttemptResult {
  /** The request as sent (after every `beforeAttempt`, and signed). */
  readonly request: HttpRequest;
  /** The response, when one arrived. Its body has been read by the protocol unless it streams. */
  readonly response?: HttpResponse;
  /** The output, when the attempt succeeded. */
  readonly output?: unknown;
  /** The error, when it failed. */
  readonly error?: unknown;
}

/**
 * Runs before and after each attempt, in the order given (`afterAttempt` in
 * the same order). A throwing interceptor fails the attempt with its error.
 */
export interface Interceptor {
  /**
   * Sees the request before it is signed and sent; returns the request to
   * send instead, or nothing to keep it.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: public API (etc/ report); `void` lets an interceptor return nothing
  beforeAttempt?(request: HttpRequest, context: AttemptContext): HttpRequest | void | Promise<HttpRequest | void>;
  /** Observes how the attempt ended (logging, metrics, tracing). */
  afterAttempt?(result: AttemptResult, context: AttemptContext): void | Promise<void>;
}

/** One call as call interceptors see it. */
export interface ClientCall {
  /** The service the client calls. */
  readonly service: ServiceSchema;
  /** The operation being called. */
  readonly operation: OperationSchema;
  /** The operation's key in the service: the client method's name, e.g. `getCity`. */
  readonly method: string;
  /** The input as the caller gave it. An interceptor may pass the next step another one. */
  readonly input: unknown;
  /** The call's options (`signal`, `timeoutMs`, `headers`). An interceptor may pass the next step others. */
  readonly options: ClientCallOptions;
}

/** The rest of a call: resolves with the output (with `$metadata`), or rejects with the call's error. */
export type ClientNext = (call: ClientCall) => Promise<unknown>;

/**
 * Wraps the rest of a call, as `@anvil/server`'s `ServerInterceptor` wraps
 * a handler. Return `next` wrapped:
 *
 * ```ts
 * const timing: ClientInterceptor = (next) => async (call) => {
 *   const started = performance.now();
 *   try {
 *     return await next(call);
 *   } finally {
 *     console.log(call.method, performance.now() - started);
 *   }
 * };
 * ```
 *
 * The first in the client's `interceptors` sees a call first and its
 * outcome last; attempt hooks run inside them all, around each attempt.
 */
export type ClientInterceptor = (next: ClientNext) => ClientNext;
