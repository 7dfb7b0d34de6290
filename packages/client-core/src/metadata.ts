/**
 * `$metadata`: what a client knows about a call besides its output: the
 * response's status and request id, and how many attempts it took.
 */
import type { ResponseMetadata } from "@anvil/core";
import { requestIdOf } from "@anvil/core/protocol";

/** The metadata of one call, on results and on the errors a client throws. */
export interface ClientMetadata extends ResponseMetadata {
  /** HTTP status of the last response, under the AWS SDK's name (the same value as `httpStatus`). */
  readonly httpStatusCode?: number;
  /** The `x-amz-id-2` header, when the service sends one. */
  readonly extendedRequestId?: string;
  /** How many attempts the client made (1 without retries; 0 when the request could not be written). */
  readonly attempts: number;
  /** Milliseconds the client waited between attempts, summed. */
  readonly totalRetryDelay: number;
}

/** A call's output, with its metadata. */
export type WithMetadata<T> = T & { readonly $metadata: ClientMetadata };

/** The request ids a response's headers carry. */
export function requestIdsOf(headers: Headers): { requestId?: string; extendedRequestId?: string } {
  const out: { requestId?: string; extendedRequestId?: string } = {};
  const requestId = requestIdOf(headers);
  if (requestId !== undefined) out.requestId = requestId;
  const extended = headers.get("x-amz-id-2");
  if (extended !== null) out.extendedRequestId = extended;
  return out;
}

/** Facts a client gathered about a call. */
export interface CallFacts {
  readonly status?: number;
  readonly headers?: Headers;
  readonly attempts: number;
  readonly totalRetryDelay: number;
}

/** The metadata of a call: what the error already knew, completed from the last response. */
export function metadataOf(facts: CallFacts, known?: ResponseMetadata): ClientMetadata {
  // Built field by field: every call of a client makes one, and spreads of optional parts cost an object each.
  const out: { -readonly [K in keyof ClientMetadata]: ClientMetadata[K] } =
    known === undefined
      ? { attempts: facts.attempts, totalRetryDelay: facts.totalRetryDelay }
      : { ...known, attempts: facts.attempts, totalRetryDelay: facts.totalRetryDelay };
  // An error's own status wins: gRPC errors carry their gRPC status code there (the HTTP status is 200).
  const status = known?.httpStatus ?? facts.status;
  if (status !== undefined) {
    out.httpStatus = status;
    out.httpStatusCode = status;
  }
  const headers = facts.headers;
  if (headers !== undefined) {
    const requestId = requestIdOf(headers);
    if (requestId !== undefined) out.requestId = requestId;
    const extended = headers.get("x-amz-id-2");
    if (extended !== null) out.extendedRequestId = extended;
  }
  return out;
}

/**
 * Puts `$metadata` on an output object. It is not enumerable, so outputs
 * stay plain data (equal to the modeled shape, and serialized without it).
 */
export function attachMetadata<T>(output: T, metadata: ClientMetadata): WithMetadata<T> {
  if (typeof output === "object" && output !== null) {
    Object.defineProperty(output, "$metadata", { value: metadata, enumerable: false, configurable: true, writable: true });
  }
  return output as WithMetadata<T>;
}
