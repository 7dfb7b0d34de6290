/**
 * Runs one `httpRequestTests` / `httpResponseTests` case against a protocol
 * implementation, on the client or the server side, generically over the
 * `@anvil/core` protocol interfaces. Schemas come from the case's model
 * (`schemasFromModel`), values from the case's params (`caseParamsValue`).
 * The result is a list of problems: empty when the case passes.
 */
import {
  createModeledError,
  ModeledError,
  type ClientCallContext,
  type ClientProtocol,
  type HttpRequest,
  type HttpResponse,
  type OperationSchema,
  type ServerProtocol,
  type ServiceSchema,
  type StructSchema,
} from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { parseQuery } from "@anvil/core";
import type { Model } from "@anvil/model";
import type { HttpRequestCase, HttpResponseCase, ProtocolTestCase } from "./cases.js";
import { bodyBytesOf, bodyProblems, caseBodyBytes, headerProblems, queryProblems } from "./http-compare.js";
import { caseParamsValue } from "./params.js";
import { matchRoute } from "./route-match.js";
import { valueDiff } from "./value-diff.js";

/** The host a client case's endpoint uses when the case names none. */
const DEFAULT_HOST = "example.com";


/** Where a case's operation lives: its service (one declaring the protocol, if any) and its schema. */
interface Target {
  readonly service: ServiceSchema;
  readonly operation: OperationSchema;
  /** The error structure, for response cases attached to an error. */
  readonly error?: StructSchema;
}

/** Finds the service and operation of a case (for an error case, an operation that can throw it). */
export function targetOf(model: Model, c: Pick<ProtocolTestCase, "protocol" | "attachedTo">): Target {
  const schemas = schemasFromModel(model);
  const services = [...schemas.services()].sort((a, b) => rank(b, c.protocol) - rank(a, c.protocol));
  for (const service of services) {
    for (const operation of Object.values(service.operations)) {
      if (c.attachedTo.type === "operation") {
        if (operation.id === c.attachedTo.id) return { service, operation };
      } else {
        const error = operation.errors.find((e) => e.id === c.attachedTo.id);
        if (error !== undefined) return { service, operation, error };
      }
    }
  }
  throw new Error(`${c.attachedTo.id} is not bound to a service of the model${c.attachedTo.type === "error" ? " (as an operation's error)" : ""}`);
}

const rank = (service: ServiceSchema, protocol: string): number => (service.protocols.includes(protocol) ? 1 : 0);

/** Runs a case on the client side. */
export async function runClientCase(client: ClientProtocol, model: Model, c: HttpRequestCase | HttpResponseCase): Promise<string[]> {
  const target = targetOf(model, c);
  const params = caseParamsValue(model, c);
  const host = c.kind === "request" && c.host !== undefined ? c.host : DEFAULT_HOST;
  const context: ClientCallContext = { endpoint: new URL(`https://${host}`), service: target.service };
  if (c.kind === "request") {
    const request = await client.serializeRequest(target.operation, params, context);
    return requestProblems(c, request);
  }
  const response: HttpResponse = {
    status: c.code,
    headers: new Headers(c.headers),
    body: c.body === undefined ? undefined : caseBodyBytes(c.body, caseMediaType(c)),
  };
  if (target.error === undefined) {
    const output = await client.deserializeResponse(target.operation, response, context);
    const d = valueDiff(params, output);
    return d === undefined ? [] : [`output ${d}`];
  }
  try {
    const output = await client.deserializeResponse(target.operation, response, context);
    return [`expected the error ${target.error.id}, got a result ${JSON.stringify(output)}`];
  } catch (error) {
    if (!ModeledError.isModeledError(error, target.error)) throw error;
    const d = valueDiff(params, error.members());
    return d === undefined ? [] : [`error members ${d}`];
  }
}

/** Runs a case on the server side. */
export async function runServerCase(server: ServerProtocol, model: Model, c: HttpRequestCase | HttpResponseCase): Promise<string[]> {
  const target = targetOf(model, c);
  const params = caseParamsValue(model, c);
  if (c.kind === "request") {
    const [path = "", search = ""] = splitUri(c.uri);
    const request: HttpRequest = {
      method: c.method,
      path,
      query: [...parseQuery(search), ...c.queryParams.flatMap((q) => parseQuery(q))],
      headers: new Headers(c.headers),
      body: c.body === undefined ? undefined : caseBodyBytes(c.body, caseMediaType(c)),
      ...(c.host === undefined ? {} : { host: c.host }),
    };
    const match = matchRoute(server.routes(target.service), request);
    if (match === undefined) {
      const seen: string[] = [];
      request.headers.forEach((_value, name) => seen.push(name));
      const names = seen.join(", ") || "none";
      return [`no route of ${server.id} matches ${c.method} ${c.uri} (the case's headers: ${names})`];
    }
    if (match.route.operation.id !== target.operation.id) return [`routed to ${match.route.operation.id}, expected ${target.operation.id}`];
    const input = await server.deserializeRequest(match.route.operation, request, { service: target.service, labels: match.labels });
    const d = valueDiff(params, input);
    return d === undefined ? [] : [`input ${d}`];
  }
  const context = { service: target.service, labels: {} };
  const response =
    target.error === undefined
      ? await server.serializeResponse(target.operation, params, context)
      : await server.serializeError(target.operation, createModeledError(target.error, (params ?? {}) as Record<string, unknown>), context);
  const problems: string[] = [];
  if (response.status !== c.code) problems.push(`status: expected ${c.code}, got ${response.status}`);
  problems.push(...headerProblems(response.headers, c.headers, c.forbidHeaders, c.requireHeaders));
  problems.push(...bodyProblems(await bodyBytesOf(response.body), c.body, caseMediaType(c)));
  return problems;
}

async function requestProblems(c: HttpRequestCase, request: HttpRequest): Promise<string[]> {
  const problems: string[] = [];
  if (request.method.toUpperCase() !== c.method.toUpperCase()) problems.push(`method: expected ${c.method}, got ${request.method}`);
  const [path = "", search = ""] = splitUri(c.uri);
  if (request.path !== path) problems.push(`path: expected ${path}, got ${request.path}`);
  const literal = search === "" ? [] : search.split("&").filter((p) => p !== "");
  problems.push(...queryProblems(request.query, [...literal, ...c.queryParams], c.forbidQueryParams, c.requireQueryParams));
  if (c.resolvedHost !== undefined && request.host !== c.resolvedHost) {
    problems.push(`host: expected ${c.resolvedHost}, got ${request.host ?? "nothing"}`);
  }
  problems.push(...headerProblems(request.headers, c.headers, c.forbidHeaders, c.requireHeaders));
  problems.push(...bodyProblems(await bodyBytesOf(request.body), c.body, caseMediaType(c)));
  return problems;
}

/**
 * The media type of a case's body: its `bodyMediaType`, else the case's
 * `Content-Type` header (some CBOR cases give only the header, with the body
 * still in base64).
 */
export function caseMediaType(c: HttpRequestCase | HttpResponseCase): string | undefined {
  if (c.bodyMediaType !== undefined) return c.bodyMediaType;
  for (const [name, value] of Object.entries(c.headers)) if (name.toLowerCase() === "content-type") return value;
  return undefined;
}

function splitUri(uri: string): [string, string] {
  const q = uri.indexOf("?");
  return q < 0 ? [uri, ""] : [uri.slice(0, q), uri.slice(q + 1)];
}
