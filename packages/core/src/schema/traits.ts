/**
 * The traits the runtime reads, as typed fields. Codecs, protocols and the
 * validator read them once, when they compile a schema; hot paths never do.
 */

/** How a timestamp is written on the wire. */
export type TimestampFormat = "date-time" | "http-date" | "epoch-seconds";

/** `@alloy.proto#protoNumType`: how a gRPC integer is encoded. */
export type ProtoNumType = "SIGNED" | "UNSIGNED" | "FIXED" | "FIXED_SIGNED";

/** `@length` / `@range` bounds. Range bounds may be `bigint` for very large integers. */
export interface Bounds {
  /** The least length or value allowed, inclusive; absent for no lower bound. */
  readonly min?: number | bigint;
  /** The greatest length or value allowed, inclusive; absent for no upper bound. */
  readonly max?: number | bigint;
}

/** `@http` of an operation. */
export interface HttpBinding {
  /** HTTP method, e.g. `GET` or `POST`. */
  readonly method: string;
  /** URI pattern with `{label}` and `{greedy+}` labels and an optional literal query. */
  readonly uri: string;
  /** Success status code (default 200). */
  readonly code: number;
}

/**
 * Traits of a shape or a member, by their short names. Traits the runtime
 * has no field for are kept in `custom`, keyed by absolute shape id.
 */
export interface Traits {
  // Members: presence and defaults
  /** `@required`. */
  readonly required?: boolean;
  /** `@default`, already in runtime value form (a `Date` for a timestamp, bytes for a blob). */
  readonly default?: unknown;
  /** `@clientOptional`: clients treat the member as optional even when required. */
  readonly clientOptional?: boolean;
  /** `@idempotencyToken`: clients fill it with a fresh token when absent. */
  readonly idempotencyToken?: boolean;
  /** `@sensitive`: the value never appears in messages or logs. */
  readonly sensitive?: boolean;

  // Serialization
  /** `@jsonName`, used by protocols that honour it. */
  readonly jsonName?: string;
  /** `@timestampFormat`. */
  readonly timestampFormat?: TimestampFormat;
  /** `@mediaType`. */
  readonly mediaType?: string;
  /** `@sparse`: a list or map whose values may be null. */
  readonly sparse?: boolean;
  /** `@streaming`: a blob streamed as bytes, or a union streamed as events. */
  readonly streaming?: boolean;
  /** `@requiresLength` on a streaming blob. */
  readonly requiresLength?: boolean;

  // HTTP bindings
  /** `@httpLabel`. */
  readonly httpLabel?: boolean;
  /** `@httpQuery` parameter name. */
  readonly httpQuery?: string;
  /** `@httpQueryParams`. */
  readonly httpQueryParams?: boolean;
  /** `@httpHeader` name. */
  readonly httpHeader?: string;
  /** `@httpPrefixHeaders` prefix. */
  readonly httpPrefixHeaders?: string;
  /** `@httpPayload`. */
  readonly httpPayload?: boolean;
  /** `@httpResponseCode`. */
  readonly httpResponseCode?: boolean;
  /** `@hostLabel`. */
  readonly hostLabel?: boolean;
  /** `@eventHeader`. */
  readonly eventHeader?: boolean;
  /** `@eventPayload`. */
  readonly eventPayload?: boolean;

  // Errors
  /** `@error`. */
  readonly error?: "client" | "server";
  /** `@httpError` status code. */
  readonly httpError?: number;
  /** `@retryable`. */
  readonly retryable?: { readonly throttling: boolean };

  // Constraints
  /** `@length`: characters (code points) of strings, bytes of blobs, entries of lists and maps. */
  readonly length?: Bounds;
  /** `@range`. */
  readonly range?: Bounds;
  /** `@pattern`: an ECMAScript regular expression, matched anywhere unless anchored. */
  readonly pattern?: string;
  /** `@uniqueItems`. */
  readonly uniqueItems?: boolean;
  /** `@alloy#uuidFormat`: a string in the RFC 4122 text form (`8-4-4-4-12` hex digits). */
  readonly uuidFormat?: boolean;

  // gRPC
  /** `@alloy.proto#protoIndex` field number. */
  readonly protoIndex?: number;
  /** `@alloy.proto#protoNumType`. */
  readonly protoNumType?: ProtoNumType;
  /** `@alloy.proto#protoInlinedOneOf`: the union's members are fields of the containing message. */
  readonly protoInlinedOneOf?: boolean;
  /** `@alloy.proto#protoWrapped`: use a wrapper message for presence. */
  readonly protoWrapped?: boolean;

  // alloy JSON
  /** `@alloy#discriminated`: the union is an object with this discriminator property. */
  readonly discriminated?: string;
  /** `@alloy#untagged`: the union is written as the bare value of its variant. */
  readonly untagged?: boolean;
  /** `@alloy#jsonUnknown`: unknown JSON members are kept in this (document map) member. */
  readonly jsonUnknown?: boolean;
  /** `@alloy#openEnum`: unknown enum values are accepted. */
  readonly openEnum?: boolean;
  /** `@alloy#nullable`: an explicit `null` is a value, distinct from absence. */
  readonly nullable?: boolean;

  /** Any other trait, by absolute shape id, with its node value. */
  readonly custom?: Readonly<Record<string, unknown>>;
}

/** Traits of an operation. */
export interface OperationTraits {
  /** `@http`. */
  readonly http?: HttpBinding;
  /** `@readonly`. */
  readonly readonly?: boolean;
  /** `@idempotent`. */
  readonly idempotent?: boolean;
  /** `@endpoint` host prefix. */
  readonly endpointHostPrefix?: string;
  /** `@httpChecksumRequired`. */
  readonly httpChecksumRequired?: boolean;
  /** `@requestCompression` encodings. */
  readonly requestCompression?: readonly string[];
  /** `@auth`: auth scheme ids, in order of preference. */
  readonly auth?: readonly string[];
  /** `@optionalAuth`. */
  readonly optionalAuth?: boolean;
  /** `@paginated`, merged with the service's. */
  readonly paginated?: {
    readonly inputToken?: string;
    readonly outputToken?: string;
    readonly items?: string;
    readonly pageSize?: string;
  };
  /** Any other trait, by absolute shape id. */
  readonly custom?: Readonly<Record<string, unknown>>;
}

/** The frozen empty traits object, shared by schemas without traits. */
export const NO_TRAITS: Traits = Object.freeze({});
