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
  /** Always `member`: what tells a member apart from a top-level shape. */
  readonly type: "member";
  /** `ns#Container$name`. */
  readonly id: string;
  /** The member name, the part of the id after `$` (`member` in a list, `key` and `value` in a map). */
  readonly name: string;
  /** Shape id of the shape that contains the member. */
  readonly container: string;
  /** Absolute shape id of the target. */
  target: string;
  /** Traits applied to the member, including those inherited from its mixin member. */
  readonly traits: Traits;
  /** Where the member is defined (in the mixin, for a member inherited from one and not redeclared). */
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
  /** The shape's absolute id: `ns#Name`. */
  readonly id: string;
  /** The shape type, such as `structure` or `operation`; never `member`. */
  readonly type: Exclude<ShapeType, "member">;
  /** Traits applied to the shape: its own, those added by `apply` statements and those inherited from its mixins. */
  readonly traits: Traits;
  /** Members in declaration order (mixin members first, as Smithy orders them). */
  readonly members: Map<string, MemberShape>;
  /** Mixins applied to the shape, in order. Empty once the model is flattened. */
  mixins: string[];
  /** Where the shape is defined. */
  readonly location: SourceLocation;
  /** Trait ids this shape got from its mixins rather than from its own definition. */
  inheritedTraits?: ReadonlySet<string>;

  // service
  /** The service's version string, such as `2006-03-01`. */
  version?: string;
  /** Names the service gives shapes of its closure, to resolve name conflicts: shape id → new name. */
  rename?: Record<string, string>;
  // service and resource
  /** Operations bound to the service, or a resource's non-lifecycle instance operations (shape ids). */
  operations?: string[];
  /** Resources bound directly to the service or resource (shape ids). */
  resources?: string[];
  // service and operation
  /** Errors an operation can return, or that every operation of a service can return (shape ids). */
  errors?: string[];
  // resource
  /** The resource's identifiers: identifier name → shape id of its target. */
  identifiers?: Record<string, string>;
  /** The resource's properties: property name → shape id of its target. */
  properties?: Record<string, string>;
  /** Lifecycle operation that creates an instance, the service assigning its identifier (shape id). */
  create?: string;
  /** Lifecycle operation that creates or replaces an instance at an identifier the client chooses (shape id). */
  put?: string;
  /** Lifecycle operation that reads an instance (shape id). */
  read?: string;
  /** Lifecycle operation that updates an instance (shape id). */
  update?: string;
  /** Lifecycle operation that deletes an instance (shape id). */
  delete?: string;
  /** Lifecycle operation that lists the resource's instances (shape id). */
  list?: string;
  /** Non-lifecycle operations on the resource's collection rather than on one instance (shape ids). */
  collectionOperations?: string[];
  // operation
  /** The operation's input structure (shape id); `smithy.api#Unit` when it takes none. */
  input?: string;
  /** The operation's output structure (shape id); `smithy.api#Unit` when it returns none. */
  output?: string;
}

/** Resource lifecycle property names, in the order Smithy writes them. */
export const LIFECYCLE_OPERATIONS = ["create", "put", "read", "update", "delete", "list"] as const;
