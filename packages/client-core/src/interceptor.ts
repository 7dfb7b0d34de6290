/** Interceptors: code that runs around every attempt of every call. */
import type { HttpRequest, HttpResponse, OperationSchema, ServiceSchema } from "@anvil/core";

/** What an interceptor knows of the attempt it runs around. */
export interface AttemptContext {
  /** The service the client calls. */
  readonly service: ServiceSchema;
  /** The operation being called. */
  readonly operation: OperationSchema;
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
