/**
 * The server side of the HTTP binding engine: routes from `@http`, input
 * read from labels, query, headers and payload or JSON body and validated,
 * output and errors written with their bindings and status codes.
 */
import {
  byteChunks,
  type ByteStream,
  HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  type MemberSchema,
  type OperationSchema,
  type Route,
  type ServerCallContext,
  type ServerProtocol,
  type ServiceSchema,
  type StructSchema,
} from "@anvil/core";
import {
  binaryBody,
  fillDefaults,
  gunzipRequest,
  isAsyncIterable,
  readBody,
  SERVER_OUTPUT_DEFAULTS,
  shapeName,
  errorResponse,
  type ErrorResponseWriter,
} from "@anvil/core/protocol";

import { bindingsOf, errorTypeHeaders, type HttpBindingSettings, JSON_MEDIA_TYPE, routesOf } from "./bindings.js";
import { codingsOf } from "./compression.js";
import { labelEscapeCheckOf } from "./label-escapes.js";
import { mediaTypeCheckOf } from "./media-types.js";
import { EVENT_STREAM_MEDIA_TYPE, eventStreamPayload, type EventStreamMember, withEventStreams } from "./event-stream-support.js";
import { bodyStream, bodyWriterOf, headerWriterOf, messageReaderOf, readMessage, streamingBlobPayload } from "./message.js";

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
  /**
   * Answer output event streams as Server-Sent Events (`text/event-stream`)
   * to requests whose `Accept` prefers them (restJson1); the binary
   * framing otherwise.
   */
  readonly serverSentEvents?: boolean;
}

/** The server protocol for one set of HTTP binding settings. */
export function createHttpBindingServer(settings: HttpBindingSettings, options: HttpBindingServerOptions = {}): ServerProtocol {
  const mediaTypeChecks = options.mediaTypeChecks === true;
  const serverSentEvents = options.serverSentEvents === true;
  const routeCache = new WeakMap<ServiceSchema, readonly Route[]>();

  /** A response of a structure's bound members: status, headers, body. */
  const boundResponse = (schema: StructSchema, value: Obj, status: number, extra?: Record<string, string>): HttpResponse =>
    responseWriterOf(schema)(value, status, extra);

  const responseWriters = new WeakMap<StructSchema, ResponseWriter>();
  const responseWriterOf = (schema: StructSchema): ResponseWriter => {
    let writer = responseWriters.get(schema);
    if (writer === undefined) responseWriters.set(schema, (writer = compileResponseWriter(settings, schema)));
    return writer;
  };

  const operations = new WeakMap<OperationSchema, CompiledOperation>();
  /** An operation's request reader and response writer, compiled on its first call. */
  const compiledOf = (operation: OperationSchema): CompiledOperation => {
    let compiled = operations.get(operation);
    if (compiled === undefined) operations.set(operation, (compiled = compileOperation(operation)));
    return compiled;
  };

  const compileOperation = (operation: OperationSchema): CompiledOperation => {
    const { input, output } = operation;
    const readInput = messageReaderOf(settings, input, "request");
    const defaults = boundDefaultsOf(input);
    const checkMediaTypes = mediaTypeChecks ? mediaTypeCheckOf(settings, operation) : undefined;
    /** The input of a request whose body is at hand. */
    const readBuffered = (request: HttpRequest, bytes: Uint8Array, context: ServerCallContext): unknown => {
      checkMediaTypes?.(request.headers, bytes.length);
      const encoding = request.headers.get("content-encoding");
      if (encoding !== null && codingsOf(encoding).some(isGzip)) return readGzipped(request, bytes, encoding, context);
      return fillBoundDefaults(defaults, readInput({ headers: request.headers, query: request.query, labels: context.labels }, bytes));
    };
    const readGzipped = async (request: HttpRequest, compressed: Uint8Array, encoding: string, context: ServerCallContext): Promise<unknown> => {
      const bytes = await gunzipRequest(compressed, context, settings.name);
      // The member bound to Content-Encoding sees the codings the application chose.
      const headers = new HttpHeaders(request.headers);
      const rest = codingsOf(encoding).filter((c) => !isGzip(c));
      if (rest.length === 0) headers.delete("content-encoding");
      else headers.set("content-encoding", rest.join(", "));
      return fillBoundDefaults(defaults, readInput({ headers, query: request.query, labels: context.labels }, bytes));
    };

    const inputStream = eventStreamPayload(input, "request");
    const inputBlob = streamingBlobPayload(settings, input, "request");
    const checkLabels = labelEscapeCheckOf(settings, operation);
    const readRequest =
      inputStream !== undefined
        ? (request: HttpRequest, context: ServerCallContext) => readEventStreamInput(settings, input, inputStream, request, context)
        : inputBlob !== undefined
          ? (request: HttpRequest, context: ServerCallContext) => readStreamingBlobInput(settings, input, inputBlob.name, request, context)
          : (request: HttpRequest, context: ServerCallContext) => {
              // A buffered body (what `@anvil/server` hands over) is read at once.
              const body = request.body;
              if (body === undefined || body instanceof Uint8Array) return readBuffered(request, body ?? EMPTY, context);
              return readBody(body).then((bytes) => readBuffered(request, bytes, context));
            };
    const read =
      checkLabels === undefined
        ? readRequest
        : (request: HttpRequest, context: ServerCallContext) => {
            checkLabels(request.path);
            return readRequest(request, context);
          };

    const status = operation.traits.http?.code ?? 200;
    // A HEAD answer carries no body: a member bound to Content-Length says how long the resource's is.
    const bodyless = operation.traits.http?.method === "HEAD";
    const writeOutput = responseWriterOf(output);
    const outputBlob = streamingBlobPayload(settings, output, "response");
    const outputStream = eventStreamPayload(output, "response");
    const write = (out: unknown, context?: ServerCallContext): HttpResponse | Promise<HttpResponse> => {
      const value = fillDefaults(output, out ?? {}, SERVER_OUTPUT_DEFAULTS) as Obj;
      const bytes = outputBlob === undefined ? undefined : value[outputBlob.name];
      if (outputBlob !== undefined && isByteStream(bytes)) {
        // The handler's stream is written as the transport reads it, never buffered.
        // Its length is the bound Content-Length member's, if the handler gave one; else it goes out chunked.
        const response = writeOutput({ ...value, [outputBlob.name]: undefined }, status, undefined, true);
        if (!response.headers.has("content-type")) response.headers.set("content-type", outputBlob.traits.mediaType ?? "application/octet-stream");
        return { ...response, body: byteChunks(bytes) };
      }
      const response = writeOutput(value, status, undefined, bodyless);
      if (outputStream === undefined) return response;
      // The events follow the bound members, written as the transport reads them.
      const headers = response.headers;
      headers.delete("content-length");
      const onInternalError = context === undefined ? undefined : (error: unknown) => context.reportInternalError?.(error);
      // Server-Sent Events for a caller whose Accept prefers them (worked out with the event-stream machinery).
      const accept = serverSentEvents ? context?.request?.headers.get("accept") : undefined;
      return withEventStreams((streams) => {
        if (typeof accept === "string" && streams.prefersServerSentEvents(accept))
          return streams.sseResponse(settings, outputStream, response, value[outputStream.name], context!, onInternalError);
        headers.set("content-type", EVENT_STREAM_MEDIA_TYPE);
        return { status: response.status, headers, body: streams.eventStreamBody(settings, outputStream, value[outputStream.name], onInternalError) };
      });
    };
    return { read, write };
  };

  /** An unmodeled error: the type header and `{"message": ...}`. */
  const plainError = (status: number, type: string, message: string, extra?: Record<string, string>): HttpResponse => ({
    status,
    headers: new HttpHeaders({ "content-type": JSON_MEDIA_TYPE, ...errorTypeHeaders(settings, type), ...extra }),
    body: utf8.encode(JSON.stringify({ message })),
  });

  /** Modeled errors (the ValidationException among them) as their bound members, with the error type header. */
  const errorWriter: ErrorResponseWriter = {
    modeled: (schema, members, status) => boundResponse(schema, members, status, errorTypeHeaders(settings, shapeName(schema.id))),
    plain: plainError,
  };

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

    deserializeRequest(operation: OperationSchema, request: HttpRequest, context: ServerCallContext): unknown {
      // Constraints are the server's to check (`@anvil/server` validates every protocol's input alike).
      return compiledOf(operation).read(request, context);
    },

    serializeResponse(operation: OperationSchema, output: unknown, context: ServerCallContext): HttpResponse | Promise<HttpResponse> {
      return compiledOf(operation).write(output, context);
    },

    serializeError(operation: OperationSchema | undefined, error: unknown, context: ServerCallContext): HttpResponse {
      return errorResponse(operation, error, context.service, errorWriter);
    },

    notFound(request: HttpRequest): Promise<HttpResponse> {
      return Promise.resolve(plainError(404, "UnknownOperationException", `no operation at ${request.method} ${request.path}`));
    },

    methodNotAllowed(request: HttpRequest, allowed: readonly string[]): HttpResponse {
      const methods = allowed.join(", ");
      return plainError(405, "MethodNotAllowedException", `${request.method} is not allowed at ${request.path}; it takes ${methods}`, { allow: methods });
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
  return fillBoundDefaults(boundDefaultsOf(input), value);
}

/**
 * The input of an event-stream request: the bound members from the HTTP
 * message (validated like any input), and the stream from its body, read
 * as the handler iterates it. A promise only while the event-stream
 * machinery first loads.
 */
function readEventStreamInput(
  settings: HttpBindingSettings,
  input: StructSchema,
  stream: EventStreamMember,
  request: HttpRequest,
  context: ServerCallContext,
): Obj | Promise<Obj> {
  const read = readMessage(settings, input, "request", { headers: request.headers, query: request.query, labels: context.labels }, new Uint8Array(0));
  const value = fillBoundDefaults(boundDefaultsOf(input), read);
  return withEventStreams((streams) => ({ ...value, [stream.name]: streams.eventStreamValue(settings, stream, binaryBody(request.body)) }));
}

/** Top-level `@default`s of members the request left out (the JSON reader already filled the body's); `members` from {@link boundDefaultsOf}. */
function fillBoundDefaults(members: readonly MemberSchema[], value: Obj): Obj {
  let out: Obj | undefined;
  for (const m of members) {
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

/** An operation as this protocol serves it. */
interface CompiledOperation {
  /** The input of a request: at once when its body is at hand, else a promise. */
  readonly read: (request: HttpRequest, context: ServerCallContext) => unknown;
  /** The response of an output: at once, except while an event stream's machinery first loads. */
  readonly write: (output: unknown, context?: ServerCallContext) => HttpResponse | Promise<HttpResponse>;
}

/**
 * Writes a structure's bound members as a response. `bodyless`: the body is
 * not sent here (a HEAD answer, a streamed one), so `Content-Length` is the
 * value of a member bound to it, if any; else the length of the bound
 * members' body, if there is one (a HEAD answer's), and otherwise left out.
 */
type ResponseWriter = (value: Obj, status: number, extra?: Record<string, string>, bodyless?: boolean) => HttpResponse;

function compileResponseWriter(settings: HttpBindingSettings, schema: StructSchema): ResponseWriter {
  const writeHeaders = headerWriterOf(schema, "response");
  const writeBody = bodyWriterOf(settings, schema, "response");
  const code = bindingsOf(schema, "response").responseCode;
  return (value, status, extra, bodyless = false) => {
    const headers = new HttpHeaders();
    writeHeaders?.(value, headers);
    const body = writeBody(value);
    if (body.contentType !== undefined && !headers.has("content-type")) headers.set("content-type", body.contentType);
    if (extra !== undefined) for (const [n, v] of Object.entries(extra)) headers.set(n, v);
    const codeValue = code === undefined ? undefined : value[code.name];
    const data = body.data ?? EMPTY;
    // Text is measured by the transport, which encodes it.
    const bound = bodyless ? headers.get("content-length") : null;
    if (bound !== null && bound !== "") {
      // The bound member's value stands: the length of what a GET would send, or of the stream to come.
    } else if (bodyless && data.length === 0) headers.delete("content-length");
    else if (typeof data !== "string") headers.set("content-length", String(data.byteLength));
    // A code that is no HTTP status (the 0 a 1.0 model's primitive integer defaults to) leaves the @http code.
    return {
      status: typeof codeValue === "number" && Number.isInteger(codeValue) && codeValue >= 100 && codeValue <= 599 ? codeValue : status,
      headers,
      body: data,
    };
  };
}

const EMPTY = new Uint8Array(0);

function isGzip(coding: string): boolean {
  return coding.toLowerCase() === "gzip";
}
