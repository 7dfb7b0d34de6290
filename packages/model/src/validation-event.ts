import { formatLocation, type SourceLocation } from "./source-location.js";

/** How serious a validation event is, from least to most. */
export type Severity = "SUPPRESSED" | "NOTE" | "WARNING" | "DANGER" | "ERROR";

/** Severities in increasing order of seriousness. */
export const SEVERITIES: readonly Severity[] = ["SUPPRESSED", "NOTE", "WARNING", "DANGER", "ERROR"];

/**
 * A finding about a model: a syntax error, an unresolved target, a trait
 * value that does not match its definition, and so on.
 */
export interface ValidationEvent {
  /** How serious the event is; SUPPRESSED once a suppression matched it. */
  readonly severity: Severity;
  /** Event id, such as `Model`, `Target` or `TraitValue`. */
  readonly id: string;
  /** What was found, in plain English. */
  readonly message: string;
  /** The shape the event is about, when there is one. */
  readonly shapeId?: string;
  /** Where the problem is in the model files, when it has a place. */
  readonly location?: SourceLocation;
  /** Why the event was suppressed, for SUPPRESSED events. */
  readonly suppressionReason?: string;
}

/** Formats an event like a compiler diagnostic: `path:line:col: error: message [EventId]`. */
export function formatEvent(event: ValidationEvent): string {
  const where = event.location && event.location.file ? `${formatLocation(event.location)}: ` : "";
  const shape = event.shapeId ? ` (${event.shapeId})` : "";
  return `${where}${event.severity.toLowerCase()}: ${event.message}${shape} [${event.id}]`;
}

/** Whether any event is an ERROR (DANGER counts as an error too, as in Smithy's CLI). */
export function hasErrors(events: readonly ValidationEvent[]): boolean {
  return events.some((e) => e.severity === "ERROR" || e.severity === "DANGER");
}
