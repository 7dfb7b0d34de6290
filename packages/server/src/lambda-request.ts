/**
 * A Lambda event as the `Request` the fetch handler takes: which of the
 * formats it is, then its method, URL (path, query), headers (cookies
 * included), body (base64 or text) and the details the host knows (the
 * caller's address, the request id, the time left).
 *
 * @internal
 */
import { Buffer } from "node:buffer";
import { ProtocolError } from "@anvil/core";
import type { FetchInfo } from "./fetch.js";
import type { LambdaContext } from "./lambda-types.js";

/** Which event format an event is in; the answer is written in the same one. */
export type EventFormat =
  /** API Gateway HTTP API payload 2.0, Lambda function URLs. */
  | { readonly kind: "v2" }
  /** API Gateway REST API, HTTP API payload 1.0. */
  | { readonly kind: "v1" }
  /** Application Load Balancer; `multiValue` when the target group sends multi-value headers. */
  | { readonly kind: "alb"; readonly multiValue: boolean };

/** The code of the error thrown for an event that is not an HTTP event the adapter serves. */
export const UNSUPPORTED_EVENT = "UnsupportedLambdaEvent";

/** The code of the error a malformed HTTP event is answered with (400). */
export const MALFORMED_EVENT = "MalformedLambdaEvent";

const V2: EventFormat = Object.freeze({ kind: "v2" });
const V1: EventFormat = Object.freeze({ kind: "v1" });
const ALB: EventFormat = Object.freeze({ kind: "alb", multiValue: false });
const ALB_MULTI: EventFormat = Object.freeze({ kind: "alb", multiValue: true });

type Loose = Readonly<Record<string, unknown>>;

/**
 * The format of an event, by the fields only it has. Throws a
 * `ProtocolError` ({@link UNSUPPORTED_EVENT}) for anything else: a
 * WebSocket API event, another service's event, a value that is no event.
 * There is no answer to write then (no format to write it in), and a
 * queue's message must not pass for handled.
 */
export function eventFormat(event: unknown): EventFormat {
  if (!isObject(event)) throw unsupported(`the event is ${event === null ? "null" : typeof event}, not an HTTP event`);
  const context = isObject(event.requestContext) ? event.requestContext : undefined;
  if (context !== undefined && typeof context.connectionId === "string")
    throw unsupported("API Gateway WebSocket API events are not supported: the adapter serves HTTP requests");
  if (event.version === "2.0") return V2;
  if (context !== undefined && isObject(context.elb)) return isObject(event.multiValueHeaders) ? ALB_MULTI : ALB;
  if (typeof event.httpMethod === "string" || event.version === "1.0" || (context !== undefined && isRestContext(context))) return V1;
  throw unsupported("the event is not one of API Gateway (REST API, HTTP API), a function URL or an Application Load Balancer");
}

/** Whether a request context is API Gateway's of format 1.0 (for an event that lacks the fields telling it apart). */
function isRestContext(context: Loose): boolean {
  return typeof context.httpMethod === "string" || typeof context.resourcePath === "string" || isObject(context.identity);
}

/** What the adapter needs of its options to read events. */
export interface RequestSettings {
  /** A prefix taken off every path (a custom domain's base path). */
  readonly basePath: string;
  /** How long before the Lambda's timeout the call's deadline falls, in ms. */
  readonly timeoutMarginMs: number;
}

/**
 * The request of an event, and what the fetch handler learns beside it.
 * Throws a `ProtocolError` ({@link MALFORMED_EVENT}, 400) naming what is
 * wrong when the event lacks a field it needs or holds one no request can
 * carry (a bad method, header value or base64 body).
 */
export function eventRequest(
  event: Loose,
  format: EventFormat,
  context: LambdaContext | undefined,
  settings: RequestSettings,
): { request: Request; info: FetchInfo } {
  const requestContext = isObject(event.requestContext) ? event.requestContext : {};
  const http = format.kind === "v2" ? (isObject(requestContext.http) ? requestContext.http : {}) : undefined;
  const method = http !== undefined ? http.method : event.httpMethod;
  if (typeof method !== "string" || method === "") throw malformed(format.kind === "v2" ? "requestContext.http.method is missing" : "httpMethod is missing");
  const rawPath = format.kind === "v2" ? event.rawPath : event.path;
  if (typeof rawPath !== "string" || !rawPath.startsWith("/"))
    throw malformed(`${format.kind === "v2" ? "rawPath" : "path"} is missing or does not start with /`);

  const headers = requestHeaders(event, format);
  const remoteAddress =
    format.kind === "v2"
      ? stringOr(http!.sourceIp)
      : format.kind === "v1"
        ? stringOr(isObject(requestContext.identity) ? requestContext.identity.sourceIp : undefined)
        : lastForwardedFor(headers.get("x-forwarded-for"));
  // The server takes a call's request id from these headers: API Gateway's id (what its answer names), else the
  // invocation's, unless the caller sent its own.
  if (!headers.has("x-request-id") && !headers.has("x-amzn-requestid")) {
    const id = stringOr(requestContext.requestId) ?? stringOr(context?.awsRequestId);
    if (id !== undefined) setHeader(headers, "x-amzn-requestid", id);
  }

  const httpApi = isHttpApi(event, format, requestContext);
  let path = httpApi ? encodePath(withoutStage(rawPath, requestContext), true) : encodePath(rawPath, false);
  if (path === undefined) throw malformed("the path holds a lone surrogate");
  path = withoutBasePath(path, settings.basePath);
  const query = format.kind === "v2" ? rawQuery(event.rawQueryString) : queryOf(event, format.kind === "alb");
  const url = `${protocolOf(headers)}://${hostOf(headers, requestContext)}${path}${query === "" ? "" : `?${query}`}`;

  // A body on a GET or HEAD cannot go into a Request (nor does any operation read one).
  const upper = method.toUpperCase();
  const body = upper === "GET" || upper === "HEAD" ? undefined : bodyOf(event);
  let request: Request;
  try {
    request = new Request(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  } catch (cause) {
    throw malformed(`it is no HTTP request (${(cause as Error).message})`, cause);
  }
  const info: { remoteAddress?: string; deadline?: number } = {};
  if (remoteAddress !== undefined) info.remoteAddress = remoteAddress;
  const remaining = typeof context?.getRemainingTimeInMillis === "function" ? context.getRemainingTimeInMillis() : undefined;
  if (typeof remaining === "number" && Number.isFinite(remaining)) info.deadline = Date.now() + Math.max(remaining - settings.timeoutMarginMs, 0);
  return { request, info };
}

/** The request headers: the multi-value ones when the event has them; cookies joined with `; `, as one `Cookie` header. */
function requestHeaders(event: Loose, format: EventFormat): Headers {
  const headers = new Headers();
  const cookies: string[] = [];
  const multi = format.kind !== "v2" && isObject(event.multiValueHeaders) ? event.multiValueHeaders : undefined;
  if (multi !== undefined) {
    for (const name of Object.keys(multi)) {
      const values = multi[name];
      if (!Array.isArray(values)) continue;
      for (const value of values) if (typeof value === "string") addHeader(headers, cookies, name, value);
    }
  } else if (isObject(event.headers)) {
    for (const name of Object.keys(event.headers)) {
      const value = event.headers[name];
      if (typeof value === "string") addHeader(headers, cookies, name, value);
    }
  }
  if (format.kind === "v2" && Array.isArray(event.cookies)) for (const cookie of event.cookies) if (typeof cookie === "string") cookies.push(cookie);
  if (cookies.length > 0) setHeader(headers, "cookie", cookies.join("; "));
  return headers;
}

function addHeader(headers: Headers, cookies: string[], name: string, value: string): void {
  if (name.toLowerCase() === "cookie") {
    cookies.push(value);
    return;
  }
  try {
    headers.append(name, value);
  } catch (cause) {
    throw malformed(`header ${JSON.stringify(name)} is no HTTP header field`, cause);
  }
}

function setHeader(headers: Headers, name: string, value: string): void {
  try {
    headers.set(name, value);
  } catch (cause) {
    throw malformed(`the value of ${name} is no HTTP header value`, cause);
  }
}

/**
 * Whether the path came from an HTTP API, which hands it over decoded (a
 * function URL shares its format, but not that: it keeps the path as sent).
 * An event that names no domain is not taken for one: encoding an encoded
 * path again would change every escape in it, while an encoded path read
 * as it is loses only the rare `%` followed by two hex digits.
 */
function isHttpApi(event: Loose, format: EventFormat, requestContext: Loose): boolean {
  if (format.kind === "alb") return false;
  if (format.kind === "v1" && event.version !== "1.0") return false;
  const domain = requestContext.domainName;
  return typeof domain === "string" && domain !== "" && !domain.includes(".lambda-url.");
}

/**
 * The path without a named stage in front: an HTTP API called on its
 * `execute-api` domain puts it there (a custom domain's mapping and the
 * `$default` stage do not).
 */
function withoutStage(path: string, requestContext: Loose): string {
  const stage = requestContext.stage;
  if (typeof stage !== "string" || stage === "" || stage === "$default") return path;
  const domain = requestContext.domainName;
  const apiId = requestContext.apiId;
  if (typeof domain === "string" && typeof apiId === "string" && !domain.startsWith(`${apiId}.execute-api.`)) return path;
  const prefix = `/${stage}`;
  if (path === prefix) return "/";
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path;
}

function withoutBasePath(path: string, basePath: string): string {
  if (basePath === "" || basePath === "/") return path;
  const prefix = basePath.endsWith("/") ? basePath.slice(0, -1) : basePath;
  if (path === prefix) return "/";
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path;
}

/** Characters of a path that need no escape (RFC 3986 `pchar`, `/`), and `%`, which starts one. */
const NOT_IN_ENCODED_PATH = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu;
const NOT_IN_PATH = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu;

/**
 * The path, percent-encoded: a decoded one (an HTTP API's) has every
 * character a path cannot hold as it is escaped, `%` included; an encoded
 * one passes unchanged but for characters that cannot stand in it (a
 * space, a `?`, a `%` that starts no escape). Undefined for a lone surrogate.
 */
function encodePath(path: string, decoded: boolean): string | undefined {
  try {
    return path.replace(decoded ? NOT_IN_PATH : NOT_IN_ENCODED_PATH, (c) => encodeURIComponent(c));
  } catch {
    return undefined;
  }
}

/** A raw query string as the URL takes it (a `#` would end it). */
function rawQuery(raw: unknown): string {
  return typeof raw === "string" ? raw.replaceAll("#", "%23") : "";
}

/**
 * The query string of a format 1.0 or ALB event, from its multi-value
 * parameters when it has them: API Gateway's are decoded (encoded again
 * here), an ALB's are as sent (joined as they are).
 */
function queryOf(event: Loose, raw: boolean): string {
  const encode = raw ? (text: string) => text.replace(/[#&]/g, encodeURIComponent) : (text: string) => encodeURIComponent(text);
  const parts: string[] = [];
  const multi = event.multiValueQueryStringParameters;
  if (isObject(multi)) {
    for (const name of Object.keys(multi)) {
      const values = multi[name];
      if (Array.isArray(values)) for (const value of values) if (typeof value === "string") parts.push(pair(encode, name, value));
    }
  } else if (isObject(event.queryStringParameters)) {
    const single = event.queryStringParameters;
    for (const name of Object.keys(single)) {
      const value = single[name];
      if (typeof value === "string") parts.push(pair(encode, name, value));
    }
  }
  return parts.join("&");
}

function pair(encode: (text: string) => string, name: string, value: string): string {
  try {
    return value === "" ? `${encode(name)}=` : `${encode(name)}=${encode(value)}`;
  } catch (cause) {
    throw malformed(`query parameter ${JSON.stringify(name)} holds a lone surrogate`, cause);
  }
}

/** `https`, unless the front said `http` (`X-Forwarded-Proto`). */
function protocolOf(headers: Headers): string {
  return headers.get("x-forwarded-proto") === "http" ? "http" : "https";
}

/** A host name (or IP literal) with an optional port, nothing that could change the URL around it. */
const HOST = /^(?:[A-Za-z0-9\-._~]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The host the caller asked for: its `Host` header, else the domain the event names. */
function hostOf(headers: Headers, requestContext: Loose): string {
  const given = headers.get("host");
  if (given !== null && HOST.test(given)) return given;
  const domain = requestContext.domainName;
  return typeof domain === "string" && HOST.test(domain) ? domain : "localhost";
}

/** The address the load balancer saw the request come from: the last one of `X-Forwarded-For` (those before it are the caller's say-so). */
function lastForwardedFor(header: string | null): string | undefined {
  if (header === null) return undefined;
  const last = header.slice(header.lastIndexOf(",") + 1).trim();
  return last === "" ? undefined : last;
}

const UTF8 = new TextEncoder();

/** Standard base64 with its padding, as AWS writes it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The body's bytes: base64 decoded, or text as UTF-8; undefined for none. */
function bodyOf(event: Loose): Uint8Array<ArrayBuffer> | undefined {
  const body = event.body;
  if (body === undefined || body === null || body === "") return undefined;
  if (typeof body !== "string") throw malformed(`body is ${typeof body}, not a string`);
  if (event.isBase64Encoded !== true) return UTF8.encode(body);
  if (!BASE64.test(body)) throw malformed("body is marked base64 (isBase64Encoded) but is not base64");
  const bytes = Buffer.from(body, "base64");
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function isObject(value: unknown): value is Loose {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unsupported(why: string): ProtocolError {
  return new ProtocolError(UNSUPPORTED_EVENT, 400, `lambda: ${why}`);
}

function malformed(why: string, cause?: unknown): ProtocolError {
  return new ProtocolError(MALFORMED_EVENT, 400, `lambda: malformed event: ${why}`, cause === undefined ? {} : { cause });
}
