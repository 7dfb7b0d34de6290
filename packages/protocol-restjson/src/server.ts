/**
 * The server side of the HTTP binding engine: routes from `@http`, input
 * read from labels, query, headers and payload or JSON body and validated,
 * output and errors written with their bindings and status codes.
 */
import {
  byteChunks,
  type ByteStream,
  fillDefaults,
  gunzip,
  HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  isAsyncIterable,
  type MemberSchema,
  ModeledError,
  type OperationSchema,
  ProtocolError,
  readBody,
  type Route,
  SerializationError,
  SERVER_OUTPUT_DEFAULTS,
  type ServerCallContext,
  type ServerProtocol,
  type ServiceSchema,
  shapeName,
  type StructSchema,
  ValidationError,
  validationExceptionSchema,
} from "@anvil/core";
import { compileWriter } from "@anvil/codec-json";
import { EVENT_STREAM_MEDIA_TYPE } from "@anvil/eventstream";
import { bindingsOf, errorTypeHeaders, type HttpBindingSettings, JSON_MEDIA_TYPE, routesOf } from "./bindings.js";
import { codingsOf } from "./compression.js";
import { checkMediaTypes } from "./media-types.js";
import { eventStreamBody, eventStreamPayload, eventStreamValue, type EventStreamMember } from "./event-stream.js";
import { bodyStream, readMessage, streamingBlobPayload, writeBody, writeHeaders } from "./message.js";

const utf8 = new TextEncoder();

type Obj = Record<string, unknown>;

/** Server behaviour beyond the wire settings. */
export interface HttpBindingServerOptions {
  /**
   * Refuse a request whose `Content-Type` is not the input's (415) or whose
   * `Accept` does not admit the output's (406), as restJson1 asks. Off for
   * protocols whose peers may send bodies without a `Content-Type`.
   */
  readonly mediaTypeChecks?: boolean;
}

/** The server protocol for one set of HTTP binding settings. */
export function createHttpBindingServer(settings: HttpBindingSettings, options: HttpBindingServerOptions = {}): ServerProtocol {
  const mediaTypeChecks = options.mediaTypeChecks === true;
  const routeCache = new WeakMap<ServiceSchema, readonly Route[]>();

  /** A response of a structure's bound members: status, headers, body. */
  const boundResponse = (schema: StructSchema, value: Obj, status: number, extra?: Record<string, string>): HttpResponse => {
    const headers = new HttpHeaders();
    writeHeaders(schema, "response", value, headers);
    const body = writeBody(settings, schema, "response", value);
    if (body.contentType !== undefined && !headers.has("content-type")) headers.set("content-type", body.contentType);
    if (extra !== undefined) for (const [n, v] of Object.entries(extra)) headers.set(n, v);
    const code = bindingsOf(schema, "response").responseCode;
    const codeValue = code === undefined ? undefined : value[code.name];
    const bytes = body.bytes ?? new Uint8Array(0);
    headers.set("content-length", String(bytes.byteLength));
    return { status: typeof codeValue === "number" ? codeValue : status, headers, body: bytes };
  };

  /** An unmodeled error: the type header and `{"message": ...}`. */
  const plainError = (status: number, type: string, message: string): HttpResponse => ({
    status,
    headers: new HttpHeaders({ "content-type": JSON_MEDIA_TYPE, ...errorTypeHeaders(settings, type) }),
    body: utf8.encode(JSON.stringify({ message })),
  });

  return Object.freeze({
    id: settings.id,

    routes(service: ServiceSchema): readonly Route[] {
      let routes = routeCache.get(service);
      if (routes === undefined) {
        routes = Object.freeze(routesOf(Object.values(service.operations)));
        routeCache.set(service, routes);
      }
      return routes;
    },

    async deserializeRequest(operation: OperationSchema, request: HttpRequest, context: ServerCallContext): Promise<unknown> {
      const stream = eventStreamPayload(operation.input, "request");
      if (stream !== undefined) return readEventStreamInput(settings, operation.input, stream, request, context);
      const blob = streamingBlobPayload(settings, operation.input, "request");
      if (blob !== undefined) return readStreamingBlobInput(settings, operation.input, blob.name, request, context);
      // A buffered body (what `@anvil/server` hands over) needs no read.
      let bytes = request.body instanceof Uint8Array ? request.body : await readBody(request.body);
      if (mediaTypeChecks) checkMediaTypes(settings, operation, request.headers, bytes.length);
      let headers = request.headers;
      const codings = codingsOf(headers.get("content-encoding"));
      if (codings.some((c) => c.toLowerCase() === "gzip")) {
        try {
          bytes = await gunzip(bytes);
        } catch (cause) {
          throw new SerializationError(`decode ${settings.name}: request body is not valid gzip`, { cause });
        }
        // The member bound to Content-Encoding sees the codings the application chose.
        headers = new HttpHeaders(headers);
        const rest = codings.filter((c) => c.toLowerCase() !== "gzip");
        if (rest.length === 0) headers.delete("content-encoding");
        else headers.set("content-encoding", rest.join(", "));
      }
      const read = readMessage(settings, operation.input, "request", { headers, query: request.query, labels: context.labels }, bytes);
      // Constraints are the server's to check (`@anvil/server` validates every protocol's input alike).
      return fillBoundDefaults(operation.input, read);
    },

    async serializeResponse(operation: OperationSchema, output: unknown, _context: ServerCallContext): Promise<HttpResponse> {
      const value = fillDefaults(operation.output, output ?? {}, SERVER_OUTPUT_DEFAULTS) as Obj;
      const blob = streamingBlobPayload(settings, operation.output, "response");
      const bytes = blob === undefined ? undefined : value[blob.name];
      if (blob !== undefined && isByteStream(bytes)) {
        // The handler's stream is written as the transport reads it, never buffered.
        const response = boundResponse(operation.output, { ...value, [blob.name]: undefined }, operation.traits.http?.code ?? 200);
        response.headers.delete("content-length");
        if (!response.headers.has("content-type")) response.headers.set("content-type", blob.traits.mediaType ?? "application/octet-stream");
        return { ...response, body: byteChunks(bytes) };
      }
      const response = boundResponse(operation.output, value, operation.traits.http?.code ?? 200);
      const stream = eventStreamPayload(operation.output, "response");
      if (stream === undefined) return response;
      // The events follow the bound members, written as the transport reads them.
      const headers = response.headers;
      headers.delete("content-length");
      headers.set("content-type", EVENT_STREAM_MEDIA_TYPE);
      return { status: response.status, headers, body: eventStreamBody(settings, stream, value[stream.name]) };
    },

    async serializeError(operation: OperationSchema | undefined, error: unknown, context: ServerCallContext): Promise<HttpResponse> {
      if (ModeledError.isModeledError(error)) {
        const schema = error.$schema as StructSchema;
        const status = schema.traits.httpError ?? (error.$fault === "server" ? 500 : 400);
        try {
          const members = fillDefaults(schema, error.members(), SERVER_OUTPUT_DEFAULTS) as Obj;
          return boundResponse(schema, members, status, errorTypeHeaders(settings, shapeName(schema.id)));
        } catch {
          return plainError(500, "InternalFailure", "Internal failure");
        }
      }
      if (ValidationError.is(error)) {
        const schema = validationExceptionSchema(operation, context.service);
        if (schema === undefined) return plainError(400, "ValidationException", error.message);
        const members = { message: error.message, fieldList: error.fieldList };
        return {
          status: schema.traits.httpError ?? 400,
          headers: new HttpHeaders({ "content-type": JSON_MEDIA_TYPE, ...errorTypeHeaders(settings, shapeName(schema.id)) }),
          body: compileWriter(schema, settings.json).toBytes(members),
        };
      }
      if (SerializationError.is(error)) return plainError(400, "SerializationException", error.message);
      if (ProtocolError.is(error)) return plainError(error.status, error.code, error.message);
      // Anything else is a bug or an outage: say nothing about it.
      return plainError(500, "InternalFailure", "Internal failure");
    },

    notFound(request: HttpRequest): Promise<HttpResponse> {
      return Promise.resolve(plainError(404, "UnknownOperationException", `no operation at ${request.method} ${request.path}`));
    },
  });
}

/** Whether a value is a stream of bytes (not whole bytes or text). */
function isByteStream(value: unknown): value is ByteStream {
  return isAsyncIterable(value) || (typeof ReadableStream !== "undefined" && value instanceof ReadableStream);
}

/**
 * The input of a request with a `@streaming` blob payload: the bound members
 * from the HTTP message, and the body as a stream the handler reads as it
 * arrives (whole bytes, when the transport buffered them, as one chunk).
 */
function readStreamingBlobInput(settings: HttpBindingSettings, input: StructSchema, name: string, request: HttpRequest, context: ServerCallContext): Obj {
  const value = readMessage(settings, input, "request", { headers: request.headers, query: request.query, labels: context.labels }, new Uint8Array(0));
  value[name] = bodyStream(request.body);
  return fillBoundDefaults(input, value);
}

/**
 * The input of an event-stream request: the bound members from the HTTP
 * message (validated like any input), and the stream from its body, read
 * as the handler iterates it.
 */
function readEventStreamInput(settings: HttpBindingSettings, input: StructSchema, stream: EventStreamMember, request: HttpRequest, context: ServerCallContext): Obj {
  const read = readMessage(settings, input, "request", { headers: request.headers, query: request.query, labels: context.labels }, new Uint8Array(0));
  const value = fillBoundDefaults(input, read);
  return { ...value, [stream.name]: eventStreamValue(settings, stream, request.body) };
}

/** Top-level `@default`s of members the request left out (the JSON reader already filled the body's). */
function fillBoundDefaults(schema: StructSchema, value: Obj): Obj {
  let out: Obj | undefined;
  for (const m of boundDefaultsOf(schema)) {
    if (value[m.name] === undefined) (out ??= { ...value })[m.name] = m.traits.default;
  }
  return out ?? value;
}

const boundDefaults = new WeakMap<StructSchema, readonly MemberSchema[]>();

/** The members {@link fillBoundDefaults} may fill, once per schema. */
function boundDefaultsOf(schema: StructSchema): readonly MemberSchema[] {
  let members = boundDefaults.get(schema);
  if (members === undefined) {
    members = schema.members.filter((m) => m.traits.default !== undefined && !m.traits.httpPayload);
    boundDefaults.set(schema, members);
  }
  return members;
}

