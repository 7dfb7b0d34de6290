/**
 * Interceptors: functions around a call, in the manner of connect-es's. An
 * interceptor takes the next step of the call and returns a step that does
 * something before it, after it, or instead of it. The server runs them
 * after the call is routed, authenticated, read and validated, around the
 * handler; they see its input, its context (identity, signal, request
 * headers) and its output or error, before the protocol writes either.
 */
import type { OperationSchema, ServiceSchema } from "@anvil/core";
import type { HandlerContext } from "./dispatcher.js";

/** One call as interceptors see it. */
export interface ServerCall<Id = unknown> {
  /** The service being called. */
  readonly service: ServiceSchema;
  /** The operation being called. */
  readonly operation: OperationSchema;
  /** The operation's key in the service (the handler method's name, e.g. `getCity`). */
  readonly method: string;
  /** The protocol trait id the request came in with, e.g. `aws.protocols#restJson1`. */
  readonly protocol: string;
  /** The input, read and validated. An interceptor may pass the next step another one. */
  readonly input: unknown;
  /** The handler's context: request headers, identity, signal and deadline, response headers. */
  readonly context: HandlerContext<Id>;
}

/**
 * The rest of a call: resolves with the operation's output, or rejects with
 * what the handler (or an inner interceptor) threw.
 */
export type ServerNext<Id = unknown> = (call: ServerCall<Id>) => Promise<unknown>;

/**
 * Wraps the rest of a call. Return `next` wrapped:
 *
 * ```ts
 * const timing: ServerInterceptor = (next) => async (call) => {
 *   const started = performance.now();
 *   try {
 *     return await next(call);
 *   } finally {
 *     console.log(call.method, performance.now() - started);
 *   }
 * };
 * ```
 *
 * To refuse a call, throw without calling `next`: a modeled error the
 * operation declares is written as such, `accessDenied()` as a 403 (gRPC
 * PERMISSION_DENIED), any other error as the same leak-free 500 (INTERNAL)
 * as a handler's. To answer without the handler, return an output.
 */
export type ServerInterceptor<Id = unknown> = (next: ServerNext<Id>) => ServerNext<Id>;

type AnyHandler = (input: unknown, context: HandlerContext<unknown>) => unknown;

/**
 * The handler wrapped in interceptors, outermost first: the first of
 * `interceptors` sees the call first and its outcome last.
 */
export function intercept(handler: AnyHandler, interceptors: readonly ServerInterceptor<unknown>[]): ServerNext<unknown> {
  let next: ServerNext<unknown> = (call) => {
    try {
      return Promise.resolve(handler(call.input, call.context));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  for (let i = interceptors.length - 1; i >= 0; i--) next = interceptors[i]!(next);
  return next;
}
