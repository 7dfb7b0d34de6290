/**
 * The fetch handler's `Response` as a Lambda result in the format of the
 * event it answers: the headers (with `Set-Cookie`s apart where the format
 * wants them), and the body as text, or as base64 when it is not clearly
 * UTF-8 text.
 *
 * @internal
 */
import { Buffer } from "node:buffer";
import type { EventFormat } from "./lambda-request.js";
import type { AlbResult, ApiGatewayV1Result, ApiGatewayV2Result, HttpResponsePrelude, LambdaHttpResult } from "./lambda-types.js";

/** The result of a whole (buffered) answer, its body read to the end. */
export async function lambdaResult(response: Response, format: EventFormat): Promise<LambdaHttpResult> {
  const bytes = response.body === null ? EMPTY : new Uint8Array(await response.arrayBuffer());
  const { body, isBase64Encoded } = encodeBody(bytes, response.headers.get("content-type"));
  const status = response.status;
  const headers = response.headers;
  if (format.kind === "v2") {
    const cookies = headers.getSetCookie();
    const result: ApiGatewayV2Result = { statusCode: status, headers: singleValued(headers, false), body, isBase64Encoded };
    return cookies.length === 0 ? result : { ...result, cookies };
  }
  if (format.kind === "v1") {
    const cookies = headers.getSetCookie();
    const result: ApiGatewayV1Result = { statusCode: status, headers: singleValued(headers, false), body, isBase64Encoded };
    return cookies.length === 0 ? result : { ...result, multiValueHeaders: { "set-cookie": cookies } };
  }
  const statusDescription = `${status} ${REASONS[status] ?? ""}`.trimEnd();
  // A target group sends multi-value headers or single ones, and takes back the same kind: then only one Set-Cookie fits.
  const result: AlbResult = format.multiValue
    ? { statusCode: status, statusDescription, multiValueHeaders: multiValued(headers), body, isBase64Encoded }
    : { statusCode: status, statusDescription, headers: singleValued(headers, true), body, isBase64Encoded };
  return result;
}

/** The prelude of a streamed answer: status, headers and cookies ahead of the body. */
export function streamPrelude(response: Response): HttpResponsePrelude {
  const cookies = response.headers.getSetCookie();
  const prelude: HttpResponsePrelude = { statusCode: response.status, headers: singleValued(response.headers, false) };
  return cookies.length === 0 ? prelude : { ...prelude, cookies };
}

/**
 * Headers one value each, repeated ones joined with commas as `Headers`
 * joins them; `Set-Cookie` left out (the formats carry it apart), or with
 * only its first value when `oneCookie` (the only way to send one then).
 */
function singleValued(headers: Headers, oneCookie: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value;
    else if (oneCookie && out[name] === undefined) out[name] = value;
  });
  return out;
}

/** Headers with every value of each (each `Set-Cookie` apart). */
function multiValued(headers: Headers): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = [value];
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

const EMPTY = new Uint8Array(0);
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A body as the results carry it: as text when its content type says text
 * (`text/*`, JSON, XML, form data, with no charset but UTF-8's) and its
 * bytes are UTF-8; else base64, so that bytes (CBOR, protobuf, gRPC and
 * event-stream frames, octet streams, bodies of no content type) cross
 * unchanged.
 */
export function encodeBody(bytes: Uint8Array, contentType: string | null): { body: string; isBase64Encoded: boolean } {
  if (bytes.byteLength === 0) return { body: "", isBase64Encoded: false };
  if (isText(contentType)) {
    try {
      return { body: UTF8.decode(bytes), isBase64Encoded: false };
    } catch {
      // Not UTF-8 after all: base64 keeps the bytes.
    }
  }
  return { body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"), isBase64Encoded: true };
}

/** Whether a content type is text in UTF-8 (or ASCII). */
export function isText(contentType: string | null): boolean {
  if (contentType === null) return false;
  const semicolon = contentType.indexOf(";");
  const type = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  if (semicolon >= 0) {
    const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType)?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== "utf-8" && charset !== "utf8" && charset !== "us-ascii") return false;
  }
  if (type.startsWith("text/")) return true;
  if (!type.startsWith("application/")) return false;
  const sub = type.slice("application/".length);
  return (
    sub === "json" ||
    sub.endsWith("+json") ||
    sub.startsWith("x-amz-json-") ||
    sub === "xml" ||
    sub.endsWith("+xml") ||
    sub === "javascript" ||
    sub === "x-www-form-urlencoded" ||
    sub === "yaml"
  );
}

/** Reason phrases of the statuses an ALB result's `statusDescription` names (RFC 9110 and the usual others). */
const REASONS: Readonly<Record<number, string>> = {
  100: "Continue",
  101: "Switching Protocols",
  200: "OK",
  201: "Created",
  202: "Accepted",
  203: "Non-Authoritative Information",
  204: "No Content",
  205: "Reset Content",
  206: "Partial Content",
  300: "Multiple Choices",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  304: "Not Modified",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  424: "Failed Dependency",
  425: "Too Early",
  426: "Upgrade Required",
  428: "Precondition Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  451: "Unavailable For Legal Reasons",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
};
