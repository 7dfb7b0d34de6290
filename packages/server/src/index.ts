/**
 * `@anvil/server`: the protocol-agnostic server pipeline. One route table
 * over every protocol a service speaks, input validation before the
 * handler, and every failure answered in the protocol's own error format.
 * Transport adapters (Node, fetch) build on {@link createDispatcher}.
 *
 * @packageDocumentation
 */
export { createDispatcher } from "./dispatcher.js";
export type { Dispatcher, DispatcherOptions, DispatchOptions, HandlerContext } from "./dispatcher.js";
export { compileRouter, RouteConflictError } from "./router.js";
export type { RouteMatch, Router } from "./router.js";
export { createServer } from "./server.js";
export type { CloseOptions, Exchange, ExchangeInfo, OperationHandler, Server, ServerOptions, ServiceHandler } from "./server.js";
export { DEFAULT_BODY_LIMIT } from "./body-limit.js";
export { fetchHandler, toHttpRequest as fromFetchRequest } from "./fetch.js";
export type { FetchHandler, FetchInfo } from "./fetch.js";
