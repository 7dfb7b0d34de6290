/**
 * The error a waiter rejects with. Kept apart from the waiter itself, so
 * that `@anvil/client-core` can export it without pulling in the JMESPath
 * engine the waiter needs.
 */
import { AnvilError } from "@anvil/core";

const KIND = Symbol.for("anvil.error.kind");

/**
 * How a waiter ended without reaching its success state: `failure` (an
 * acceptor said so, or the call failed with an error no acceptor matched),
 * `timeout` (`maxWaitTime` went by) or `aborted` (the caller's signal).
 */
export type WaiterFailureState = "failure" | "timeout" | "aborted";

/** What a {@link WaiterError} is made of. */
export interface WaiterErrorInit<Output = unknown> {
  /** How the waiter ended. */
  readonly state: WaiterFailureState;
  /** The waiter's name (`CityExists`). */
  readonly waiter: string;
  /** How many times the operation was called. */
  readonly attempts: number;
  /** The last output, when the last call succeeded. */
  readonly output?: Output;
  /** The last call's error, when it failed (also the `cause`, or the signal's reason for `aborted`). */
  readonly error?: unknown;
  /** The reason an abort gave, for `aborted`. */
  readonly cause?: unknown;
}

/** A waiter that did not reach its success state: by `state`, with the last result. */
export class WaiterError<Output = unknown> extends AnvilError {
  /** `WaiterFailure`, `WaiterTimeout` or `WaiterAborted`. */
  readonly code: "WaiterFailure" | "WaiterTimeout" | "WaiterAborted";
  /** How the waiter ended. */
  readonly state: WaiterFailureState;
  /** The waiter's name. */
  readonly waiter: string;
  /** How many times the operation was called. */
  readonly attempts: number;
  /** The last output, when the last call succeeded. */
  readonly output?: Output;
  /** The last call's error, when it failed. */
  readonly error?: unknown;

  constructor(message: string, init: WaiterErrorInit<Output>) {
    const cause = init.cause ?? init.error;
    super("waiter", message, cause === undefined ? {} : { cause });
    this.name = "WaiterError";
    this.code = init.state === "failure" ? "WaiterFailure" : init.state === "timeout" ? "WaiterTimeout" : "WaiterAborted";
    this.state = init.state;
    this.waiter = init.waiter;
    this.attempts = init.attempts;
    if (init.output !== undefined) this.output = init.output;
    if (init.error !== undefined) this.error = init.error;
  }

  /** Whether a value is a waiter error, by brand (also across copies of this package). */
  static is(value: unknown): value is WaiterError {
    return typeof value === "object" && value !== null && (value as { [KIND]?: unknown })[KIND] === "waiter";
  }
}
