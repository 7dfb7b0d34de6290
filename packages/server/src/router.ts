/**
 * One route table over every protocol a server speaks. Each protocol
 * contributes its routes (`@http` URIs, `POST /` plus `X-Amz-Target`,
 * `/service/S/operation/O`, ...); they are compiled once into per-method
 * lists, most specific first, so that matching a request splits its path
 * once and compares precomputed segments.
 */
import type { HttpRequest, OperationSchema, Route, ServerProtocol, ServiceSchema } from "@anvil/core";

/** What a request matched: the route, the protocol that contributed it and the labels (percent-decoded). */
export interface RouteMatch {
  /** The matched route (with `allowed` set, the most specific route of the path under another method). */
  readonly route: Route;
  /** The operation the route calls. */
  readonly operation: OperationSchema;
  /** The server protocol the route belongs to, which reads the request and writes the answer. */
  readonly protocol: ServerProtocol;
  /** The values of the path's labels by label name, percent-decoded; a greedy label's value keeps its `/`s. */
  readonly labels: Readonly<Record<string, string>>;
  /**
   * Set when the request fits the route in all but its method: the methods
   * the routes of its path take (upper case, sorted). Such a match is
   * refused with the protocol's `methodNotAllowed` (a 405 with `Allow`).
   */
  readonly allowed: readonly string[] | undefined;
}

/** A compiled route table. */
export interface Router {
  /**
   * The most specific route matching the request, or undefined. A request
   * that fits routes in all but its method, when the most specific of them
   * belongs to a protocol with `methodNotAllowed`, matches that route with
   * `allowed` set (to be answered with a 405 where an unknown route gets
   * its 404).
   */
  match(request: HttpRequest): RouteMatch | undefined;
}

type Segment =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "label"; readonly name: string }
  | { readonly kind: "greedy"; readonly name: string };

interface CompiledRoute {
  readonly route: Route;
  readonly protocol: ServerProtocol;
  readonly segments: readonly Segment[];
  /** Index of the greedy segment, or -1. */
  readonly greedy: number;
  readonly query: readonly (readonly [string, string | undefined])[];
  readonly headers: readonly (readonly [string, string])[];
}

/**
 * Two routes that match exactly the same requests (same method, same
 * segments with labels in the same places, same literal query parameters and
 * required headers): one would silently shadow the other, so the router
 * refuses to compile.
 */
export class RouteConflictError extends Error {
  constructor(
    /** The route registered first. */
    readonly first: { readonly route: Route; readonly protocol: string },
    /** The route that would have been shadowed by, or would shadow, the first. */
    readonly second: { readonly route: Route; readonly protocol: string },
  ) {
    super(
      `route conflict: ${describeRoute(first.route)} is served by both ${first.route.operation.id} (${first.protocol}) and ${second.route.operation.id} (${second.protocol})`,
    );
    this.name = "RouteConflictError";
  }
}

/**
 * Compiles the routes of every protocol for a service. Routes are ordered
 * by specificity (literal segments before labels before greedy labels, then
 * more literal query parameters and more required headers). Routes that
 * would match exactly the same requests throw a {@link RouteConflictError}
 * naming both; otherwise the more specific route wins.
 */
export function compileRouter(service: ServiceSchema, protocols: readonly ServerProtocol[]): Router {
  const compiled: CompiledRoute[] = [];
  const byKey = new Map<string, CompiledRoute>();
  for (const protocol of protocols) {
    for (const route of protocol.routes(service)) {
      const c = compileRoute(route, protocol);
      const key = shapeKey(c);
      const other = byKey.get(key);
      if (other !== undefined) throw new RouteConflictError({ route: other.route, protocol: other.protocol.id }, { route, protocol: protocol.id });
      byKey.set(key, c);
      compiled.push(c);
    }
  }
  compiled.sort(bySpecificity);
  const byMethod = new Map<string, MethodTable>();
  compiled.forEach((c, rank) => {
    const method = c.route.method.toUpperCase();
    let table = byMethod.get(method);
    if (table === undefined) byMethod.set(method, (table = { all: [], exact: new Map(), few: undefined }));
    const ranked: RankedRoute = {
      ...c,
      rank,
      literalMatch: Object.freeze({ route: c.route, operation: c.route.operation, protocol: c.protocol, labels: NO_LABELS, allowed: undefined }),
    };
    table.all.push(ranked);
    if (ranked.segments.every((segment) => segment.kind === "literal")) {
      const key = ranked.route.path;
      const exact = table.exact.get(key) ?? { path: key, routes: [] };
      exact.routes.push(ranked);
      table.exact.set(key, exact);
    }
  });
  for (const table of byMethod.values()) {
    for (const exact of table.exact.values()) indexByHeader(exact);
    if (table.exact.size <= FEW_PATHS) table.few = [...table.exact.values()];
  }
  // Only worth looking for other methods when some protocol answers them otherwise than as unknown.
  const refusing = protocols.some((p) => typeof p.methodNotAllowed === "function") ? compiled : undefined;
  return Object.freeze({
    match(request: HttpRequest): RouteMatch | undefined {
      // The path's segments, split once whichever way the request goes.
      let parts: string[] | undefined;
      const table = byMethod.get(request.method) ?? byMethod.get(request.method.toUpperCase());
      if (table !== undefined) {
        // A route whose path is all literal and equals the request's is more specific than any other that
        // matches it, so those are tried first, by path (and for RPC routes, by their required header).
        const exact = exactRoutes(table, request.path);
        if (exact !== undefined) {
          const c = firstExactMatch(exact, request);
          if (c !== undefined) return c.literalMatch;
        }
        parts = request.path.split("/").slice(1);
        for (const c of table.all) {
          const labels = matchSegments(c, parts);
          if (labels === undefined || !queryMatches(c, request) || !headersMatch(c, request)) continue;
          return { route: c.route, operation: c.route.operation, protocol: c.protocol, labels, allowed: undefined };
        }
      }
      return refusing === undefined ? undefined : otherMethods(refusing, request, parts ?? request.path.split("/").slice(1));
    },
  });
}

/**
 * The match of a request that fits routes in all but its method (path,
 * literal query and required headers), when the most specific of them
 * belongs to a protocol that answers such requests: that route, with the
 * methods the path takes. `compiled` is in specificity order.
 */
function otherMethods(compiled: readonly CompiledRoute[], request: HttpRequest, parts: readonly string[]): RouteMatch | undefined {
  const allowed = new Set<string>();
  let first: { readonly c: CompiledRoute; readonly labels: Readonly<Record<string, string>> } | undefined;
  for (const c of compiled) {
    const labels = matchSegments(c, parts);
    if (labels === undefined || !fits(c, request)) continue;
    allowed.add(c.route.method.toUpperCase());
    first ??= { c, labels };
  }
  if (first === undefined || typeof first.c.protocol.methodNotAllowed !== "function") return undefined;
  const { c, labels } = first;
  return { route: c.route, operation: c.route.operation, protocol: c.protocol, labels, allowed: [...allowed].sort() };
}

/** The routes of one method, in specificity order, and those whose path is all literal by that path. */
interface MethodTable {
  readonly all: RankedRoute[];
  readonly exact: Map<string, ExactRoutes>;
  /** The same as a list, when there are at most {@link FEW_PATHS} of them. */
  few: readonly ExactRoutes[] | undefined;
}

/**
 * Up to this many literal paths, a request's path is compared with each
 * rather than looked up: a path is a fresh string on every request, and
 * hashing it costs more than a few comparisons, which mostly stop at the length.
 */
const FEW_PATHS = 8;

/** The all-literal routes of a path, if any. */
function exactRoutes(table: MethodTable, path: string): ExactRoutes | undefined {
  const few = table.few;
  if (few === undefined) return table.exact.get(path);
  for (const exact of few) if (exact.path === path) return exact;
  return undefined;
}

/** A compiled route with its place in specificity order. */
interface RankedRoute extends CompiledRoute {
  readonly rank: number;
  /** What the route matches as when its path is all literal (no labels to capture): made once. */
  readonly literalMatch: RouteMatch;
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The all-literal routes of one path. RPC protocols put every operation on
 * one path and tell them apart by a header (`x-amz-target`); with several
 * such routes they are also indexed by that header's value.
 */
interface ExactRoutes {
  readonly path: string;
  readonly routes: RankedRoute[];
  header?: string;
  byHeader?: Map<string, RankedRoute[]>;
  /** Routes that do not require {@link header}. */
  others?: RankedRoute[];
}

function indexByHeader(exact: ExactRoutes): void {
  const header = exact.routes.find((c) => c.headers.length > 0)?.headers[0]?.[0];
  if (header === undefined || exact.routes.length < 4) return;
  const byHeader = new Map<string, RankedRoute[]>();
  const others: RankedRoute[] = [];
  for (const c of exact.routes) {
    const required = c.headers.find(([name]) => name === header);
    if (required === undefined) others.push(c);
    else byHeader.set(required[1], [...(byHeader.get(required[1]) ?? []), c]);
  }
  exact.header = header;
  exact.byHeader = byHeader;
  exact.others = others;
}

/** The most specific all-literal route of a path that the request's query and headers satisfy. */
function firstExactMatch(exact: ExactRoutes, request: HttpRequest): RankedRoute | undefined {
  if (exact.header === undefined) {
    for (const c of exact.routes) if (fits(c, request)) return c;
    return undefined;
  }
  const value = request.headers.get(exact.header);
  const keyed = (value === null ? undefined : exact.byHeader!.get(value)) ?? [];
  const others = exact.others!;
  // Both lists are in specificity order: merge them by rank.
  let i = 0;
  let j = 0;
  while (i < keyed.length || j < others.length) {
    const c = j >= others.length || (i < keyed.length && keyed[i]!.rank < others[j]!.rank) ? keyed[i++]! : others[j++]!;
    if (fits(c, request)) return c;
  }
  return undefined;
}

function fits(c: CompiledRoute, request: HttpRequest): boolean {
  return queryMatches(c, request) && headersMatch(c, request);
}

function compileRoute(route: Route, protocol: ServerProtocol): CompiledRoute {
  const segments = route.path
    .split("/")
    .slice(1)
    .map((s): Segment => {
      if (s.startsWith("{") && s.endsWith("+}")) return { kind: "greedy", name: s.slice(1, -2) };
      if (s.startsWith("{") && s.endsWith("}")) return { kind: "label", name: s.slice(1, -1) };
      return { kind: "literal", text: s };
    });
  return {
    route,
    protocol,
    segments,
    greedy: segments.findIndex((s) => s.kind === "greedy"),
    query: route.query ?? [],
    headers: Object.entries(route.headers ?? {}).map(([n, v]) => [n.toLowerCase(), v] as const),
  };
}

/** What makes two routes match the same requests: label names do not matter, literals, query and headers do. */
function shapeKey(c: CompiledRoute): string {
  const segments = c.segments.map((s) => (s.kind === "literal" ? `=${decode(s.text)}` : s.kind === "label" ? "{}" : "{+}"));
  const query = c.query.map(([n, v]) => (v === undefined ? n : `${n}=${v}`)).sort();
  const headers = c.headers.map(([n, v]) => `${n}:${v}`).sort();
  return JSON.stringify([c.route.method.toUpperCase(), segments, query, headers]);
}

/** A route as people write it: `POST /?x-amz-target=...` style, for error messages. */
function describeRoute(route: Route): string {
  const query = (route.query ?? []).map(([n, v]) => (v === undefined ? n : `${n}=${v}`)).join("&");
  const headers = Object.entries(route.headers ?? {})
    .map(([n, v]) => ` [${n.toLowerCase()}: ${v}]`)
    .join("");
  return `${route.method.toUpperCase()} ${route.path}${query === "" ? "" : `?${query}`}${headers}`;
}

const RANK = { literal: 0, label: 1, greedy: 2 } as const;

function bySpecificity(a: CompiledRoute, b: CompiledRoute): number {
  const n = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const x = a.segments[i];
    const y = b.segments[i];
    const d = (x === undefined ? 3 : RANK[x.kind]) - (y === undefined ? 3 : RANK[y.kind]);
    if (d !== 0) return d;
  }
  return b.query.length - a.query.length || b.headers.length - a.headers.length;
}

/**
 * The labels of a path that fits the route's segments, or undefined. A
 * label takes one non-empty segment; a greedy label one or more, leaving
 * enough for the segments after it.
 */
function matchSegments(c: CompiledRoute, parts: readonly string[]): Record<string, string> | undefined {
  const segments = c.segments;
  if (c.greedy < 0 ? parts.length !== segments.length : parts.length < segments.length) return undefined;
  const labels: Record<string, string> = {};
  const tail = parts.length - segments.length;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const at = c.greedy >= 0 && i > c.greedy ? i + tail : i;
    if (segment.kind === "greedy") {
      const text = parts.slice(i, i + tail + 1).join("/");
      if (text === "") return undefined;
      labels[segment.name] = decode(text);
      continue;
    }
    const part = parts[at]!;
    if (segment.kind === "literal") {
      if (part !== segment.text && decode(part) !== segment.text) return undefined;
    } else {
      if (part === "") return undefined;
      labels[segment.name] = decode(part);
    }
  }
  return labels;
}

function queryMatches(c: CompiledRoute, request: HttpRequest): boolean {
  for (const [name, value] of c.query) {
    if (!request.query.some(([n, v]) => n === name && (value === undefined || v === value))) return false;
  }
  return true;
}

function headersMatch(c: CompiledRoute, request: HttpRequest): boolean {
  for (const [name, value] of c.headers) if (request.headers.get(name) !== value) return false;
  return true;
}

/** Percent-decodes a path segment; text that is not valid percent-encoding stays as it is. */
function decode(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
