/**
 * Standard retries: exponential backoff with full jitter, for errors that are
 * worth another try, on calls that are safe to repeat.
 */
import { ModeledError, type OperationSchema, TransportError, UnmodeledError } from "@anvil/core";

/** Why an error is worth another try. */
export type RetryKind = "throttling" | "transient";

/** What a retry strategy sees after a failed attempt. */
export interface RetryContext {
  /** The operation being called. */
  readonly operation: OperationSchema;
  /** What the attempt failed with: the error the call would throw if it is not tried again. */
  readonly error: unknown;
  /** Attempts made so far (1 after the first failure). */
  readonly attempt: number;
  /** Whether the request can be sent again as it is (a streamed body cannot). */
  readonly replayable: boolean;
}

/** Decides whether and when a call is tried again. */
export interface RetryStrategy {
  /** Attempts at most, the first included. */
  readonly maxAttempts: number;
  /** Milliseconds to wait before the next attempt, or `undefined` to give up with the error. */
  retryDelay(context: RetryContext): number | undefined;
}

/** Settings of {@link standardRetry}. */
export interface StandardRetryOptions {
  /** Attempts at most, the first included (default 3; 1 turns retries off). */
  readonly maxAttempts: number;
  /** Backoff base in milliseconds: the cap of the first delay (default 100). */
  readonly baseDelayMs: number;
  /** The largest delay in milliseconds (default 20 000). */
  readonly maxDelayMs: number;
  /** A number in [0, 1) (default `Math.random`); tests inject their own. */
  readonly random: () => number;
}

const DEFAULTS: StandardRetryOptions = Object.freeze({ maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 20_000, random: Math.random });

/**
 * The code of the error a transport fails with when a new connection (with
 * its TLS handshake) took longer than it allows (`nodeHttpTransport`'s
 * `connectTimeoutMs`): one of the {@link UNSENT_ERROR_CODES}.
 */
export const CONNECT_TIMEOUT = "ConnectTimeout";

/**
 * Transport error codes meaning the request never reached the server (no
 * connection, or the server refused the stream before reading it), so that
 * sending it again cannot repeat its effect. Transports report such failures
 * with one of these codes.
 */
export const UNSENT_ERROR_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  CONNECT_TIMEOUT,
  "ERR_HTTP2_GOAWAY_SESSION",
  "ERR_HTTP2_STREAM_CANCEL",
  "ERR_HTTP2_STREAM_REFUSED",
  "REFUSED_STREAM",
]);

/** The transport error codes a client uses for a call it ended itself; never retried. */
export const ABORTED = "RequestAborted";
/** See {@link ABORTED}. */
export const TIMED_OUT = "RequestTimeout";
/**
 * See {@link ABORTED}: the code of the error a streamed output fails with
 * when it is read after the client released it, unread for the client's
 * `unreadBodyTimeoutMs`.
 */
export const UNREAD_BODY_TIMEOUT = "UnreadBodyTimeout";

const THROTTLING_CODES = new Set([
  "Throttling",
  "ThrottlingException",
  "ThrottledException",
  "RequestThrottledException",
  "TooManyRequestsException",
  "ProvisionedThroughputExceededException",
  "TransactionInProgressException",
  "RequestLimitExceeded",
  "BandwidthLimitExceeded",
  "LimitExceededException",
  "RequestThrottled",
  "SlowDown",
  "PriorRequestNotComplete",
  "EC2ThrottledException",
]);

// UNAVAILABLE is gRPC's status for "not now, try again" (a server shutting down, a proxy with no answer from
// its upstream: HTTP 502/503/504 map to it); gRPC errors carry their status name as the code.
const TRANSIENT_CODES = new Set(["RequestTimeout", "RequestTimeoutException", "InternalError", "InternalFailure", "ServiceUnavailable", "UNAVAILABLE"]);

const TRANSIENT_STATUS = new Set([500, 502, 503, 504]);

/**
 * Why an error is worth retrying, or `undefined` when it is not: modeled
 * `@retryable` errors, throttling (429, the usual throttling codes), 5xx
 * answers, gRPC's UNAVAILABLE and transport failures. Aborts and timeouts
 * are never retryable.
 */
export function retryKindOf(error: unknown): RetryKind | undefined {
  if (TransportError.is(error)) return error.code === ABORTED || error.code === TIMED_OUT || error.code === UNREAD_BODY_TIMEOUT ? undefined : "transient";
  const modeled = ModeledError.isModeledError(error);
  if (!modeled && !UnmodeledError.is(error)) return undefined;
  if (modeled) {
    const retryable = error.$schema.traits.retryable;
    if (retryable !== undefined) return retryable.throttling ? "throttling" : "transient";
  } else {
    if (THROTTLING_CODES.has(error.code)) return "throttling";
    if (TRANSIENT_CODES.has(error.code)) return "transient";
  }
  const status = error.$metadata.httpStatus;
  if (status === 429) return "throttling";
  if (status !== undefined && TRANSIENT_STATUS.has(status)) return "transient";
  return undefined;
}

/** Whether an error says the request never reached the server. */
export function isUnsent(error: unknown): boolean {
  return TransportError.is(error) && UNSENT_ERROR_CODES.has(error.code);
}

/**
 * Whether sending an operation twice has the effect of sending it once:
 * `@readonly`, `@idempotent`, or an input with an `@idempotencyToken` (the
 * client fills it once per call, so every attempt carries the same token).
 */
export function isIdempotent(operation: OperationSchema): boolean {
  const t = operation.traits;
  if (t.readonly || t.idempotent) return true;
  return operation.input.members.some((m) => m.traits.idempotencyToken === true);
}

/**
 * The standard strategy: retries a {@link retryKindOf retryable} error when
 * the operation {@link isIdempotent is idempotent} or the request
 * {@link isUnsent never left}, and the body can be sent again; waits
 * `random() * min(maxDelayMs, baseDelayMs * 2^(attempt - 1))` ("full jitter").
 */
export function standardRetry(options: Partial<StandardRetryOptions> = {}): RetryStrategy {
  const o: StandardRetryOptions = { ...DEFAULTS, ...options };
  if (!Number.isInteger(o.maxAttempts) || o.maxAttempts < 1)
    throw new RangeError(`standardRetry: maxAttempts must be a positive integer, got ${o.maxAttempts}`);
  return Object.freeze({
    maxAttempts: o.maxAttempts,
    retryDelay(context: RetryContext): number | undefined {
      if (context.attempt >= o.maxAttempts || !context.replayable) return undefined;
      if (retryKindOf(context.error) === undefined) return undefined;
      if (!isIdempotent(context.operation) && !isUnsent(context.error)) return undefined;
      const cap = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (context.attempt - 1));
      return Math.floor(o.random() * cap);
    },
  });
}

/** A strategy that never retries. */
export const noRetry: RetryStrategy = Object.freeze({ maxAttempts: 1, retryDelay: () => undefined });
