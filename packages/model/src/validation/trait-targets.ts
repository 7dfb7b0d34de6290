import type { Model } from "../model.js";
import { isNodeObject } from "../node-value.js";
import { matchesSelector, parseSelector, type Selector } from "../selector/index.js";
import type { MemberShape, Shape } from "../shape.js";
import { traitDisplayName } from "../shape-id.js";
import type { ValidationEvent } from "../validation-event.js";

/**
 * Checks where traits are applied: each trait's `selector`, its `conflicts`
 * list, and `structurallyExclusive` (one member per structure, or one member
 * targeting a shape with the trait).
 */
export function validateTraitTargets(model: Model, inScope: (shape: Shape) => boolean = () => true): ValidationEvent[] {
  const events: ValidationEvent[] = [];
  const selectors = new Map<string, Selector | null>();
  const selectorOf = (traitId: string, definition: Shape): Selector | null => {
    let s = selectors.get(traitId);
    if (s !== undefined) return s;
    const trait = definition.traits.get("smithy.api#trait");
    const text = isNodeObject(trait) && typeof trait.selector === "string" ? trait.selector : "*";
    try {
      s = text === "*" ? null : parseSelector(text);
    } catch (e) {
      events.push({
        severity: "ERROR",
        id: "TraitValue",
        message: `Invalid selector \`${text}\` of trait \`${traitId}\`: ${(e as Error).message}`,
        shapeId: traitId,
        location: definition.location,
      });
      s = null;
    }
    selectors.set(traitId, s);
    return s;
  };
  const check = (shape: Shape | MemberShape) => {
    for (const traitId of shape.traits.keys()) {
      const definition = model.getTraitDefinition(traitId);
      if (!definition) continue;
      const selector = selectorOf(traitId, definition);
      if (selector && !matchesSelector(model, selector, shape)) {
        const trait = definition.traits.get("smithy.api#trait");
        const text = isNodeObject(trait) ? String(trait.selector) : "*";
        events.push({
          severity: "ERROR",
          id: "TraitTarget",
          message: `Trait \`${traitDisplayName(traitId)}\` cannot be applied to \`${shape.id}\`. This trait may only be applied to shapes that match the following selector: ${text}`,
          shapeId: shape.id,
          location: shape.location,
        });
      }
      const trait = definition.traits.get("smithy.api#trait");
      if (isNodeObject(trait) && Array.isArray(trait.conflicts)) {
        for (const other of trait.conflicts) {
          if (typeof other === "string" && shape.traits.has(other)) {
            events.push({
              severity: "ERROR",
              id: "TraitConflict",
              message: `Found conflicting traits on ${shape.type === "member" ? "member" : `${shape.type} shape`} \`${shape.id}\`: \`${traitDisplayName(traitId)}\` conflicts with \`${traitDisplayName(other)}\``,
              shapeId: shape.id,
              location: shape.location,
            });
          }
        }
      }
    }
  };
  for (const shape of model.allShapes(inScope)) check(shape);
  const exclusive = exclusivity(model);
  for (const shape of model.shapesOfType("structure", "union")) {
    if (!inScope(shape)) continue;
    const byTrait = new Map<string, string[]>();
    for (const member of shape.members.values()) {
      const target = model.getShape(member.target);
      for (const [traitId, mode] of exclusive) {
        const hit = mode === "member" ? member.traits.has(traitId) : target?.traits.has(traitId);
        if (!hit) continue;
        let list = byTrait.get(traitId);
        if (!list) byTrait.set(traitId, (list = []));
        list.push(member.name);
      }
    }
    for (const [traitId, names] of byTrait) {
      if (names.length < 2) continue;
      const mode = exclusive.get(traitId);
      events.push({
        severity: "ERROR",
        id: mode === "member" ? "ExclusiveStructureMemberTrait" : "ExclusiveStructureMemberTrait.Target",
        message:
          mode === "member"
            ? `The \`${traitDisplayName(traitId)}\` trait can be applied to only a single member of a shape, but it was found on the following members: ${names.map((n) => `\`${n}\``).join(", ")}`
            : `Only a single member of a structure can target a shape marked with the \`${traitDisplayName(traitId)}\` trait, but it was found on the following members: ${names.map((n) => `\`${n}\``).join(", ")}`,
        shapeId: shape.id,
        location: shape.location,
      });
    }
  }
  return events;
}

const exclusivityCache = new WeakMap<Model, Map<string, "member" | "target">>();

/** Traits whose definitions say `structurallyExclusive`. */
function exclusivity(model: Model): Map<string, "member" | "target"> {
  let map = exclusivityCache.get(model);
  if (map) return map;
  map = new Map();
  for (const shape of model.shapes.values()) {
    const trait = shape.traits.get("smithy.api#trait");
    if (isNodeObject(trait) && (trait.structurallyExclusive === "member" || trait.structurallyExclusive === "target")) {
      map.set(shape.id, trait.structurallyExclusive);
    }
  }
  exclusivityCache.set(model, map);
  return map;
}
