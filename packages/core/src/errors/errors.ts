/**
 * One error hierarchy for everything Anvil throws. Every error is an
 * {@link AnvilError} with a `code`, and is recognised by brand (a symbol that
 * survives duplicated package copies and realms), not only by `instanceof`.
 */
import type { StructSchema } from "../schema/schema.js";

const KIND = Symbol.for("anvil.error.kind");

/**
 * Which branch of the hierarchy an error belongs to. `waiter` and
 * `pagination` are the client's helpers' own (`@anvil/client-core`'s
 * `WaiterError` and `PaginationError`).
 */
export type AnvilErrorKind = "modeled" | "unmodeled" | "validation" | "serialization" | "protocol" | "transport" | "waiter" | "pagination";

/** What is known about the response (or request) an error came with. */
export interface ResponseMetadata {
  /** HTTP status, or the gRPC status code for gRPC. */
  readonly httpStatus?: number;
  /** The request id the response carried in a header such as `x-amzn-requestid`; absent when it carried none. */
  readonly requestId?: string;
  /** How many attempts the client made. */
  readonly attempts?: number;
}

/** Options shared by every error constructor. */
export interface AnvilErrorOptions {
  /** The error that led to this one; becomes the error's `cause`. */
  readonly cause?: unknown;
  /** Response details; become the error's `$metadata` (default `{}`). */
  readonly $metadata?: ResponseMetadata;
}

function brandOf(value: unknown): AnvilErrorKind | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  return (value as { [KIND]?: AnvilErrorKind })[KIND];
}

/** The root of Anvil's errors. Not thrown directly. */
export abstract class AnvilError extends Error {
  /** A stable, machine-readable code: the shape name for modeled errors, else the error type. */
  abstract readonly code: string;
  /** Which branch of the hierarchy this is. */
  declare readonly [KIND]: AnvilErrorKind;
  /** Response details, when the error came from (or is about to become) a response. */
  $metadata: ResponseMetadata;

  protected constructor(kind: AnvilErrorKind, message: string, options: AnvilErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Object.defineProperty(this, KIND, { value: kind });
    this.$metadata = options.$metadata ?? {};
  }

  /** Whether a value is any Anvil error, by brand. */
  static isAnvilError(value: unknown): value is AnvilError {
    return brandOf(value) !== undefined;
  }
}

/**
 * An error the model declares (`@error` structure), thrown by a handler or
 * received by a client. Its members are own properties of the instance.
 * Generated code makes a subclass per error shape with {@link errorClass}.
 */
export class ModeledError<Members extends object = Record<string, unknown>> extends AnvilError {
  /** The error shape's name, e.g. `NoSuchCity` (also the error's `name`). */
  readonly code: string;
  /** The error structure's absolute shape id. */
  readonly $shapeId: string;
  /** Whose fault it is (`@error`). */
  readonly $fault: "client" | "server";
  /** The error's schema. */
  declare readonly $schema: StructSchema<Members>;

  constructor(schema: StructSchema<Members>, members: Members, options: ModeledErrorOptions = {}) {
    const name = schema.id.slice(schema.id.indexOf("#") + 1);
    super("modeled", messageOf(schema, members) || options.message || name, options);
    this.name = name;
    this.code = name;
    this.$shapeId = schema.id;
    this.$fault = schema.traits.error ?? "client";
    Object.defineProperty(this, "$schema", { value: schema, enumerable: false });
    for (const key of Object.keys(members) as (keyof Members & string)[]) {
      if (key === "message") continue; // Error#message already holds it
      (this as Record<string, unknown>)[key] = members[key];
    }
  }

  /** The members of the error, as a plain object (what goes on the wire). */
  members(): Members {
    const out: Record<string, unknown> = {};
    for (const m of this.$schema.members) {
      const value = m.name === "message" ? this.message || undefined : (this as Record<string, unknown>)[m.name];
      if (value !== undefined) out[m.name] = value;
    }
    return out as Members;
  }

  /** Whether a value is a modeled error, optionally of one schema (by shape id). */
  static isModeledError<M extends object>(value: unknown, schema?: StructSchema<M>): value is ModeledError<M> & M {
    if (brandOf(value) !== "modeled") return false;
    return schema === undefined || (value as ModeledError).$shapeId === schema.id;
  }
}

/** Options of a {@link ModeledError}. */
export interface ModeledErrorOptions extends AnvilErrorOptions {
  /**
   * The message to use when the error's own message member is empty or
   * absent: what a response carried outside the modeled members, such as a
   * `message` field for a shape whose member is `Message` (AWS services
   * send either). The error's name is the last resort.
   */
  readonly message?: string | undefined;
}

/**
 * An error's message from its members: the `message` member, or a member
 * spelled `Message` (as most AWS models spell it; AWS SDKs read either).
 */
function messageOf(schema: StructSchema<object>, members: object): string {
  const own = (members as { message?: unknown }).message;
  if (typeof own === "string" && own !== "") return own;
  for (const m of schema.members) {
    if (m.name !== "message" && m.name.toLowerCase() === "message") {
      const value = (members as Record<string, unknown>)[m.name];
      if (typeof value === "string") return value;
    }
  }
  return "";
}

/** A generated error class: `new NoSuchCity({ message })`, plus `NoSuchCity.is(e)`. */
export interface ModeledErrorClass<Members extends object> {
  /** Makes an error of this shape from its members; `options.message` is the message when the members carry none. */
  new (members: Members, options?: ModeledErrorOptions): ModeledError<Members> & Members;
  /** The error structure's schema. */
  readonly schema: StructSchema<Members>;
  /** Whether a value is an error of this shape, by brand and shape id (also across copies of this package). */
  is(value: unknown): value is ModeledError<Members> & Members;
}

const classes = new WeakMap<StructSchema<any>, ModeledErrorClass<any>>();

/**
 * The error class of an error schema, made once per schema. Generated code
 * exports it (`export const NoSuchCity = errorClass(NoSuchCitySchema)`), and
 * deserializers use the same class, so `instanceof` and `.is` agree.
 */
export function errorClass<Members extends object>(schema: StructSchema<Members>): ModeledErrorClass<Members> {
  const existing = classes.get(schema);
  if (existing) return existing as ModeledErrorClass<Members>;
  const name = schema.id.slice(schema.id.indexOf("#") + 1);
  const cls = class extends ModeledError<Members> {
    static readonly schema = schema;
    constructor(members: Members, options?: ModeledErrorOptions) {
      super(schema, members, options);
    }
    static is(value: unknown): value is ModeledError<Members> & Members {
      return ModeledError.isModeledError(value, schema);
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  classes.set(schema, cls as unknown as ModeledErrorClass<Members>);
  return cls as unknown as ModeledErrorClass<Members>;
}

/** Makes the modeled error for a schema (an instance of its {@link errorClass}). */
export function createModeledError<M extends object>(schema: StructSchema<M>, members: M, options?: ModeledErrorOptions): ModeledError<M> & M {
  return new (errorClass(schema))(members, options);
}

/** How much of an error body an {@link UnmodeledError} keeps as its `bodyExcerpt`. */
export const BODY_EXCERPT_LENGTH = 256;

/**
 * An error response the client could not match to a modeled error: an
 * unknown type, a proxy's HTML page, a 5xx without a body.
 */
export class UnmodeledError extends AnvilError {
  /** The error type the response named (an awsQuery code or a type), else `Http<status>`; for gRPC, the status name. */
  readonly code: string;
  /** The start of the response body, for diagnosis (at most a few hundred characters). */
  readonly bodyExcerpt: string;

  constructor(code: string, message: string, options: AnvilErrorOptions & { bodyExcerpt?: string } = {}) {
    super("unmodeled", message, options);
    this.name = "UnmodeledError";
    this.code = code;
    this.bodyExcerpt = options.bodyExcerpt ?? "";
  }

  /** Whether a value is an unmodeled error, by brand. */
  static is(value: unknown): value is UnmodeledError {
    return brandOf(value) === "unmodeled";
  }
}

/** One constraint violation: a JSON pointer to the value and what is wrong. */
export interface ValidationField {
  /** JSON pointer (`/items/0/name`). */
  readonly path: string;
  /** What is wrong, in Smithy's wording (`Value at '/name' failed to satisfy constraint: Member must not be null`); never the value itself. */
  readonly message: string;
}

/**
 * Input that breaks the model's constraints (`@required`, `@length`,
 * `@range`, `@pattern`, enum values, `@uniqueItems`). Servers answer it as
 * `smithy.framework#ValidationException`.
 */
export class ValidationError extends AnvilError {
  /** Always `ValidationException`. */
  readonly code = "ValidationException";
  /** Every violation found, not only the first. */
  readonly fieldList: readonly ValidationField[];

  constructor(fieldList: readonly ValidationField[], options: AnvilErrorOptions = {}) {
    super("validation", ValidationError.summary(fieldList), options);
    this.name = "ValidationError";
    this.fieldList = fieldList;
  }

  /** The `message` Smithy's ValidationException carries for these violations. */
  static summary(fieldList: readonly ValidationField[]): string {
    const n = fieldList.length;
    const head = `${n} validation error${n === 1 ? "" : "s"} detected.`;
    return n === 0 ? head : `${head} ${fieldList.map((f) => f.message).join("; ")}`;
  }

  /** Whether a value is a validation error, by brand. */
  static is(value: unknown): value is ValidationError {
    return brandOf(value) === "validation";
  }
}

/**
 * Bytes that cannot be read as the schema says (malformed JSON/CBOR/protobuf,
 * a string where a number belongs, a bad timestamp), or a value that cannot
 * be written. `path` is a JSON pointer to the offending value.
 */
export class SerializationError extends AnvilError {
  /** Always `SerializationException`. */
  readonly code = "SerializationException";
  /** JSON pointer to the offending value (`/items/0/name`); empty for the whole value or when unknown. */
  readonly path: string;

  constructor(message: string, options: AnvilErrorOptions & { path?: string } = {}) {
    super("serialization", message, options);
    this.name = "SerializationError";
    this.path = options.path ?? "";
  }

  /** Whether a value is a serialization error, by brand. */
  static is(value: unknown): value is SerializationError {
    return brandOf(value) === "serialization";
  }
}

/**
 * A request the protocol refuses before reading its input, with the HTTP
 * status it calls for: an unsupported `Content-Type` (415), an `Accept` the
 * operation cannot answer (406), an unknown operation (404). `code` is the
 * error type the protocol writes (`UnsupportedMediaTypeException`).
 */
export class ProtocolError extends AnvilError {
  /** The error type the protocol writes, e.g. `UnsupportedMediaTypeException`. */
  readonly code: string;
  /** The HTTP status of the answer (4xx: these are the caller's mistakes). */
  readonly status: number;

  constructor(code: string, status: number, message: string, options: AnvilErrorOptions = {}) {
    super("protocol", message, options);
    this.name = "ProtocolError";
    this.code = code;
    this.status = status;
  }

  /** Whether a value is a protocol error, by brand. */
  static is(value: unknown): value is ProtocolError {
    return brandOf(value) === "protocol";
  }
}

/** A failure below the protocol: connection refused or reset, timeout, aborted call. */
export class TransportError extends AnvilError {
  /** What failed: a system error code (`ECONNRESET`) or Anvil's own (`RequestTimeout`, `RequestAborted`, `DeadlineExceeded`). */
  readonly code: string;

  constructor(code: string, message: string, options: AnvilErrorOptions = {}) {
    super("transport", message, options);
    this.name = "TransportError";
    this.code = code;
  }

  /** Whether a value is a transport error, by brand. */
  static is(value: unknown): value is TransportError {
    return brandOf(value) === "transport";
  }
}
