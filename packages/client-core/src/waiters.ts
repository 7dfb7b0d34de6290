/**
 * `@anvil/client-core/waiters`: waiting for a resource to reach a state
 * (Smithy's `smithy.waiters#waitable`). An entry point of its own because
 * it carries a JMESPath engine: a program that waits for nothing never
 * loads it. Generated clients call {@link waitUntil} from their
 * `waitUntil<Waiter>` functions.
 *
 * @packageDocumentation
 */
export { waitUntil } from "./waiter.js";
export type {
  AcceptorState,
  PathComparator,
  PathMatcher,
  WaiterAcceptor,
  WaiterCall,
  WaiterClock,
  WaiterDefinition,
  WaiterMatcher,
  WaiterOptions,
  WaiterResult,
} from "./waiter.js";
export { WaiterError } from "./waiter-error.js";
export type { WaiterErrorInit, WaiterFailureState } from "./waiter-error.js";
