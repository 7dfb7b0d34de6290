/**
 * The expectation of an `idl/invalid` case: the first line of the file,
 * `// <expected message>`, and how actual errors are checked against it.
 */
import { escapeNewlines, type EventLike } from "./event-matching.js";

/** What an invalid case expects. */
export interface InvalidExpectation {
  /** The expected text, normalized (see {@link normalizeErrorText}). Empty if the file has no comment. */
  readonly text: string;
  /** The `line L, column C` position named by the text, if any. */
  readonly position: { readonly line: number; readonly column: number } | undefined;
}

/** How well a case's errors matched its expectation. */
export interface InvalidCheck {
  /** Some error's text contains the expected text. */
  readonly messageMatched: boolean;
  /** Some error names the expected `line L, column C` (in its message or location). */
  readonly positionMatched: boolean;
}

/**
 * Normalizes error text as the upstream runner does: `[EOF]` is removed and
 * CR, LF and CRLF become a literal `\n`.
 */
export function normalizeErrorText(text: string): string {
  return escapeNewlines(text.replaceAll("[EOF]", ""));
}

/** Reads the expectation from an invalid `.smithy` file's text (`//` with or without a space). */
export function parseInvalidExpectation(source: string): InvalidExpectation {
  const first = source.split(/\r\n|\r|\n/, 1)[0] ?? "";
  const m = /^\s*\/\/(.*)$/.exec(first);
  const text = m ? normalizeErrorText(m[1]!.trim()) : "";
  const pos = /line (\d+), column (\d+)/.exec(text);
  return { text, position: pos ? { line: Number(pos[1]), column: Number(pos[2]) } : undefined };
}

/**
 * The text an event is searched in, shaped like Smithy's event string
 * (`[ERROR] ns#Shape: message | EventId`) because many expectations include
 * the shape id prefix or the ` | EventId` suffix. Normalized.
 */
export function searchableEventText(event: EventLike): string {
  return normalizeErrorText(`[${event.severity}] ${event.shapeId ?? "-"}: ${event.message} | ${event.id}`);
}

/** Events that reject a model: ERROR, and DANGER (which Smithy also refuses to load). */
export function isRejecting(event: EventLike): boolean {
  return event.severity === "ERROR" || event.severity === "DANGER";
}

/** Checks rejecting events against an expectation. */
export function checkInvalidExpectation(
  expectation: InvalidExpectation,
  events: readonly (EventLike & { readonly location?: { readonly line: number; readonly column: number } })[],
): InvalidCheck {
  const errors = events.filter(isRejecting);
  const messageMatched = expectation.text !== "" && errors.some((e) => searchableEventText(e).includes(expectation.text));
  const pos = expectation.position;
  const positionMatched =
    pos !== undefined &&
    errors.some(
      (e) =>
        e.message.includes(`line ${pos.line}, column ${pos.column}`) ||
        (e.location !== undefined && e.location.line === pos.line && e.location.column === pos.column),
    );
  return { messageMatched, positionMatched };
}
