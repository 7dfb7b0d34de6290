/**
 * A shape's, member's or operation's Smithy traits as the object literal its
 * schema carries: the typed fields of `@anvil/core`'s `Traits` and
 * `OperationTraits`, other traits under `custom`. The mapping is the one
 * `@anvil/dynamic` applies at run time (a test compares the two), so
 * generated and dynamic schemas are interchangeable.
 */
import type { MemberShape, Model, NodeValue, Shape } from "@anvil/model";
import { getPaginated, isNodeObject } from "@anvil/model";
import { code, literal } from "./code.js";
import type { Imports } from "./imports.js";

/** Traits that only document a shape: they become TSDoc, not schema data. */
const DOCUMENTATION_TRAITS: ReadonlySet<string> = new Set(["smithy.api#documentation", "smithy.api#externalDocumentation"]);

/** Annotation traits: Smithy id → `Traits` field, set to `true`. */
const FLAGS: ReadonlyMap<string, string> = new Map([
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
const STRINGS: ReadonlyMap<string, string> = new Map([
  ["smithy.api#jsonName", "jsonName"],
  ["smithy.api#mediaType", "mediaType"],
  ["smithy.api#httpQuery", "httpQuery"],
  ["smithy.api#httpHeader", "httpHeader"],
  ["smithy.api#httpPrefixHeaders", "httpPrefixHeaders"],
  ["smithy.api#pattern", "pattern"],
  ["alloy#discriminated", "discriminated"],
]);

const TIMESTAMP_FORMATS: ReadonlySet<unknown> = new Set(["date-time", "http-date", "epoch-seconds"]);
const PROTO_NUM_TYPES: ReadonlySet<unknown> = new Set(["SIGNED", "UNSIGNED", "FIXED", "FIXED_SIGNED"]);

/** A problem with a trait value met while writing it (a `@default` that does not fit its shape). */
export class TraitValueError extends Error {
  constructor(
    message: string,
    readonly shape: Shape | MemberShape,
  ) {
    super(message);
  }
}

/** What writing trait literals needs: the model and the file's imports. */
export interface TraitContext {
  readonly model: Model;
  readonly imports: Imports;
}

/**
 * The `Traits` object literal of a shape or member (its own traits only; the
 * core merges a member's target traits), or undefined when it has none.
 * `defaultTarget` is the shape a `@default` value belongs to.
 */
export function schemaTraits(ctx: TraitContext, shape: Shape | MemberShape, defaultTarget: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  let hasCustom = false;
  let any = false;
  for (const [id, value] of shape.traits) {
    if (DOCUMENTATION_TRAITS.has(id)) continue;
    const flag = FLAGS.get(id);
    const field = STRINGS.get(id);
    if (flag !== undefined) out[flag] = true;
    else if (field !== undefined && typeof value === "string") out[field] = value;
    else if (!special(ctx, shape, id, value, defaultTarget, out)) {
      custom[id] = value;
      hasCustom = true;
    }
    any = true;
  }
  if (hasCustom) out.custom = custom;
  return any ? out : undefined;
}

function bounds(v: NodeValue): Record<string, unknown> | undefined {
  if (!isNodeObject(v)) return undefined;
  const out: Record<string, unknown> = {};
  if (typeof v.min === "number" || typeof v.min === "bigint") out.min = v.min;
  if (typeof v.max === "number" || typeof v.max === "bigint") out.max = v.max;
  return out;
}

function special(ctx: TraitContext, shape: Shape | MemberShape, id: string, value: NodeValue, defaultTarget: string, out: Record<string, unknown>): boolean {
  switch (id) {
    case "smithy.api#default":
      // `@default(null)` removes the target's default: an own `default: undefined` survives the core's merge.
      out.default = value === null ? undefined : runtimeValueCode(ctx, shape, defaultTarget, value);
      return true;
    case "smithy.api#timestampFormat":
      if (!TIMESTAMP_FORMATS.has(value)) return false;
      out.timestampFormat = value;
      return true;
    case "smithy.api#error":
      if (value !== "client" && value !== "server") return false;
      out.error = value;
      return true;
    case "smithy.api#httpError":
      if (typeof value !== "number") return false;
      out.httpError = value;
      return true;
    case "smithy.api#retryable":
      out.retryable = { throttling: isNodeObject(value) && value.throttling === true };
      return true;
    case "smithy.api#length":
    case "smithy.api#range": {
      const b = bounds(value);
      if (!b) return false;
      out[id === "smithy.api#length" ? "length" : "range"] = b;
      return true;
    }
    case "alloy.proto#protoIndex":
      if (typeof value !== "number") return false;
      out.protoIndex = value;
      return true;
    case "alloy.proto#protoNumType":
      if (!PROTO_NUM_TYPES.has(value)) return false;
      out.protoNumType = value;
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

/** The `OperationTraits` literal of an operation; `@paginated` merged with the service's. */
export function operationTraits(operation: Shape, service: Shape): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const t = operation.traits;
  const http = t.get("smithy.api#http");
  if (isNodeObject(http) && typeof http.method === "string" && typeof http.uri === "string") {
    out.http = { method: http.method, uri: http.uri, code: typeof http.code === "number" ? http.code : 200 };
  }
  if (t.has("smithy.api#readonly")) out.readonly = true;
  if (t.has("smithy.api#idempotent")) out.idempotent = true;
  const endpoint = t.get("smithy.api#endpoint");
  if (isNodeObject(endpoint) && typeof endpoint.hostPrefix === "string") out.endpointHostPrefix = endpoint.hostPrefix;
  if (t.has("smithy.api#httpChecksumRequired")) out.httpChecksumRequired = true;
  const compression = t.get("smithy.api#requestCompression");
  if (isNodeObject(compression) && Array.isArray(compression.encodings)) {
    out.requestCompression = compression.encodings.filter((e) => typeof e === "string");
  }
  const auth = t.get("smithy.api#auth");
  if (Array.isArray(auth)) out.auth = auth.filter((a) => typeof a === "string");
  if (t.has("smithy.api#optionalAuth")) out.optionalAuth = true;
  const paginated = getPaginated(operation, service);
  if (paginated) out.paginated = { ...paginated };
  const custom: Record<string, unknown> = {};
  let hasCustom = false;
  for (const [id, value] of t) {
    if (OPERATION_TRAITS.has(id) || DOCUMENTATION_TRAITS.has(id)) continue;
    custom[id] = value;
    hasCustom = true;
  }
  if (hasCustom) out.custom = custom;
  return out;
}

/**
 * Code for the runtime value of a node value (a `@default`) of a shape: a
 * `Date` for a timestamp, bytes for a blob, a `BigDecimal`, `NaN` and the
 * infinities for floats given as text, and lists, maps and structures frozen,
 * as `@anvil/dynamic`'s `runtimeValue` builds them.
 */
function runtimeValueCode(ctx: TraitContext, owner: Shape | MemberShape, targetId: string, value: NodeValue): unknown {
  const where = `@default of \`${owner.id}\``;
  const convert = (shape: Shape | undefined, v: NodeValue, at: string): unknown => {
    if (!shape) throw new TraitValueError(`${where}: unknown shape`, owner);
    if (v === null) return null;
    switch (shape.type) {
      case "timestamp":
        return code(`new Date(${toEpochMillis(v, at, owner)})`);
      case "blob":
        if (typeof v !== "string") throw new TraitValueError(`${at}: a blob value must be base64 text`, owner);
        return code(`new Uint8Array(${literal([...fromBase64(v, at, owner)])})`);
      case "bigDecimal":
        if (typeof v !== "number" && typeof v !== "bigint" && typeof v !== "string") {
          throw new TraitValueError(`${at}: a bigDecimal value must be a number`, owner);
        }
        return code(`${ctx.imports.value("BigDecimal")}.from(${JSON.stringify(String(v))})`);
      case "float":
      case "double":
        if (v === "NaN") return Number.NaN;
        if (v === "Infinity") return Number.POSITIVE_INFINITY;
        if (v === "-Infinity") return Number.NEGATIVE_INFINITY;
        return typeof v === "bigint" ? Number(v) : frozen(v);
      case "list":
      case "set": {
        if (!Array.isArray(v)) return frozen(v);
        const item = ctx.model.getShape(shape.members.get("member")!.target);
        return code(`Object.freeze(${literal(v.map((x, i) => convert(item, x, `${at}[${i}]`)))})`);
      }
      case "map": {
        if (!isNodeObject(v)) return frozen(v);
        const target = ctx.model.getShape(shape.members.get("value")!.target);
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(v)) out[key] = convert(target, v[key]!, `${at}.${key}`);
        return code(`Object.freeze(${literal(out)})`);
      }
      case "structure": {
        if (!isNodeObject(v)) return frozen(v);
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(v)) {
          const m = shape.members.get(key);
          out[key] = m ? convert(ctx.model.getShape(m.target), v[key]!, `${at}.${key}`) : frozen(v[key]!);
        }
        return code(`Object.freeze(${literal(out)})`);
      }
      case "union": {
        if (!isNodeObject(v)) return frozen(v);
        const keys = Object.keys(v);
        if (keys.length !== 1) return frozen(v);
        const m = shape.members.get(keys[0]!);
        const inner = m ? convert(ctx.model.getShape(m.target), v[keys[0]!]!, `${at}.${keys[0]}`) : frozen(v[keys[0]!]!);
        return code(`Object.freeze(${literal({ $case: keys[0], value: inner })})`);
      }
      default:
        return frozen(v);
    }
  };
  return convert(ctx.model.getShape(targetId), value, where);
}

/** A node value with its arrays and objects frozen, as defaults are shared by every reader. */
function frozen(v: NodeValue): unknown {
  if (Array.isArray(v)) return code(`Object.freeze(${literal(v.map(frozen))})`);
  if (!isNodeObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) out[key] = frozen(v[key]!);
  return code(`Object.freeze(${literal(out)})`);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function toEpochMillis(v: NodeValue, at: string, owner: Shape | MemberShape): number {
  let ms = Number.NaN;
  if (typeof v === "number" || typeof v === "bigint") ms = Math.round(Number(v) * 1000);
  else if (typeof v === "string" && RFC3339.test(v)) ms = new Date(v).getTime();
  if (Number.isNaN(new Date(ms).getTime())) throw new TraitValueError(`${at}: a timestamp value must be epoch seconds or RFC 3339 text`, owner);
  return ms;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function fromBase64(text: string, at: string, owner: Shape | MemberShape): Uint8Array {
  if (text.length % 4 === 1 || !BASE64.test(text)) throw new TraitValueError(`${at}: invalid base64 blob value`, owner);
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

