/**
 * The HTTP binding engine's shared part: protocol settings, the binding plan
 * of a structure (which member goes to the path, query, headers, payload or
 * body), `@http` URI parsing, and the routes a server derives from them.
 *
 * @internal
 */
import type { MemberSchema, OperationSchema, Route, Schema, StructSchema } from "@anvil/core";
import type { JsonSettings } from "@anvil/codec-json";

/**
 * What tells one HTTP-binding JSON protocol from another. restJson1 is one
 * set of settings; alloy's simpleRestJson can be another.
 */
export interface HttpBindingSettings {
  /** The protocol trait id. */
  readonly id: string;
  /** A short name for messages (`restJson`). */
  readonly name: string;
  /** How JSON bodies are read and written. */
  readonly json: JsonSettings;
  /** The header naming an error's shape (lower case): `x-amzn-errortype` for restJson1. */
  readonly errorTypeHeader: string;
  /**
   * More headers naming an error's shape (lower case): clients read them
   * when {@link errorTypeHeader} is absent, servers write them too.
   */
  readonly errorTypeAliases: readonly string[];
  /**
   * Clients that find no error type take the operation's (else the
   * service's) first error whose status code is the response's.
   */
  readonly errorsByStatus: boolean;
  /**
   * restJson1: `@httpPayload` strings are UTF-8 text and blobs raw bytes.
   * When false, every payload is a JSON value.
   */
  readonly rawPayloads: boolean;
}

/** restJson1. */
export const REST_JSON_1: HttpBindingSettings = Object.freeze({
  id: "aws.protocols#restJson1",
  name: "restJson",
  json: Object.freeze({ useJsonName: true, timestampFormat: "epoch-seconds" }),
  errorTypeHeader: "x-amzn-errortype",
  errorTypeAliases: Object.freeze([]),
  errorsByStatus: false,
  rawPayloads: true,
});

/**
 * alloy's simpleRestJson: restJson1's bindings, every payload a JSON value
 * (strings and blobs too), the alloy JSON traits honoured, errors named by
 * `X-Error-Type`.
 */
export const SIMPLE_REST_JSON: HttpBindingSettings = Object.freeze({
  id: "alloy#simpleRestJson",
  name: "simpleRestJson",
  json: Object.freeze({ useJsonName: true, timestampFormat: "epoch-seconds", alloyTraits: true }),
  errorTypeHeader: "x-error-type",
  // alloy borrows restJson1's error cases, which name errors by restJson1's header.
  errorTypeAliases: Object.freeze(["x-amzn-errortype"]),
  errorsByStatus: true,
  rawPayloads: false,
});

/** The headers naming an error's shape, as a server writes them. */
export function errorTypeHeaders(settings: HttpBindingSettings, name: string): Record<string, string> {
  const headers: Record<string, string> = { [settings.errorTypeHeader]: name };
  for (const alias of settings.errorTypeAliases) headers[alias] = name;
  return headers;
}

/** The status code an error structure is sent with: `@httpError`, else 500 for server faults and 400 for client ones. */
export function errorStatusOf(schema: StructSchema): number {
  return schema.traits.httpError ?? (schema.traits.error === "server" ? 500 : 400);
}

/** `smithy.api#Unit`. */
export const UNIT = "smithy.api#Unit";

/** The JSON media type. */
export const JSON_MEDIA_TYPE = "application/json";

/** Where each member of a structure is bound. */
export interface Bindings {
  readonly labels: readonly MemberSchema[];
  readonly query: readonly { readonly member: MemberSchema; readonly key: string }[];
  readonly queryParams: MemberSchema | undefined;
  /** Header names lower case. */
  readonly headers: readonly { readonly member: MemberSchema; readonly name: string }[];
  /** Prefixes lower case. */
  readonly prefixHeaders: readonly { readonly member: MemberSchema; readonly prefix: string }[];
  readonly payload: MemberSchema | undefined;
  readonly responseCode: MemberSchema | undefined;
  /** The unbound members as a structure of their own, or undefined when there are none. */
  readonly body: StructSchema | undefined;
}

/** Requests bind labels and query parameters; responses write such members in the body. */
export type Direction = "request" | "response";

const requestPlans = new WeakMap<StructSchema, Bindings>();
const responsePlans = new WeakMap<StructSchema, Bindings>();

/**
 * The binding plan of a structure (an operation's input or output, or an
 * error), compiled once per direction. In a response, `@httpLabel`,
 * `@httpQuery` and `@httpQueryParams` mean nothing: those members are body
 * members.
 */
export function bindingsOf(schema: StructSchema, direction: Direction): Bindings {
  const plans = direction === "request" ? requestPlans : responsePlans;
  let plan = plans.get(schema);
  if (plan !== undefined) return plan;
  const request = direction === "request";
  const labels: MemberSchema[] = [];
  const query: { member: MemberSchema; key: string }[] = [];
  const headers: { member: MemberSchema; name: string }[] = [];
  const prefixHeaders: { member: MemberSchema; prefix: string }[] = [];
  const bodyMembers: MemberSchema[] = [];
  let queryParams: MemberSchema | undefined;
  let payload: MemberSchema | undefined;
  let responseCode: MemberSchema | undefined;
  for (const m of schema.members) {
    const t = m.traits;
    if (request && t.httpLabel) labels.push(m);
    else if (request && t.httpQuery !== undefined) query.push({ member: m, key: t.httpQuery });
    else if (request && t.httpQueryParams) queryParams = m;
    else if (t.httpHeader !== undefined) headers.push({ member: m, name: t.httpHeader.toLowerCase() });
    else if (t.httpPrefixHeaders !== undefined) prefixHeaders.push({ member: m, prefix: t.httpPrefixHeaders.toLowerCase() });
    else if (t.httpPayload) payload = m;
    else if (!request && t.httpResponseCode) responseCode = m;
    else bodyMembers.push(m);
  }
  const body: StructSchema | undefined =
    bodyMembers.length === 0
      ? undefined
      : bodyMembers.length === schema.members.length
        ? schema
        : Object.freeze({ kind: "structure", id: schema.id, traits: schema.traits, members: Object.freeze(bodyMembers) });
  plan = Object.freeze({ labels, query, queryParams, headers, prefixHeaders, payload, responseCode, body });
  plans.set(schema, plan);
  return plan;
}

/** One segment of an `@http` URI path. */
export type Segment = { readonly kind: "literal"; readonly text: string } | { readonly kind: "label"; readonly name: string; readonly greedy: boolean };

/** A parsed `@http` URI: path segments and the literal query. */
export interface ParsedUri {
  readonly segments: readonly Segment[];
  /** Literal query parameters; a name without `=` has the value undefined (present, any value). */
  readonly query: readonly (readonly [string, string | undefined])[];
  /** The path part as written (`/cities/{cityId}`), without a trailing slash. */
  readonly path: string;
}

const uris = new Map<string, ParsedUri>();

/** Parses an `@http` URI pattern. */
export function parseUri(uri: string): ParsedUri {
  let parsed = uris.get(uri);
  if (parsed !== undefined) return parsed;
  const q = uri.indexOf("?");
  const written = q < 0 ? uri : uri.slice(0, q);
  // A trailing slash is not a segment of its own: `/headers/` is `/headers`.
  const path = written.length > 1 && written.endsWith("/") ? written.slice(0, -1) : written;
  const search = q < 0 ? "" : uri.slice(q + 1);
  const segments: Segment[] = path
    .split("/")
    .slice(1)
    .map((s): Segment => {
      if (s.startsWith("{") && s.endsWith("+}")) return { kind: "label", name: s.slice(1, -2), greedy: true };
      if (s.startsWith("{") && s.endsWith("}")) return { kind: "label", name: s.slice(1, -1), greedy: false };
      return { kind: "literal", text: s };
    });
  const query = search
    .split("&")
    .filter((p) => p !== "")
    .map((p): [string, string | undefined] => {
      const eq = p.indexOf("=");
      return eq < 0 ? [decode(p), undefined] : [decode(p.slice(0, eq)), decode(p.slice(eq + 1))];
    });
  parsed = Object.freeze({ segments, query, path });
  uris.set(uri, parsed);
  return parsed;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** The routes of a set of operations, most specific first (literal segments before labels before greedy labels, more literal query parameters first). */
export function routesOf(operations: readonly OperationSchema[]): Route[] {
  const routes: { route: Route; uri: ParsedUri }[] = [];
  for (const operation of operations) {
    const http = operation.traits.http;
    if (http === undefined) continue;
    const uri = parseUri(http.uri);
    const route: Route = Object.freeze({
      operation,
      method: http.method.toUpperCase(),
      path: uri.path,
      ...(uri.query.length > 0 ? { query: uri.query } : {}),
    });
    routes.push({ route, uri });
  }
  routes.sort((a, b) => compareUris(a.uri, b.uri));
  return routes.map((r) => r.route);
}

function rankOf(segment: Segment | undefined): number {
  if (segment === undefined) return 3;
  return segment.kind === "literal" ? 0 : segment.greedy ? 2 : 1;
}

function compareUris(a: ParsedUri, b: ParsedUri): number {
  const n = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const d = rankOf(a.segments[i]) - rankOf(b.segments[i]);
    if (d !== 0) return d;
  }
  return b.query.length - a.query.length;
}

/** Whether a schema is a document, structure or union: a payload written as JSON. */
export function isJsonPayload(schema: Schema): boolean {
  return schema.kind === "structure" || schema.kind === "union" || schema.kind === "document";
}
