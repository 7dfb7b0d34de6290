/**
 * Matching actual validation events against the expectations of an
 * errorfile, with the rules of Smithy's errorfile runner.
 */
import type { ExpectedEvent } from "./errorfile.js";

/** Event severities, least serious first (same as `@anvil/model`). */
export type Severity = "SUPPRESSED" | "NOTE" | "WARNING" | "DANGER" | "ERROR";

/** The parts of a validation event that matching looks at (a subset of `ValidationEvent`). */
export interface EventLike {
  readonly severity: Severity;
  readonly id: string;
  readonly message: string;
  readonly shapeId?: string;
  readonly suppressionReason?: string;
}

/** The outcome of matching a case's events. */
export interface EventMatch {
  /** Expected events that no actual event matched. */
  readonly unmatched: readonly ExpectedEvent[];
  /** Actual events that match no expectation and count (see {@link countsWhenUnexpected}). */
  readonly unexpected: readonly EventLike[];
}

/** Event ids that never count as unexpected: deprecation noise. */
export const IGNORED_UNEXPECTED_IDS: readonly string[] = ["ModelDeprecation", "DeprecatedTrait", "DeprecatedShape"];

/** Escapes CR, LF and CRLF as a literal `\n`, as both sides are compared. */
export function escapeNewlines(text: string): string {
  return text.replace(/\r\n|\r|\n/g, "\\n");
}

/**
 * Whether an event id "contains" another the way Smithy means it: the same
 * id, or a dotted child of it (`Model` contains `Model.BadDocumentationComment`,
 * not `ModelX`).
 */
export function eventIdContains(actualId: string, expectedId: string): boolean {
  return actualId === expectedId || actualId.startsWith(`${expectedId}.`);
}

/**
 * Whether an actual event satisfies an expected one: same severity, same shape
 * id (`-` = none), the actual id contains the expected id, and the actual
 * message (plus ` (<suppression reason>)` when suppressed) starts with the
 * expected message, newlines escaped as `\n` on both sides.
 */
export function eventMatches(expected: ExpectedEvent, actual: EventLike): boolean {
  let message = actual.message;
  if (actual.suppressionReason !== undefined) message += ` (${actual.suppressionReason})`;
  return (
    actual.severity === expected.severity &&
    (actual.shapeId ?? undefined) === expected.shapeId &&
    eventIdContains(actual.id, expected.eventId) &&
    escapeNewlines(message).startsWith(escapeNewlines(expected.message))
  );
}

/** Whether an actual event that matches no expectation makes the case fail. */
export function countsWhenUnexpected(event: EventLike): boolean {
  if (event.severity === "SUPPRESSED") return false;
  return !IGNORED_UNEXPECTED_IDS.some((id) => eventIdContains(event.id, id));
}

/**
 * Matches actual events against expectations. As upstream, matching is not
 * one-to-one: an expectation is met by any matching event, and an event is
 * accounted for by any expectation it matches.
 */
export function matchEvents(expected: readonly ExpectedEvent[], actual: readonly EventLike[]): EventMatch {
  return {
    unmatched: expected.filter((e) => !actual.some((a) => eventMatches(e, a))),
    unexpected: actual.filter((a) => countsWhenUnexpected(a) && !expected.some((e) => eventMatches(e, a))),
  };
}

/** Formats an event the way `.errors` files write them: `[ERROR] ns#Shape: message | EventId`. */
export function formatEventLine(event: EventLike): string {
  let message = event.message;
  if (event.suppressionReason !== undefined) message += ` (${event.suppressionReason})`;
  return `[${event.severity}] ${event.shapeId ?? "-"}: ${escapeNewlines(message)} | ${event.id}`;
}

/** A readable failure reason for a match with problems, or `undefined` when it passed. */
export function describeMismatch(match: EventMatch, maxLines = 10): string | undefined {
  if (match.unmatched.length === 0 && match.unexpected.length === 0) return undefined;
  const lines: string[] = [];
  const section = (title: string, items: readonly string[]): void => {
    if (items.length === 0) return;
    lines.push(`${title} (${items.length}):`);
    for (const item of items.slice(0, maxLines)) lines.push(`  ${item}`);
    if (items.length > maxLines) lines.push(`  ... and ${items.length - maxLines} more`);
  };
  section(
    "expected but not found",
    match.unmatched.map((e) => e.text),
  );
  section("unexpected", match.unexpected.map(formatEventLine));
  return lines.join("\n");
}
