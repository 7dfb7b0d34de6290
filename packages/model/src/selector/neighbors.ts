import type { Model } from "../model.js";
import type { MemberShape, Shape } from "../shape.js";

/** A shape or a member: anything a selector can yield. */
export type SelectorShape = Shape | MemberShape;

/**
 * Names of the labeled relationships between shapes (Smithy spec, "Selectors",
 * "Relationships"). `target` is the unnamed member-to-target relationship: it
 * is traversed by `>`, `<` and `~>` but matches no directed `-[...]->` name.
 * `bound` links an operation or resource to the service or resource binding
 * it; it is derived from the binding edges and only traversed when named.
 * `trait` links a shape to the definitions of its traits and is only
 * traversed when named.
 */
export type RelationshipType =
  | "member"
  | "target"
  | "input"
  | "output"
  | "error"
  | "operation"
  | "collectionOperation"
  | "instanceOperation"
  | "resource"
  | "create"
  | "read"
  | "update"
  | "delete"
  | "list"
  | "put"
  | "identifier"
  | "property"
  | "bound"
  | "mixin"
  | "trait";

/** A directed, labeled edge between two shapes. */
export interface Relationship {
  readonly type: RelationshipType;
  /** The other end: the neighbor for forward edges, the referring shape for reverse edges. */
  readonly shape: SelectorShape;
}

const UNIT = "smithy.api#Unit";
const EMPTY: readonly Relationship[] = Object.freeze([]);
const EMPTY_SHAPES: readonly SelectorShape[] = Object.freeze([]);

/**
 * Precomputed, lazily filled neighbor data for one model. Obtain it with
 * {@link getNeighborIndex}; it assumes the model is not mutated afterwards.
 */
export class NeighborIndex {
  private readonly forwardCache = new Map<SelectorShape, readonly Relationship[]>();
  private readonly traitCache = new Map<SelectorShape, readonly Relationship[]>();
  private readonly undirectedForwardCache = new Map<SelectorShape, readonly SelectorShape[]>();
  private reverseEdges: Map<SelectorShape, Relationship[]> | undefined;
  private traitReverseEdges: Map<SelectorShape, Relationship[]> | undefined;
  private readonly memberReverseCache = new Map<SelectorShape, readonly Relationship[]>();
  private readonly undirectedReverseCache = new Map<SelectorShape, readonly SelectorShape[]>();
  private readonly boundCache = new Map<SelectorShape, readonly Relationship[]>();

  constructor(readonly model: Model) {}

  /**
   * Forward relationships of a shape, excluding `trait` and `bound` (see
   * {@link traitRelationships} and {@link boundRelationships}). Neighbors
   * missing from the model are left out; so is `smithy.api#Unit` as
   * operation input or output.
   */
  forward(shape: SelectorShape): readonly Relationship[] {
    let rels = this.forwardCache.get(shape);
    if (rels === undefined) {
      rels = this.computeForward(shape);
      this.forwardCache.set(shape, rels);
    }
    return rels;
  }

  /** `trait` relationships: the definitions (shapes in the model) of the shape's traits. */
  traitRelationships(shape: SelectorShape): readonly Relationship[] {
    let rels = this.traitCache.get(shape);
    if (rels === undefined) {
      const out: Relationship[] = [];
      for (const traitId of shape.traits.keys()) {
        const def = this.model.shapes.get(traitId);
        if (def) out.push({ type: "trait", shape: def });
      }
      rels = out.length ? out : EMPTY;
      this.traitCache.set(shape, rels);
    }
    return rels;
  }

  /** `bound` relationships: the services and resources that bind this operation or resource. */
  boundRelationships(shape: SelectorShape): readonly Relationship[] {
    if (shape.type !== "operation" && shape.type !== "resource") return EMPTY;
    let rels = this.boundCache.get(shape);
    if (rels === undefined) {
      const out: Relationship[] = [];
      for (const rel of this.reverse(shape)) {
        if ((rel.type === "operation" || rel.type === "resource") && !out.some((r) => r.shape === rel.shape)) {
          out.push({ type: "bound", shape: rel.shape });
        }
      }
      rels = out.length ? out : EMPTY;
      this.boundCache.set(shape, rels);
    }
    return rels;
  }

  /**
   * Reverse relationships: every edge (including `trait`, excluding `bound`)
   * that points at the shape, with `shape` set to the referring shape.
   */
  reverse(shape: SelectorShape): readonly Relationship[] {
    const structural = this.structuralReverse(shape);
    const traits = this.traitReverse(shape);
    return traits.length === 0 ? structural : structural.length === 0 ? traits : [...structural, ...traits];
  }

  /**
   * Reverse relationships except `trait`. A member's only such edge comes
   * from its container, so members never need the model-wide index, which
   * keeps trait validation (mostly member selectors) cheap.
   */
  structuralReverse(shape: SelectorShape): readonly Relationship[] {
    if (shape.type === "member") {
      let rels = this.memberReverseCache.get(shape);
      if (!rels) {
        const container = this.model.shapes.get(shape.container);
        rels = container ? [{ type: "member", shape: container }] : EMPTY;
        this.memberReverseCache.set(shape, rels);
      }
      return rels;
    }
    return (this.reverseEdges ?? this.buildReverse()).get(shape) ?? EMPTY;
  }

  /** Reverse `trait` relationships: the shapes whose trait values refer to this one. */
  traitReverse(shape: SelectorShape): readonly Relationship[] {
    return (this.traitReverseEdges ?? this.buildTraitReverse()).get(shape) ?? EMPTY;
  }

  /**
   * Reverse `bound` relationships: the operations and resources a service or
   * resource binds (the shapes for which it is the `bound` neighbor).
   */
  reverseBound(shape: SelectorShape): readonly Relationship[] {
    if (shape.type !== "service" && shape.type !== "resource") return EMPTY;
    const out: Relationship[] = [];
    for (const rel of this.forward(shape)) {
      if ((rel.type === "operation" || rel.type === "resource") && !out.some((r) => r.shape === rel.shape)) {
        out.push({ type: "bound", shape: rel.shape });
      }
    }
    return out;
  }

  /** Distinct neighbors reached by `>`: every forward relationship except `trait` and `bound`. */
  undirectedForward(shape: SelectorShape): readonly SelectorShape[] {
    let shapes = this.undirectedForwardCache.get(shape);
    if (shapes === undefined) {
      shapes = distinct(this.forward(shape));
      this.undirectedForwardCache.set(shape, shapes);
    }
    return shapes;
  }

  /** Distinct shapes reached by `<`: every reverse relationship except `trait`. */
  undirectedReverse(shape: SelectorShape): readonly SelectorShape[] {
    let shapes = this.undirectedReverseCache.get(shape);
    if (shapes === undefined) {
      shapes = distinct(this.structuralReverse(shape));
      this.undirectedReverseCache.set(shape, shapes);
    }
    return shapes;
  }

  private buildReverse(): Map<SelectorShape, Relationship[]> {
    const reverse = new Map<SelectorShape, Relationship[]>();
    for (const shape of this.model.allShapes()) {
      // Members are reached through their containers (structuralReverse), not through this index.
      for (const rel of this.forward(shape)) if (rel.shape.type !== "member") addEdge(reverse, rel.shape, rel.type, shape);
    }
    this.reverseEdges = reverse;
    return reverse;
  }

  private buildTraitReverse(): Map<SelectorShape, Relationship[]> {
    const reverse = new Map<SelectorShape, Relationship[]>();
    for (const shape of this.model.allShapes()) {
      for (const rel of this.traitRelationships(shape)) addEdge(reverse, rel.shape, "trait", shape);
    }
    this.traitReverseEdges = reverse;
    return reverse;
  }

  private computeForward(shape: SelectorShape): readonly Relationship[] {
    const out: Relationship[] = [];
    const shapes = this.model.shapes;
    const push = (type: RelationshipType, id: string | undefined): void => {
      if (id === undefined) return;
      const target = shapes.get(id);
      if (target) out.push({ type, shape: target });
    };
    if (shape.type === "member") {
      const container = shapes.get(shape.container);
      // Enum members have no meaningful target (it is smithy.api#Unit).
      if (container?.type !== "enum" && container?.type !== "intEnum") push("target", shape.target);
      return out.length ? out : EMPTY;
    }
    for (const mixin of shape.mixins) push("mixin", mixin);
    for (const member of shape.members.values()) out.push({ type: "member", shape: member });
    switch (shape.type) {
      case "operation":
        if (shape.input !== UNIT) push("input", shape.input);
        if (shape.output !== UNIT) push("output", shape.output);
        for (const e of shape.errors ?? []) push("error", e);
        break;
      case "service":
        for (const op of shape.operations ?? []) push("operation", op);
        for (const res of shape.resources ?? []) push("resource", res);
        for (const e of shape.errors ?? []) push("error", e);
        break;
      case "resource":
        for (const id of Object.values(shape.identifiers ?? {})) push("identifier", id);
        for (const id of Object.values(shape.properties ?? {})) push("property", id);
        for (const res of shape.resources ?? []) push("resource", res);
        for (const [type, id, kind] of [
          ["create", shape.create, "collectionOperation"],
          ["put", shape.put, "instanceOperation"],
          ["read", shape.read, "instanceOperation"],
          ["update", shape.update, "instanceOperation"],
          ["delete", shape.delete, "instanceOperation"],
          ["list", shape.list, "collectionOperation"],
        ] as const) {
          if (id === undefined) continue;
          push(type, id);
          push("operation", id);
          push(kind, id);
        }
        for (const op of shape.operations ?? []) {
          push("operation", op);
          push("instanceOperation", op);
        }
        for (const op of shape.collectionOperations ?? []) {
          push("operation", op);
          push("collectionOperation", op);
        }
        break;
      default:
        break;
    }
    return out.length ? out : EMPTY;
  }
}

function addEdge(index: Map<SelectorShape, Relationship[]>, target: SelectorShape, type: RelationshipType, from: SelectorShape): void {
  const list = index.get(target);
  if (list) list.push({ type, shape: from });
  else index.set(target, [{ type, shape: from }]);
}

function distinct(rels: readonly Relationship[], skip?: RelationshipType): readonly SelectorShape[] {
  if (rels.length === 0) return EMPTY_SHAPES;
  const seen = new Set<SelectorShape>();
  for (const rel of rels) if (rel.type !== skip) seen.add(rel.shape);
  return seen.size ? [...seen] : EMPTY_SHAPES;
}

const indexes = new WeakMap<Model, NeighborIndex>();

/** The (cached, per model) neighbor index of a model. */
export function getNeighborIndex(model: Model): NeighborIndex {
  let index = indexes.get(model);
  if (!index) {
    index = new NeighborIndex(model);
    indexes.set(model, index);
  }
  return index;
}

/**
 * Shapes reached from `shape` through directed relationships named in
 * `types`, as `-[types]->` does. Unknown names match nothing.
 */
export function forwardNeighbors(model: Model, shape: SelectorShape, types?: readonly string[]): SelectorShape[] {
  const index = getNeighborIndex(model);
  if (!types) return [...index.undirectedForward(shape)];
  const out = new Set<SelectorShape>();
  collectDirected(index, shape, new Set(types), "forward", (s) => {
    out.add(s);
    return false;
  });
  return [...out];
}

/**
 * Shapes that reach `shape` through directed relationships named in `types`,
 * as `<-[types]-` does; all referring shapes except trait users when `types`
 * is omitted (`<`).
 */
export function reverseNeighbors(model: Model, shape: SelectorShape, types?: readonly string[]): SelectorShape[] {
  const index = getNeighborIndex(model);
  if (!types) return [...index.undirectedReverse(shape)];
  const out = new Set<SelectorShape>();
  collectDirected(index, shape, new Set(types), "reverse", (s) => {
    out.add(s);
    return false;
  });
  return [...out];
}

/**
 * Calls `emit` for each shape related to `shape` by one of `types` in the
 * given direction, stopping (and returning true) as soon as `emit` returns true.
 * @internal
 */
export function collectDirected(
  index: NeighborIndex,
  shape: SelectorShape,
  types: ReadonlySet<string>,
  direction: "forward" | "reverse",
  emit: (shape: SelectorShape) => boolean,
): boolean {
  const forward = direction === "forward";
  for (const rel of forward ? index.forward(shape) : index.reverse(shape)) {
    if (rel.type !== "target" && types.has(rel.type) && emit(rel.shape)) return true;
  }
  if (forward && types.has("trait")) {
    for (const rel of index.traitRelationships(shape)) if (emit(rel.shape)) return true;
  }
  if (types.has("bound")) {
    for (const rel of forward ? index.boundRelationships(shape) : index.reverseBound(shape)) if (emit(rel.shape)) return true;
  }
  return false;
}
