/**
 * The protocol compliance test cases of a loaded model: every value of the
 * `smithy.test` traits `httpRequestTests`, `httpResponseTests`,
 * `httpMalformedRequestTests` and `eventStreamTests`, as typed objects.
 * `httpMalformedRequestTests` cases with `testParameters` are expanded into
 * one case per parameter index, as Smithy does.
 */
import type { Model, NodeObject, NodeValue, Shape } from "@anvil/model";
import { asObject, CaseShapeError, defineKey, objectOrEmpty, optionalString, requiredInteger, requiredString, stringList, stringMap } from "./node-read.js";
import { formatTemplate } from "./template.js";

/** The protocol test trait ids. */
export const TEST_TRAITS = {
  request: "smithy.test#httpRequestTests",
  response: "smithy.test#httpResponseTests",
  malformed: "smithy.test#httpMalformedRequestTests",
  eventstream: "smithy.test#eventStreamTests",
} as const;

/** The kind of a test case: which trait it comes from. */
export type TestKind = keyof typeof TEST_TRAITS;

/** Every kind, in report order. */
export const TEST_KINDS: readonly TestKind[] = ["request", "response", "malformed", "eventstream"];

/** The side a case is run against. */
export type Side = "client" | "server";

/** Which sides a case applies to: its `appliesTo`, or `both` when it has none. */
export type AppliesTo = Side | "both";

/** The shape a test trait is applied to: an operation, or (response tests only) an error structure. */
export interface AttachedTo {
  readonly type: "operation" | "error";
  /** Absolute shape id. */
  readonly id: string;
}

/** What every case has. */
interface CaseBase {
  readonly id: string;
  /** The protocol trait's absolute shape id, e.g. `aws.protocols#restJson1`. */
  readonly protocol: string;
  readonly appliesTo: AppliesTo;
  readonly attachedTo: AttachedTo;
  readonly documentation?: string;
  readonly tags: readonly string[];
}

/** What request and response cases share (`HttpMessageMixin` and the test case members). */
interface HttpMessageCase extends CaseBase {
  /** Expected headers; others are ignored unless forbidden. */
  readonly headers: Readonly<Record<string, string>>;
  readonly forbidHeaders: readonly string[];
  readonly requireHeaders: readonly string[];
  /** The expected body; absent means no assertion on the body. */
  readonly body?: string;
  readonly bodyMediaType?: string;
  /** Input (request) or output / error (response) values, as node values. Absent is `{}`. */
  readonly params: NodeObject;
  /** Absent is `{}`. */
  readonly vendorParams: NodeObject;
  readonly vendorParamsShape?: string;
  readonly authScheme?: string;
}

/** One `httpRequestTests` case. */
export interface HttpRequestCase extends HttpMessageCase {
  readonly kind: "request";
  readonly attachedTo: AttachedTo & { readonly type: "operation" };
  readonly method: string;
  readonly uri: string;
  readonly host?: string;
  readonly resolvedHost?: string;
  /** `name=value` pairs as on the wire (percent-encoded). */
  readonly queryParams: readonly string[];
  readonly forbidQueryParams: readonly string[];
  readonly requireQueryParams: readonly string[];
}

/** One `httpResponseTests` case, on an operation (output) or an error structure. */
export interface HttpResponseCase extends HttpMessageCase {
  readonly kind: "response";
  readonly code: number;
}

/** The request of a malformed-request case. */
export interface MalformedRequest {
  readonly method: string;
  readonly uri: string;
  readonly host?: string;
  readonly queryParams: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly bodyMediaType?: string;
}

/** How a malformed-request response body is checked: exactly, or by its `message` field. */
export type MalformedBodyAssertion = { readonly contents: string } | { readonly messageRegex: string };

/** The expected response body of a malformed-request case. */
export interface MalformedResponseBody {
  readonly assertion: MalformedBodyAssertion;
  readonly mediaType: string;
}

/** The expected response of a malformed-request case. */
export interface MalformedResponse {
  readonly code: number;
  /** Expected headers; others are ignored. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: MalformedResponseBody;
}

/** One `httpMalformedRequestTests` case (after `testParameters` expansion). Always server-side. */
export interface MalformedRequestCase extends CaseBase {
  readonly kind: "malformed";
  readonly appliesTo: "server";
  readonly attachedTo: AttachedTo & { readonly type: "operation" };
  readonly request: MalformedRequest;
  readonly response: MalformedResponse;
  /** The case's `testParameters` as written (shared by every expanded case). */
  readonly testParameters?: Readonly<Record<string, readonly string[]>>;
  /** For an expanded case: the id as written, the index and the values used. */
  readonly expansion?: {
    readonly baseId: string;
    readonly index: number;
    readonly values: Readonly<Record<string, string>>;
  };
}

/** A typed event-stream header value (the `EventHeaderValue` union, `{ type, value }`). */
export interface EventHeaderValue {
  readonly type: "boolean" | "byte" | "short" | "integer" | "long" | "blob" | "string" | "timestamp";
  /** As written: `blob` values are base64 text, `timestamp` values epoch seconds. */
  readonly value: NodeValue;
}

/** One event of an event-stream case. */
export interface StreamEvent {
  readonly type: "request" | "response";
  /** A value of the streaming union (`{ <variant>: {...} }`); absent for an unmodeled event. */
  readonly params?: NodeObject;
  readonly headers: Readonly<Record<string, EventHeaderValue>>;
  readonly forbidHeaders: readonly string[];
  readonly requireHeaders: readonly string[];
  /** The event's payload, as text (as the corpus writes it). */
  readonly body?: string;
  readonly bodyMediaType?: string;
  /** The whole encoded event, base64 text (as the trait's blob values are written). */
  readonly bytes?: string;
  readonly vendorParams: NodeObject;
  readonly vendorParamsShape?: string;
}

/** The outcome an event-stream case expects. */
export type StreamExpectation = { readonly success: true } | { readonly failure: { readonly errorId?: string } };

/** One `eventStreamTests` case. */
export interface EventStreamCase extends CaseBase {
  readonly kind: "eventstream";
  readonly attachedTo: AttachedTo & { readonly type: "operation" };
  readonly initialRequestParams?: NodeObject;
  readonly initialRequest?: NodeValue;
  readonly initialRequestShape?: string;
  readonly initialResponseParams?: NodeObject;
  readonly initialResponse?: NodeValue;
  readonly initialResponseShape?: string;
  readonly events: readonly StreamEvent[];
  /** `{ success: true }` when the case has none. */
  readonly expectation: StreamExpectation;
  readonly vendorParams: NodeObject;
  readonly vendorParamsShape?: string;
}

/** Any protocol test case. */
export type ProtocolTestCase = HttpRequestCase | HttpResponseCase | MalformedRequestCase | EventStreamCase;

/** A trait value that could not be read as test cases. */
export interface ExtractionProblem {
  readonly shape: string;
  readonly trait: string;
  readonly message: string;
}

/** The cases of a model, and the trait values that could not be read. */
export interface ExtractedCases {
  readonly cases: ProtocolTestCase[];
  readonly problems: ExtractionProblem[];
}

/**
 * Every protocol test case of the model's own shapes (the prelude and
 * bundled trait shapes are skipped), in model order and then trait order.
 * A trait value that cannot be read is reported as a problem, and its other
 * values are kept when they can be read.
 */
export function extractProtocolTests(model: Model): ExtractedCases {
  const cases: ProtocolTestCase[] = [];
  const problems: ExtractionProblem[] = [];
  for (const shape of model.shapes.values()) {
    if (model.isBuiltin(shape.id)) continue;
    for (const kind of TEST_KINDS) {
      const trait = TEST_TRAITS[kind];
      const value = shape.traits.get(trait);
      if (value === undefined) continue;
      const where = `${shape.id} @${trait}`;
      const attachedTo = attachment(shape, kind);
      if (typeof attachedTo === "string") {
        problems.push({ shape: shape.id, trait, message: attachedTo });
        continue;
      }
      if (!Array.isArray(value)) {
        problems.push({ shape: shape.id, trait, message: `${where}: expected a list of test cases` });
        continue;
      }
      value.forEach((item, i) => {
        try {
          cases.push(...readCase(kind, item, attachedTo, `${where}[${i}]`));
        } catch (error) {
          problems.push({ shape: shape.id, trait, message: error instanceof Error ? error.message : String(error) });
        }
      });
    }
  }
  return { cases, problems };
}

function attachment(shape: Shape, kind: TestKind): AttachedTo | string {
  if (shape.type === "operation") return { type: "operation", id: shape.id };
  if (kind === "response" && shape.type === "structure" && shape.traits.has("smithy.api#error")) return { type: "error", id: shape.id };
  return `${shape.id}: a ${TEST_TRAITS[kind]} trait cannot be applied to a ${shape.type}`;
}

function readCase(kind: TestKind, value: NodeValue, attachedTo: AttachedTo, where: string): ProtocolTestCase[] {
  const obj = asObject(value, where);
  switch (kind) {
    case "request":
      return [readRequestCase(obj, attachedTo as HttpRequestCase["attachedTo"], where)];
    case "response":
      return [readResponseCase(obj, attachedTo, where)];
    case "malformed":
      return expandMalformedCase(readMalformedCase(obj, attachedTo as MalformedRequestCase["attachedTo"], where));
    case "eventstream":
      return [readEventStreamCase(obj, attachedTo as EventStreamCase["attachedTo"], where)];
  }
}

/** The optional members, only when present (for exactOptionalPropertyTypes). */
function optionals<K extends string>(obj: NodeObject, keys: readonly K[], where: string): { [P in K]?: string } {
  const out: { [P in K]?: string } = {};
  for (const key of keys) {
    const v = optionalString(obj, key, where);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function readAppliesTo(obj: NodeObject, where: string): AppliesTo {
  const v = optionalString(obj, "appliesTo", where);
  if (v === undefined) return "both";
  if (v === "client" || v === "server") return v;
  throw new CaseShapeError(`${where}.appliesTo: expected "client" or "server", got "${v}"`);
}

function readBase(obj: NodeObject, where: string): Omit<CaseBase, "attachedTo" | "appliesTo"> {
  return {
    id: requiredString(obj, "id", where),
    protocol: requiredString(obj, "protocol", where),
    ...optionals(obj, ["documentation"], where),
    tags: stringList(obj, "tags", where),
  };
}

function readMessage(obj: NodeObject, where: string): Omit<HttpMessageCase, keyof CaseBase> {
  return {
    headers: stringMap(obj, "headers", where),
    forbidHeaders: stringList(obj, "forbidHeaders", where),
    requireHeaders: stringList(obj, "requireHeaders", where),
    ...optionals(obj, ["body", "bodyMediaType", "vendorParamsShape", "authScheme"], where),
    params: objectOrEmpty(obj, "params", where),
    vendorParams: objectOrEmpty(obj, "vendorParams", where),
  };
}

function readRequestCase(obj: NodeObject, attachedTo: HttpRequestCase["attachedTo"], where: string): HttpRequestCase {
  return {
    kind: "request",
    ...readBase(obj, where),
    appliesTo: readAppliesTo(obj, where),
    attachedTo,
    ...readMessage(obj, where),
    method: requiredString(obj, "method", where),
    uri: requiredString(obj, "uri", where),
    ...optionals(obj, ["host", "resolvedHost"], where),
    queryParams: stringList(obj, "queryParams", where),
    forbidQueryParams: stringList(obj, "forbidQueryParams", where),
    requireQueryParams: stringList(obj, "requireQueryParams", where),
  };
}

function readResponseCase(obj: NodeObject, attachedTo: AttachedTo, where: string): HttpResponseCase {
  return {
    kind: "response",
    ...readBase(obj, where),
    appliesTo: readAppliesTo(obj, where),
    attachedTo,
    ...readMessage(obj, where),
    code: requiredInteger(obj, "code", where),
  };
}

function readMalformedCase(obj: NodeObject, attachedTo: MalformedRequestCase["attachedTo"], where: string): MalformedRequestCase {
  const req = asObject(obj["request"], `${where}.request`);
  const res = asObject(obj["response"], `${where}.response`);
  const reqWhere = `${where}.request`;
  const resWhere = `${where}.response`;
  const request: MalformedRequest = {
    method: requiredString(req, "method", reqWhere),
    uri: requiredString(req, "uri", reqWhere),
    ...optionals(req, ["host", "body", "bodyMediaType"], reqWhere),
    queryParams: stringList(req, "queryParams", reqWhere),
    headers: stringMap(req, "headers", reqWhere),
  };
  const body = res["body"] === undefined || res["body"] === null ? undefined : readMalformedBody(res["body"], `${resWhere}.body`);
  const response: MalformedResponse = {
    code: requiredInteger(res, "code", resWhere),
    headers: stringMap(res, "headers", resWhere),
    ...(body !== undefined ? { body } : {}),
  };
  const testParameters = readTestParameters(obj, where);
  return {
    kind: "malformed",
    ...readBase(obj, where),
    appliesTo: "server",
    attachedTo,
    request,
    response,
    ...(testParameters !== undefined ? { testParameters } : {}),
  };
}

function readMalformedBody(value: NodeValue, where: string): MalformedResponseBody {
  const obj = asObject(value, where);
  const assertion = asObject(obj["assertion"], `${where}.assertion`);
  const keys = Object.keys(assertion);
  if (keys.length !== 1 || (keys[0] !== "contents" && keys[0] !== "messageRegex")) {
    throw new CaseShapeError(`${where}.assertion: expected exactly one of contents or messageRegex, got {${keys.join(", ")}}`);
  }
  const text = requiredString(assertion, keys[0], `${where}.assertion`);
  return {
    assertion: keys[0] === "contents" ? { contents: text } : { messageRegex: text },
    mediaType: requiredString(obj, "mediaType", where),
  };
}

function readTestParameters(obj: NodeObject, where: string): Record<string, string[]> | undefined {
  const v = obj["testParameters"];
  if (v === undefined || v === null) return undefined;
  const map = asObject(v, `${where}.testParameters`);
  const out: Record<string, string[]> = {};
  for (const key of Object.keys(map)) defineKey(out, key, stringList(map, key, `${where}.testParameters`));
  return out;
}

/**
 * The cases a malformed-request case stands for. Without `testParameters`
 * (or with an empty map), the case itself, unchanged. With them, one case
 * per index `i` of the parameter lists (which must all have the same
 * length), with the id `<id>_case<i>` (Smithy's naming) and the placeholders
 * of these strings formatted (the ones Smithy formats): the documentation,
 * the tags, the request's uri, query parameters, header names and values and
 * body, and the response's header names and values, body media type and body
 * assertion. The method, host, request body media type and code are kept as
 * written.
 */
export function expandMalformedCase(c: MalformedRequestCase): MalformedRequestCase[] {
  const params = c.testParameters;
  if (params === undefined) return [c];
  const names = Object.keys(params);
  if (names.length === 0) return [c];
  const length = params[names[0]!]!.length;
  const uneven = names.filter((n) => params[n]!.length !== length);
  if (uneven.length > 0) {
    throw new CaseShapeError(`${c.id}: testParameters lists differ in length (${names.map((n) => `${n}: ${params[n]!.length}`).join(", ")})`);
  }
  const out: MalformedRequestCase[] = [];
  for (let index = 0; index < length; index++) {
    const values: Record<string, string> = {};
    for (const n of names) defineKey(values, n, params[n]![index]!);
    const id = `${c.id}_case${index}`;
    const f = (text: string): string => {
      try {
        return formatTemplate(text, values);
      } catch (error) {
        throw new CaseShapeError(`${id}: ${error instanceof Error ? error.message : String(error)} in ${JSON.stringify(text)}`);
      }
    };
    const fHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> => {
      const result: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) defineKey(result, f(k), f(v));
      return result;
    };
    const { request, response } = c;
    const body = response.body;
    out.push({
      ...c,
      id,
      ...(c.documentation !== undefined ? { documentation: f(c.documentation) } : {}),
      tags: c.tags.map(f),
      request: {
        ...request,
        uri: f(request.uri),
        queryParams: request.queryParams.map(f),
        headers: fHeaders(request.headers),
        ...(request.body !== undefined ? { body: f(request.body) } : {}),
      },
      response: {
        ...response,
        headers: fHeaders(response.headers),
        ...(body !== undefined
          ? {
              body: {
                mediaType: f(body.mediaType),
                assertion: "contents" in body.assertion ? { contents: f(body.assertion.contents) } : { messageRegex: f(body.assertion.messageRegex) },
              },
            }
          : {}),
      },
      expansion: { baseId: c.id, index, values },
    });
  }
  return out;
}

const HEADER_TYPES: ReadonlySet<string> = new Set<EventHeaderValue["type"]>(["boolean", "byte", "short", "integer", "long", "blob", "string", "timestamp"]);

function readEventStreamCase(obj: NodeObject, attachedTo: EventStreamCase["attachedTo"], where: string): EventStreamCase {
  const eventsValue = obj["events"];
  const events: StreamEvent[] = [];
  if (eventsValue !== undefined && eventsValue !== null) {
    if (!Array.isArray(eventsValue)) throw new CaseShapeError(`${where}.events: expected a list of events`);
    eventsValue.forEach((e, i) => events.push(readEvent(e, `${where}.events[${i}]`)));
  }
  const out: { -readonly [K in keyof EventStreamCase]?: EventStreamCase[K] } = {
    kind: "eventstream",
    ...readBase(obj, where),
    appliesTo: readAppliesTo(obj, where),
    attachedTo,
    ...optionals(obj, ["initialRequestShape", "initialResponseShape", "vendorParamsShape"], where),
    events,
    expectation: readExpectation(obj["expectation"], `${where}.expectation`),
    vendorParams: objectOrEmpty(obj, "vendorParams", where),
  };
  for (const key of ["initialRequestParams", "initialResponseParams"] as const) {
    if (obj[key] !== undefined && obj[key] !== null) out[key] = asObject(obj[key], `${where}.${key}`);
  }
  for (const key of ["initialRequest", "initialResponse"] as const) {
    if (obj[key] !== undefined) out[key] = obj[key];
  }
  return out as EventStreamCase;
}

function readEvent(value: NodeValue, where: string): StreamEvent {
  const obj = asObject(value, where);
  const type = requiredString(obj, "type", where);
  if (type !== "request" && type !== "response") throw new CaseShapeError(`${where}.type: expected "request" or "response", got "${type}"`);
  const headers: Record<string, EventHeaderValue> = {};
  const rawHeaders = objectOrEmpty(obj, "headers", where);
  for (const name of Object.keys(rawHeaders)) {
    const h = asObject(rawHeaders[name], `${where}.headers.${name}`);
    const keys = Object.keys(h);
    if (keys.length !== 1 || !HEADER_TYPES.has(keys[0]!)) {
      throw new CaseShapeError(`${where}.headers.${name}: expected one of ${[...HEADER_TYPES].join(", ")}, got {${keys.join(", ")}}`);
    }
    defineKey(headers, name, { type: keys[0] as EventHeaderValue["type"], value: h[keys[0]!]! });
  }
  const params = obj["params"];
  return {
    type,
    ...(params !== undefined && params !== null ? { params: asObject(params, `${where}.params`) } : {}),
    headers,
    forbidHeaders: stringList(obj, "forbidHeaders", where),
    requireHeaders: stringList(obj, "requireHeaders", where),
    ...optionals(obj, ["body", "bodyMediaType", "bytes", "vendorParamsShape"], where),
    vendorParams: objectOrEmpty(obj, "vendorParams", where),
  };
}

function readExpectation(value: NodeValue | undefined, where: string): StreamExpectation {
  if (value === undefined || value === null) return { success: true };
  const obj = asObject(value, where);
  const keys = Object.keys(obj);
  if (keys.length === 1 && keys[0] === "success") return { success: true };
  if (keys.length === 1 && keys[0] === "failure") {
    const failure = asObject(obj["failure"], `${where}.failure`);
    const errorId = optionalString(failure, "errorId", `${where}.failure`);
    return { failure: errorId !== undefined ? { errorId } : {} };
  }
  throw new CaseShapeError(`${where}: expected success or failure, got {${keys.join(", ")}}`);
}

/** The sides a case runs on: both for `appliesTo: both`, else its one side. */
export function sidesOf(c: ProtocolTestCase): Side[] {
  return c.appliesTo === "both" ? ["client", "server"] : [c.appliesTo];
}
