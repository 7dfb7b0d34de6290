/**
 * Web-standard handlers (`(Request) => Promise<Response>`) serving the
 * OpenAPI document, the interactive explorer and the reference site of a
 * model. They fit any host that speaks the Fetch API, and
 * `@anvil/server`'s `server.mount(prefix, handler)`.
 */
import type { Model } from "@anvil/model";
import { EXPLORER_ASSETS } from "./explorer-assets.js";
import { toOpenApi } from "./openapi.js";
import { selectService } from "./service.js";
import { generateSite, type SiteOptions } from "./site/site.js";

/** A web-standard request handler. */
export type DocsHandler = (request: Request) => Promise<Response>;

/** A handler and the path prefix it expects to be mounted at. */
export interface DocsRoute {
  /** The path to mount at, which the handler serves along with the paths beneath it (`/openapi.json`, `/openapi`, `/docs`). */
  readonly prefix: string;
  /** The handler answering requests for `prefix` and the paths beneath it. */
  readonly handler: DocsHandler;
}

/** Options of {@link docsRoutes}. */
export interface DocsRoutesOptions {
  /** The service whose OpenAPI document is served (id or shape name); default: the model's only service. */
  readonly service?: string;
  /** Serve `/openapi.json` and the `/openapi` explorer. Default true. */
  readonly openapi?: boolean;
  /** Serve the reference site at `/docs`. Default true. */
  readonly docs?: boolean;
  /** Options of the reference site. */
  readonly site?: SiteOptions;
}

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  json: "application/json; charset=utf-8",
  png: "image/png",
};

function typeOf(path: string): string {
  return TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

function notFound(): Response {
  return new Response("not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}

function methodNotAllowed(): Response {
  return new Response("method not allowed\n", { status: 405, headers: { "content-type": "text/plain; charset=utf-8", allow: "GET, HEAD" } });
}

function respond(request: Request, body: string | Uint8Array, type: string, cache = "no-cache"): Response {
  const headers = { "content-type": type, "cache-control": cache, "x-content-type-options": "nosniff" };
  return new Response(request.method === "HEAD" ? null : (body as BodyInit), { status: 200, headers });
}

const readable = (request: Request): boolean => request.method === "GET" || request.method === "HEAD";

/**
 * Serves the OpenAPI 3.1 document of a service. Its `servers` entry is the
 * origin the request came to, so an explorer's calls go to the running
 * server. The document is made once per origin.
 */
export function openApiJsonHandler(model: Model, options: { readonly service?: string } = {}): DocsHandler {
  const service = selectService(model, options.service).id;
  const byOrigin = new Map<string, string>();
  return async (request) => {
    if (!readable(request)) return methodNotAllowed();
    const origin = new URL(request.url).origin;
    let text = byOrigin.get(origin);
    if (text === undefined) {
      text = JSON.stringify(toOpenApi(model, { service, servers: [origin] }), null, 2);
      if (byOrigin.size < 16) byOrigin.set(origin, text);
    }
    return respond(request, text, TYPES.json!);
  };
}

const SERVED = new Set(EXPLORER_ASSETS);

/**
 * The Swagger UI files shipped in this package, embedded in a module by the
 * build (`#swagger-ui`, see `tsup.config.ts`). Imported when the explorer
 * first serves a file: a server that never does never loads them, and a
 * bundler puts them in the bundle (or a chunk of their own) rather than
 * leaving a file to read at run time.
 */
let swaggerUi: Promise<typeof import("#swagger-ui")> | undefined;

function swaggerUiFile(name: string): Promise<Uint8Array | undefined> {
  swaggerUi ??= import("#swagger-ui").catch((error: unknown) => {
    swaggerUi = undefined;
    throw error;
  });
  return swaggerUi.then(({ SWAGGER_UI_FILES }) => {
    const file = SWAGGER_UI_FILES[name];
    if (file === undefined) return undefined;
    return "text" in file ? new TextEncoder().encode(file.text) : Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
  });
}

function explorerPage(base: string, documentUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API explorer</title>
<link rel="stylesheet" href="${base}/swagger-ui.css">
<link rel="icon" type="image/png" href="${base}/favicon-32x32.png" sizes="32x32">
<style>body { margin: 0; } .swagger-ui .topbar { display: none; }</style>
</head>
<body>
<div id="swagger-ui" data-url="${documentUrl}"></div>
<script src="${base}/swagger-ui-bundle.js"></script>
<script src="${base}/init.js"></script>
</body>
</html>
`;
}

/** Starts Swagger UI on the document; no validator badge (it would call out to the internet). */
const EXPLORER_INIT = `window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-url"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    displayOperationId: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
});
`;

/**
 * Serves the interactive explorer (Swagger UI) at `base` (default
 * `/openapi`), loading the document from `documentUrl` (default
 * `/openapi.json`). Every asset is a copy of Swagger UI shipped in this
 * package: the page works with no internet access.
 */
export function explorerHandler(options: { readonly base?: string; readonly documentUrl?: string } = {}): DocsHandler {
  const base = options.base ?? "/openapi";
  const documentUrl = options.documentUrl ?? "/openapi.json";
  const cache = new Map<string, Uint8Array>();
  return async (request) => {
    if (!readable(request)) return methodNotAllowed();
    const path = new URL(request.url).pathname;
    if (path === base || path === `${base}/`) return respond(request, explorerPage(base, documentUrl), TYPES.html!);
    const name = path.startsWith(`${base}/`) ? path.slice(base.length + 1) : "";
    if (name === "init.js") return respond(request, EXPLORER_INIT, TYPES.js!);
    if (!SERVED.has(name)) return notFound();
    let bytes = cache.get(name);
    if (bytes === undefined) {
      bytes = await swaggerUiFile(name);
      if (bytes === undefined) return notFound();
      cache.set(name, bytes);
    }
    return respond(request, bytes, typeOf(name), "public, max-age=3600");
  };
}

/**
 * Serves the reference site under `base` (default `/docs`): `/docs`
 * redirects to `/docs/` so that the site's relative links resolve. The site
 * is generated on the first request.
 */
export function siteHandler(model: Model, options: SiteOptions & { readonly base?: string } = {}): DocsHandler {
  const base = options.base ?? "/docs";
  let files: Map<string, string> | undefined;
  return async (request) => {
    if (!readable(request)) return methodNotAllowed();
    const url = new URL(request.url);
    if (url.pathname === base) return new Response(null, { status: 308, headers: { location: `${base}/${url.search}` } });
    files ??= new Map(generateSite(model, options).map((f) => [f.path, f.text]));
    let rel: string;
    try {
      rel = decodeURIComponent(url.pathname.slice(base.length + 1));
    } catch {
      return notFound();
    }
    if (rel === "") rel = "index.html";
    const text = files.get(rel);
    return text === undefined ? notFound() : respond(request, text, typeOf(rel));
  };
}

/**
 * The documentation routes of a model, ready to mount: `/openapi.json`,
 * `/openapi` (explorer) and `/docs` (reference site).
 *
 * ```ts
 * for (const { prefix, handler } of docsRoutes(model, { service: "example.weather#Weather" })) server.mount(prefix, handler);
 * ```
 */
export function docsRoutes(model: Model, options: DocsRoutesOptions = {}): DocsRoute[] {
  const routes: DocsRoute[] = [];
  if (options.openapi !== false) {
    routes.push({ prefix: "/openapi.json", handler: openApiJsonHandler(model, options.service !== undefined ? { service: options.service } : {}) });
    routes.push({ prefix: "/openapi", handler: explorerHandler() });
  }
  if (options.docs !== false) routes.push({ prefix: "/docs", handler: siteHandler(model, options.site ?? {}) });
  return routes;
}
