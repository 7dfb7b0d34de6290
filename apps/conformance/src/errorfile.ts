import type { Severity } from "./event-matching.js";

/** One expected validation event, as written in a `.errors` file. */
export interface ExpectedEvent {
  readonly severity: Severity;
  /** The shape id, or `undefined` for `-` (no shape). */
  readonly shapeId: string | undefined;
  /** A prefix of the actual message, with newlines written as `\n`. */
  readonly message: string;
  /** An event id the actual id must contain (`Model` matches `Model.Foo`). */
  readonly eventId: string;
  /** The line as written, for messages. */
  readonly text: string;
}

/** A line of a `.errors` file that could not be parsed. */
export class ErrorfileSyntaxError extends Error {
  constructor(
    readonly lineNumber: number,
    readonly line: string,
  ) {
    super(`line ${lineNumber}: expected "[SEVERITY] <shape id or -> : <message> | <EventId>", found: ${line}`);
    this.name = "ErrorfileSyntaxError";
  }
}

// `[ERROR] ns#Shape$member: message text | Event.Id`. The message may itself
// contain ` | `, so the event id is whatever follows the last one.
const LINE = /^\[(SUPPRESSED|NOTE|WARNING|DANGER|ERROR)\] (.+?): (.*) \| ([^|\s]+)\s*$/s;

/**
 * Parses a `.errors` file: one expected event per non-blank line,
 * `[SEVERITY] <shape id or -> : <message> | <EventId>`. An empty file means
 * no events are expected.
 *
 * @throws {ErrorfileSyntaxError} for a line that does not have that form.
 */
export function parseErrorfile(text: string): ExpectedEvent[] {
  const out: ExpectedEvent[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trimEnd();
    if (line.trim() === "") return;
    const m = LINE.exec(line);
    if (!m) throw new ErrorfileSyntaxError(index + 1, line);
    const [, severity, shape, message, eventId] = m as unknown as [string, Severity, string, string, string];
    out.push({ severity, shapeId: shape === "-" ? undefined : shape, message, eventId, text: line });
  });
  return out;
}
