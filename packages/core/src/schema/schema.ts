/**
 * Runtime schemas: plain, immutable descriptions of shapes that codecs,
 * protocols and the validator compile into closures. Generated code builds
 * them with the `@anvil/core/codegenv1` builders; `@anvil/dynamic` builds the
 * same objects from a model at run time.
 *
 * The type parameter is a phantom: it carries the TypeScript type of the
 * values a schema describes, so compiled readers and writers are typed.
 */
import type { OperationTraits, Traits } from "./traits.js";

/** Scalar shape kinds. */
export type ScalarKind =
  | "boolean"
  | "string"
  | "blob"
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

/** Every kind of data schema. */
export type SchemaKind = ScalarKind | "enum" | "intEnum" | "list" | "map" | "structure" | "union";

declare const valueType: unique symbol;

interface SchemaBase<K extends SchemaKind, T> {
  readonly kind: K;
  /** Absolute shape id (`smithy.api#String` for prelude scalars). */
  readonly id: string;
  readonly traits: Traits;
  /** Phantom: the TypeScript type of values of this schema. Never set at run time. */
  readonly [valueType]?: T;
}

/** A scalar: boolean, string, blob, numbers, timestamp or document. */
export interface ScalarSchema<T = unknown, K extends ScalarKind = ScalarKind> extends SchemaBase<K, T> {}

/** One value of an enum or intEnum. */
export interface EnumValue<V extends string | number = string | number> {
  /** Member name in the model. */
  readonly name: string;
  /** Wire value (`@enumValue`). */
  readonly value: V;
  /** `@internal` on the member: accepted, but not listed in validation messages. */
  readonly internal?: boolean;
  /** `@alloy.proto#protoIndex` on the member: its number in the protobuf enum (default: by position, an intEnum's value). */
  readonly protoIndex?: number;
}

/** A string enum. Values outside `values` are rejected by validation unless the enum is open. */
export interface EnumSchema<T extends string = string> extends SchemaBase<"enum", T> {
  /** The enum's values, in model order. */
  readonly values: readonly EnumValue<string>[];
}

/** An integer enum. */
export interface IntEnumSchema<T extends number = number> extends SchemaBase<"intEnum", T> {
  /** The intEnum's values, in model order. */
  readonly values: readonly EnumValue<number>[];
}

/**
 * A member of a structure, union, list or map. `target` is resolved lazily so
 * that recursive shapes can refer to schemas defined later.
 */
export interface MemberSchema<T = unknown> {
  /** The member's name in the model (`member` in a list, `key` and `value` in a map). */
  readonly name: string;
  /** The schema of the shape the member targets, resolved on first access. */
  readonly target: Schema<T>;
  /** The member's own traits merged over its target's (member traits win). */
  readonly traits: Traits;
}

/** A list (Smithy `list`, and `set` from IDL 1.0). */
export interface ListSchema<T = unknown[]> extends SchemaBase<"list", T> {
  /** The member describing the list's items. */
  readonly member: MemberSchema;
}

/** A map with string (or enum) keys. */
export interface MapSchema<T = Record<string, unknown>> extends SchemaBase<"map", T> {
  /** The member describing the map's keys (a string or an enum). */
  readonly key: MemberSchema<string>;
  /** The member describing the map's values. */
  readonly value: MemberSchema;
}

/** A structure. Members keep model order. */
export interface StructSchema<T = Record<string, unknown>> extends SchemaBase<"structure", T> {
  /** The structure's members, in model order. */
  readonly members: readonly MemberSchema[];
}

/** A union. Values are tagged: see {@link UnionValue}. */
export interface UnionSchema<T = UnionValue> extends SchemaBase<"union", T> {
  /** The union's variants, in model order. */
  readonly members: readonly MemberSchema[];
}

/** Any data schema. */
export type Schema<T = unknown> =
  | ScalarSchema<T>
  | EnumSchema<T & string>
  | IntEnumSchema<T & number>
  | ListSchema<T>
  | MapSchema<T>
  | StructSchema<T>
  | UnionSchema<T>;

/** The value type a schema describes. */
export type ValueOf<S> = S extends { readonly [valueType]?: infer T } ? T : never;

/**
 * A union value: the variant's member name in `$case` and its value. A
 * variant the reader does not know (a newer server) arrives as `$unknown`
 * with the wire name, so it can be logged or passed through.
 */
export type UnionValue<Cases extends Record<string, unknown> = Record<string, unknown>> =
  | { [K in keyof Cases & string]: { readonly $case: K; readonly value: Cases[K] } }[keyof Cases & string]
  | UnknownVariant;

/** A union variant that is not in the schema. */
export interface UnknownVariant {
  /** `$unknown`: the variant is not in the schema (writers refuse to send it). */
  readonly $case: "$unknown";
  /** The member name as it appeared on the wire. */
  readonly name: string;
  /** The variant's value as received, decoded without a schema. */
  readonly value: unknown;
}

/** An operation: input, output, errors and the traits protocols need. */
export interface OperationSchema<I = Record<string, unknown>, O = Record<string, unknown>> {
  /** Always `operation`. */
  readonly kind: "operation";
  /** Absolute shape id, e.g. `example.weather#GetForecast`. */
  readonly id: string;
  /** The operation's shape name, e.g. `GetForecast`. */
  readonly name: string;
  /** The input structure (`smithy.api#Unit` when the operation takes none). */
  readonly input: StructSchema<I>;
  /** The output structure (`smithy.api#Unit` when the operation returns none). */
  readonly output: StructSchema<O>;
  /** Modeled errors of the operation, then of its service. */
  readonly errors: readonly StructSchema[];
  /** The operation's traits that protocols and clients read. */
  readonly traits: OperationTraits;
}

/** A service: its operations by method name (lower camel case), protocols and errors. */
export interface ServiceSchema<Ops extends Record<string, OperationSchema<any, any>> = Record<string, OperationSchema<any, any>>> {
  /** Always `service`. */
  readonly kind: "service";
  /** Absolute shape id, e.g. `example.weather#Weather`. */
  readonly id: string;
  /** Shape name, e.g. `Weather`. */
  readonly name: string;
  /** The service's `version` in the model; empty when it has none. */
  readonly version: string;
  /** The operation schemas by method name (lower camel case, e.g. `getForecast`). */
  readonly operations: Ops;
  /** Protocol trait ids the service declares, in model order (the first is the default). */
  readonly protocols: readonly string[];
  /** Errors common to every operation. */
  readonly errors: readonly StructSchema[];
  /** Auth scheme trait ids the service supports, in order. */
  readonly auth: readonly string[];
  /** Other traits by absolute shape id (protocol trait values among them). */
  readonly traits: Readonly<Record<string, unknown>>;
}

/** Whether a member's value may be absent, following Smithy 2.0 nullability for the given side. */
export function isMemberOptional(member: MemberSchema, side: "client" | "server"): boolean {
  const t = member.traits;
  if (side === "client" && t.clientOptional) return true;
  return !(t.required || t.default !== undefined);
}
