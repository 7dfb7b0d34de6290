import type { Model } from "../model.js";
import { isNodeObject } from "../node-value.js";
import { namespaceOf, withoutMember } from "../shape-id.js";
import type { ValidationEvent } from "../validation-event.js";

interface MetadataSuppression {
  readonly id: string;
  readonly namespace: string;
  readonly reason: string | undefined;
}

/** Whether an event id is `id` or a dotted descendant of it (`A.B` matches `A`). */
function idMatches(eventId: string, suppressed: string): boolean {
  return eventId === suppressed || eventId.startsWith(`${suppressed}.`);
}

/**
 * Applies `@suppress` traits and `suppressions` metadata: matching events that
 * are not ERRORs become SUPPRESSED, carrying the reason when one is given.
 * `validateModel` applies it to its own events; tools that report more
 * events about a model (a code generator's warnings) apply it to theirs.
 */
export function applySuppressions(model: Model, events: readonly ValidationEvent[]): ValidationEvent[] {
  const rules: MetadataSuppression[] = [];
  const meta = model.metadata.suppressions;
  if (Array.isArray(meta)) {
    for (const s of meta) {
      if (isNodeObject(s) && typeof s.id === "string" && typeof s.namespace === "string") {
        rules.push({ id: s.id, namespace: s.namespace, reason: typeof s.reason === "string" ? s.reason : undefined });
      }
    }
  }
  return events.map((event) => {
    if (event.severity === "ERROR" || event.severity === "SUPPRESSED") return event;
    if (event.shapeId) {
      const shapeIds = [event.shapeId, withoutMember(event.shapeId)];
      for (const id of shapeIds) {
        const suppress = model.get(id)?.traits.get("smithy.api#suppress");
        if (Array.isArray(suppress) && suppress.some((s) => typeof s === "string" && idMatches(event.id, s))) {
          return { ...event, severity: "SUPPRESSED" as const };
        }
      }
    }
    for (const rule of rules) {
      if (!idMatches(event.id, rule.id)) continue;
      if (rule.namespace !== "*" && (!event.shapeId || namespaceOf(event.shapeId) !== rule.namespace)) continue;
      return { ...event, severity: "SUPPRESSED" as const, ...(rule.reason ? { suppressionReason: rule.reason } : {}) };
    }
    return event;
  });
}
