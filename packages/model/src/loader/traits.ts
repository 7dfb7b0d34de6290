/**
 * Applying the pending traits of every shape and member: values resolved
 * and coerced, conflicts merged (list traits) or reported, unknown traits
 * and unknown targets reported.
 *
 * @internal
 */
import { nodeEquals, type NodeValue } from "../node-value.js";
import type { MemberShape, Shape } from "../shape.js";
import { traitDisplayName, withoutMember } from "../shape-id.js";
import { formatLocation, type SourceLocation } from "../source-location.js";
import { type AssemblyState, type PendingTrait, TRAIT } from "./assembly-state.js";

/** Reports and drops the traits aimed at shapes that do not exist (or were dropped). */
export function checkPendingTargets(asm: AssemblyState): void {
  for (const [targetId, traits] of asm.pending) {
    if (asm.lookup(targetId)) continue;
    if (asm.removed.has(withoutMember(targetId))) {
      asm.pending.delete(targetId);
      continue;
    }
    for (const t of traits) {
      asm.emit("ERROR", "Model", `Trait \`${traitDisplayName(t.id)}\` applied to unknown shape \`${targetId}\``, undefined, t.location);
    }
    asm.pending.delete(targetId);
  }
}

/** Applies the pending traits of every shape and member. */
export function applyTraits(asm: AssemblyState): void {
  for (const shape of asm.shapes.values()) {
    applyPendingTo(asm, shape);
    for (const m of shape.members.values()) applyPendingTo(asm, m);
  }
}

/** Applies the pending (own and `apply`) traits of one shape or member, once. */
export function applyPendingTo(asm: AssemblyState, target: Shape | MemberShape): void {
  if (asm.applied.has(target)) return;
  asm.applied.add(target);
  const pending = asm.pending.get(target.id);
  if (!pending) return;
  if (pending.length === 1) {
    const p = pending[0]!;
    const value = traitValue(asm, p, target.id);
    if (value === undefined) return;
    target.traits.set(p.id, value);
    if (target.inheritedTraits?.has(p.id)) {
      const inherited = new Set(target.inheritedTraits);
      inherited.delete(p.id);
      (target as { inheritedTraits?: ReadonlySet<string> }).inheritedTraits = inherited;
    }
    return;
  }
  const own = new Map<string, { value: NodeValue; location: SourceLocation }>();
  for (const p of pending) {
    const value = traitValue(asm, p, target.id);
    if (value === undefined) continue;
    const prior = own.get(p.id);
    if (!prior) {
      own.set(p.id, { value, location: p.location });
      continue;
    }
    if (nodeEquals(prior.value, value)) continue;
    if (Array.isArray(prior.value) && Array.isArray(value) && isListTrait(asm, p.id)) {
      prior.value = [...prior.value, ...value];
      continue;
    }
    asm.emit(
      "ERROR",
      "Model",
      `Conflicting \`${p.id}\` trait found on shape \`${target.id}\`. The previous trait was defined at \`${formatLocation(prior.location)}\`, and a conflicting trait was defined at \`${formatLocation(p.location)}\`.`,
      target.id,
      p.location,
    );
  }
  const inherited = target.inheritedTraits ? new Set(target.inheritedTraits) : undefined;
  for (const [id, { value }] of own) {
    target.traits.set(id, value);
    inherited?.delete(id);
  }
  if (inherited) (target as { inheritedTraits?: ReadonlySet<string> }).inheritedTraits = inherited;
}

function isListTrait(asm: AssemblyState, traitId: string): boolean {
  const t = asm.shapes.get(traitId)?.type;
  return t === "list" || t === "set";
}

/** Resolves a pending trait's value, coercing annotations; undefined when the trait is rejected. */
function traitValue(asm: AssemblyState, p: PendingTrait, shapeId: string): NodeValue | undefined {
  const def = asm.shapes.get(p.id);
  if (!def || !(def.traits.has(TRAIT) || asm.pendingHas(p.id, TRAIT))) {
    if (def) {
      asm.emit(
        "ERROR",
        "Model",
        `Shape \`${p.id}\` cannot be applied as a trait. If this is a custom trait, please add \`@trait\` to this shape.`,
        p.id,
        p.location,
      );
      return undefined;
    }
    const message = `Unable to resolve trait \`${p.id}\`. If this is a custom trait, then it must be defined before it can be used in a model.`;
    if (!asm.options.allowUnknownTraits) {
      asm.emit("ERROR", "Model", message, shapeId, p.location);
      return undefined;
    }
    asm.emit("WARNING", "Model", message, shapeId, p.location);
    return p.value === undefined ? {} : asm.resolveNode(p.value, p.context, shapeId);
  }
  if (p.value !== undefined) return asm.resolveNode(p.value, p.context, shapeId);
  switch (def.type) {
    case "structure":
    case "map":
      return {};
    case "list":
    case "set":
      return [];
    default:
      return null;
  }
}
