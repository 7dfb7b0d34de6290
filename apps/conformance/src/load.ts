/**
 * The one place the suites call the loader. It turns a throw into a result,
 * so that one broken case cannot stop a part.
 */
import { formatEvent, loadModel, type Model, type ValidationEvent } from "@anvil/model";
import { escapeNewlines } from "./event-matching.js";
import { isRejecting } from "./invalid-expectation.js";
import { describeError } from "./runner.js";

/** The options `loadModel` takes. */
export type LoadOptions = Parameters<typeof loadModel>[0];

/** What a load produced: a model and its events, or the error it threw. */
export type LoadOutcome =
  | { readonly ok: true; readonly model: Model; readonly events: readonly ValidationEvent[] }
  | { readonly ok: false; readonly crash: string };

/** Calls `loadModel`, catching anything it throws. */
export function tryLoad(options: LoadOptions): LoadOutcome {
  try {
    const { model, events } = loadModel(options);
    return { ok: true, model, events };
  } catch (error) {
    return { ok: false, crash: `the loader threw ${describeError(error)}` };
  }
}

/** The ERROR and DANGER events: those that make a model fail to load. */
export function rejectingEvents(events: readonly ValidationEvent[]): ValidationEvent[] {
  return events.filter(isRejecting);
}

/** The first `max` events, formatted one per line, plus a count of the rest. */
export function listEvents(events: readonly ValidationEvent[], max = 5): string {
  const lines = events.slice(0, max).map((e) => escapeNewlines(formatEvent(e)));
  if (events.length > max) lines.push(`... and ${events.length - max} more`);
  return lines.join("\n");
}

/**
 * Why a load is not a clean load: the crash, or the ERROR and DANGER events
 * (prefixed with `label` when given). `undefined` when the load is clean.
 */
export function loadProblem(outcome: LoadOutcome, label?: string): string | undefined {
  const prefix = label ? `${label}: ` : "";
  if (!outcome.ok) return `${prefix}${outcome.crash}`;
  const errors = rejectingEvents(outcome.events);
  if (errors.length === 0) return undefined;
  return `${prefix}${errors.length} error(s)\n${listEvents(errors, 3)}`;
}
