/**
 * CORS from the model: Smithy's `@cors` trait on a service (or the server's
 * `cors` option) lets browsers on other origins call it. Preflight
 * `OPTIONS` requests for a route are answered 204 with what may be sent;
 * answers to calls from an allowed origin say which origin may read them and
 * which of their headers it may see. The header lists come from the model:
 * every `@httpHeader` an input binds (and the auth schemes' headers) may be
 * sent, every one an output or error binds may be read.
 */
import { HttpHeaders, type HttpRequest, type HttpResponse, type MemberSchema, type ServiceSchema, type StructSchema } from "@anvil/core";
import { effectiveAuth, httpApiKeyTrait } from "@anvil/core/protocol";

/** CORS settings; each overrides what the service's `@cors` trait says. */
export interface CorsOptions {
  /**
   * The origins allowed to call: `"*"` for any (the trait's default), an
   * origin such as `https://app.example.com`, or several.
   */
  readonly origin?: string | readonly string[];
  /** How long a browser may cache a preflight answer, in seconds. Default the trait's `maxAge`, else 600. */
  readonly maxAge?: number;
  /** Request headers allowed besides the model's. */
  readonly allowedHeaders?: readonly string[];
  /** Response headers exposed besides the model's. */
  readonly exposedHeaders?: readonly string[];
  /** Send `Access-Control-Allow-Credentials: true` (cookies, HTTP auth), which needs named origins rather than `"*"`. Default false. */
  readonly credentials?: boolean;
}

/** The `@cors` trait's value. */
interface CorsTrait {
  readonly origin?: string;
  readonly maxAge?: number;
  readonly additionalAllowedHeaders?: readonly string[];
  readonly additionalExposedHeaders?: readonly string[];
}

/** Headers every protocol's requests may carry: their media types and protocol headers, and the request ids and signatures clients send. */
const PROTOCOL_REQUEST_HEADERS = [
  "content-type",
  "content-encoding",
  "x-amz-target",
  "smithy-protocol",
  "x-amz-user-agent",
  "amz-sdk-invocation-id",
  "amz-sdk-request",
  "x-amzn-trace-id",
];
/** Headers of every protocol's answers a caller may want to read: request ids, error types, the time, auth challenges. */
const PROTOCOL_RESPONSE_HEADERS = ["x-amzn-requestid", "x-amz-request-id", "x-amzn-errortype", "x-error-type", "smithy-protocol", "date", "www-authenticate"];
/** What each auth scheme sends in headers. */
const AUTH_HEADERS: Readonly<Record<string, readonly string[]>> = {
  "smithy.api#httpBearerAuth": ["authorization"],
  "smithy.api#httpBasicAuth": ["authorization"],
  "smithy.api#httpDigestAuth": ["authorization"],
  "aws.auth#sigv4": ["authorization", "x-amz-date", "x-amz-content-sha256", "x-amz-security-token"],
};

/** CORS compiled for a service: the preflight answer and the headers to add to answers. */
export interface Cors {
  /** The headers that let `origin` read an answer; undefined when the origin is not allowed. */
  responseHeaders(origin: string): Readonly<Record<string, string>> | undefined;
  /** The answer to a preflight for a route that takes the requested method; undefined when the origin is not allowed. */
  preflight(request: HttpRequest, origin: string): HttpResponse | undefined;
}

/**
 * Compiles CORS for a service from its `@cors` trait and the server's
 * option; undefined when neither asks for it (or the option is `false`).
 */
export function compileCors(service: ServiceSchema, option: CorsOptions | boolean | undefined): Cors | undefined {
  if (option === false) return undefined;
  const trait = service.traits["smithy.api#cors"] as CorsTrait | undefined;
  if (trait === undefined && option === undefined) return undefined;
  const given: CorsOptions = typeof option === "object" ? option : {};
  const origins = given.origin ?? trait?.origin ?? "*";
  const any = origins === "*" || (Array.isArray(origins) && origins.includes("*"));
  const allowedOrigins = new Set(typeof origins === "string" ? [origins] : origins);
  const credentials = given.credentials === true;
  const maxAge = String(given.maxAge ?? trait?.maxAge ?? 600);
  const { requestHeaders, prefixes, responseHeaders } = modeledHeaders(service);
  const allowed = unique([...PROTOCOL_REQUEST_HEADERS, ...requestHeaders, ...(trait?.additionalAllowedHeaders ?? []), ...(given.allowedHeaders ?? [])]);
  const exposed = unique([...PROTOCOL_RESPONSE_HEADERS, ...responseHeaders, ...(trait?.additionalExposedHeaders ?? []), ...(given.exposedHeaders ?? [])]);
  const exposeList = exposed.join(", ");

  const allowOrigin = (origin: string): Record<string, string> | undefined => {
    if (any && !credentials) return { "access-control-allow-origin": "*" };
    if (!any && !allowedOrigins.has(origin)) return undefined;
    // A named origin: caches must keep answers to other origins apart.
    return { "access-control-allow-origin": origin, vary: "Origin", ...(credentials ? { "access-control-allow-credentials": "true" } : {}) };
  };

  return {
    responseHeaders(origin) {
      const base = allowOrigin(origin);
      return base === undefined ? undefined : { ...base, "access-control-expose-headers": exposeList };
    },
    preflight(request, origin) {
      const base = allowOrigin(origin);
      if (base === undefined) return undefined;
      // Headers a modeled @httpPrefixHeaders binds cannot be listed ahead: those the browser asks for are allowed by prefix.
      const asked = (request.headers.get("access-control-request-headers") ?? "")
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== "" && prefixes.some((p) => h.startsWith(p)));
      const headers = new HttpHeaders({
        ...base,
        "access-control-allow-methods": request.headers.get("access-control-request-method")!.toUpperCase(),
        "access-control-allow-headers": unique([...allowed, ...asked]).join(", "),
        "access-control-max-age": maxAge,
      });
      if (base.vary === undefined) headers.set("vary", "Access-Control-Request-Method, Access-Control-Request-Headers");
      else headers.set("vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
      return { status: 204, headers, body: undefined };
    },
  };
}

/** The `@httpHeader` names inputs and outputs (errors included) bind, the input prefixes, and the auth schemes' request headers. */
function modeledHeaders(service: ServiceSchema): { requestHeaders: string[]; prefixes: string[]; responseHeaders: string[] } {
  const requestHeaders: string[] = [];
  const prefixes: string[] = [];
  const responseHeaders: string[] = [];
  const bound = (shape: StructSchema, into: string[], prefixInto?: string[]) => {
    for (const m of shape.members as readonly MemberSchema[]) {
      if (m.traits.httpHeader !== undefined) into.push(m.traits.httpHeader.toLowerCase());
      if (m.traits.httpPrefixHeaders !== undefined && m.traits.httpPrefixHeaders !== "") prefixInto?.push(m.traits.httpPrefixHeaders.toLowerCase());
    }
  };
  for (const operation of Object.values(service.operations)) {
    bound(operation.input, requestHeaders, prefixes);
    bound(operation.output, responseHeaders);
    for (const error of operation.errors) bound(error, responseHeaders);
    for (const scheme of effectiveAuth(service, operation).schemes) {
      requestHeaders.push(...(AUTH_HEADERS[scheme] ?? []));
      if (scheme === "smithy.api#httpApiKeyAuth") {
        const trait = httpApiKeyTrait(service);
        if (trait?.in === "header") requestHeaders.push(trait.name.toLowerCase());
      }
    }
  }
  for (const error of service.errors) bound(error, responseHeaders);
  return { requestHeaders, prefixes, responseHeaders };
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names.map((n) => n.toLowerCase()))];
}
