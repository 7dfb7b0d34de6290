/**
 * Smithy → OpenAPI 3.1. REST protocols (restJson1, simpleRestJson) are
 * documented from their HTTP bindings; RPC protocols (awsJson1_0/1_1,
 * rpcv2Cbor, rpcv2Json) as their POST routes with the headers that select
 * an operation, so an explorer can call every protocol. gRPC is left to the
 * `.proto` file.
 */
import {
  getDocumentation,
  getErrorKind,
  getExamples,
  getHttp,
  getHttpError,
  hasTrait,
  isNodeObject,
  isRequired,
  nameOf,
  serviceClosure,
  type MemberShape,
  type Model,
  type NodeValue,
  type OperationExample,
  type Shape,
} from "@anvil/model";
import { bindingsOf, structureOf, type Binding } from "./bindings.js";
import { documentedProtocols, operationName, routeOf, type ProtocolInfo, type Route } from "./protocols.js";
import { ComponentNames, SchemaSet, type JsonSchema } from "./schemas.js";
import { DocsError, selectService } from "./service.js";
import { isEventStreamMember, offersServerSentEvents, SSE_DESCRIPTION, SSE_MEDIA_TYPE, sseText } from "./server-sent-events.js";
import { nodeToJson, toHttpString, toWireJson, type Json } from "./wire.js";

/** Options of {@link toOpenApi}. */
export interface OpenApiOptions {
  /** The service to document (absolute id or shape name); default: the model's only service. */
  readonly service?: string;
  /** Base URLs for `servers`, e.g. the running server's origin. Default: `/` (the origin the document is served from). */
  readonly servers?: readonly string[];
}

/** An OpenAPI 3.1 document, as plain JSON. */
export interface OpenApiDocument {
  /** The OpenAPI version the document follows. */
  readonly openapi: "3.1.0";
  /** The service's `@title` (else its shape name), its version (empty when it has none) and its documentation (absent when it has none). */
  readonly info: { readonly title: string; readonly version: string; readonly description?: string };
  /** The base URLs from {@link OpenApiOptions.servers}; `/` when none are given. */
  readonly servers: readonly { readonly url: string }[];
  /** One tag per documented protocol, named by its short name; each operation is tagged with its protocols. */
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  /** The operation objects, by OpenAPI path and then lower-case HTTP method. */
  readonly paths: Record<string, Record<string, Json>>;
  /** The JSON Schemas of the service's shapes, by component name, and the security schemes of its auth traits (absent when it has none). */
  readonly components: { readonly schemas: Record<string, Json>; readonly securitySchemes?: Record<string, Json> };
  /** The service's default security requirements, one per auth scheme it uses (in `@auth` order when it has one); empty means no authentication. */
  readonly security: readonly Record<string, readonly string[]>[];
}

/** The OpenAPI path of an HTTP route: greedy labels lose their `+`. */
export function openApiPath(route: Route): string {
  if (route.protocol.kind === "awsJson") return `/#X-Amz-Target=${route.headers[0]![1]}`;
  return route.path.replace(/\{([^}+]+)\+\}/g, "{$1}");
}

/** The operation id of an operation under a protocol: the name for the first protocol, `Name_protocol` for the others. */
export function operationId(name: string, protocol: ProtocolInfo, first: boolean): string {
  return first ? name : `${name}_${protocol.name}`;
}

/**
 * Converts a service of a model to an OpenAPI 3.1 document. Throws a
 * {@link DocsError} (with the model location) when the service cannot be
 * chosen or declares no protocol Anvil documents.
 *
 * ```ts
 * const { model } = loadModel({ paths: ["model/"] });
 * const doc = toOpenApi(model, { service: "example.weather#Weather", servers: ["http://127.0.0.1:8080"] });
 * ```
 */
export function toOpenApi(model: Model, options: OpenApiOptions = {}): OpenApiDocument {
  const service = selectService(model, options.service);
  const protocols = documentedProtocols(service).filter((p) => p.kind !== "grpc");
  if (protocols.length === 0) {
    throw new DocsError(
      `openapi: ${service.id} declares no protocol OpenAPI can describe (restJson1, simpleRestJson, awsJson1_0, awsJson1_1, rpcv2Cbor, rpcv2Json)`,
      service.location,
      service.id,
    );
  }
  const closure = serviceClosure(model, service.id);
  const names = new ComponentNames(service.rename ?? {});
  const components: Record<string, Json> = {};
  const variants = schemaVariants(model, closure.shapes, protocols);
  const sets = new Map<ProtocolInfo, SchemaSet>();
  for (const p of protocols) sets.set(p, new SchemaSet(model, names, components, { suffix: variants.get(p)!, protocol: p }));

  const paths: Record<string, Record<string, Json>> = {};
  const seen = new Map<string, { tags: Json[] }>();
  const auth = authSchemes(model, service);
  // The errors every operation may answer: the service's own (the closure's `errors` adds every operation's).
  const serviceErrors = (service.errors ?? []).flatMap((id) => model.getShape(id) ?? []);
  for (const operation of closure.operations) {
    const name = operationName(service, operation);
    let first = true;
    for (const protocol of protocols) {
      const route = routeOf(model, service, operation, protocol);
      if (route === undefined) continue;
      const path = openApiPath(route);
      const method = route.method.toLowerCase();
      const key = `${method} ${path}`;
      const known = seen.get(key);
      if (known !== undefined) {
        // Another protocol with the same bindings (restJson1 and simpleRestJson): one entry, both tags.
        known.tags.push(protocol.name);
        continue;
      }
      const builder = new OperationBuilder(model, service, serviceErrors, operation, route, sets.get(protocol)!);
      const op = builder.build(operationId(name, protocol, first));
      const security = operationSecurity(operation, auth);
      if (security !== undefined) op.security = security;
      // A call that takes credentials may be refused for want of them, as @anvil/server refuses it.
      const effective = (security ?? auth.defaults) as readonly Record<string, unknown>[];
      const responses = op.responses as Record<string, Json>;
      if (effective.some((requirement) => Object.keys(requirement).length > 0) && responses["401"] === undefined) responses["401"] = UNAUTHENTICATED_RESPONSE;
      first = false;
      seen.set(key, { tags: op.tags as Json[] });
      (paths[path] ??= {})[method] = op;
    }
  }

  const doc = getDocumentation(service);
  const title = service.traits.get("smithy.api#title");
  const securitySchemes = Object.fromEntries(auth.schemes.map((s) => [s.name, s.scheme]));
  const sortedComponents = Object.fromEntries(Object.entries(components).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    openapi: "3.1.0",
    info: {
      title: typeof title === "string" ? title : nameOf(service.id),
      version: service.version ?? "",
      ...(doc !== undefined ? { description: doc } : {}),
    },
    servers: (options.servers !== undefined && options.servers.length > 0 ? options.servers : ["/"]).map((url) => ({ url })),
    tags: protocols.map((p) => ({ name: p.name, description: `${p.id}: ${describeProtocol(p)}` })),
    paths,
    components: { schemas: sortedComponents, ...(auth.schemes.length > 0 ? { securitySchemes } : {}) },
    // An explicit empty list says "no authentication" rather than leaving it unsaid.
    security: auth.defaults,
  };
}

function describeProtocol(p: ProtocolInfo): string {
  switch (p.kind) {
    case "http":
      return `HTTP bindings, ${p.contentType} bodies`;
    case "awsJson":
      return `POST / with the X-Amz-Target header, ${p.contentType} bodies`;
    case "rpcv2":
      return `POST /service/{service}/operation/{operation} with the smithy-protocol header, ${p.contentType} bodies`;
    case "grpc":
      return "gRPC";
  }
}

/** One schema variant per distinct wire spelling: `@jsonName` honoured or not, the body timestamp format. */
function schemaVariants(model: Model, shapes: ReadonlySet<string>, protocols: readonly ProtocolInfo[]): Map<ProtocolInfo, string> {
  let jsonNames = false;
  let timestamps = false;
  for (const id of shapes) {
    const shape = model.getShape(id);
    if (shape?.type === "timestamp") timestamps = true;
    for (const m of shape?.members.values() ?? []) if (hasTrait(m, "smithy.api#jsonName")) jsonNames = true;
  }
  const keyOf = (p: ProtocolInfo) => `${jsonNames && p.jsonName ? "j" : ""}${timestamps ? p.bodyTimestamp : ""}`;
  const suffixes = new Map<string, string>();
  const out = new Map<ProtocolInfo, string>();
  for (const p of protocols) {
    const key = keyOf(p);
    if (!suffixes.has(key)) suffixes.set(key, suffixes.size === 0 ? "" : `_${p.name}`);
    out.set(p, suffixes.get(key)!);
  }
  return out;
}

const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

/** Builds the operation object of one operation under one protocol. */
class OperationBuilder {
  private readonly http: boolean;
  private readonly protocol: ProtocolInfo;

  constructor(
    private readonly model: Model,
    private readonly service: Shape,
    private readonly serviceErrors: readonly Shape[],
    private readonly operation: Shape,
    private readonly route: Route,
    private readonly schemas: SchemaSet,
  ) {
    this.protocol = route.protocol;
    this.http = route.protocol.kind === "http";
  }

  build(id: string): Record<string, Json> {
    const name = operationName(this.service, this.operation);
    const doc = getDocumentation(this.operation);
    const input = bindingsOf(this.model, structureOf(this.operation.input));
    const examples = getExamples(this.operation);
    const op: Record<string, Json> = {
      operationId: id,
      summary: `${name}${this.http ? "" : ` (${this.protocol.name})`}`,
      ...(doc !== undefined ? { description: doc } : {}),
      tags: [this.protocol.name],
    };
    const parameters = this.parameters(input, examples);
    if (parameters.length > 0) op.parameters = parameters;
    const body = this.requestBody(input, examples);
    if (body !== undefined) op.requestBody = body;
    op.responses = this.responses(examples);
    if (hasTrait(this.operation, "smithy.api#deprecated")) op.deprecated = true;
    return op;
  }

  private parameters(input: readonly Binding[], examples: readonly OperationExample[]): Json[] {
    const out: Json[] = [];
    const names = new Set<string>();
    const add = (p: Record<string, Json>): void => {
      const key = `${p.in as string}:${(p.name as string).toLowerCase()}`;
      if (names.has(key)) return;
      names.add(key);
      out.push(p);
    };
    for (const [header, value] of this.route.headers) {
      add({
        name: header,
        in: "header",
        required: true,
        description: `Selects the operation (${this.protocol.name}).`,
        schema: { type: "string", enum: [value], default: value },
      });
    }
    for (const [key, value] of this.route.query) {
      add({
        name: key,
        in: "query",
        required: true,
        description: "A constant of the operation's URI.",
        schema: { type: "string", enum: [value], default: value },
      });
    }
    if (!this.http) return out;
    for (const b of input) {
      const base = (where: string, name: string): Record<string, Json> => {
        const schema = this.schemas.member(b.member);
        const description = schema.description;
        const p: Record<string, Json> = { name, in: where };
        if (where === "path" || isRequired(b.member)) p.required = true;
        if (typeof description === "string") p.description = description;
        p.schema = this.paramSchema(b.member, where, schema);
        const example = this.parameterExamples(b, examples);
        if (example !== undefined) p.examples = example;
        return p;
      };
      switch (b.location) {
        case "label": {
          const greedy = this.route.path.includes(`{${b.name}+}`);
          const p = base("path", b.name);
          if (greedy) p.description = `${typeof p.description === "string" ? `${p.description} ` : ""}Greedy: may span several path segments.`;
          add(p);
          break;
        }
        case "query": {
          const p = base("query", b.name);
          if ((p.schema as JsonSchema).type === "array") Object.assign(p, { style: "form", explode: true });
          add(p);
          break;
        }
        case "queryParams": {
          const p = base("query", b.member.name);
          Object.assign(p, { style: "form", explode: true });
          add(p);
          break;
        }
        case "header":
          if (!IGNORED_HEADERS.has(b.name.toLowerCase())) add(base("header", b.name));
          break;
        default:
          break;
      }
    }
    return out;
  }

  /** Parameter schemas: timestamps take the location's default format when the member names none. */
  private paramSchema(member: MemberShape, where: string, schema: JsonSchema): Json {
    // The description belongs to the parameter (or header) object, not to its schema.
    const rest = Object.fromEntries(Object.entries(schema).filter(([key]) => key !== "description"));
    const target = this.model.getShape(member.target);
    if (target?.type === "timestamp" && !hasTrait(member, "smithy.api#timestampFormat") && !hasTrait(target, "smithy.api#timestampFormat")) {
      return where === "header" ? { type: "string", format: "http-date" } : { type: "string", format: "date-time" };
    }
    return rest;
  }

  private parameterExamples(b: Binding, examples: readonly OperationExample[]): Json | undefined {
    const out: Record<string, Json> = {};
    for (const e of examples) {
      if (!isNodeObject(e.input)) continue;
      const value = e.input[b.member.name];
      if (value === undefined) continue;
      const fallback = b.location === "header" ? "http-date" : "date-time";
      const target = this.model.getShape(b.member.target);
      const json =
        target?.type === "list" || target?.type === "set" || target?.type === "map" ? nodeToJson(value) : toHttpString(this.model, b.member, value, fallback);
      out[exampleKey(e.title)] = { summary: e.title, value: json };
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }

  private requestBody(input: readonly Binding[], examples: readonly OperationExample[]): Json | undefined {
    const name = operationName(this.service, this.operation);
    const inputId = structureOf(this.operation.input);
    if (!this.http) {
      const schema = inputId !== undefined && this.model.getShape(inputId) ? this.schemas.shape(inputId) : { type: "object" };
      const content: Record<string, Json> = { schema };
      const ex = this.bodyExamples(
        examples.map((e) => [e.title, e.input] as const),
        inputId,
        undefined,
      );
      if (ex !== undefined) content.examples = ex;
      return { required: true, content: { [this.rpcMediaType(inputId)]: content } };
    }
    const payload = input.find((b) => b.location === "payload");
    if (payload !== undefined) {
      const [media, schema] = this.payloadContent(payload.member, input);
      const content: Record<string, Json> = { schema };
      const ex = this.bodyExamples(
        examples.map((e) => [e.title, isNodeObject(e.input) ? e.input[payload.member.name] : undefined] as const),
        payload.member.target,
        payload.member,
      );
      if (ex !== undefined && media.includes("json")) content.examples = ex;
      return { required: isRequired(payload.member), content: { [media]: content } };
    }
    const body = input.filter((b) => b.location === "body").map((b) => b.member);
    if (body.length === 0) return undefined;
    const schema = this.contentSchema(inputId!, body, `${name}RequestContent`);
    const content: Record<string, Json> = { schema };
    const ex = this.bodyExamples(
      examples.map((e) => [e.title, pick(e.input, body)] as const),
      inputId,
      undefined,
    );
    if (ex !== undefined) content.examples = ex;
    return { required: body.some(isRequired), content: { [this.protocol.contentType]: content } };
  }

  /** An RPC message's media type: an event stream when the structure has an event-stream member (its other members travel in the initial message). */
  private rpcMediaType(structureId: string | undefined): string {
    const shape = structureId === undefined ? undefined : this.model.getShape(structureId);
    for (const m of shape?.members.values() ?? []) {
      const target = this.model.getShape(m.target);
      if (target?.type === "union" && hasTrait(target, "smithy.api#streaming")) return "application/vnd.amazon.eventstream";
    }
    return this.protocol.contentType;
  }

  /** The structure itself when every member is in the body, else a synthesized schema of the body members. */
  private contentSchema(structureId: string, body: readonly MemberShape[], name: string): Json {
    const shape = this.model.getShape(structureId);
    if (shape !== undefined && body.length === shape.members.size) return this.schemas.shape(structureId);
    return this.schemas.synthesize(structureId, name, () => this.schemas.object(body));
  }

  /** The media type and schema of an `@httpPayload` member. */
  private payloadContent(member: MemberShape, bindings: readonly Binding[]): [string, Json] {
    const target = this.model.getShape(member.target);
    const schema = this.schemas.member(member);
    const contentType = bindings.find((b) => b.location === "header" && b.name.toLowerCase() === "content-type");
    const media = target?.traits.get("smithy.api#mediaType");
    if (target?.type === "union" && hasTrait(target, "smithy.api#streaming")) return ["application/vnd.amazon.eventstream", schema];
    if (target?.type === "structure" || target?.type === "union" || target?.type === "document") return [this.protocol.contentType, schema];
    if (target?.type === "blob") {
      const binary: JsonSchema = { type: "string", format: "binary" };
      if (typeof schema.description === "string") binary.description = schema.description;
      if (contentType !== undefined)
        binary.description = `${typeof binary.description === "string" ? `${binary.description} ` : ""}The media type is the ${contentType.member.name} member.`;
      return [typeof media === "string" ? media : "application/octet-stream", binary];
    }
    return [typeof media === "string" ? media : "text/plain", schema];
  }

  private bodyExamples(
    values: readonly (readonly [string, NodeValue | undefined])[],
    shapeId: string | undefined,
    member: MemberShape | undefined,
  ): Json | undefined {
    if (shapeId === undefined) return undefined;
    const out: Record<string, Json> = {};
    for (const [title, value] of values) {
      if (value === undefined) continue;
      out[exampleKey(title)] = { summary: title, value: toWireJson(this.model, shapeId, value, this.protocol, member) };
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }

  private responses(examples: readonly OperationExample[]): Record<string, Json> {
    const out: Record<string, Json> = {};
    const name = operationName(this.service, this.operation);
    const outputId = structureOf(this.operation.output);
    const output = bindingsOf(this.model, outputId);
    const code = String(this.http ? (getHttp(this.operation)?.code ?? 200) : 200);
    out[code] = this.message(
      outputId,
      output,
      `${name}ResponseContent`,
      examples.filter((e) => e.error === undefined).map((e) => [e.title, e.output] as const),
      output.some((b) => b.location === "responseCode") ? "Success. The status code is the one the handler sets (an `@httpResponseCode` member)." : "Success.",
    );
    const byCode = new Map<string, Shape[]>();
    for (const error of [...(this.operation.errors ?? []).map((id) => this.model.getShape(id)), ...this.serviceErrors]) {
      if (error === undefined) continue;
      const status = String(this.http ? (getHttpError(error) ?? (getErrorKind(error) === "server" ? 500 : 400)) : getErrorKind(error) === "server" ? 500 : 400);
      const list = byCode.get(status) ?? [];
      if (!list.includes(error)) list.push(error);
      byCode.set(status, list);
    }
    for (const [status, errors] of [...byCode].sort(([a], [b]) => Number(a) - Number(b))) {
      if (status === code) continue;
      out[status] = this.errorResponse(errors, examples);
    }
    return out;
  }

  private errorResponse(errors: readonly Shape[], examples: readonly OperationExample[]): Json {
    const names = errors.map((e) => nameOf(e.id));
    const description = errors.map((e) => `\`${nameOf(e.id)}\`${getDocumentation(e) !== undefined ? `: ${getDocumentation(e)}` : ""}`).join("\n\n");
    const headers: Record<string, Json> = {};
    if (this.protocol.errorHeader !== undefined) {
      headers[this.protocol.errorHeader] = { description: "The error's shape name.", schema: { type: "string", enum: names } };
    }
    const schemas: Json[] = [];
    const ex: Record<string, Json> = {};
    for (const error of errors) {
      const bindings = bindingsOf(this.model, error.id);
      if (this.http) {
        for (const b of bindings)
          if (b.location === "header") headers[b.name] = { schema: this.paramSchema(b.member, "header", this.schemas.member(b.member)) };
        const body = bindings.filter((b) => b.location === "body").map((b) => b.member);
        schemas.push(this.contentSchema(error.id, body, `${nameOf(error.id)}ResponseContent`));
      } else {
        schemas.push(this.schemas.shape(error.id));
      }
      for (const e of examples) {
        if (e.error?.shapeId !== error.id) continue;
        const value = this.http
          ? pick(
              e.error.content,
              bindings.filter((b) => b.location === "body").map((b) => b.member),
            )
          : e.error.content;
        const wire = toWireJson(this.model, error.id, value ?? {}, this.protocol);
        ex[exampleKey(e.title)] = {
          summary: e.title,
          value: !this.http && isObject(wire) ? { __type: qualifiedErrorName(this.protocol, error), ...wire } : wire,
        };
      }
    }
    const content: Record<string, Json> = { schema: schemas.length === 1 ? schemas[0]! : { oneOf: schemas } };
    if (Object.keys(ex).length > 0) content.examples = ex;
    return {
      description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { [this.protocol.contentType]: content },
    };
  }

  /** The `text/event-stream` answer of an output event stream: text, with the example events as messages. */
  private sseContent(member: MemberShape, examples: readonly (readonly [string, NodeValue | undefined])[]): Json {
    const content: Record<string, Json> = { schema: { type: "string", description: SSE_DESCRIPTION } };
    const ex: Record<string, Json> = {};
    for (const [title, value] of examples) {
      const text = sseText(this.model, member, isNodeObject(value ?? null) ? (value as Record<string, NodeValue>)[member.name] : undefined, this.protocol);
      if (text !== undefined) ex[exampleKey(title)] = { summary: title, value: text };
    }
    if (Object.keys(ex).length > 0) content.examples = ex;
    return content;
  }

  private message(
    structureId: string | undefined,
    bindings: readonly Binding[],
    name: string,
    examples: readonly (readonly [string, NodeValue | undefined])[],
    description: string,
  ): Json {
    const out: Record<string, Json> = { description };
    if (structureId === undefined || this.model.getShape(structureId) === undefined) return out;
    if (!this.http) {
      const content: Record<string, Json> = { schema: this.schemas.shape(structureId) };
      const ex = this.bodyExamples(examples, structureId, undefined);
      if (ex !== undefined) content.examples = ex;
      out.content = { [this.rpcMediaType(structureId)]: content };
      return out;
    }
    const headers: Record<string, Json> = {};
    for (const b of bindings) {
      if (b.location === "header") {
        const schema = this.schemas.member(b.member);
        headers[b.name] = {
          ...(typeof schema.description === "string" ? { description: schema.description } : {}),
          ...(isRequired(b.member) ? { required: true } : {}),
          schema: this.paramSchema(b.member, "header", schema),
        };
      } else if (b.location === "prefixHeaders") {
        out.description = `${out.description as string} Headers starting with \`${b.name}\` carry the \`${b.member.name}\` map.`;
      }
    }
    if (Object.keys(headers).length > 0) out.headers = headers;
    const payload = bindings.find((b) => b.location === "payload");
    if (payload !== undefined) {
      const [media, schema] = this.payloadContent(payload.member, bindings);
      const content: Record<string, Json> = { schema };
      const ex = this.bodyExamples(
        examples.map(([t, v]) => [t, isNodeObject(v ?? null) ? (v as Record<string, NodeValue>)[payload.member.name] : undefined] as const),
        payload.member.target,
        payload.member,
      );
      if (ex !== undefined && media.includes("json")) content.examples = ex;
      out.content = { [media]: content };
      if (offersServerSentEvents(this.protocol) && isEventStreamMember(this.model, payload.member))
        out.content[SSE_MEDIA_TYPE] = this.sseContent(payload.member, examples);
      return out;
    }
    const body = bindings.filter((b) => b.location === "body").map((b) => b.member);
    if (body.length === 0) return out;
    const content: Record<string, Json> = { schema: this.contentSchema(structureId, body, name) };
    const ex = this.bodyExamples(
      examples.map(([t, v]) => [t, pick(v, body)] as const),
      structureId,
      undefined,
    );
    if (ex !== undefined) content.examples = ex;
    out.content = { [this.protocol.contentType]: content };
    return out;
  }
}

function isObject(value: Json): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How an RPC protocol names an error in `__type`. */
function qualifiedErrorName(protocol: ProtocolInfo, error: Shape): string {
  return protocol.kind === "rpcv2" ? error.id : nameOf(error.id);
}

/** The members of an example value that travel in the body. */
function pick(value: NodeValue | undefined, members: readonly MemberShape[]): NodeValue | undefined {
  if (!isNodeObject(value ?? null)) return undefined;
  const object = value as Record<string, NodeValue>;
  const out: Record<string, NodeValue> = {};
  for (const m of members) if (object[m.name] !== undefined) out[m.name] = object[m.name]!;
  return out;
}

/** A key for an example in an `examples` map. */
export function exampleKey(title: string): string {
  return title.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "example";
}

// ---------------------------------------------------------------------------
// Auth
// ---------------------------------------------------------------------------

interface AuthScheme {
  readonly traitId: string;
  readonly name: string;
  readonly scheme: Json;
}

interface ServiceAuth {
  readonly schemes: readonly AuthScheme[];
  /** The document-level `security`: the service's effective schemes, any one of them. */
  readonly defaults: Record<string, readonly string[]>[];
}

function authScheme(traitId: string, value: NodeValue): AuthScheme | undefined {
  switch (traitId) {
    case "smithy.api#httpBasicAuth":
      return { traitId, name: "httpBasicAuth", scheme: { type: "http", scheme: "basic" } };
    case "smithy.api#httpDigestAuth":
      return { traitId, name: "httpDigestAuth", scheme: { type: "http", scheme: "digest" } };
    case "smithy.api#httpBearerAuth":
      return { traitId, name: "httpBearerAuth", scheme: { type: "http", scheme: "bearer" } };
    case "smithy.api#httpApiKeyAuth": {
      const v = isNodeObject(value) ? value : {};
      const name = typeof v.name === "string" ? v.name : "x-api-key";
      const location = v.in === "query" ? "query" : "header";
      if (typeof v.scheme === "string")
        return { traitId, name: "httpApiKeyAuth", scheme: { type: "http", scheme: v.scheme, description: `Sent in the ${name} ${location}.` } };
      return { traitId, name: "httpApiKeyAuth", scheme: { type: "apiKey", name, in: location } };
    }
    case "aws.auth#sigv4": {
      const v = isNodeObject(value) ? value : {};
      return {
        traitId,
        name: "sigv4",
        scheme: {
          type: "apiKey",
          name: "Authorization",
          in: "header",
          description: `AWS Signature Version 4${typeof v.name === "string" ? ` (signing name ${v.name})` : ""}.`,
          "x-amazon-apigateway-authtype": "awsSigv4",
        },
      };
    }
    default:
      return undefined;
  }
}

/** The answer to a call without valid credentials, as `@anvil/server` gives it. */
const UNAUTHENTICATED_RESPONSE: Json = {
  description: "Not authenticated: the call carries no valid credentials of the operation's auth schemes (error type `UnauthenticatedException`).",
  headers: { "WWW-Authenticate": { description: "The challenges of the schemes the operation takes.", schema: { type: "string" } } },
};

function authSchemes(model: Model, service: Shape): ServiceAuth {
  const schemes: AuthScheme[] = [];
  for (const [traitId, value] of service.traits) {
    if (!model.getShape(traitId)?.traits.has("smithy.api#authDefinition")) continue;
    const scheme = authScheme(traitId, value);
    if (scheme !== undefined) schemes.push(scheme);
  }
  const order = service.traits.get("smithy.api#auth");
  const effective = Array.isArray(order) ? order.map((id) => schemes.find((s) => s.traitId === id)).filter((s) => s !== undefined) : schemes;
  return { schemes, defaults: effective.map((s) => ({ [s.name]: [] })) };
}

function operationSecurity(operation: Shape, auth: ServiceAuth): Json | undefined {
  const order = operation.traits.get("smithy.api#auth");
  const optional = hasTrait(operation, "smithy.api#optionalAuth");
  if (!Array.isArray(order) && !optional) return undefined;
  const chosen = Array.isArray(order)
    ? order
        .map((id) => auth.schemes.find((s) => s.traitId === id))
        .filter((s) => s !== undefined)
        .map((s): Json => ({ [s.name]: [] }))
    : (auth.defaults as Json[]);
  return optional ? [...chosen, {}] : chosen;
}
