/**
 * Request hooks: the second kind of server interceptor, as the client has
 * attempt hooks beside its call interceptors. A call interceptor wraps the
 * handler once the call is authenticated, read and validated; request hooks
 * wrap the whole routed request instead, from its arrival to its answer's
 * head, so they see the calls refused before the handler too (401, 400,
 * 413) and the answer as the protocol wrote it. Tracing and metrics are
 * what they are for (`@anvil/opentelemetry` is one).
 */
import type { HttpRequest, HttpResponse, OperationSchema, ServiceSchema } from "@anvil/core";
import type { HandlerContext } from "./dispatcher.js";

/** A routed request as {@link RequestHooks} see it. */
export interface RoutedRequest<Id = unknown> {
  /** The service being called. */
  readonly service: ServiceSchema;
  /** The operation the request was routed to. */
  readonly operation: OperationSchema;
  /** The operation's key in the service (the handler method's name, e.g. `getCity`). */
  readonly method: string;
  /** The protocol trait id the request came in with, e.g. `aws.protocols#restJson1`. */
  readonly protocol: string;
  /** The request: as it arrived, and once its body is read, with the body as bytes. */
  readonly request: HttpRequest;
  /** The caller's address (IP), when the transport knows it; read it while the call is in flight. */
  readonly remoteAddress: string | undefined;
  /** The call's context (identity, request id, ...), once the pipeline has made it: undefined before `next` runs. */
  readonly context: HandlerContext<Id> | undefined;
  /**
   * What the call failed with, once its answer is ready: the handler's (or
   * an interceptor's) throw, a validation or serialization error, a refusal,
   * an expired deadline. Undefined when it succeeded. The caller never sees
   * it as it is (an unmodeled error is answered as a 500 that leaks
   * nothing): record its type, not its message.
   */
  readonly error: unknown;
}

/**
 * Hooks around every routed request: an object in the server's
 * `interceptors` beside the call interceptors (functions). Requests that
 * reach no operation (404, 405) are not routed, and pass no hook.
 *
 * ```ts
 * const timing: RequestHooks = {
 *   async aroundRequest(call, next) {
 *     const started = performance.now();
 *     const response = await next();
 *     console.log(call.method, response.status, call.error === undefined ? "ok" : "failed", performance.now() - started);
 *     return response;
 *   },
 * };
 * ```
 */
export interface RequestHooks<Id = unknown> {
  /**
   * Runs around the rest of a routed request: its authentication, reading
   * and validation, the interceptors and handler, and the writing of its
   * answer's head (a streamed body goes on after). `next` runs all that
   * (once, however often it is called) and resolves with the answer; it
   * never rejects. Return that answer, or the same with its streamed body
   * wrapped to see it end; the first of several hooks runs outermost. A
   * hook that throws or rejects is reported to `onInternalError` and the
   * call is answered as if it were not there.
   */
  aroundRequest(call: RoutedRequest<Id>, next: () => Promise<HttpResponse>): Promise<HttpResponse>;
}

/** Whether an entry of a server's `interceptors` is request hooks (an object), not a call interceptor (a function). */
export function isRequestHooks(value: unknown): value is RequestHooks<never> {
  return typeof value === "object" && value !== null && typeof (value as { aroundRequest?: unknown }).aroundRequest === "function";
}
