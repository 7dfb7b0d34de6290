import type { Model } from "../model.js";
import { isNodeObject, nodeTypeName, type NodeObject } from "../node-value.js";
import { matchesSelector, parseSelector, selectShapes } from "../selector/index.js";
import { namespaceOf } from "../shape-id.js";
import { SEVERITIES, type Severity, type ValidationEvent } from "../validation-event.js";

/**
 * Runs the validators declared in the `validators` metadata. Anvil knows the
 * selector-driven ones (`EmitEachSelector`, `EmitNoneSelector`); any other
 * name is reported as unknown, as Smithy does when a validator is missing.
 */
export function runMetadataValidators(model: Model): ValidationEvent[] {
  const declared = model.metadata.validators;
  if (declared === undefined) return [];
  if (!Array.isArray(declared)) {
    return [{ severity: "ERROR", id: "Model", message: `validators must be an array. Found ${nodeTypeName(declared)}.` }];
  }
  const events: ValidationEvent[] = [];
  for (const v of declared) {
    if (!isNodeObject(v) || typeof v.name !== "string") {
      events.push({ severity: "ERROR", id: "Model", message: "Each validator must be an object with a string `name`" });
      continue;
    }
    const id = typeof v.id === "string" ? v.id : v.name;
    const severity: Severity = typeof v.severity === "string" && (SEVERITIES as string[]).includes(v.severity) ? (v.severity as Severity) : "DANGER";
    const config = isNodeObject(v.configuration) ? v.configuration : ({} as NodeObject);
    const namespaces = Array.isArray(v.namespaces) ? v.namespaces.filter((n): n is string => typeof n === "string") : undefined;
    if (v.name !== "EmitEachSelector" && v.name !== "EmitNoneSelector") {
      events.push({ severity: "WARNING", id: `UnknownValidator_${v.name}`, message: `Unable to locate a validator named \`${v.name}\`` });
      continue;
    }
    if (typeof config.selector !== "string") {
      events.push({ severity: "ERROR", id: "Model", message: `Validator \`${id}\` (${v.name}) needs a \`configuration.selector\` string` });
      continue;
    }
    let shapes;
    try {
      shapes = [...selectShapes(model, parseSelector(config.selector))];
      if (typeof v.selector === "string") {
        const scope = parseSelector(v.selector);
        shapes = shapes.filter((s) => matchesSelector(model, scope, s));
      }
    } catch (e) {
      events.push({ severity: "ERROR", id: "Model", message: `Validator \`${id}\` has an invalid selector: ${(e as Error).message}` });
      continue;
    }
    if (namespaces) shapes = shapes.filter((s) => namespaces.includes(namespaceOf(s.id)));
    shapes = shapes.filter((s) => !s.id.startsWith("smithy.api#"));
    const message = typeof v.message === "string" ? v.message : undefined;
    if (v.name === "EmitEachSelector") {
      for (const s of shapes)
        events.push({ severity, id, message: message ?? `Selector capture matched selector: ${config.selector}`, shapeId: s.id, location: s.location });
    } else if (shapes.length === 0) {
      events.push({ severity, id, message: message ?? `Expected at least one shape to match selector: ${config.selector}` });
    }
  }
  return events;
}
