import type { NodeValue } from "./node-value.js";
import type { MemberShape, Shape, ShapeType } from "./shape.js";

/** The namespace of the Smithy prelude. */
export const PRELUDE_NAMESPACE = "smithy.api";

/**
 * An assembled, resolved Smithy model: every shape by absolute id (members are
 * reached through their containers), plus metadata. Immutable by convention.
 */
export class Model {
  constructor(
    /** Top-level shapes by absolute shape id, in load order. */
    readonly shapes: ReadonlyMap<string, Shape>,
    /** Model metadata, merged across files. */
    readonly metadata: Readonly<Record<string, NodeValue>> = {},
    /** Ids of the shapes that came from the prelude or Anvil's bundled trait files. */
    readonly builtins: ReadonlySet<string> = new Set(),
  ) {}

  /** Whether a shape came from the prelude or the bundled trait definitions rather than the user's files. */
  isBuiltin(id: string): boolean {
    const dollar = id.indexOf("$");
    return this.builtins.has(dollar < 0 ? id : id.slice(0, dollar));
  }

  /** The top-level shape with this id. */
  getShape(id: string): Shape | undefined {
    return this.shapes.get(id);
  }

  /** The member with this id (`ns#Container$member`). */
  getMember(id: string): MemberShape | undefined {
    const dollar = id.indexOf("$");
    if (dollar < 0) return undefined;
    return this.shapes.get(id.slice(0, dollar))?.members.get(id.slice(dollar + 1));
  }

  /** A top-level shape or a member, by id. */
  get(id: string): Shape | MemberShape | undefined {
    return id.includes("$") ? this.getMember(id) : this.shapes.get(id);
  }

  /** Top-level shapes of the given types, in model order. */
  *shapesOfType(...types: Exclude<ShapeType, "member">[]): IterableIterator<Shape> {
    for (const shape of this.shapes.values()) if (types.includes(shape.type)) yield shape;
  }

  /**
   * Every top-level shape and member, shapes before their members. With a
   * filter, only top-level shapes it accepts (and their members).
   */
  *allShapes(filter?: (shape: Shape) => boolean): IterableIterator<Shape | MemberShape> {
    for (const shape of this.shapes.values()) {
      if (filter && !filter(shape)) continue;
      yield shape;
      for (const member of shape.members.values()) yield member;
    }
  }

  /** The definition of a trait (a shape marked with `@trait`), if the model has one. */
  getTraitDefinition(traitId: string): Shape | undefined {
    const shape = this.shapes.get(traitId);
    return shape?.traits.has("smithy.api#trait") ? shape : undefined;
  }
}
