import type { Model } from "../model.js";
import type { MemberShape, Shape } from "../shape.js";
import type { ValidationEvent } from "../validation-event.js";
import { closestMatch } from "./suggest.js";

/** A "did you mean" hint for a missing shape: a similar name in its namespace or the prelude. */
function didYouMean(model: Model, missing: string): string {
  const hash = missing.indexOf("#");
  const namespace = missing.slice(0, hash);
  const name = missing.slice(hash + 1);
  const names = new Map<string, string>();
  for (const id of model.shapes.keys()) {
    const ns = id.slice(0, id.indexOf("#"));
    if (ns === namespace || ns === "smithy.api") names.set(id.slice(id.indexOf("#") + 1), id);
  }
  const hit = closestMatch(name, names.keys());
  return hit ? `. Did you mean \`${names.get(hit)}\`?` : "";
}

const NOT_MEMBER_TARGETS = new Set(["service", "resource", "operation"]);

/**
 * Checks that every reference resolves to a shape of a kind that may be
 * referenced there: member targets, operation input/output/errors, service
 * and resource bindings, mixins.
 */
export function validateTargets(model: Model, inScope: (shape: Shape) => boolean = () => true): ValidationEvent[] {
  const events: ValidationEvent[] = [];
  const fail = (on: Shape | MemberShape, message: string) => events.push({ severity: "ERROR", id: "Target", message, shapeId: on.id, location: on.location });
  const expect = (on: Shape | MemberShape, target: string, role: string, kinds: readonly string[]) => {
    const shape = model.getShape(target);
    if (!shape) {
      fail(on, `${role} \`${target}\` of \`${on.id}\` is not defined in the model`);
      return undefined;
    }
    if (!kinds.includes(shape.type)) {
      fail(
        on,
        `${role} of \`${on.id}\` must target ${kinds.length > 1 ? `one of ${kinds.join(", ")}` : `a ${kinds[0]}`}, but \`${target}\` is a ${shape.type}`,
      );
      return undefined;
    }
    return shape;
  };
  for (const shape of model.shapes.values()) {
    if (!inScope(shape)) continue;
    for (const member of shape.members.values()) {
      const target = model.getShape(member.target);
      if (!target) fail(member, `Member \`${member.id}\` targets \`${member.target}\`, which is not defined in the model${didYouMean(model, member.target)}`);
      else if (NOT_MEMBER_TARGETS.has(target.type)) {
        fail(member, `Members cannot target ${target.type} shapes, but \`${member.id}\` targets \`${target.id}\``);
      }
    }
    for (const mixin of shape.mixins) if (!model.getShape(mixin)) fail(shape, `Mixin \`${mixin}\` of \`${shape.id}\` is not defined in the model`);
    switch (shape.type) {
      case "operation": {
        const structs = ["structure"];
        if (shape.input) expect(shape, shape.input, "Input", structs);
        if (shape.output) expect(shape, shape.output, "Output", structs);
        for (const e of shape.errors ?? []) {
          const err = expect(shape, e, "Error", structs);
          if (err && !err.traits.has("smithy.api#error"))
            fail(shape, `Operation \`${shape.id}\` lists \`${e}\` as an error, but it is not marked with the @error trait`);
        }
        break;
      }
      case "service":
      case "resource": {
        for (const op of shape.operations ?? []) expect(shape, op, "Operation", ["operation"]);
        for (const op of shape.collectionOperations ?? []) expect(shape, op, "Collection operation", ["operation"]);
        for (const r of shape.resources ?? []) expect(shape, r, "Resource", ["resource"]);
        for (const e of shape.errors ?? []) {
          const err = expect(shape, e, "Error", ["structure"]);
          if (err && !err.traits.has("smithy.api#error"))
            fail(shape, `Service \`${shape.id}\` lists \`${e}\` as an error, but it is not marked with the @error trait`);
        }
        for (const key of ["create", "put", "read", "update", "delete", "list"] as const) {
          const op = shape[key];
          if (op) expect(shape, op, `The ${key} operation`, ["operation"]);
        }
        for (const [name, target] of Object.entries(shape.identifiers ?? {})) {
          const t = model.getShape(target);
          if (!t) fail(shape, `Identifier \`${name}\` of \`${shape.id}\` targets \`${target}\`, which is not defined in the model`);
          else if (t.type !== "string" && t.type !== "enum")
            fail(shape, `Identifier \`${name}\` of \`${shape.id}\` must target a string shape, but \`${target}\` is a ${t.type}`);
        }
        for (const [name, target] of Object.entries(shape.properties ?? {})) {
          if (!model.getShape(target)) fail(shape, `Property \`${name}\` of \`${shape.id}\` targets \`${target}\`, which is not defined in the model`);
        }
        break;
      }
      default:
        break;
    }
  }
  return events;
}
