/**
 * The server side of RPC v2 JSON: one `POST /service/<Service>/operation/<Op>`
 * route per operation (also requiring `smithy-protocol: rpc-v2-json`, which
 * tells it apart from RPC v2 CBOR on the same paths); input read and
 * validated, output and errors written as JSON objects, errors with `__type`.
 */
import {
  HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  type OperationSchema,
  SerializationError,
  type ServerCallContext,
  type ServerProtocol,
} from "@anvil/core";
import {
  fillDefaults,
  gunzipRequest,
  isBlank,
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
import { compileReader, compileWriter } from "@anvil/codec-json";
import { isJsonContentType, JSON_MEDIA_TYPE, JSON_SETTINGS, PROTOCOL_ID, REQUEST_JSON_SETTINGS, RPC_V2_JSON, SMITHY_PROTOCOL, UNIT } from "./wire.js";

const ROUTE_HEADERS = Object.freeze({ [SMITHY_PROTOCOL]: RPC_V2_JSON });

const utf8 = new TextEncoder();

/** The server protocol. */
export function createRpcV2JsonServer(): ServerProtocol {
  return Object.freeze({
    id: PROTOCOL_ID,

    routes: postRoutes((service, operation) => ({ path: rpcV2Path(service, operation), headers: ROUTE_HEADERS })),

    async deserializeRequest(operation: OperationSchema, request: HttpRequest, context: ServerCallContext): Promise<unknown> {
      refuseStreamingBlob("rpcv2Json", operation, "decode");
      refuseTargetHeaders("rpcv2Json", request.headers);
      let bytes = await readBody(request.body);
      if (isGzipEncoded(request.headers)) bytes = await gunzipRequest(bytes, context, "rpcv2Json");
      if (bytes.length > 0 && !isJsonContentType(request.headers.get("content-type"))) {
        throw new SerializationError(
          `decode rpcv2Json: a request body must be ${JSON_MEDIA_TYPE}, got ${request.headers.get("content-type") ?? "no Content-Type"}`,
        );
      }
      const read = compileReader(operation.input, REQUEST_JSON_SETTINGS);
      // An empty body is an empty input structure (defaults filled by the reader).
      // Constraints are the server's to check (`@anvil/server` validates every protocol's input alike).
      return isBlank(bytes) ? read("{}") : read(bytes);
    },

    async serializeResponse(operation: OperationSchema, output: unknown, _context: ServerCallContext): Promise<HttpResponse> {
      const headers = new HttpHeaders({ [SMITHY_PROTOCOL]: RPC_V2_JSON });
      // An operation without output answers with no body and no Content-Type.
      if (operation.output.id === UNIT) return { status: 200, headers, body: new Uint8Array(0) };
      headers.set("content-type", JSON_MEDIA_TYPE);
      const value = fillDefaults(operation.output, output ?? {}, SERVER_OUTPUT_DEFAULTS) as Record<string, unknown>;
      return { status: 200, headers, body: compileWriter(operation.output, JSON_SETTINGS).toBytes(value) };
    },

    async serializeError(operation: OperationSchema | undefined, error: unknown, context: ServerCallContext): Promise<HttpResponse> {
      return errorResponse(operation, error, context.service, ERROR_WRITER);
    },

    recognizes(request: HttpRequest): boolean {
      return request.headers.get(SMITHY_PROTOCOL) === RPC_V2_JSON;
    },

    notFound(request: HttpRequest): Promise<HttpResponse> {
      const protocol = request.headers.get(SMITHY_PROTOCOL);
      const message =
        protocol !== RPC_V2_JSON
          ? `missing or unsupported ${SMITHY_PROTOCOL} header (expected ${RPC_V2_JSON})`
          : `unknown operation ${request.method} ${request.path}`;
      return Promise.resolve(plainError(404, "UnknownOperationException", message));
    },
  });
}

/** How this protocol writes error responses: a JSON object, `__type` first (the error's shape id). */
const ERROR_WRITER: ErrorResponseWriter = {
  modeled: (schema, members, status, queryHeader) => jsonError(status, schema.id, compileWriter(schema, JSON_SETTINGS)(members), queryHeader),
  plain: plainError,
  // Unmodeled, it still answers with Smithy's ValidationException (SPEC §2.3).
  unmodeledValidation: (error) => jsonError(400, VALIDATION_EXCEPTION_ID, JSON.stringify({ message: error.message, fieldList: error.fieldList })),
};

/** A JSON error response: `__type` first, then the error's members (a JSON object's text). */
function jsonError(status: number, type: string, membersJson: string, extra?: Record<string, string>): HttpResponse {
  const headers = new HttpHeaders({ [SMITHY_PROTOCOL]: RPC_V2_JSON, "content-type": JSON_MEDIA_TYPE, ...extra });
  const members = membersJson.length > 2 ? `,${membersJson.slice(1)}` : "}";
  return { status, headers, body: utf8.encode(`{"__type":${JSON.stringify(type)}${members}`) };
}

function plainError(status: number, type: string, message: string): HttpResponse {
  return jsonError(status, type, JSON.stringify({ message }));
}
