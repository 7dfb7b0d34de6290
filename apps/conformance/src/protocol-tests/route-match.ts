/**
 * Matches a request against the routes a server protocol contributes, as a
 * server router would: method, path pattern (`{label}` and greedy
 * `{label+}` segments), literal query parameters and exact headers.
 */
import type { HttpRequest, Route } from "@anvil/core";

/** The matched route and its labels (percent-decoded). */
export interface RouteMatch {
  readonly route: Route;
  readonly labels: Record<string, string>;
}

/** The first route that matches the request, or undefined. */
export function matchRoute(routes: readonly Route[], request: HttpRequest): RouteMatch | undefined {
  for (const route of routes) {
    if (route.method.toUpperCase() !== request.method.toUpperCase()) continue;
    const labels = matchPath(route.path, request.path);
    if (labels === undefined) continue;
    if (route.query && !route.query.every(([n, v]) => request.query.some(([qn, qv]) => qn === n && (v === undefined || qv === v)))) continue;
    if (route.headers && !Object.entries(route.headers).every(([n, v]) => request.headers.get(n) === v)) continue;
    return { route, labels };
  }
  return undefined;
}

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split("/").slice(1);
  const got = path.split("/").slice(1);
  const labels: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const seg = want[i]!;
    if (seg.startsWith("{") && seg.endsWith("+}")) {
      const rest = got.slice(i);
      if (rest.length === 0 || rest.join("/") === "") return undefined;
      labels[seg.slice(1, -2)] = decode(rest.join("/"));
      return labels;
    }
    const part = got[i];
    if (part === undefined) return undefined;
    if (seg.startsWith("{") && seg.endsWith("}")) {
      if (part === "") return undefined;
      labels[seg.slice(1, -1)] = decode(part);
    } else if (seg !== part) return undefined;
  }
  return want.length === got.length ? labels : undefined;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
