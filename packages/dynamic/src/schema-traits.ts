/**
 * Maps a shape's or member's Smithy traits to the core's typed `Traits`, and
 * an operation's to `OperationTraits`. This is the one mapping of model
 * traits to schema traits: `anvil generate` prints what these functions
 * return, so generated and dynamic schemas are the same.
 */
import type { Bounds, OperationTraits, ProtoNumType, TimestampFormat, Traits } from "@anvil/core";
import { NO_TRAITS } from "@anvil/core/protocol";
import type { MemberShape, Model, NodeValue, Shape } from "@anvil/model";
import { getPaginated, isNodeObject } from "@anvil/model";
import { runtimeValue, type NodeValueError } from "./runtime-value.js";

/**
 * Prelude traits no runtime reads: they document a shape (docs, titles,
 * deprecation, tags), mark its role in the model (`@input`, `@output`,
 * mixins, resource bindings) or steer validation and tooling (`@suppress`,
 * `@since`, `@unstable`). They are read from the model (docs, fakes, the
 * conformance runner), never from a schema, so schemas leave them out;
 * every other trait, custom ones included, is carried.
 */
const MODEL_ONLY_TRAITS: ReadonlySet<string> = new Set([
  "smithy.api#documentation",
  "smithy.api#externalDocumentation",
  "smithy.api#examples",
  "smithy.api#title",
  "smithy.api#deprecated",
  "smithy.api#tags",
  "smithy.api#since",
  "smithy.api#unstable",
  "smithy.api#recommended",
  "smithy.api#suppress",
  "smithy.api#input",
  "smithy.api#output",
  "smithy.api#mixin",
  "smithy.api#private",
  "smithy.api#internal",
  "smithy.api#references",
  "smithy.api#resourceIdentifier",
  "smithy.api#property",
  "smithy.api#notProperty",
  "smithy.api#nestedProperties",
  "smithy.api#noReplace",
]);

/**
 * Test cases: the protocol tests (`smithy.test#`) and the endpoint rule
 * set's (`smithy.rules#endpointTests`, often most of an AWS service's
 * model: 200 KB of DynamoDB's). Test runners read them from the model.
 */
const isTestCase = (id: string): boolean => id.startsWith("smithy.test#") || id === "smithy.rules#endpointTests";

/** Whether schemas carry a trait: every trait but {@link MODEL_ONLY_TRAITS} and test cases. */
const carried = (id: string): boolean => !MODEL_ONLY_TRAITS.has(id) && !isTestCase(id);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** `smithy.waiters#waitable`: the waiters a client polls an operation with. */
const WAITABLE = "smithy.waiters#waitable";

/** The waiters as clients run them: acceptors and delays, without the documentation and tags only docs read. */
function waitersForClients(value: NodeValue): NodeValue {
  if (!isNodeObject(value)) return value;
  const out: Record<string, NodeValue> = {};
  for (const [name, waiter] of Object.entries(value)) {
    if (!isNodeObject(waiter)) {
      out[name] = waiter;
      continue;
    }
    const { documentation: _d, tags: _t, ...rest } = waiter;
    out[name] = rest;
  }
  return out;
}

const str = (v: NodeValue): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: NodeValue): number | undefined => (typeof v === "number" ? v : undefined);

function bounds(v: NodeValue): Bounds | undefined {
  if (!isNodeObject(v)) return undefined;
  const out: Mutable<Bounds> = {};
  if (typeof v.min === "number" || typeof v.min === "bigint") out.min = v.min;
  if (typeof v.max === "number" || typeof v.max === "bigint") out.max = v.max;
  return Object.freeze(out);
}

const TIMESTAMP_FORMATS: ReadonlySet<string> = new Set<TimestampFormat>(["date-time", "http-date", "epoch-seconds"]);
const PROTO_NUM_TYPES: ReadonlySet<string> = new Set<ProtoNumType>(["SIGNED", "UNSIGNED", "FIXED", "FIXED_SIGNED"]);

/** Boolean (annotation) traits: Smithy id → `Traits` field. */
const FLAGS: ReadonlyMap<string, keyof Traits> = new Map<string, keyof Traits>([
  ["smithy.api#required", "required"],
  ["smithy.api#clientOptional", "clientOptional"],
  ["smithy.api#idempotencyToken", "idempotencyToken"],
  ["smithy.api#sensitive", "sensitive"],
  ["smithy.api#sparse", "sparse"],
  ["smithy.api#streaming", "streaming"],
  ["smithy.api#requiresLength", "requiresLength"],
  ["smithy.api#httpLabel", "httpLabel"],
  ["smithy.api#httpQueryParams", "httpQueryParams"],
  ["smithy.api#httpPayload", "httpPayload"],
  ["smithy.api#httpResponseCode", "httpResponseCode"],
  ["smithy.api#hostLabel", "hostLabel"],
  ["smithy.api#eventHeader", "eventHeader"],
  ["smithy.api#eventPayload", "eventPayload"],
  ["smithy.api#uniqueItems", "uniqueItems"],
  ["alloy.proto#protoInlinedOneOf", "protoInlinedOneOf"],
  ["alloy.proto#protoWrapped", "protoWrapped"],
  ["alloy#untagged", "untagged"],
  ["alloy#jsonUnknown", "jsonUnknown"],
  ["alloy#openEnum", "openEnum"],
  ["alloy#nullable", "nullable"],
  ["alloy#uuidFormat", "uuidFormat"],
]);

/** String-valued traits: Smithy id → `Traits` field. */
const STRINGS: ReadonlyMap<string, keyof Traits> = new Map<string, keyof Traits>([
  ["smithy.api#jsonName", "jsonName"],
  ["smithy.api#mediaType", "mediaType"],
  ["smithy.api#httpQuery", "httpQuery"],
  ["smithy.api#httpHeader", "httpHeader"],
  ["smithy.api#httpPrefixHeaders", "httpPrefixHeaders"],
  ["smithy.api#pattern", "pattern"],
  ["alloy#discriminated", "discriminated"],
]);

/**
 * The typed traits of a shape or member: its own traits only (the core's
 * `member` builder merges the target's). `defaultTarget` is the shape a
 * `@default` value belongs to: the member's target, or the shape itself.
 * Traits without a typed field go to `custom`, except documentation,
 * examples and test cases. Returns the shared `NO_TRAITS` when nothing is
 * left. Throws a {@link NodeValueError} for a `@default` that does not fit
 * its shape.
 *
 * @param model - The model the shape belongs to.
 * @param shape - The shape or member.
 * @param defaultTarget - The shape a `@default` value is for.
 */
export function schemaTraits(model: Model, shape: Shape | MemberShape, defaultTarget: string): Traits {
  const out: Mutable<Traits> = {};
  const custom: Record<string, unknown> = {};
  let hasCustom = false;
  for (const [id, value] of shape.traits) {
    if (!carried(id)) continue;
    const flag = FLAGS.get(id);
    if (flag !== undefined) {
      (out as Record<string, unknown>)[flag] = true;
      continue;
    }
    const field = STRINGS.get(id);
    if (field !== undefined && typeof value === "string") {
      (out as Record<string, unknown>)[field] = value;
      continue;
    }
    if (mapSpecial(model, shape, id, value, defaultTarget, out)) continue;
    custom[id] = value;
    hasCustom = true;
  }
  if (hasCustom) out.custom = Object.freeze(custom);
  return Object.keys(out).length === 0 ? NO_TRAITS : Object.freeze(out);
}

function mapSpecial(model: Model, shape: Shape | MemberShape, id: string, value: NodeValue, defaultTarget: string, out: Mutable<Traits>): boolean {
  switch (id) {
    case "smithy.api#default":
      // `@default(null)` on a member removes the target's default. An own `default: undefined`
      // is how that survives the builder's merge of member traits over target traits.
      out.default = value === null ? undefined : runtimeValue(model, defaultTarget, value, `@default of \`${shape.id}\``);
      return true;
    case "smithy.api#timestampFormat":
      if (typeof value !== "string" || !TIMESTAMP_FORMATS.has(value)) return false;
      out.timestampFormat = value as TimestampFormat;
      return true;
    case "smithy.api#error":
      if (value !== "client" && value !== "server") return false;
      out.error = value;
      return true;
    case "smithy.api#httpError": {
      const code = num(value);
      if (code === undefined) return false;
      out.httpError = code;
      return true;
    }
    case "smithy.api#retryable":
      out.retryable = Object.freeze({ throttling: isNodeObject(value) && value.throttling === true });
      return true;
    case "smithy.api#length":
    case "smithy.api#range": {
      const b = bounds(value);
      if (!b) return false;
      if (id === "smithy.api#length") out.length = b;
      else out.range = b;
      return true;
    }
    case "alloy.proto#protoIndex": {
      const index = num(value);
      if (index === undefined) return false;
      out.protoIndex = index;
      return true;
    }
    case "alloy.proto#protoNumType":
      if (typeof value !== "string" || !PROTO_NUM_TYPES.has(value)) return false;
      out.protoNumType = value as ProtoNumType;
      return true;
    default:
      return false;
  }
}

/** Operation trait ids with a typed field in `OperationTraits`. */
const OPERATION_TRAITS: ReadonlySet<string> = new Set([
  "smithy.api#http",
  "smithy.api#readonly",
  "smithy.api#idempotent",
  "smithy.api#endpoint",
  "smithy.api#httpChecksumRequired",
  "smithy.api#requestCompression",
  "smithy.api#auth",
  "smithy.api#optionalAuth",
  "smithy.api#paginated",
]);

/**
 * The typed traits of an operation. `@paginated` is merged with the
 * service's (operation fields win) when a service is given. Other traits go
 * to `custom`, except documentation, examples and test cases.
 *
 * @param operation - The operation shape.
 * @param service - The service it is bound to, if any.
 */
export function operationTraits(operation: Shape, service: Shape | undefined): OperationTraits {
  const out: Mutable<OperationTraits> = {};
  const t = operation.traits;
  const http = t.get("smithy.api#http");
  if (isNodeObject(http) && typeof http.method === "string" && typeof http.uri === "string") {
    out.http = Object.freeze({ method: http.method, uri: http.uri, code: num(http.code ?? null) ?? 200 });
  }
  if (t.has("smithy.api#readonly")) out.readonly = true;
  if (t.has("smithy.api#idempotent")) out.idempotent = true;
  const endpoint = t.get("smithy.api#endpoint");
  if (isNodeObject(endpoint) && typeof endpoint.hostPrefix === "string") out.endpointHostPrefix = endpoint.hostPrefix;
  if (t.has("smithy.api#httpChecksumRequired")) out.httpChecksumRequired = true;
  const compression = t.get("smithy.api#requestCompression");
  if (isNodeObject(compression) && Array.isArray(compression.encodings)) {
    out.requestCompression = Object.freeze(compression.encodings.filter((e): e is string => typeof e === "string"));
  }
  const auth = t.get("smithy.api#auth");
  if (Array.isArray(auth)) out.auth = Object.freeze(auth.map(str).filter((a): a is string => a !== undefined));
  if (t.has("smithy.api#optionalAuth")) out.optionalAuth = true;
  const paginated = getPaginated(operation, service);
  if (paginated) out.paginated = Object.freeze(paginated);
  const custom: Record<string, unknown> = {};
  let hasCustom = false;
  for (const [id, value] of t) {
    if (OPERATION_TRAITS.has(id) || !carried(id)) continue;
    custom[id] = id === WAITABLE ? waitersForClients(value) : value;
    hasCustom = true;
  }
  if (hasCustom) out.custom = Object.freeze(custom);
  return Object.freeze(out);
}

/** A service schema's trait fields: see {@link serviceTraits}. */
export interface ServiceTraits {
  /** Every trait of the service by absolute id, with its node value (protocol and auth traits among them). */
  readonly traits: Readonly<Record<string, unknown>>;
  /** The ids of the service's auth scheme traits (those marked `@authDefinition`), in model order. */
  readonly auth: readonly string[];
}

/**
 * The traits a service schema carries: all of them as they are in the
 * model (protocol, auth and custom traits), but documentation and the other
 * traits no runtime reads; and which are auth schemes.
 *
 * @param model - The model the service belongs to (auth traits are looked up in it).
 * @param service - The service shape.
 */
export function serviceTraits(model: Model, service: Shape): ServiceTraits {
  const traits: Record<string, unknown> = {};
  const auth: string[] = [];
  for (const [id, value] of service.traits) {
    if (!carried(id)) continue;
    traits[id] = value;
    if (model.getShape(id)?.traits.has("smithy.api#authDefinition")) auth.push(id);
  }
  return { traits, auth };
}
