/**
 * Waiters (Smithy's `smithy.waiters#waitable`): call an operation until its
 * acceptors say the resource reached a state, with the specification's
 * exponential backoff and jitter between attempts. JMESPath expressions are
 * compiled once per waiter definition, on its first use.
 */
import { AnvilError, type CallOptions, type OperationSchema } from "@anvil/core";
import { compile, TreeInterpreter } from "@jmespath-community/jmespath";
import { jmespathValue } from "./jmespath-data.js";
import { sleep } from "./sleep.js";
import { WaiterError } from "./waiter-error.js";

/** How a JMESPath result is compared with a path matcher's `expected` value. */
export type PathComparator = "stringEquals" | "booleanEquals" | "allStringEquals" | "anyStringEquals";

/** A JMESPath expression and the value it must give. */
export interface PathMatcher {
  /** The JMESPath expression. */
  readonly path: string;
  /** The expected value, as text (`"true"` or `"false"` for `booleanEquals`). */
  readonly expected: string;
  /** How the result is compared with `expected`. */
  readonly comparator: PathComparator;
}

/**
 * What an acceptor checks (exactly one member): `output` (a path over a
 * successful call's output), `inputOutput` (over `{ input, output }`),
 * `success` (`true`: the call succeeded; `false`: it failed with any error)
 * or `errorType` (the call failed with this error, by shape name; an
 * absolute shape id is compared by its name).
 */
export type WaiterMatcher =
  | { readonly output: PathMatcher }
  | { readonly inputOutput: PathMatcher }
  | { readonly success: boolean }
  | { readonly errorType: string };

/** The state a waiter moves to when an acceptor's matcher matches. */
export type AcceptorState = "success" | "failure" | "retry";

/** One acceptor of a waiter. */
export interface WaiterAcceptor {
  /** The state to move to. */
  readonly state: AcceptorState;
  /** When to move there. */
  readonly matcher: WaiterMatcher;
  /** A JMESPath expression over the output giving a message (a string or strings) for a `failure`. */
  readonly message?: string;
}

/** One waiter of the model, as generated code gives it: the `smithy.waiters#waitable` entry. */
export interface WaiterDefinition {
  /** The waiter's name (`CityExists`). */
  readonly name: string;
  /** The least delay between attempts, in seconds (default 2). */
  readonly minDelay?: number;
  /** The greatest delay between attempts, in seconds (default 120). */
  readonly maxDelay?: number;
  /** The acceptors, in order: the first that matches decides. */
  readonly acceptors: readonly WaiterAcceptor[];
}

/**
 * Time as a waiter sees it. The default is the real one; tests pass their
 * own, so that waiting takes no time.
 */
export interface WaiterClock {
  /** Milliseconds since the epoch (as `Date.now()`). */
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1) (as `Math.random()`): the jitter. */
  random(): number;
}

/** Options of a waiter call. */
export interface WaiterOptions {
  /** The longest to wait, in seconds (required: a waiter never waits unbounded). */
  readonly maxWaitTime: number;
  /** The least delay between attempts, in seconds (default: the waiter's `minDelay`, else 2). */
  readonly minDelay?: number;
  /** The greatest delay between attempts, in seconds (default: the waiter's `maxDelay`, else 120). */
  readonly maxDelay?: number;
  /** Stops waiting: the call in flight is aborted, and the waiter rejects with an `aborted` {@link WaiterError}. */
  readonly signal?: AbortSignal;
  /** Time, for tests (default: the real clock, `setTimeout` and `Math.random`). */
  readonly clock?: WaiterClock;
}

/** A waiter that reached its success state: the last call's output, or the error a matcher accepted. */
export type WaiterResult<Output> = {
  /** Always `success`: other ends reject with a {@link WaiterError}. */
  readonly state: "success";
  /** How many times the operation was called. */
  readonly attempts: number;
} & ({ readonly output: Output; readonly error?: undefined } | { readonly output?: undefined; readonly error: unknown });

/** What a waiter calls: the client's method of the operation. */
export type WaiterCall<Input, Output> = (input: Input, options: CallOptions) => Promise<Output>;

type Expression = ReturnType<typeof compile>;

interface CompiledAcceptor {
  readonly state: AcceptorState;
  readonly kind: "output" | "inputOutput" | "success" | "errorType";
  readonly path?: Expression;
  readonly expected?: string;
  readonly comparator?: PathComparator;
  readonly success?: boolean;
  readonly errorType?: string;
  readonly message?: Expression;
}

const DEFAULT_CLOCK: WaiterClock = Object.freeze({ now: () => Date.now(), sleep, random: () => Math.random() });

const compiled = new WeakMap<WaiterDefinition, readonly CompiledAcceptor[]>();
const modeled = new WeakMap<OperationSchema<any, any>, Map<string, WaiterDefinition>>();

/** The trait the model's waiters are in, as schemas carry it. */
const WAITABLE = "smithy.waiters#waitable";

/** A waiter the operation's schema carries (`smithy.waiters#waitable`), by name. */
function modeledWaiter(operation: OperationSchema<any, any>, name: string): WaiterDefinition {
  let byName = modeled.get(operation);
  if (!byName) modeled.set(operation, (byName = new Map()));
  let waiter = byName.get(name);
  if (waiter) return waiter;
  const waitable = operation.traits.custom?.[WAITABLE] as Record<string, unknown> | undefined;
  const value = waitable && Object.hasOwn(waitable, name) ? (waitable[name] as Omit<WaiterDefinition, "name"> | undefined) : undefined;
  if (!value || !Array.isArray(value.acceptors)) {
    throw new TypeError(
      `waiter ${name}: the schema of ${operation.name} has no such waiter (${WAITABLE}: ${waitable ? Object.keys(waitable).join(", ") : "none"})`,
    );
  }
  waiter = { ...value, name };
  byName.set(name, waiter);
  return waiter;
}

/** The acceptors of a waiter, their expressions compiled (once per definition). */
function acceptorsOf(waiter: WaiterDefinition): readonly CompiledAcceptor[] {
  let acceptors = compiled.get(waiter);
  if (acceptors) return acceptors;
  acceptors = waiter.acceptors.map((a, i) => compileAcceptor(waiter.name, a, i));
  compiled.set(waiter, acceptors);
  return acceptors;
}

function compileAcceptor(waiter: string, acceptor: WaiterAcceptor, index: number): CompiledAcceptor {
  const expression = (text: string, what: string): Expression => {
    try {
      return compile(text);
    } catch (error) {
      throw new TypeError(
        `waiter ${waiter}: acceptor ${index + 1}'s ${what} is not a JMESPath expression (${JSON.stringify(text)}): ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  };
  const m = acceptor.matcher as Partial<Record<"output" | "inputOutput", PathMatcher>> & { success?: boolean; errorType?: string };
  const message = acceptor.message === undefined ? {} : { message: expression(acceptor.message, "message") };
  const pathMatcher = m.output ?? m.inputOutput;
  if (pathMatcher) {
    return {
      state: acceptor.state,
      kind: m.output ? "output" : "inputOutput",
      path: expression(pathMatcher.path, "path"),
      expected: pathMatcher.expected,
      comparator: pathMatcher.comparator,
      ...message,
    };
  }
  if (typeof m.success === "boolean") return { state: acceptor.state, kind: "success", success: m.success, ...message };
  if (typeof m.errorType === "string") {
    // An absolute shape id matches by its name part.
    return { state: acceptor.state, kind: "errorType", errorType: m.errorType.slice(m.errorType.indexOf("#") + 1), ...message };
  }
  throw new TypeError(`waiter ${waiter}: acceptor ${index + 1} has no matcher this client knows (output, inputOutput, success, errorType)`);
}

/** Evaluates an expression; an expression that fails on this data (a function given the wrong type) matches nothing. */
function search(expression: Expression, data: unknown): unknown {
  try {
    return TreeInterpreter.search(expression, data as Parameters<typeof TreeInterpreter.search>[1]);
  } catch {
    return undefined;
  }
}

function compare(result: unknown, comparator: PathComparator | undefined, expected: string | undefined): boolean {
  switch (comparator) {
    case "stringEquals":
      return typeof result === "string" && result === expected;
    case "booleanEquals":
      return typeof result === "boolean" && String(result) === expected;
    case "allStringEquals":
      return Array.isArray(result) && result.length > 0 && result.every((v) => v === expected);
    case "anyStringEquals":
      return Array.isArray(result) && result.some((v) => v === expected);
    default:
      return false;
  }
}

/** The name an error is matched by: a modeled error's shape name, else its code or name. */
function errorTypeOf(error: unknown): string | undefined {
  if (AnvilError.isAnvilError(error)) return error.code;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? code : error.name;
  }
  return undefined;
}

type Outcome = { readonly ok: true; readonly output: unknown } | { readonly ok: false; readonly error: unknown };

/** The first acceptor that matches an attempt's outcome, if any. */
function matching(
  acceptors: readonly CompiledAcceptor[],
  operation: OperationSchema<any, any>,
  input: unknown,
  outcome: Outcome,
): { acceptor: CompiledAcceptor; data: () => unknown } | undefined {
  // Converted once per attempt, and only when an acceptor reads it.
  let output: unknown;
  let inputOutput: unknown;
  const outputData = () => (output ??= jmespathValue(operation.output, outcome.ok ? outcome.output : undefined));
  const inputOutputData = () => {
    if (inputOutput === undefined) {
      const data: Record<string, unknown> = Object.create(null);
      data.input = jmespathValue(operation.input, input);
      data.output = outputData();
      inputOutput = data;
    }
    return inputOutput;
  };
  for (const a of acceptors) {
    let matched = false;
    switch (a.kind) {
      case "output":
        matched = outcome.ok && compare(search(a.path!, outputData()), a.comparator, a.expected);
        break;
      case "inputOutput":
        matched = outcome.ok && compare(search(a.path!, inputOutputData()), a.comparator, a.expected);
        break;
      case "success":
        matched = outcome.ok === a.success;
        break;
      case "errorType":
        matched = !outcome.ok && errorTypeOf(outcome.error) === a.errorType;
        break;
    }
    if (matched) return { acceptor: a, data: outputData };
  }
  return undefined;
}

/** The text of a failure acceptor's `message` expression, when it gives a string or strings. */
function messageOf(acceptor: CompiledAcceptor, data: () => unknown): string | undefined {
  if (!acceptor.message) return undefined;
  const result = search(acceptor.message, data());
  if (typeof result === "string") return result;
  if (Array.isArray(result) && result.length > 0 && result.every((v) => typeof v === "string")) return result.join("; ");
  return undefined;
}

function seconds(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0))
    throw new RangeError(`waiter: ${name} must be a positive number of seconds (got ${value})`);
}

/**
 * Waits for a resource to reach a state: calls the operation with `input`
 * until the waiter's acceptors (the first that matches decides) say
 * `success` or `failure`. A call that succeeds and matches no acceptor is
 * retried; one that fails with an error no acceptor matches fails the
 * waiter. Between attempts it sleeps for the specification's exponential
 * backoff with jitter: attempt `n` waits a random time between `minDelay`
 * and `min(minDelay * 2^(n-1), maxDelay)` seconds, and when what would be
 * left of `maxWaitTime` after that is `minDelay` or less, it waits all of
 * it and makes one last attempt. Generated clients wrap it per waiter
 * (`waitUntilCityExists(client, input, { maxWaitTime: 60 })`), typed.
 *
 * @example
 * ```ts
 * const { output } = await waitUntil(GetCity, "CityExists", (i, o) => weather.getCity(i, o), { cityId: "paris" }, { maxWaitTime: 60 });
 * ```
 *
 * @param operation - The operation's schema (what the JMESPath data of its input and output is).
 * @param waiter - The waiter: the name of one the operation's schema carries (its `smithy.waiters#waitable` trait), or a definition of acceptors and delays.
 * @param call - Calls the operation: the client's method.
 * @param input - The input of every call.
 * @param options - `maxWaitTime` (seconds), delays, a signal, a clock for tests.
 * @returns The success: the last output (or the error an acceptor accepted) and the number of attempts.
 * @throws {@link WaiterError} for `failure`, `timeout` and `aborted`, with the last output or error; `RangeError` for options out of range; `TypeError` for an acceptor whose JMESPath does not compile.
 */
export async function waitUntil<Input, Output>(
  operation: OperationSchema<any, any>,
  waiterOrName: string | WaiterDefinition,
  call: WaiterCall<Input, Output>,
  input: Input,
  options: WaiterOptions,
): Promise<WaiterResult<Output>> {
  const waiter = typeof waiterOrName === "string" ? modeledWaiter(operation, waiterOrName) : waiterOrName;
  const minDelay = options.minDelay ?? waiter.minDelay ?? 2;
  const maxDelay = options.maxDelay ?? waiter.maxDelay ?? 120;
  seconds("maxWaitTime", options.maxWaitTime);
  seconds("minDelay", minDelay);
  seconds("maxDelay", maxDelay);
  if (maxDelay < minDelay) throw new RangeError(`waiter ${waiter.name}: maxDelay (${maxDelay}) is less than minDelay (${minDelay})`);
  const acceptors = acceptorsOf(waiter);
  const clock = options.clock ?? DEFAULT_CLOCK;
  const signal = options.signal;
  const callOptions: CallOptions = signal ? { signal } : {};
  const deadline = clock.now() + options.maxWaitTime * 1000;
  // Past this many retries, minDelay * 2^(n-1) is beyond maxDelay (computed, so the power never overflows).
  const ceiling = Math.log(maxDelay / minDelay) / Math.log(2) + 1;
  let attempts = 0;
  let last: Outcome | undefined;
  const fail = (state: "failure" | "timeout" | "aborted", message: string, cause?: unknown) =>
    new WaiterError<Output>(`waiter ${waiter.name}: ${message}`, {
      state,
      waiter: waiter.name,
      attempts,
      ...(last?.ok ? { output: last.output as Output } : last ? { error: last.error } : {}),
      ...(cause === undefined ? {} : { cause }),
    });
  const aborted = () => fail("aborted", `aborted after ${attempts} attempt${attempts === 1 ? "" : "s"}`, signal?.reason);
  for (let retry = 1; ; retry++) {
    if (signal?.aborted) throw aborted();
    attempts++;
    try {
      last = { ok: true, output: await call(input, callOptions) };
    } catch (error) {
      last = { ok: false, error };
      if (signal?.aborted) throw aborted();
    }
    const hit = matching(acceptors, operation, input, last);
    if (hit?.acceptor.state === "success") {
      return last.ok ? { state: "success", attempts, output: last.output as Output } : { state: "success", attempts, error: last.error };
    }
    if (hit?.acceptor.state === "failure") {
      const why = messageOf(hit.acceptor, hit.data);
      throw fail("failure", `reached a failure state${why ? `: ${why}` : ""} (attempt ${attempts})`);
    }
    if (!hit && !last.ok) {
      const error = last.error;
      throw fail(
        "failure",
        `the call failed with an error no acceptor expects (${errorTypeOf(error) ?? typeof error}: ${(error as Error)?.message ?? String(error)})`,
      );
    }
    const remaining = (deadline - clock.now()) / 1000;
    if (remaining <= 0) throw fail("timeout", `still not done after ${options.maxWaitTime} s (${attempts} attempt${attempts === 1 ? "" : "s"})`);
    let delay = retry > ceiling ? maxDelay : minDelay * 2 ** (retry - 1);
    delay = minDelay + clock.random() * (delay - minDelay);
    // No attempt only to find the time gone: when less than minDelay would be left, wait it all and try once more.
    if (remaining - delay <= minDelay) delay = remaining;
    try {
      await clock.sleep(delay * 1000, signal);
    } catch (error) {
      if (signal?.aborted) throw aborted();
      throw error;
    }
  }
}
