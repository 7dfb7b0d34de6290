/**
 * The server side of AWS JSON 1.0/1.1: one `POST /` route per operation,
 * told apart by `X-Amz-Target`; input read and validated, output and errors
 * written as JSON objects with a `__type` marker.
 */
import {
  HttpHeaders,
  ProtocolError,
  type HttpRequest,
  type HttpResponse,
  type OperationSchema,
  SerializationError,
  type ServerCallContext,
  type ServerProtocol,
} from "@anvil/core";
import {
  baseMediaType,
  fillDefaults,
  gunzipRequest,
  isBlank,
  isGzipEncoded,
  postRoutes,
  readBody,
  refuseStreamingBlob,
  SERVER_OUTPUT_DEFAULTS,
  errorResponse,
  type ErrorResponseWriter,
} from "@anvil/core/protocol";
import { compileReader, compileWriter } from "@anvil/codec-json";
import { EVENT_STREAM_MEDIA_TYPE } from "@anvil/eventstream";
import { eventStreamMember, eventStreamsOf, protocolName } from "./streaming.js";
import { JSON_SETTINGS, REQUEST_JSON_SETTINGS, targetOf, UNIT, type AwsJsonVariant } from "./wire.js";

const utf8 = new TextEncoder();

/** The server protocol of one AWS JSON variant. */
export function createAwsJsonServer(variant: AwsJsonVariant): ServerProtocol {
  const typeOf = (id: string): string => (variant.typeAsShapeId ? id : id.slice(id.indexOf("#") + 1));

  /** A JSON error response: `__type` first, then the error's members. */
  const jsonError = (status: number, type: string, membersJson: string, extra?: Record<string, string>): HttpResponse => {
    const members = membersJson.length > 2 ? `,${membersJson.slice(1)}` : "}";
    const headers = new HttpHeaders({ "content-type": variant.contentType, ...extra });
    return { status, headers, body: utf8.encode(`{"__type":${JSON.stringify(type)}${members}`) };
  };

  const plainError = (status: number, type: string, message: string): HttpResponse => jsonError(status, type, JSON.stringify({ message }));

  const errorWriter: ErrorResponseWriter = {
    modeled: (schema, members, status, queryHeader) => jsonError(status, typeOf(schema.id), compileWriter(schema, JSON_SETTINGS)(members), queryHeader),
    plain: plainError,
  };

  return Object.freeze({
    id: variant.id,

    routes: postRoutes((service, operation) => ({ path: "/", headers: { "x-amz-target": targetOf(service, operation) } })),

    async deserializeRequest(operation: OperationSchema, request: HttpRequest, context: ServerCallContext): Promise<unknown> {
      // An operation the protocol cannot carry is the caller's mistake to hear about, before its handler runs.
      refuseStreamingBlob(protocolName(variant), operation, "decode");
      const stream = eventStreamMember(operation.input);
      if (stream !== undefined) {
        const type = request.headers.get("content-type");
        if (type === null || baseMediaType(type) !== EVENT_STREAM_MEDIA_TYPE) {
          throw new SerializationError(`decode awsJson: an event-stream request body must be ${EVENT_STREAM_MEDIA_TYPE}, got ${type ?? "no Content-Type"}`);
        }
        // The handler reads the events as they arrive; the other members come in the initial-request message.
        return eventStreamsOf(variant).read(operation.input, stream, request.body, "initial-request");
      }
      let bytes = await readBody(request.body);
      checkContentType(operation, request.headers.get("content-type"), bytes);
      if (isGzipEncoded(request.headers)) bytes = await gunzipRequest(bytes, context, "awsJson");
      const read = compileReader(operation.input, REQUEST_JSON_SETTINGS);
      // Constraints are the server's to check (`@anvil/server` validates every protocol's input alike).
      return isBlank(bytes) ? read("{}") : read(bytes);
    },

    async serializeResponse(operation: OperationSchema, output: unknown, _context: ServerCallContext): Promise<HttpResponse> {
      const headers = new HttpHeaders({ "content-type": variant.contentType });
      // An operation without output answers with no body at all.
      if (operation.output.id === UNIT) return { status: 200, headers, body: new Uint8Array(0) };
      const value = fillDefaults(operation.output, output ?? {}, SERVER_OUTPUT_DEFAULTS) as Record<string, unknown>;
      const stream = eventStreamMember(operation.output);
      if (stream !== undefined) {
        // The other members open the stream in its initial-response message; the events follow as the transport reads them.
        const initial = compileWriter(operation.output, JSON_SETTINGS).toBytes({ ...value, [stream.name]: undefined });
        headers.set("content-type", EVENT_STREAM_MEDIA_TYPE);
        return { status: 200, headers, body: eventStreamsOf(variant).body(stream, value[stream.name], "initial-response", initial) };
      }
      return { status: 200, headers, body: compileWriter(operation.output, JSON_SETTINGS).toBytes(value) };
    },

    async serializeError(operation: OperationSchema | undefined, error: unknown, context: ServerCallContext): Promise<HttpResponse> {
      return errorResponse(operation, error, context.service, errorWriter);
    },

    recognizes(request: HttpRequest): boolean {
      return request.headers.has("x-amz-target");
    },

    notFound(request: HttpRequest): Promise<HttpResponse> {
      const target = request.headers.get("x-amz-target");
      const message =
        request.method !== "POST" || request.path !== "/"
          ? `awsJson requests are POST / with an X-Amz-Target header, got ${request.method} ${request.path}`
          : target
            ? `unknown operation ${target}`
            : "missing X-Amz-Target header";
      return Promise.resolve(jsonError(404, "UnknownOperationException", JSON.stringify({ message }), { "x-amzn-errortype": "UnknownOperationException" }));
    },
  });
}

/** The media types an AWS JSON body may be sent as: either version's own (SDKs send theirs), or plain JSON. */
const JSON_BODY_TYPES: ReadonlySet<string> = new Set(["application/x-amz-json-1.0", "application/x-amz-json-1.1", "application/json"]);

/**
 * Refuses a body declared as something other than JSON (a form, text) with
 * a 415, as restJson1 and rpcv2Cbor do. A body without a Content-Type, and
 * an empty one, are read as JSON.
 */
function checkContentType(operation: OperationSchema, contentType: string | null, bytes: Uint8Array): void {
  if (contentType === null || bytes.length === 0 || JSON_BODY_TYPES.has(baseMediaType(contentType))) return;
  throw new ProtocolError("UnsupportedMediaTypeException", 415, `${operation.name} expects Content-Type application/x-amz-json-1.0 or 1.1, got ${contentType}`);
}
