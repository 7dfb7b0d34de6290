/**
 * Mixins: each shape gets its mixins' members, traits and bindings, in
 * order; cycles, missing mixins and shapes of the wrong type are reported.
 *
 * @internal
 */
import { isNodeObject, type NodeValue } from "../node-value.js";
import type { MemberShape, Shape } from "../shape.js";
import { type AssemblyState, MIXIN } from "./assembly-state.js";
import { applyPendingTo } from "./traits.js";

/** Resolves every shape's mixins in dependency order; shapes with missing or cyclic mixins are reported and dropped. */
export function resolveMixins(asm: AssemblyState): void {
  const state = new Map<string, "visiting" | "done" | "failed">();
  const cycles = new Set<string>();
  const visit = (id: string, stack: string[]): boolean => {
    const s = state.get(id);
    if (s === "done") return true;
    if (s === "failed") return false;
    const shape = asm.shapes.get(id);
    if (!shape) return false;
    if (s === "visiting") {
      const cycle = stack.slice(stack.indexOf(id));
      for (const c of cycle) cycles.add(c);
      return false;
    }
    state.set(id, "visiting");
    stack.push(id);
    let ok = true;
    for (const mixin of shape.mixins) {
      const found = asm.shapes.has(mixin) && visit(mixin, stack);
      if (found) continue;
      ok = false;
      if (cycles.has(id) && asm.shapes.has(mixin)) continue;
      // Like upstream, a shape with elided members reports the first member that needed the mixin.
      const elided = [...shape.members.values()].find((m) => !m.target);
      if (elided) asm.emit("ERROR", "Model", `Cannot apply mixin to ${elided.id}: ${mixin} not found`, id, elided.location);
      else asm.emit("ERROR", "Model", `Cannot apply mixin to ${id}: ${mixin} not found`, id, shape.location);
    }
    stack.pop();
    if (cycles.has(id)) ok = false;
    if (ok) {
      applyMixins(asm, shape);
      ok = checkRequiredMembers(asm, shape);
    }
    state.set(id, ok ? "done" : "failed");
    return ok;
  };
  for (const id of [...asm.shapes.keys()]) visit(id, []);
  const components = cycles.size > 0 ? mixinComponents(asm) : new Map<string, string[]>();
  for (const id of cycles) {
    const others = (components.get(id) ?? []).filter((c) => c !== id && cycles.has(c));
    asm.emit("ERROR", "Model", `Unable to resolve mixins; cycles detected between this shape and [${others.join(", ")}]`, id, asm.shapes.get(id)?.location);
  }
  for (const [id, s] of state) {
    if (s !== "failed") continue;
    asm.shapes.delete(id);
    asm.removed.add(id);
  }
}

/** Lists need `member`, maps `key` and `value` (after mixins); a shape without them cannot be built. */
function checkRequiredMembers(asm: AssemblyState, shape: Shape): boolean {
  const names = shape.type === "list" || shape.type === "set" ? ["member"] : shape.type === "map" ? ["key", "value"] : [];
  const missing = names.filter((n) => !shape.members.has(n));
  if (missing.length === 0) return true;
  asm.emit(
    "ERROR",
    "Model",
    `Missing required member${missing.length > 1 ? "s" : ""} of shape \`${shape.id}\`: ${missing.join(", ")}`,
    shape.id,
    shape.location,
  );
  return false;
}

/**
 * The strongly connected components of the mixin graph, each listed as
 * upstream Smithy lists a cycle in its message: Tarjan's algorithm over
 * "is mixed into" edges, visiting shapes in the order a Java `HashMap` of
 * shape ids iterates them (mixins follow the shape that first names them).
 * The corpus expects those messages verbatim.
 */
function mixinComponents(asm: AssemblyState): Map<string, string[]> {
  const roots = [...asm.shapes.keys()].filter((id) => !asm.isPreludeId(id) && !asm.isBuiltin(id));
  const dependents = new Map<string, string[]>();
  const node = (id: string) => {
    if (!dependents.has(id)) dependents.set(id, []);
  };
  for (const id of javaHashMapOrder(roots)) {
    node(id);
    for (const mixin of new Set(asm.shapes.get(id)!.mixins)) {
      node(mixin);
      dependents.get(mixin)!.push(id);
    }
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components = new Map<string, string[]>();
  const connect = (id: string) => {
    index.set(id, index.size);
    low.set(id, index.get(id)!);
    stack.push(id);
    onStack.add(id);
    for (const next of dependents.get(id)!) {
      if (!index.has(next)) {
        connect(next);
        low.set(id, Math.min(low.get(id)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(id, Math.min(low.get(id)!, index.get(next)!));
      }
    }
    if (low.get(id) !== index.get(id)) return;
    const component: string[] = [];
    let popped: string;
    do {
      popped = stack.pop()!;
      onStack.delete(popped);
      component.push(popped);
    } while (popped !== id);
    if (component.length > 1) for (const member of component) components.set(member, component);
  };
  for (const id of dependents.keys()) if (!index.has(id)) connect(id);
  return components;
}

function applyMixins(asm: AssemblyState, shape: Shape): void {
  if (shape.mixins.length === 0) return;
  const inheritedMembers = new Map<string, MemberShape>();
  const inheritedTraits = new Map<string, NodeValue>();
  const wrongType: string[] = [];
  for (const mixinId of shape.mixins) {
    const mixin = asm.shapes.get(mixinId)!;
    if (!mixin.traits.has(MIXIN) && !asm.pendingHas(mixinId, MIXIN)) {
      asm.emit("ERROR", "Target", `Attempted to use ${mixinId} as a mixin, but it is not marked with the mixin trait`, shape.id, shape.location);
    }
    if (mixin.type !== shape.type && !(isListLike(mixin.type) && isListLike(shape.type))) wrongType.push(mixinId);
    const local = mixinLocalTraits(asm, mixin);
    for (const [traitId, value] of effectiveTraits(asm, mixin)) {
      if (traitId === MIXIN || local.has(traitId)) continue;
      inheritedTraits.set(traitId, value);
    }
    for (const m of mixin.members.values()) {
      const own = shape.members.get(m.name);
      const prior = inheritedMembers.get(m.name);
      if (own?.target && own.target !== m.target) {
        asm.emit("ERROR", "Model", `Member conflicts with an inherited mixin member: \`${m.id}\``, own.id, own.location);
        continue;
      }
      if (prior && prior.target !== m.target) {
        asm.emit("ERROR", "Model", `Member conflicts with an inherited mixin member: \`${prior.id}\``, prior.id, shape.location);
        continue;
      }
      const traits = new Map(prior ? [...prior.traits, ...effectiveTraits(asm, m)] : effectiveTraits(asm, m));
      inheritedMembers.set(m.name, {
        type: "member",
        id: `${shape.id}$${m.name}`,
        name: m.name,
        container: shape.id,
        target: m.target,
        traits,
        location: m.location,
        mixinMember: m.mixinMember ?? m.id,
        inheritedTraits: new Set(traits.keys()),
      });
    }
  }
  if (wrongType.length) {
    asm.emit(
      "ERROR",
      "Model",
      `Mixins may only be mixed into shapes of the same type. The following mixins were applied to the ${shape.type} shape \`${shape.id}\` which are not ${shape.type} shapes: [${wrongType.map((m) => `\`${m}\``).join(", ")}]`,
      shape.id,
      shape.location,
    );
  }
  const merged = new Map<string, MemberShape>(inheritedMembers);
  for (const [name, local] of shape.members) {
    const inherited = inheritedMembers.get(name);
    if (!inherited || (local.target && local.target !== inherited.target)) {
      merged.set(name, local);
      continue;
    }
    // A redeclared member keeps the inherited target and traits; its own traits are pending and override.
    merged.set(name, { ...inherited, location: local.location });
  }
  shape.members.clear();
  for (const [k, v] of merged) shape.members.set(k, v);
  inheritProperties(asm, shape);
  for (const [k, v] of inheritedTraits) shape.traits.set(k, v);
  (shape as { inheritedTraits?: ReadonlySet<string> }).inheritedTraits = new Set(inheritedTraits.keys());
  // Mixin traits are final before this shape's own traits are applied, so resolve the mixin's pending ones first.
}

/** Services, resources and operations inherit their mixins' bindings (mixin entries first). */
function inheritProperties(asm: AssemblyState, shape: Shape): void {
  if (shape.type !== "service" && shape.type !== "resource" && shape.type !== "operation") return;
  const union = (key: "operations" | "resources" | "errors" | "collectionOperations") => {
    const out: string[] = [];
    for (const mixinId of shape.mixins) for (const id of asm.shapes.get(mixinId)?.[key] ?? []) if (!out.includes(id)) out.push(id);
    for (const id of shape[key] ?? []) if (!out.includes(id)) out.push(id);
    if (out.length || shape[key]) shape[key] = out;
  };
  union("operations");
  union("resources");
  union("errors");
  union("collectionOperations");
  for (const mixinId of shape.mixins) {
    const mixin = asm.shapes.get(mixinId)!;
    if (shape.version === undefined && mixin.version !== undefined) shape.version = mixin.version;
    if (mixin.rename) shape.rename = { ...mixin.rename, ...shape.rename };
    for (const key of ["create", "put", "read", "update", "delete", "list"] as const) {
      const v = mixin[key];
      if (shape[key] === undefined && v !== undefined) shape[key] = v;
    }
  }
}

/** A shape's traits as they will be once its pending traits are applied (mixins are resolved in order). */
function effectiveTraits(asm: AssemblyState, shape: Shape | MemberShape): Map<string, NodeValue> {
  applyPendingTo(asm, shape);
  return shape.traits;
}

function mixinLocalTraits(asm: AssemblyState, mixin: Shape): Set<string> {
  const value = effectiveTraits(asm, mixin).get(MIXIN);
  const out = new Set<string>();
  if (isNodeObject(value) && Array.isArray(value.localTraits)) {
    for (const t of value.localTraits) if (typeof t === "string") out.add(t);
  }
  return out;
}

function isListLike(type: string): boolean {
  return type === "list" || type === "set";
}

/**
 * Orders absolute shape ids as a `java.util.HashMap<ShapeId, …>` of the
 * default capacity iterates them: by bucket of Smithy's `ShapeId.hashCode`,
 * then by insertion.
 */
function javaHashMapOrder(ids: readonly string[]): string[] {
  let capacity = 16;
  while (ids.length > capacity * 0.75) capacity *= 2;
  const javaHash = (s: string) => {
    let h = 0;
    for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
    return h;
  };
  const bucket = (id: string) => {
    const hash = id.indexOf("#");
    const dollar = id.indexOf("$", hash);
    const name = dollar < 0 ? id.slice(hash + 1) : id.slice(hash + 1, dollar);
    const member = dollar < 0 ? 0 : javaHash(id.slice(dollar + 1));
    const h = (17 + Math.imul(Math.imul(31, javaHash(id.slice(0, hash))), 31) + Math.imul(javaHash(name), 17) + member) | 0;
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return ids
    .map((id, i) => ({ id, i, b: bucket(id) }))
    .sort((x, y) => x.b - y.b || x.i - y.i)
    .map((x) => x.id);
}
