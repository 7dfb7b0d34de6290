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
export { compileRouter } from "./router.js";
export type { RouteMatch, Router } from "./router.js";
