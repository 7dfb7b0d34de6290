/**
 * `@anvil/client-core`: typed clients over any Anvil protocol. Protocols,
 * transports, retry strategies, interceptors and auth schemes are values
 * passed to {@link createClient}; this package imports only `@anvil/core`.
 * The `node:http` transport (HTTP/1.1, the default on Node) and the HTTP/2
 * one live in `@anvil/client-core/node`, waiters in
 * `@anvil/client-core/waiters`.
 *
 * @packageDocumentation
 */
export { createClient } from "./client.js";
export type { Client, ClientCallOptions } from "./client.js";
export { selectProtocol } from "./config.js";
export type { ClientConfig, ProtocolValue } from "./config.js";
export type { ClientMetadata, WithMetadata } from "./metadata.js";
export { requestIdsOf } from "./metadata.js";
export {
  ABORTED,
  CONNECT_TIMEOUT,
  isIdempotent,
  isUnsent,
  noRetry,
  retryKindOf,
  standardRetry,
  TIMED_OUT,
  UNREAD_BODY_TIMEOUT,
  UNSENT_ERROR_CODES,
} from "./retry.js";
export type { RetryContext, RetryKind, RetryStrategy, StandardRetryOptions } from "./retry.js";
export type { Transport, TransportRequest } from "./transport.js";
export { requestUrl } from "./transport.js";
export { fetchTransport } from "./fetch-transport.js";
export type { FetchTransportOptions } from "./fetch-transport.js";
export type { AttemptContext, AttemptResult, ClientCall, ClientInterceptor, ClientNext, Interceptor } from "./interceptor.js";
export { selectAuthScheme } from "./auth/auth-scheme.js";
// Auth schemes are core's interface, so that scheme packages need only `@anvil/core`.
export type { AuthScheme, Provider, SigningContext } from "@anvil/core";
export { httpApiKeyAuth, httpBasicAuth, httpBearerAuth } from "./auth/http-auth.js";
export { paginate, PaginationError } from "./paginate.js";
export type { ItemPaginator, PageCall, PaginateOptions, PaginationErrorCode, Paginator } from "./paginate.js";
// The waiter itself is `@anvil/client-core/waiters` (it carries a JMESPath engine); its error is here, to catch.
export { WaiterError } from "./waiter-error.js";
export type { WaiterErrorInit, WaiterFailureState } from "./waiter-error.js";
export type { ApiKeyAuthOptions, BasicAuthOptions, BearerAuthOptions } from "./auth/http-auth.js";
