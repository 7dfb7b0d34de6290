/**
 * The AWS side of the Lambda contract: a client's request as each front
 * hands it to a Lambda function, following AWS's documented formats (and
 * what the fronts are known to do beyond them), and a Lambda result read
 * back as the response the caller gets.
 *
 * - HTTP API, payload 2.0 and 1.0: the path decoded (as API Gateway gives
 *   it), the raw query string (2.0) or decoded parameters (1.0), cookies
 *   apart (2.0), bodies that are not text as base64.
 * - REST API (proxy integration, stage `prod`, binary media types `*\/*`):
 *   the path as sent without the stage, decoded multi-value parameters,
 *   every body as base64.
 * - Function URL: payload 2.0 with the path as sent.
 * - Application Load Balancer, multi-value headers off and on: the path
 *   and query as sent (not decoded), the last value of each header and
 *   parameter unless multi-value.
 */
import type { HttpRequest, HttpResponse } from "@anvil/core";
import { readBody } from "@anvil/core/protocol";
import type { LambdaHttpEvent, LambdaHttpResult } from "@anvil/server/lambda";

/** The fronts a Lambda function is called through. */
export const FRONTS = ["HTTP API (2.0)", "HTTP API (1.0)", "REST API", "function URL", "ALB", "ALB (multi-value)"] as const;
export type Front = (typeof FRONTS)[number];

/** The host each front is reached at. */
export function hostOf(front: Front): string {
  if (front === "function URL") return "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws";
  if (front.startsWith("ALB")) return "my-alb-123456789.us-east-1.elb.amazonaws.com";
  return "a1b2c3d4e5.execute-api.us-east-1.amazonaws.com";
}

/** `?name=value&...`, percent-encoded, as a client writes it. */
export function queryString(request: HttpRequest): string {
  return request.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&");
}

/** Whether a front passes a body of this content type as text (else base64). */
function asText(front: Front, contentType: string | null): boolean {
  if (front === "REST API") return false; // binary media types */*: every body is base64
  return contentType !== null && /^(?:text\/|application\/(?:json|x-amz-json-1\.[01])\b)/.test(contentType);
}

/** Every value of each header, by lower-case name. */
function headerValues(headers: Headers): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  headers.forEach((value, name) => {
    (out[name] ??= []).push(value);
  });
  return out;
}

/** The values of each query parameter, encoded or not. */
function queryValues(request: HttpRequest, encoded: boolean): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const encode = encoded ? encodeURIComponent : (text: string) => text;
  for (const [name, value] of request.query) (out[encode(name)] ??= []).push(encode(value));
  return out;
}

function lastOf(values: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, all]) => [name, all.at(-1)!]));
}

/** The event a front sends for a request; `requestId` is the front's (API Gateway's) id. */
export async function toEvent(front: Front, request: HttpRequest, requestId: string): Promise<LambdaHttpEvent> {
  const bytes = request.body === undefined ? new Uint8Array(0) : await readBody(request.body);
  const text = asText(front, request.headers.get("content-type"));
  const body = bytes.byteLength === 0 ? "" : text ? new TextDecoder().decode(bytes) : Buffer.from(bytes).toString("base64");
  const isBase64Encoded = bytes.byteLength > 0 && !text;
  const host = hostOf(front);
  const headers = headerValues(request.headers);
  headers.host = [host];
  headers["x-forwarded-for"] = ["198.51.100.7"];
  headers["x-forwarded-proto"] = ["https"];
  // An HTTP API hands the path over decoded (an encoded "/" included); the others as sent.
  const decodedPath = request.path.split("/").map(decodeURIComponent).join("/");
  const sourceIp = "198.51.100.7";
  switch (front) {
    case "HTTP API (2.0)":
    case "function URL": {
      const cookies = headers.cookie?.flatMap((c) => c.split("; "));
      delete headers.cookie;
      const rawPath = front === "function URL" ? request.path : decodedPath;
      return {
        version: "2.0",
        routeKey: "$default",
        rawPath,
        rawQueryString: queryString(request),
        ...(cookies !== undefined ? { cookies } : {}),
        headers: Object.fromEntries(Object.entries(headers).map(([name, values]) => [name, values.join(",")])),
        requestContext: {
          accountId: "123456789012",
          apiId: host.slice(0, host.indexOf(".")),
          domainName: host,
          domainPrefix: host.slice(0, host.indexOf(".")),
          http: { method: request.method, path: rawPath, protocol: "HTTP/1.1", sourceIp, userAgent: "anvil" },
          requestId,
          routeKey: "$default",
          stage: "$default",
          time: "10/Mar/2026:12:00:00 +0000",
          timeEpoch: 1773144000000,
        },
        ...(body !== "" ? { body } : {}),
        isBase64Encoded,
      };
    }
    case "HTTP API (1.0)":
    case "REST API": {
      const rest = front === "REST API";
      const query = queryValues(request, false);
      return {
        ...(rest ? {} : { version: "1.0" }),
        resource: "/{proxy+}",
        path: rest ? request.path : decodedPath,
        httpMethod: request.method,
        headers: lastOf(headers),
        multiValueHeaders: headers,
        queryStringParameters: request.query.length === 0 ? null : lastOf(query),
        multiValueQueryStringParameters: request.query.length === 0 ? null : query,
        pathParameters: null,
        stageVariables: null,
        requestContext: {
          accountId: "123456789012",
          apiId: "a1b2c3d4e5",
          domainName: host,
          domainPrefix: "a1b2c3d4e5",
          httpMethod: request.method,
          path: rest ? `/prod${request.path}` : decodedPath,
          protocol: "HTTP/1.1",
          requestId,
          resourcePath: "/{proxy+}",
          stage: rest ? "prod" : "$default",
          requestTimeEpoch: 1773144000000,
          identity: { sourceIp, userAgent: "anvil" },
        },
        body: body === "" ? null : body,
        isBase64Encoded,
      };
    }
    case "ALB":
    case "ALB (multi-value)": {
      const query = queryValues(request, true);
      return {
        requestContext: { elb: { targetGroupArn: "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/anvil/6d0ecf831eec9f09" } },
        httpMethod: request.method,
        path: request.path,
        ...(front === "ALB"
          ? { queryStringParameters: lastOf(query), headers: lastOf(headers) }
          : { multiValueQueryStringParameters: query, multiValueHeaders: headers }),
        body,
        isBase64Encoded,
      };
    }
  }
}

/** What the caller gets for a result: its status, headers (wherever the format put them) and body bytes. */
export function fromResult(result: LambdaHttpResult): HttpResponse {
  const headers = new Headers();
  const loose = result as { headers?: Record<string, string>; multiValueHeaders?: Record<string, string[]>; cookies?: string[] };
  for (const [name, value] of Object.entries(loose.headers ?? {})) headers.append(name, value);
  for (const [name, values] of Object.entries(loose.multiValueHeaders ?? {})) for (const value of values) headers.append(name, value);
  for (const cookie of loose.cookies ?? []) headers.append("set-cookie", cookie);
  const body = result.isBase64Encoded ? new Uint8Array(Buffer.from(result.body, "base64")) : new TextEncoder().encode(result.body);
  return { status: result.statusCode, headers, body };
}
