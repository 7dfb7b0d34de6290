/**
 * The server side of RPC v2 CBOR: one `POST /service/<Service>/operation/<Op>`
 * route per operation (also requiring `smithy-protocol: rpc-v2-cbor`, which
 * tells it apart from RPC v2 JSON on the same paths); input read and
 * validated, output and errors written as CBOR maps, errors with `__type`.
 */
import {
  HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  type OperationSchema,
  ProtocolError,
  type ServerCallContext,
  type ServerProtocol,
} from "@anvil/core";
import {
  acceptsMediaType,
  baseMediaType,
  fillDefaults,
  gunzipRequest,
  isGzipEncoded,
  postRoutes,
  readBody,
  refuseStreamingBlob,
  refuseTargetHeaders,
  rpcV2Path,
  SERVER_OUTPUT_DEFAULTS,
  VALIDATION_EXCEPTION_ID,
  errorResponse,
  type ErrorResponseWriter,
} from "@anvil/core/protocol";
import { list, member, string, struct } from "@anvil/core/codegenv1";
import { compileReader, compileWriter } from "@anvil/codec-cbor";
import { EVENT_STREAM_MEDIA_TYPE } from "@anvil/eventstream";
import { eventStreamMember, eventStreams, PROTOCOL_NAME } from "./streaming.js";
import { CBOR, isCborContentType, PROTOCOL_ID, RPC_V2_CBOR, SMITHY_PROTOCOL, UNIT, withTypeMarker } from "./wire.js";

/** The body of the protocol's own errors (unknown operation, malformed request, internal failure). */
const PlainError = struct("anvil.rpcv2cbor#PlainError", [member("message", string)]);

/**
 * `smithy.framework#ValidationException` as Smithy defines it, for
 * validation errors of operations that do not model it: SPEC §2.3 answers
 * invalid input with it on every protocol.
 */
const BuiltinValidationException = struct(
  VALIDATION_EXCEPTION_ID,
  [
    member("message", string, { required: true }),
    member(
      "fieldList",
      list(
        "smithy.framework#ValidationExceptionFieldList",
        member(
          "member",
          struct("smithy.framework#ValidationExceptionField", [member("path", string, { required: true }), member("message", string, { required: true })]),
        ),
      ),
    ),
  ],
  { error: "client" },
);

const ROUTE_HEADERS = Object.freeze({ [SMITHY_PROTOCOL]: RPC_V2_CBOR });

/** The server protocol. */
export function createRpcV2CborServer(): ServerProtocol {
  return Object.freeze({
    id: PROTOCOL_ID,

    routes: postRoutes((service, operation) => ({ path: rpcV2Path(service, operation), headers: ROUTE_HEADERS })),

    async deserializeRequest(operation: OperationSchema, request: HttpRequest, context: ServerCallContext): Promise<unknown> {
      // An operation the protocol cannot carry is the caller's mistake to hear about, before its handler runs.
      refuseStreamingBlob(PROTOCOL_NAME, operation, "decode");
      refuseTargetHeaders(PROTOCOL_NAME, request.headers);
      checkAccept(operation, request.headers.get("accept"));
      const contentType = request.headers.get("content-type");
      const stream = eventStreamMember(operation.input);
      if (stream !== undefined) {
        if (contentType === null || baseMediaType(contentType) !== EVENT_STREAM_MEDIA_TYPE)
          throw unsupportedMediaType(operation, EVENT_STREAM_MEDIA_TYPE, contentType);
        // The handler reads the events as they arrive; the other members come in the initial-request message.
        return eventStreams.read(operation.input, stream, request.body, "initial-request");
      }
      let bytes = await readBody(request.body);
      // An empty body (the input's zero value) is taken with or without a Content-Type: the spec sends
      // none for operations without input, and its tests send application/cbor for them.
      if (bytes.length > 0 && !isCborContentType(contentType)) throw unsupportedMediaType(operation, CBOR, contentType);
      // `@requestCompression`: AWS SDKs gzip large bodies (botocore does from 10 KB).
      if (bytes.length > 0 && isGzipEncoded(request.headers)) bytes = await gunzipRequest(bytes, context, "rpcv2Cbor");
      const read = compileReader(operation.input);
      // An empty body is an empty input structure (defaults filled by the reader).
      // Constraints are the server's to check (`@anvil/server` validates every protocol's input alike).
      return bytes.length === 0 ? read.fromValue({}) : read(bytes);
    },

    async serializeResponse(operation: OperationSchema, output: unknown, context: ServerCallContext): Promise<HttpResponse> {
      const headers = new HttpHeaders({ [SMITHY_PROTOCOL]: RPC_V2_CBOR });
      // An operation without output answers with no body and no Content-Type.
      if (operation.output.id === UNIT) return { status: 200, headers, body: new Uint8Array(0) };
      headers.set("content-type", CBOR);
      const value = fillDefaults(operation.output, output ?? {}, SERVER_OUTPUT_DEFAULTS) as Record<string, unknown>;
      const stream = eventStreamMember(operation.output);
      if (stream !== undefined) {
        // The other members open the stream in its initial-response message; the events follow as the transport reads them.
        const initial = compileWriter(operation.output)({ ...value, [stream.name]: undefined });
        headers.set("content-type", EVENT_STREAM_MEDIA_TYPE);
        return {
          status: 200,
          headers,
          body: eventStreams.body(stream, value[stream.name], "initial-response", initial, (error) => context.reportInternalError?.(error)),
        };
      }
      return { status: 200, headers, body: compileWriter(operation.output)(value) };
    },

    async serializeError(operation: OperationSchema | undefined, error: unknown, context: ServerCallContext): Promise<HttpResponse> {
      return errorResponse(operation, error, context.service, ERROR_WRITER);
    },

    recognizes(request: HttpRequest): boolean {
      return request.headers.get(SMITHY_PROTOCOL) === RPC_V2_CBOR;
    },

    notFound(request: HttpRequest): Promise<HttpResponse> {
      const protocol = request.headers.get(SMITHY_PROTOCOL);
      const message =
        protocol !== RPC_V2_CBOR
          ? `missing or unsupported ${SMITHY_PROTOCOL} header (expected ${RPC_V2_CBOR})`
          : `unknown operation ${request.method} ${request.path}`;
      return Promise.resolve(plainError(404, "UnknownOperationException", message));
    },
  });
}

/**
 * The refusal of a request body of another media type than the operation
 * reads, or of none: the rpcv2Cbor spec requires the type but names no
 * status for a request without it, so the answer is HTTP's (RFC 9110
 * §15.5.16), a 415, which restJson1's protocol tests also ask for.
 */
function unsupportedMediaType(operation: OperationSchema, expected: string, got: string | null): ProtocolError {
  return new ProtocolError("UnsupportedMediaTypeException", 415, `decode rpcv2Cbor: ${operation.name} expects Content-Type ${expected}, got ${got ?? "none"}`);
}

/**
 * Refuses (406, as restJson1 does) an `Accept` that does not admit what the
 * operation answers: `application/cbor`, or
 * `application/vnd.amazon.eventstream` for an event-stream output. No
 * `Accept` at all is fine: the protocol's tests ask servers to take
 * requests without one.
 */
function checkAccept(operation: OperationSchema, accept: string | null): void {
  if (accept === null) return;
  const answers = eventStreamMember(operation.output) === undefined ? CBOR : EVENT_STREAM_MEDIA_TYPE;
  if (!acceptsMediaType(accept, answers)) {
    throw new ProtocolError("NotAcceptableException", 406, `decode rpcv2Cbor: ${operation.name} answers ${answers}, which Accept: ${accept} does not admit`);
  }
}

/** A CBOR error response: `__type` first, then the error's members. */
/** How this protocol writes error responses: a CBOR map, `__type` first (the error's shape id). */
const ERROR_WRITER: ErrorResponseWriter = {
  modeled: (schema, members, status, queryHeader) => cborError(status, schema.id, compileWriter(schema)(members), queryHeader),
  plain: plainError,
  // Unmodeled, it still answers with Smithy's ValidationException (SPEC §2.3).
  unmodeledValidation: (error) =>
    cborError(400, BuiltinValidationException.id, compileWriter(BuiltinValidationException)({ message: error.message, fieldList: error.fieldList })),
};

/** A CBOR error response: the error's members with the `__type` marker. */
function cborError(status: number, type: string, members: Uint8Array, extra?: Record<string, string>): HttpResponse {
  const headers = new HttpHeaders({ [SMITHY_PROTOCOL]: RPC_V2_CBOR, "content-type": CBOR, ...extra });
  return { status, headers, body: withTypeMarker(members, type) };
}

function plainError(status: number, type: string, message: string): HttpResponse {
  return cborError(status, type, compileWriter(PlainError)({ message }));
}
