/**
 * gRPC status codes, and what a call that never got a gRPC answer (a proxy's
 * 404, a load balancer's 503, an HTML page) counts as: the gRPC
 * HTTP-to-status table (grpc/doc/http-grpc-status-mapping.md).
 */

/** The gRPC status codes, by name. */
export const GrpcStatus = Object.freeze({
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const);

/** A status code's name, e.g. `RESOURCE_EXHAUSTED`. */
export type GrpcStatusName = keyof typeof GrpcStatus;
/** A status code. */
export type GrpcStatusCode = (typeof GrpcStatus)[GrpcStatusName];

const NAMES: readonly GrpcStatusName[] = Object.keys(GrpcStatus) as GrpcStatusName[];

/** The name of a status code (`UNKNOWN` for codes outside the table). */
export function statusName(code: number): GrpcStatusName {
  return NAMES[code] ?? "UNKNOWN";
}

/** Whether a string names a status code. */
export function isStatusName(name: string): name is GrpcStatusName {
  return Object.hasOwn(GrpcStatus, name);
}

/**
 * The status of a response that carries no `grpc-status`, from its HTTP
 * status, as gRPC's http-grpc-status-mapping.md tables it: 400 and 431
 * INTERNAL, 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404 UNIMPLEMENTED,
 * 429/502/503/504 UNAVAILABLE, anything else UNKNOWN.
 */
export function statusFromHttp(httpStatus: number): GrpcStatusCode {
  switch (httpStatus) {
    case 400:
    case 431:
      return GrpcStatus.INTERNAL;
    case 401:
      return GrpcStatus.UNAUTHENTICATED;
    case 403:
      return GrpcStatus.PERMISSION_DENIED;
    case 404:
      return GrpcStatus.UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504:
      return GrpcStatus.UNAVAILABLE;
    default:
      return GrpcStatus.UNKNOWN;
  }
}

/**
 * The gRPC status of an HTTP-class error status a protocol-neutral part of
 * Anvil chose (the server's 413 for a body over its limit, 503 while
 * shutting down, 415 for a foreign content type).
 */
export function statusOfHttpError(httpStatus: number): GrpcStatusCode {
  switch (httpStatus) {
    case 400:
      return GrpcStatus.INVALID_ARGUMENT;
    case 401:
      return GrpcStatus.UNAUTHENTICATED;
    case 403:
      return GrpcStatus.PERMISSION_DENIED;
    case 404:
      return GrpcStatus.NOT_FOUND;
    case 408:
      return GrpcStatus.DEADLINE_EXCEEDED;
    case 409:
      return GrpcStatus.ABORTED;
    case 412:
      return GrpcStatus.FAILED_PRECONDITION;
    case 413:
    case 429:
      return GrpcStatus.RESOURCE_EXHAUSTED;
    case 415:
    case 501:
      return GrpcStatus.UNIMPLEMENTED;
    case 503:
      return GrpcStatus.UNAVAILABLE;
    case 504:
      return GrpcStatus.DEADLINE_EXCEEDED;
    default:
      return httpStatus >= 500 ? GrpcStatus.INTERNAL : GrpcStatus.FAILED_PRECONDITION;
  }
}
