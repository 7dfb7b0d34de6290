/**
 * `@anvil/server`: the server runtime. {@link createServer} takes handler
 * registrations and maps a service onto its protocols, authenticates calls
 * by the model's auth traits and runs interceptors around handlers; underneath,
 * {@link createDispatcher} is the protocol-agnostic pipeline (one route
 * table over every protocol, body limits, input validation before the
 * handler, every failure answered in the protocol's own error format).
 * {@link fetchHandler} serves it on Fetch API hosts; `@anvil/server/node`
 * on Node's `http` and `http2`; `@anvil/server/lambda` on AWS Lambda;
 * {@link createInMemoryTransport} hands a client's requests to it in
 * process, with no socket.
 *
 * @packageDocumentation
 */
export { createDispatcher } from "./dispatcher.js";
export type { Dispatcher, DispatcherOptions, DispatchOptions, HandlerContext } from "./dispatcher.js";
export { compileRouter, RouteConflictError } from "./router.js";
export type { RouteMatch, Router } from "./router.js";
export { createServer } from "./server.js";
export { ACCESS_DENIED, accessDenied, UNAUTHENTICATED } from "./auth.js";
export type { AuthOptions, BasicCredentials, Verifier } from "./auth.js";
export type { ServerCall, ServerInterceptor, ServerNext } from "./interceptors.js";
export type { RequestHooks, RoutedRequest } from "./request-hooks.js";
export type { CorsOptions } from "./cors.js";
export type { CloseOptions, Exchange, ExchangeInfo, HealthOptions, OperationHandler, Server, ServerOptions, ServiceHandler } from "./server.js";
export { formatAccessLog } from "./access-log.js";
export type { AccessLogEntry } from "./access-log.js";
export type { MountedHandler } from "./mounts.js";
// The default lives in core (its request gunzip holds to it too); servers have long exported it.
export { DEFAULT_BODY_LIMIT } from "@anvil/core/protocol";
export { fetchHandler, toHttpRequest as fromFetchRequest } from "./fetch.js";
export type { FetchHandler, FetchHandlerOptions, FetchInfo } from "./fetch.js";
export { createInMemoryTransport } from "./in-memory-transport.js";
export type { InMemoryTransport, InMemoryTransportOptions, InMemoryTransportRequest } from "./in-memory-transport.js";
