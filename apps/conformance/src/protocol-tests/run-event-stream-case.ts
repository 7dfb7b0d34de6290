/**
 * Runs one `eventStreamTests` case against a protocol implementation, on
 * the client or the server side, over the `@anvil/core` protocol
 * interfaces, as the trait defines the case:
 *
 * - The side that writes a direction (the client for `request` events and
 *   the initial request, the server for `response` events and the initial
 *   response) serializes the params and the case checks what it wrote: the
 *   initial HTTP message against `initialRequest` / `initialResponse`, each
 *   event frame against the event's headers and body (never against
 *   `bytes`, which the trait says not to assert on).
 * - The side that reads a direction is given the case's HTTP message and
 *   frames (an event's `bytes` when it has them, else a frame encoded from
 *   its headers and body) and the case checks what it read against the
 *   params.
 * - With a `failure` expectation, some step must throw a typed Anvil error
 *   (the modeled error named by `errorId`, when there is one).
 */
import {
  AnvilError,
  assertValid,
  type ClientCallContext,
  type ClientProtocol,
  type HttpBody,
  type HttpRequest,
  type HttpResponse,
  ModeledError,
  type OperationSchema,
  type ServerProtocol,
  type StructSchema,
} from "@anvil/core";
import { isAsyncIterable, parseQuery } from "@anvil/core/protocol";
import { decodeEventMessage, encodeEventMessage, EVENT_STREAM_MEDIA_TYPE, type EventHeaderValue, type EventMessage, splitFrames } from "@anvil/eventstream";
import type { Model, NodeValue } from "@anvil/model";
import type { EventStreamCase, StreamEvent } from "./cases.js";
import { bodyProblems, caseBodyBytes, headerProblems, queryProblems } from "./http-compare.js";
import { asObject, optionalString, requiredInteger, requiredString, stringList, stringMap } from "./node-read.js";
import { eventParamsValue, ParamsError, paramsToValue } from "./params.js";
import { matchRoute } from "./route-match.js";
import { targetOf } from "./run-case.js";
import { valueDiff } from "./value-diff.js";

type Obj = Record<string, unknown>;

/** The HTTP message parts an initial request or response case value may give (`smithy.test#InitialHttpRequest` / `InitialHttpResponse`). */
interface InitialMessage {
  readonly headers: Readonly<Record<string, string>>;
  readonly forbidHeaders: readonly string[];
  readonly requireHeaders: readonly string[];
  readonly body?: string;
  readonly bodyMediaType?: string;
}

interface InitialRequest extends InitialMessage {
  readonly method: string;
  readonly uri: string;
  readonly queryParams: readonly string[];
  readonly forbidQueryParams: readonly string[];
  readonly requireQueryParams: readonly string[];
}

interface InitialResponse extends InitialMessage {
  readonly code: number;
}

/** Runs a case on the client side: it writes the request direction and reads the response direction. */
export async function runClientEventStreamCase(client: ClientProtocol, model: Model, c: EventStreamCase): Promise<string[]> {
  const { service, operation } = targetOf(model, c);
  const context: ClientCallContext = { endpoint: new URL("https://example.com"), service };
  return judge(c, async () => {
    const problems: string[] = [];
    if (writesRequest(c)) {
      const input = await inputOf(model, c, operation);
      const request = await client.serializeRequest(operation, input, context);
      if (c.initialRequest !== undefined) problems.push(...initialRequestProblems(readInitialRequest(c.initialRequest), request));
      problems.push(...(await writtenEventProblems(c, "request", request.body)));
    }
    if (readsResponse(c)) {
      const response = responseOf(c, operation);
      const output = (await client.deserializeResponse(operation, response, context)) as Obj;
      problems.push(...(await readValueProblems(model, c, "response", operation.output, output)));
    }
    return problems;
  });
}

/** Runs a case on the server side: it reads the request direction and writes the response direction. */
export async function runServerEventStreamCase(server: ServerProtocol, model: Model, c: EventStreamCase): Promise<string[]> {
  const { service, operation } = targetOf(model, c);
  return judge(c, async () => {
    const problems: string[] = [];
    if (writesRequest(c)) {
      const request = requestOf(c, operation);
      const match = matchRoute(service, server, request);
      if (match === undefined) return [`no route of ${server.id} matches ${request.method} ${request.path}`];
      if (match.route.operation.id !== operation.id) return [`routed to ${match.route.operation.id}, expected ${operation.id}`];
      const input = (await server.deserializeRequest(operation, request, { service, labels: match.labels })) as Obj;
      // Constraints are checked by the server pipeline (as @anvil/server's dispatcher does) before a handler sees the input.
      assertValid(operation.input, input);
      problems.push(...(await readValueProblems(model, c, "request", operation.input, input)));
    }
    if (readsResponse(c)) {
      const output = await outputOf(model, c, operation);
      const response = await server.serializeResponse(operation, output, { service, labels: {} });
      if (c.initialResponse !== undefined) problems.push(...initialResponseProblems(readInitialResponse(c.initialResponse), response));
      problems.push(...(await writtenEventProblems(c, "response", response.body)));
    }
    return problems;
  });
}

/** Whether the case has a request direction: request events or an initial request. */
function writesRequest(c: EventStreamCase): boolean {
  return c.initialRequest !== undefined || c.initialRequestParams !== undefined || c.events.some((e) => e.type === "request");
}

/** Whether the case has a response direction: response events or an initial response. */
function readsResponse(c: EventStreamCase): boolean {
  return c.initialResponse !== undefined || c.initialResponseParams !== undefined || c.events.some((e) => e.type === "response");
}

/** The case's verdict from what its steps returned or threw, per its expectation. */
async function judge(c: EventStreamCase, steps: () => Promise<string[]>): Promise<string[]> {
  let problems: string[];
  try {
    problems = await steps();
  } catch (error) {
    if (!("failure" in c.expectation) || error instanceof ParamsError) throw error;
    if (!AnvilError.isAnvilError(error)) return [`expected a typed error, got ${describe(error)}`];
    const errorId = c.expectation.failure.errorId;
    if (errorId !== undefined && !(ModeledError.isModeledError(error) && error.$shapeId === errorId)) {
      return [`expected the error ${errorId}, got ${describe(error)}`];
    }
    return [];
  }
  if ("failure" in c.expectation) {
    const errorId = c.expectation.failure.errorId;
    return [`expected a failure${errorId === undefined ? "" : ` (${errorId})`}, got success${problems.length > 0 ? ` with: ${problems.join("; ")}` : ""}`];
  }
  return problems;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

// ------------------------------------------------------------ values

/** The streaming member of a structure (the event stream of an input or output). */
function streamMemberOf(schema: StructSchema): string | undefined {
  return schema.members.find((m) => m.traits.streaming && m.target.kind === "union")?.name;
}

/** The params of one direction's events, as runtime union values. */
function eventValues(model: Model, c: EventStreamCase, type: StreamEvent["type"]): unknown[] {
  const out: unknown[] = [];
  c.events.forEach((e, i) => {
    if (e.type !== type) return;
    if (e.params === undefined) throw new ParamsError(`${c.id}.events[${i}]: an unmodeled event has no params to write`);
    out.push(eventParamsValue(model, c, i));
  });
  return out;
}

async function* iterate(values: readonly unknown[]): AsyncGenerator<unknown, void, undefined> {
  for (const v of values) yield v;
}

function ioShape(model: Model, c: EventStreamCase, direction: "input" | "output"): string {
  const shape = model.getShape(c.attachedTo.id);
  return (direction === "input" ? shape?.input : shape?.output) ?? "smithy.api#Unit";
}

/** The client's input: the initial request params and the request events as a stream. */
async function inputOf(model: Model, c: EventStreamCase, operation: OperationSchema): Promise<Obj> {
  const params =
    c.initialRequestParams === undefined
      ? {}
      : (paramsToValue(model, ioShape(model, c, "input"), c.initialRequestParams, `${c.id}.initialRequestParams`) as Obj);
  const stream = streamMemberOf(operation.input);
  return stream === undefined ? params : { ...params, [stream]: iterate(eventValues(model, c, "request")) };
}

/** The server's output: the initial response params and the response events as a stream. */
async function outputOf(model: Model, c: EventStreamCase, operation: OperationSchema): Promise<Obj> {
  const params =
    c.initialResponseParams === undefined
      ? {}
      : (paramsToValue(model, ioShape(model, c, "output"), c.initialResponseParams, `${c.id}.initialResponseParams`) as Obj);
  const stream = streamMemberOf(operation.output);
  return stream === undefined ? params : { ...params, [stream]: iterate(eventValues(model, c, "response")) };
}

/**
 * What the reading side made of a direction: its initial members against
 * the initial params (when the case gives them) and its events against the
 * events' params, in order. Reading the events is what surfaces stream
 * errors.
 */
async function readValueProblems(model: Model, c: EventStreamCase, type: StreamEvent["type"], schema: StructSchema, value: Obj): Promise<string[]> {
  const problems: string[] = [];
  const stream = streamMemberOf(schema);
  const { [stream ?? ""]: events, ...initial } = value;
  const params = type === "request" ? c.initialRequestParams : c.initialResponseParams;
  if (params !== undefined) {
    const expected = paramsToValue(
      model,
      ioShape(model, c, type === "request" ? "input" : "output"),
      params,
      `${c.id}.${type === "request" ? "initialRequestParams" : "initialResponseParams"}`,
    );
    const d = valueDiff(expected, stream === undefined ? value : initial);
    if (d !== undefined) problems.push(`initial ${type} ${d}`);
  }
  if (stream === undefined) return problems;
  if (!isAsyncIterable(events)) return [...problems, `${type} stream: expected an async iterable of events, got ${typeof events}`];
  const got: unknown[] = [];
  for await (const e of events) got.push(e);
  const indices = c.events.flatMap((e, i) => (e.type === type ? [i] : []));
  if (got.length !== indices.length) problems.push(`${type} stream: expected ${indices.length} events, got ${got.length}`);
  indices.forEach((index, n) => {
    if (n >= got.length) return;
    const d = valueDiff(eventParamsValue(model, c, index), got[n]);
    if (d !== undefined) problems.push(`${type} event ${n} ${d}`);
  });
  return problems;
}

// ------------------------------------------------------------ messages the runner builds

/** The frames of one direction's events: each event's `bytes`, else a frame of its headers and body. */
async function* framesOf(c: EventStreamCase, type: StreamEvent["type"]): AsyncGenerator<Uint8Array, void, undefined> {
  for (const e of c.events) {
    if (e.type !== type) continue;
    yield e.bytes !== undefined ? new Uint8Array(Buffer.from(e.bytes, "base64")) : encodeEventMessage(messageOf(e));
  }
}

/** An event's headers and body as a message. */
function messageOf(e: StreamEvent): EventMessage {
  const headers: Record<string, EventHeaderValue> = {};
  for (const [name, h] of Object.entries(e.headers)) headers[name] = headerValueOf(h.type, h.value);
  return { headers, body: e.body === undefined ? new Uint8Array(0) : caseBodyBytes(e.body, e.bodyMediaType) };
}

function headerValueOf(type: StreamEvent["headers"][string]["type"], value: NodeValue): EventHeaderValue {
  switch (type) {
    case "boolean":
      return { type, value: value === true };
    case "byte":
    case "short":
    case "integer":
      return { type, value: Number(value) };
    case "long":
      return { type, value: typeof value === "number" ? value : BigInt(String(value)) };
    case "blob":
      return { type: "binary", value: new Uint8Array(Buffer.from(String(value), "base64")) };
    case "string":
      return { type, value: String(value) };
    case "timestamp":
      return { type, value: timestampOf(value) };
  }
}

function timestampOf(value: NodeValue): Date {
  return typeof value === "number" ? new Date(value * 1000) : new Date(String(value));
}

/** The request a server reads: the case's initial request (else the operation's `@http` method and URI) with the request events as its body. */
function requestOf(c: EventStreamCase, operation: OperationSchema): HttpRequest {
  const hasEvents = c.events.some((e) => e.type === "request");
  const initial = c.initialRequest === undefined ? undefined : readInitialRequest(c.initialRequest);
  const http = operation.traits.http;
  const [path = "", search = ""] = splitUri(initial?.uri ?? http?.uri ?? "/");
  const headers = new Headers(initial?.headers ?? {});
  if (hasEvents && !headers.has("content-type")) headers.set("content-type", EVENT_STREAM_MEDIA_TYPE);
  let body: HttpBody;
  if (hasEvents) body = framesOf(c, "request");
  else if (initial?.body !== undefined) body = caseBodyBytes(initial.body, initial.bodyMediaType ?? headers.get("content-type") ?? undefined);
  return {
    method: initial?.method ?? http?.method ?? "POST",
    path,
    query: [...parseQuery(search), ...(initial?.queryParams ?? []).flatMap((q) => parseQuery(q))],
    headers,
    body,
  };
}

/** The response a client reads: the case's initial response (else the operation's success code) with the response events as its body. */
function responseOf(c: EventStreamCase, operation: OperationSchema): HttpResponse {
  const hasEvents = c.events.some((e) => e.type === "response");
  const initial = c.initialResponse === undefined ? undefined : readInitialResponse(c.initialResponse);
  const headers = new Headers(initial?.headers ?? {});
  if (initial === undefined) headers.set("content-type", EVENT_STREAM_MEDIA_TYPE);
  let body: HttpBody;
  if (hasEvents) body = framesOf(c, "response");
  else if (initial?.body !== undefined) body = caseBodyBytes(initial.body, initial.bodyMediaType ?? headers.get("content-type") ?? undefined);
  return { status: initial?.code ?? operation.traits.http?.code ?? 200, headers, body };
}

// ------------------------------------------------------------ checking what a side wrote

/** The frames one side wrote, decoded, against the events of that direction. */
async function writtenEventProblems(c: EventStreamCase, type: StreamEvent["type"], body: HttpBody): Promise<string[]> {
  const expected = c.events.filter((e) => e.type === type);
  const messages: EventMessage[] = [];
  for await (const frame of splitFrames(body)) messages.push(decodeEventMessage(frame));
  const problems: string[] = [];
  if (messages.length !== expected.length) problems.push(`${type} stream: expected ${expected.length} messages, got ${messages.length}`);
  expected.forEach((e, n) => {
    const m = messages[n];
    if (m !== undefined) problems.push(...messageProblems(e, m).map((p) => `${type} message ${n} ${p}`));
  });
  return problems;
}

/** A written message against an expected event: typed headers, forbidden and required headers, body. */
export function messageProblems(e: StreamEvent, m: EventMessage): string[] {
  const problems: string[] = [];
  for (const [name, want] of Object.entries(e.headers)) {
    const got = Object.hasOwn(m.headers, name) ? m.headers[name] : undefined;
    const expected = headerValueOf(want.type, want.value);
    if (got === undefined) problems.push(`header ${name}: expected ${showHeader(expected)}, got nothing`);
    else if (!headerEquals(expected, got)) problems.push(`header ${name}: expected ${showHeader(expected)}, got ${showHeader(got)}`);
  }
  for (const name of e.forbidHeaders) if (Object.hasOwn(m.headers, name)) problems.push(`header ${name}: forbidden, present`);
  for (const name of e.requireHeaders) if (!Object.hasOwn(m.headers, name)) problems.push(`header ${name}: required, missing`);
  problems.push(...bodyProblems(m.body, e.body, e.bodyMediaType));
  return problems;
}

function headerEquals(a: EventHeaderValue, b: EventHeaderValue): boolean {
  if (a.type !== b.type) return false;
  return valueDiff(a.value, b.value) === undefined;
}

function showHeader(h: EventHeaderValue): string {
  const v = h.value instanceof Uint8Array ? `0x${Buffer.from(h.value).toString("hex")}` : h.value instanceof Date ? h.value.toISOString() : String(h.value);
  return `${h.type} ${v}`;
}

function initialRequestProblems(expected: InitialRequest, request: HttpRequest): string[] {
  const problems: string[] = [];
  if (request.method.toUpperCase() !== expected.method.toUpperCase()) problems.push(`method: expected ${expected.method}, got ${request.method}`);
  const [path = "", search = ""] = splitUri(expected.uri);
  if (request.path !== path) problems.push(`path: expected ${path}, got ${request.path}`);
  const literal = search === "" ? [] : search.split("&").filter((p) => p !== "");
  problems.push(...queryProblems(request.query, [...literal, ...expected.queryParams], expected.forbidQueryParams, expected.requireQueryParams));
  problems.push(...headerProblems(request.headers, expected.headers, expected.forbidHeaders, expected.requireHeaders));
  return problems;
}

function initialResponseProblems(expected: InitialResponse, response: HttpResponse): string[] {
  const problems: string[] = [];
  if (response.status !== expected.code) problems.push(`status: expected ${expected.code}, got ${response.status}`);
  problems.push(...headerProblems(response.headers, expected.headers, expected.forbidHeaders, expected.requireHeaders));
  return problems;
}

// ------------------------------------------------------------ reading the case's initial messages

function readInitialMessage(value: NodeValue, where: string): InitialMessage & { readonly obj: ReturnType<typeof asObject> } {
  const obj = asObject(value, where);
  const body = optionalString(obj, "body", where);
  const bodyMediaType = optionalString(obj, "bodyMediaType", where);
  return {
    obj,
    headers: stringMap(obj, "headers", where),
    forbidHeaders: stringList(obj, "forbidHeaders", where),
    requireHeaders: stringList(obj, "requireHeaders", where),
    ...(body !== undefined ? { body } : {}),
    ...(bodyMediaType !== undefined ? { bodyMediaType } : {}),
  };
}

function readInitialRequest(value: NodeValue): InitialRequest {
  const { obj, ...message } = readInitialMessage(value, "initialRequest");
  return {
    ...message,
    method: requiredString(obj, "method", "initialRequest"),
    uri: requiredString(obj, "uri", "initialRequest"),
    queryParams: stringList(obj, "queryParams", "initialRequest"),
    forbidQueryParams: stringList(obj, "forbidQueryParams", "initialRequest"),
    requireQueryParams: stringList(obj, "requireQueryParams", "initialRequest"),
  };
}

function readInitialResponse(value: NodeValue): InitialResponse {
  const { obj, ...message } = readInitialMessage(value, "initialResponse");
  return { ...message, code: requiredInteger(obj, "code", "initialResponse") };
}

function splitUri(uri: string): [string, string] {
  const q = uri.indexOf("?");
  return q < 0 ? [uri, ""] : [uri.slice(0, q), uri.slice(q + 1)];
}
