import type { Model } from "../model.js";
import { isNodeObject, nodeEquals, stringifyNode, type NodeValue } from "../node-value.js";
import type { MemberShape, Shape } from "../shape.js";
import type { ValidationEvent } from "../validation-event.js";
import { validateDefaultValue } from "./node-validator.js";

const DEFAULT = "smithy.api#default";

/**
 * Checks every `@default` value, as Smithy's DefaultTrait validator does:
 *
 * - the value fits the shape (type, enum values, `@length`, `@pattern`,
 *   `@range`; a zero out of range is a WARNING, see `validateDefaultValue`),
 *   with a member's own constraints as well as its target's;
 * - only a member may set it to `null` (which drops its target's default);
 * - a list or map default is empty, a document default is not a non-empty
 *   list or object;
 * - a structure member that targets a shape with a default repeats it (or
 *   sets `null`).
 */
export function validateDefaults(model: Model, inScope: (shape: Shape) => boolean = () => true): ValidationEvent[] {
  const events: ValidationEvent[] = [];
  for (const shape of model.allShapes(inScope)) {
    const value = shape.traits.get(DEFAULT);
    if (value === undefined) {
      if (shape.type === "member") targetDefault(model, shape, undefined, events);
      continue;
    }
    const error = (message: string): void => {
      events.push({ severity: "ERROR", id: "DefaultTrait", message, shapeId: shape.id, location: shape.location });
    };
    if (value === null) {
      if (shape.type !== "member") error("The @default trait can only be set to null on members");
      continue;
    }
    for (const p of validateDefaultValue(model, shape, value)) {
      events.push({
        severity: p.severity,
        id: "DefaultTrait",
        message: `Error validating @default trait${p.path ? ` at ${p.path}` : ""}: ${p.message}`,
        shapeId: shape.id,
        location: shape.location,
      });
    }
    const type = shape.type === "member" ? model.getShape(shape.target)?.type : shape.type;
    if ((type === "list" || type === "set") && Array.isArray(value) && value.length > 0) error("The @default value of a list must be an empty list");
    if (type === "map" && isNodeObject(value) && Object.keys(value).length > 0) error("The @default value of a map must be an empty map");
    if (type === "document" && (Array.isArray(value) ? value.length > 0 : isNodeObject(value) && Object.keys(value).length > 0)) {
      error(`The @default value of a document cannot be a non-empty ${Array.isArray(value) ? "array" : "object"}`);
    }
    if (shape.type === "member") targetDefault(model, shape, value, events);
  }
  return events;
}

/** A structure member whose target has a default must say the same default, or `null`. */
function targetDefault(model: Model, member: MemberShape, own: NodeValue | undefined, events: ValidationEvent[]): void {
  const target = model.getShape(member.target);
  const required = target?.traits.get(DEFAULT);
  if (target === undefined || required === undefined || model.getShape(member.container)?.type !== "structure") return;
  // A 1.0 member marked @box is nullable: what a 2.0 member says with `@default(null)`.
  if (own === undefined && member.traits.has("smithy.api#box")) return;
  const shown = stringifyNode(required);
  let message: string | undefined;
  if (own === undefined) message = `Member targets ${target.id}, which requires that the member defines the same default of \`${shown}\``;
  else if (own !== null && !nodeEquals(own, required)) {
    message = `Member defines a default value that differs from the default value of the target shape, ${target.id}. The member has a default of \`${stringifyNode(own)}\`, but the target has a default of \`${shown}\`.`;
  }
  if (message !== undefined) events.push({ severity: "ERROR", id: "DefaultTrait", message, shapeId: member.id, location: member.location });
}
