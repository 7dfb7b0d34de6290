import type { NodeValue } from "./node-value.js";
import type { SourceLocation } from "./source-location.js";

/** Simple (scalar) shape types. */
export type SimpleShapeType =
  | "blob"
  | "boolean"
  | "string"
  | "byte"
  | "short"
  | "integer"
  | "long"
  | "float"
  | "double"
  | "bigInteger"
  | "bigDecimal"
  | "timestamp"
  | "document";

/** Every Smithy shape type. `set` is the IDL 1.0 type, kept as a list with unique items. */
export type ShapeType = SimpleShapeType | "enum" | "intEnum" | "list" | "set" | "map" | "structure" | "union" | "member" | "service" | "resource" | "operation";

/** The simple shape types. */
export const SIMPLE_TYPES: ReadonlySet<string> = new Set<SimpleShapeType>([
  "blob",
  "boolean",
  "string",
  "byte",
  "short",
  "integer",
  "long",
  "float",
  "double",
  "bigInteger",
  "bigDecimal",
  "timestamp",
  "document",
]);

/** Every shape type except `member`. */
export const SHAPE_TYPES: ReadonlySet<string> = new Set<ShapeType>([
  ...(SIMPLE_TYPES as ReadonlySet<SimpleShapeType>),
  "enum",
  "intEnum",
  "list",
  "set",
  "map",
  "structure",
  "union",
  "service",
  "resource",
  "operation",
]);

/** Trait values keyed by absolute trait shape id, in application order. */
export type Traits = Map<string, NodeValue>;

/** A member of a structure, union, list, map, enum or intEnum. */
export interface MemberShape {
  readonly type: "member";
  /** `ns#Container$name`. */
  readonly id: string;
  readonly name: string;
  /** Shape id of the shape that contains the member. */
  readonly container: string;
  /** Absolute shape id of the target. */
  target: string;
  readonly traits: Traits;
  readonly location: SourceLocation;
  /** For a member copied from a mixin: the id of the mixin member it comes from. */
  mixinMember?: string;
  /** Trait ids this member got from its mixin member rather than from its own definition. */
  inheritedTraits?: ReadonlySet<string>;
}

/**
 * A top-level shape. Every shape carries `members` (empty unless it is an
 * aggregate) so that code can walk shapes uniformly; service, resource and
 * operation properties are set only for those types.
 */
export interface Shape {
  readonly id: string;
  readonly type: Exclude<ShapeType, "member">;
  readonly traits: Traits;
  /** Members in declaration order (mixin members first, as Smithy orders them). */
  readonly members: Map<string, MemberShape>;
  /** Mixins applied to the shape, in order. Empty once the model is flattened. */
  mixins: string[];
  readonly location: SourceLocation;
  /** Trait ids this shape got from its mixins rather than from its own definition. */
  inheritedTraits?: ReadonlySet<string>;

  // service
  version?: string;
  rename?: Record<string, string>;
  // service and resource
  operations?: string[];
  resources?: string[];
  // service and operation
  errors?: string[];
  // resource
  identifiers?: Record<string, string>;
  properties?: Record<string, string>;
  create?: string;
  put?: string;
  read?: string;
  update?: string;
  delete?: string;
  list?: string;
  collectionOperations?: string[];
  // operation
  input?: string;
  output?: string;
}

/** Resource lifecycle property names, in the order Smithy writes them. */
export const LIFECYCLE_OPERATIONS = ["create", "put", "read", "update", "delete", "list"] as const;
