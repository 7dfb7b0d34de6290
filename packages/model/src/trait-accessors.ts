/**
 * Typed views of the traits Anvil's runtime, codegen and docs use. Each takes
 * a shape or member and returns `undefined` when the trait is absent.
 */
import { isNodeObject, type NodeValue } from "./node-value.js";
import type { MemberShape, Shape } from "./shape.js";

/** Anything that carries traits: a top-level shape or a member. */
export type Traitable = Shape | MemberShape;

const str = (v: NodeValue | undefined): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: NodeValue | undefined): number | undefined => (typeof v === "number" ? v : undefined);

/** `@http` of an operation. */
export interface HttpTrait {
  /** HTTP method, such as `GET` or `POST`. */
  readonly method: string;
  /** URI pattern, with `{label}` and greedy `{label+}` segments and an optional literal query string: `/cities/{cityId}`. */
  readonly uri: string;
  /** HTTP status code of a successful response; 200 when the trait sets none. */
  readonly code: number;
}

/** The `@http` trait: method, URI pattern and success code (default 200). */
export function getHttp(shape: Traitable): HttpTrait | undefined {
  const v = shape.traits.get("smithy.api#http");
  if (!isNodeObject(v) || typeof v.method !== "string" || typeof v.uri !== "string") return undefined;
  return { method: v.method, uri: v.uri, code: num(v.code) ?? 200 };
}

/** `@error`: "client" or "server". */
export function getErrorKind(shape: Traitable): "client" | "server" | undefined {
  const v = shape.traits.get("smithy.api#error");
  return v === "client" || v === "server" ? v : undefined;
}

/** `@httpError` status code. */
export const getHttpError = (s: Traitable): number | undefined => num(s.traits.get("smithy.api#httpError"));
/** `@documentation` text. */
export const getDocumentation = (s: Traitable): string | undefined => str(s.traits.get("smithy.api#documentation"));
/** `@jsonName`. */
export const getJsonName = (s: Traitable): string | undefined => str(s.traits.get("smithy.api#jsonName"));
/** `@timestampFormat`: "date-time", "http-date" or "epoch-seconds". */
export const getTimestampFormat = (s: Traitable): string | undefined => str(s.traits.get("smithy.api#timestampFormat"));
/** `@mediaType`. */
export const getMediaType = (s: Traitable): string | undefined => str(s.traits.get("smithy.api#mediaType"));
/** `@pattern`. */
export const getPattern = (s: Traitable): string | undefined => str(s.traits.get("smithy.api#pattern"));
/** `@httpHeader` name. */
export const getHttpHeader = (s: Traitable): string | undefined => str(s.traits.get("smithy.api#httpHeader"));
/** `@httpQuery` name. */
export const getHttpQuery = (s: Traitable): string | undefined => str(s.traits.get("smithy.api#httpQuery"));
/** `@httpPrefixHeaders` prefix. */
export const getHttpPrefixHeaders = (s: Traitable): string | undefined => str(s.traits.get("smithy.api#httpPrefixHeaders"));
/** `@alloy.proto#protoIndex` field number. */
export const getProtoIndex = (s: Traitable): number | undefined => num(s.traits.get("alloy.proto#protoIndex"));
/** `@alloy.proto#protoNumType`: "SIGNED", "UNSIGNED", "FIXED" or "FIXED_SIGNED". */
export const getProtoNumType = (s: Traitable): string | undefined => str(s.traits.get("alloy.proto#protoNumType"));
/** `@enumValue` of an enum or intEnum member. */
export const getEnumValue = (s: Traitable): string | number | undefined => {
  const v = s.traits.get("smithy.api#enumValue");
  return typeof v === "string" || typeof v === "number" ? v : undefined;
};

/** Whether a shape or member carries a trait (by absolute id). */
export const hasTrait = (s: Traitable, traitId: string): boolean => s.traits.has(traitId);
/** `@required`. */
export const isRequired = (s: Traitable): boolean => s.traits.has("smithy.api#required");
/** `@sensitive`. */
export const isSensitive = (s: Traitable): boolean => s.traits.has("smithy.api#sensitive");
/** `@streaming`. */
export const isStreaming = (s: Traitable): boolean => s.traits.has("smithy.api#streaming");
/** `@sparse`. */
export const isSparse = (s: Traitable): boolean => s.traits.has("smithy.api#sparse");
/** `@idempotencyToken`. */
export const isIdempotencyToken = (s: Traitable): boolean => s.traits.has("smithy.api#idempotencyToken");

/** `@default` value; `undefined` when absent (a `null` default is returned as `null`). */
export function getDefault(s: Traitable): NodeValue | undefined {
  return s.traits.get("smithy.api#default");
}

/** `@length` / `@range` bounds. */
export interface Bounds {
  /** Inclusive minimum (a length for `@length`, a value for `@range`); absent when there is none. */
  readonly min?: number;
  /** Inclusive maximum (a length for `@length`, a value for `@range`); absent when there is none. */
  readonly max?: number;
}

function bounds(v: NodeValue | undefined): Bounds | undefined {
  if (!isNodeObject(v)) return undefined;
  return { ...(typeof v.min === "number" ? { min: v.min } : {}), ...(typeof v.max === "number" ? { max: v.max } : {}) };
}

/** `@length`. */
export const getLength = (s: Traitable): Bounds | undefined => bounds(s.traits.get("smithy.api#length"));
/** `@range`. */
export const getRange = (s: Traitable): Bounds | undefined => bounds(s.traits.get("smithy.api#range"));

/** `@retryable`. */
export function getRetryable(s: Traitable): { throttling: boolean } | undefined {
  const v = s.traits.get("smithy.api#retryable");
  if (v === undefined) return undefined;
  return { throttling: isNodeObject(v) && v.throttling === true };
}

/** One entry of `@examples`. */
export interface OperationExample {
  /** Short title of the example. */
  readonly title: string;
  /** Longer description of the example, in CommonMark. */
  readonly documentation?: string;
  /** Input of the example, as a node value of the operation's input structure. */
  readonly input?: NodeValue;
  /** Output of the example, as a node value of the operation's output structure. */
  readonly output?: NodeValue;
  /** The error the example fails with: the error shape's id and its content (`{}` when not given). */
  readonly error?: { readonly shapeId: string; readonly content: NodeValue };
  /** Whether the input may break its constraints on purpose, to show a validation error. */
  readonly allowConstraintErrors?: boolean;
}

/** `@examples` of an operation. */
export function getExamples(s: Traitable): OperationExample[] {
  const v = s.traits.get("smithy.api#examples");
  if (!Array.isArray(v)) return [];
  const out: OperationExample[] = [];
  for (const e of v) {
    if (!isNodeObject(e) || typeof e.title !== "string") continue;
    const error = isNodeObject(e.error) && typeof e.error.shapeId === "string" ? { shapeId: e.error.shapeId, content: e.error.content ?? {} } : undefined;
    out.push({
      title: e.title,
      ...(typeof e.documentation === "string" ? { documentation: e.documentation } : {}),
      ...(e.input !== undefined ? { input: e.input } : {}),
      ...(e.output !== undefined ? { output: e.output } : {}),
      ...(error ? { error } : {}),
      ...(typeof e.allowConstraintErrors === "boolean" ? { allowConstraintErrors: e.allowConstraintErrors } : {}),
    });
  }
  return out;
}

/** `@paginated` (merged with the service's, when given). */
export interface Paginated {
  /** Name of the input member that carries the continuation token. */
  readonly inputToken?: string;
  /** Path to the output member that carries the next continuation token (dot-separated member names). */
  readonly outputToken?: string;
  /** Path to the output member that holds the page's items (dot-separated member names). */
  readonly items?: string;
  /** Name of the input member that limits how many items a page holds. */
  readonly pageSize?: string;
}

/** `@paginated` of an operation, with unset fields taken from the service's `@paginated`. */
export function getPaginated(operation: Traitable, service?: Traitable): Paginated | undefined {
  const op = operation.traits.get("smithy.api#paginated");
  if (!isNodeObject(op)) return undefined;
  const svc = service?.traits.get("smithy.api#paginated");
  const pick = (k: string) => str(op[k]) ?? (isNodeObject(svc) ? str(svc[k]) : undefined);
  const out: { -readonly [K in keyof Paginated]: Paginated[K] } = {};
  for (const k of ["inputToken", "outputToken", "items", "pageSize"] as const) {
    const v = pick(k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
