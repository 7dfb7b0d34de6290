/**
 * Runs one `httpRequestTests` / `httpResponseTests` case against a protocol
 * implementation, on the client or the server side, generically over the
 * `@anvil/core` protocol interfaces. Schemas come from the case's model
 * (`schemasFromModel`), values from the case's params (`caseParamsValue`).
 * The result is a list of problems: empty when the case passes.
 */
import {
  type ByteStream,
  collectBytes,
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
import { createModeledError } from "@anvil/core/protocol";
import { schemasFromModel } from "@anvil/dynamic";
import { parseQuery } from "@anvil/core/protocol";
import type { Model } from "@anvil/model";
import { describeError } from "../runner.js";
import type { HttpRequestCase, HttpResponseCase, ProtocolTestCase } from "./cases.js";
import { bodyBytesOf, bodyProblems, caseBodyBytes, headerProblems, queryProblems } from "./http-compare.js";
import { caseParamsValue } from "./params.js";
import { matchRoute } from "./route-match.js";
import { valueDiff } from "./value-diff.js";

/** The host a client case's endpoint uses when the case names none. */
const DEFAULT_HOST = "example.com";

/**
 * The idempotency token the protocol tests expect a client to fill in: they
 * assume a mocked token source that always returns this (smithy's
 * RestJsonQueryIdempotencyTokenAutoFill and the like), so the runner injects one.
 */
export const TEST_IDEMPOTENCY_TOKEN = "00000000-0000-4000-8000-000000000000";

/** Where a case's operation lives: its service (one declaring the protocol, if any) and its schema. */
export interface Target {
  readonly service: ServiceSchema;
  readonly operation: OperationSchema;
  /** The error structure, for response cases attached to an error. */
  readonly error?: StructSchema;
  /** True when the operation is bound to no service and runs in {@link syntheticService}. */
  readonly synthetic?: boolean;
}

/**
 * Finds the service and operation of a case (for an error case, an operation
 * that can throw it). An operation that no service binds (upstream has a few,
 * e.g. `aws.protocoltests.misc#AcceptHeaderStarService`) runs in a
 * synthetic service of its own that declares the case's protocol.
 */
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
  if (c.attachedTo.type === "operation" && model.getShape(c.attachedTo.id)?.type === "operation") {
    const operation = schemas.operation(c.attachedTo.id);
    return { service: syntheticService(operation, c.protocol), operation, synthetic: true };
  }
  throw new Error(`${c.attachedTo.id} is not bound to a service of the model${c.attachedTo.type === "error" ? " (as an operation's error)" : ""}`);
}

/** A service holding just `operation`, declaring `protocol` (with an empty trait value), cached per operation and protocol. */
export function syntheticService(operation: OperationSchema, protocol: string): ServiceSchema {
  let byProtocol = synthetic.get(operation);
  if (byProtocol === undefined) {
    byProtocol = new Map();
    synthetic.set(operation, byProtocol);
  }
  let service = byProtocol.get(protocol);
  if (service === undefined) {
    const namespace = operation.id.slice(0, operation.id.indexOf("#"));
    const name = `${operation.name}SyntheticService`;
    service = Object.freeze({
      kind: "service",
      id: `${namespace}#${name}`,
      name,
      version: "",
      operations: Object.freeze({ [operation.name]: operation }),
      protocols: Object.freeze([protocol]),
      errors: Object.freeze([]),
      auth: Object.freeze([]),
      traits: Object.freeze({ [protocol]: Object.freeze({}) }),
    });
    byProtocol.set(protocol, service);
  }
  return service;
}

const synthetic = new WeakMap<OperationSchema, Map<string, ServiceSchema>>();

const rank = (service: ServiceSchema, protocol: string): number => (service.protocols.includes(protocol) ? 1 : 0);

/** Runs a case on the client side. */
export async function runClientCase(client: ClientProtocol, model: Model, c: HttpRequestCase | HttpResponseCase): Promise<string[]> {
  const target = targetOf(model, c);
  const params = caseParamsValue(model, c);
  const host = c.kind === "request" && c.host !== undefined ? c.host : DEFAULT_HOST;
  const context: ClientCallContext = {
    endpoint: new URL(`https://${host}`),
    service: target.service,
    idempotencyToken: () => TEST_IDEMPOTENCY_TOKEN,
  };
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
    const d = valueDiff(params, await readStreamedBlobs(target.operation.output, output));
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

/**
 * Said of a failed server request case that gives no body: the server got
 * none, so input the case's params put in the body could not reach it (such
 * cases are client-side in spirit, e.g. the SDK request compression ones).
 */
export const NO_BODY = "the case gives no request body (the server got none)";

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
    const match = matchRoute(target.service, server, request);
    if (match === undefined) {
      const seen: string[] = [];
      request.headers.forEach((_value, name) => seen.push(name));
      const names = seen.join(", ") || "none";
      return [`no route of ${server.id} matches ${c.method} ${c.uri} (the case's headers: ${names})`];
    }
    if (match.route.operation.id !== target.operation.id) return [`routed to ${match.route.operation.id}, expected ${target.operation.id}`];
    let input: unknown;
    try {
      input = await server.deserializeRequest(match.route.operation, request, { service: target.service, labels: match.labels });
    } catch (error) {
      if (c.body !== undefined) throw error;
      return [`${NO_BODY}: ${describeError(error)}`];
    }
    const d = valueDiff(params, await readStreamedBlobs(match.route.operation.input, input));
    if (d === undefined) return [];
    return [c.body === undefined ? `${NO_BODY}: input ${d}` : `input ${d}`];
  }
  const context = { service: target.service, labels: {} };
  const response =
    target.error === undefined
      ? await server.serializeResponse(target.operation, params, context)
      : await server.serializeError(target.operation, createModeledError(target.error, (params ?? {}) as Record<string, unknown>), context);
  const problems: string[] = [];
  if (response.status !== c.code) problems.push(`status: expected ${c.code}, got ${response.status}`);
  problems.push(...headerProblems(response.headers, c.headers, c.forbidHeaders, c.requireHeaders));
  problems.push(...bodyProblems(await bodyBytesOf(response.body), c.body, caseMediaType(c) ?? messageMediaType(response.headers)));
  return problems;
}

/**
 * A `@streaming` blob reaches a handler (and a client's caller) as a stream;
 * the case's params hold its bytes, so it is read whole before comparing.
 * A stream is never absent, but the cases leave an empty one out of their
 * params: an empty stream compares as absent.
 */
async function readStreamedBlobs(schema: StructSchema, value: unknown): Promise<unknown> {
  if (typeof value !== "object" || value === null) return value;
  let out: Record<string, unknown> | undefined;
  for (const m of schema.members) {
    const v = (value as Record<string, unknown>)[m.name];
    if (m.target.kind !== "blob" || !m.traits.streaming || v === undefined || v instanceof Uint8Array) continue;
    const bytes = await collectBytes(v as ByteStream);
    out ??= { ...(value as Record<string, unknown>) };
    if (bytes.byteLength === 0) delete out[m.name];
    else out[m.name] = bytes;
  }
  return out ?? value;
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
  problems.push(...bodyProblems(await bodyBytesOf(request.body), c.body, caseMediaType(c) ?? messageMediaType(request.headers)));
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

/**
 * The media type of a message under test, for comparing a body whose case
 * names none (alloy's cases give JSON bodies without `bodyMediaType`).
 */
function messageMediaType(headers: Headers): string | undefined {
  return headers.get("content-type") ?? undefined;
}

function splitUri(uri: string): [string, string] {
  const q = uri.indexOf("?");
  return q < 0 ? [uri, ""] : [uri.slice(0, q), uri.slice(q + 1)];
}
