/**
 * Builders for runtime schemas. Generated code calls these (through the
 * `@anvil/core/codegenv1` subpath), and so does `@anvil/dynamic`. Every builder
 * returns a frozen plain object; member targets and operation inputs may be
 * thunks so that recursive and forward references work.
 */
import type { BigDecimal } from "../values/big-decimal.js";
import type { Document } from "../values/document.js";
import type {
  EnumSchema,
  EnumValue,
  IntEnumSchema,
  ListSchema,
  MapSchema,
  MemberSchema,
  OperationSchema,
  ScalarKind,
  ScalarSchema,
  Schema,
  ServiceSchema,
  StructSchema,
  UnionSchema,
  UnionValue,
} from "./schema.js";
import { NO_TRAITS, type OperationTraits, type Traits } from "./traits.js";

/** A schema, or a function returning it (for recursive and forward references). */
export type Lazy<S> = S | (() => S);

const resolve = <S>(lazy: Lazy<S>): S => (typeof lazy === "function" ? (lazy as () => S)() : lazy);

/** A scalar schema with an id and traits: a named shape such as `string CityId`. */
export function scalar<T, K extends ScalarKind = ScalarKind>(kind: K, id: string, traits: Traits = NO_TRAITS): ScalarSchema<T, K> {
  return Object.freeze({ kind, id, traits });
}

/** `smithy.api#String`. */
export const string: ScalarSchema<string, "string"> = scalar("string", "smithy.api#String");
/** `smithy.api#Boolean`. */
export const boolean: ScalarSchema<boolean, "boolean"> = scalar("boolean", "smithy.api#Boolean");
/** `smithy.api#Blob`: bytes. */
export const blob: ScalarSchema<Uint8Array, "blob"> = scalar("blob", "smithy.api#Blob");
/** `smithy.api#Byte`. */
export const byte: ScalarSchema<number, "byte"> = scalar("byte", "smithy.api#Byte");
/** `smithy.api#Short`. */
export const short: ScalarSchema<number, "short"> = scalar("short", "smithy.api#Short");
/** `smithy.api#Integer`. */
export const integer: ScalarSchema<number, "integer"> = scalar("integer", "smithy.api#Integer");
/** `smithy.api#Long`: a number when a double holds it exactly, else a bigint. */
export const long: ScalarSchema<number | bigint, "long"> = scalar("long", "smithy.api#Long");
/** `smithy.api#Float`. */
export const float: ScalarSchema<number, "float"> = scalar("float", "smithy.api#Float");
/** `smithy.api#Double`. */
export const double: ScalarSchema<number, "double"> = scalar("double", "smithy.api#Double");
/** `smithy.api#BigInteger`: a number when a double holds it exactly, else a bigint. */
export const bigInteger: ScalarSchema<number | bigint, "bigInteger"> = scalar("bigInteger", "smithy.api#BigInteger");
/** `smithy.api#BigDecimal`: exact decimal. */
export const bigDecimal: ScalarSchema<BigDecimal, "bigDecimal"> = scalar("bigDecimal", "smithy.api#BigDecimal");
/** `smithy.api#Timestamp`. */
export const timestamp: ScalarSchema<Date, "timestamp"> = scalar("timestamp", "smithy.api#Timestamp");
/** `smithy.api#Document`: untyped JSON-like data. */
export const document: ScalarSchema<Document, "document"> = scalar("document", "smithy.api#Document");

/** An enum with its values in model order. */
export function enumeration<T extends string = string>(id: string, values: readonly EnumValue<string>[], traits: Traits = NO_TRAITS): EnumSchema<T> {
  return Object.freeze({ kind: "enum", id, traits, values: Object.freeze([...values]) });
}

/** An intEnum with its values in model order. */
export function intEnum<T extends number = number>(id: string, values: readonly EnumValue<number>[], traits: Traits = NO_TRAITS): IntEnumSchema<T> {
  return Object.freeze({ kind: "intEnum", id, traits, values: Object.freeze([...values]) });
}

function mergeTraits(own: Traits, target: Traits): Traits {
  if (target === NO_TRAITS || Object.keys(target).length === 0) return own;
  if (own === NO_TRAITS || Object.keys(own).length === 0) return target;
  const custom = own.custom && target.custom ? { ...target.custom, ...own.custom } : (own.custom ?? target.custom);
  return Object.freeze({ ...target, ...own, ...(custom ? { custom } : {}) });
}

/**
 * A member. Its `traits` are its own merged over its target's, computed on
 * first access (the target may not exist yet when the member is built).
 */
export function member<T = unknown>(name: string, target: Lazy<Schema<T>>, traits: Traits = NO_TRAITS): MemberSchema<T> {
  let resolvedTarget: Schema<T> | undefined;
  let merged: Traits | undefined;
  const m: MemberSchema<T> = {
    name,
    get target() {
      return (resolvedTarget ??= resolve(target));
    },
    get traits() {
      return (merged ??= mergeTraits(traits, m.target.traits));
    },
  };
  return Object.freeze(m);
}

/** A list. */
export function list<T extends unknown[] = unknown[]>(id: string, item: MemberSchema, traits: Traits = NO_TRAITS): ListSchema<T> {
  return Object.freeze({ kind: "list", id, traits, member: item });
}

/** A map. */
export function map<T = Record<string, unknown>>(id: string, key: MemberSchema<string>, value: MemberSchema, traits: Traits = NO_TRAITS): MapSchema<T> {
  return Object.freeze({ kind: "map", id, traits, key, value });
}

/** A structure. */
export function struct<T = Record<string, unknown>>(id: string, members: readonly MemberSchema[], traits: Traits = NO_TRAITS): StructSchema<T> {
  return Object.freeze({ kind: "structure", id, traits, members: Object.freeze([...members]) });
}

/** A union. */
export function union<T = UnionValue>(id: string, members: readonly MemberSchema[], traits: Traits = NO_TRAITS): UnionSchema<T> {
  return Object.freeze({ kind: "union", id, traits, members: Object.freeze([...members]) });
}

/** What {@link operation} takes. */
export interface OperationInit<I, O> {
  /** The input structure, or a function returning it ({@link unit} for none). */
  readonly input: Lazy<StructSchema<I>>;
  /** The output structure, or a function returning it ({@link unit} for none). */
  readonly output: Lazy<StructSchema<O>>;
  /** Modeled errors of the operation, then of its service, each possibly a function; default none. */
  readonly errors?: readonly Lazy<StructSchema<any>>[];
  /** The operation's traits; default none. */
  readonly traits?: OperationTraits;
}

/** The shape name of an id: `ns#Name` → `Name`. */
export function shapeName(id: string): string {
  const hash = id.indexOf("#");
  const dollar = id.indexOf("$", hash);
  return dollar < 0 ? id.slice(hash + 1) : id.slice(hash + 1, dollar);
}

/** An operation. Input, output and errors resolve on first access. */
export function operation<I = Record<string, unknown>, O = Record<string, unknown>>(id: string, init: OperationInit<I, O>): OperationSchema<I, O> {
  let input: StructSchema<I> | undefined;
  let output: StructSchema<O> | undefined;
  let errors: readonly StructSchema[] | undefined;
  return Object.freeze({
    kind: "operation" as const,
    id,
    name: shapeName(id),
    traits: init.traits ?? {},
    get input() {
      return (input ??= resolve(init.input));
    },
    get output() {
      return (output ??= resolve(init.output));
    },
    get errors() {
      return (errors ??= Object.freeze((init.errors ?? []).map(resolve)));
    },
  });
}

/** What {@link service} takes. */
export interface ServiceInit<Ops extends Record<string, OperationSchema<any, any>>> {
  /** The service's `version` in the model; default empty. */
  readonly version?: string;
  /** The operation schemas by method name (lower camel case, e.g. `getForecast`). */
  readonly operations: Ops;
  /** Protocol trait ids the service declares, in model order (the first is the default); default none. */
  readonly protocols?: readonly string[];
  /** Errors common to every operation, each possibly a function; default none. */
  readonly errors?: readonly Lazy<StructSchema<any>>[];
  /** Auth scheme trait ids the service supports, in order; default none. */
  readonly auth?: readonly string[];
  /** Other traits by absolute shape id (protocol trait values among them); default none. */
  readonly traits?: Readonly<Record<string, unknown>>;
}

/** A service. */
export function service<Ops extends Record<string, OperationSchema<any, any>>>(id: string, init: ServiceInit<Ops>): ServiceSchema<Ops> {
  let errors: readonly StructSchema[] | undefined;
  return Object.freeze({
    kind: "service" as const,
    id,
    name: shapeName(id),
    version: init.version ?? "",
    operations: Object.freeze({ ...init.operations }),
    protocols: Object.freeze([...(init.protocols ?? [])]),
    auth: Object.freeze([...(init.auth ?? [])]),
    traits: Object.freeze({ ...init.traits }),
    get errors() {
      return (errors ??= Object.freeze((init.errors ?? []).map(resolve)));
    },
  });
}

/**
 * The service with these operations instead of its own: everything else
 * (protocols, auth, errors, traits) is the service's. Code generated by
 * `anvil generate` builds each service this way from `<Service>Base`, the
 * service without operations; a program that calls a few operations of a
 * large service builds its own from the same base, and a bundler then
 * leaves the other operations and their shapes out of its bundle.
 *
 * @param service - The service, usually a generated `<Service>Base`.
 * @param operations - The operation schemas by method name (lower camel case, as `anvil generate` names them).
 *
 * @example
 * ```ts
 * import { withOperations } from "@anvil/core";
 * import { GetForecast, WeatherBase } from "./generated/weather.js";
 *
 * const weather = createClient(withOperations(WeatherBase, { getForecast: GetForecast }), config);
 * await weather.getForecast({ cityId: "paris" });
 * ```
 */
export function withOperations<Ops extends Record<string, OperationSchema<any, any>>>(service: ServiceSchema<any>, operations: Ops): ServiceSchema<Ops> {
  return Object.freeze({
    kind: "service" as const,
    id: service.id,
    name: service.name,
    version: service.version,
    operations: Object.freeze({ ...operations }),
    protocols: service.protocols,
    auth: service.auth,
    traits: service.traits,
    // The service's errors may resolve from shapes still loading: read them when asked, not now.
    get errors() {
      return service.errors;
    },
  });
}

/** `smithy.api#Unit`: the empty structure used where an operation has no input or output. */
export const unit: StructSchema<Record<string, never>> = struct("smithy.api#Unit", []);
