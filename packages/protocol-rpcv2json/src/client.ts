/**
 * The client side of RPC v2 JSON: every operation is `POST
 * /service/<Service>/operation/<Operation>` below the endpoint's path, the
 * input a JSON object (no body at all for an operation without input), and
 * the output or a `__type`-marked error back.
 */
import { type ClientCallContext, type ClientProtocol, HttpHeaders, type HttpRequest, type HttpResponse, type OperationSchema } from "@anvil/core";
import {
  CLIENT_INPUT_DEFAULTS,
  correctRequired,
  fillDefaults,
  fillIdempotencyTokens,
  gzip,
  isBlank,
  isQueryCompatible,
  jsonErrorBody,
  readBody,
  refuseStreamingBlob,
  responseError,
  rpcV2Path,
  stringField,
} from "@anvil/core/protocol";
import { compileReader, compileWriter } from "@anvil/codec-json";
import { JSON_MEDIA_TYPE, JSON_SETTINGS, PROTOCOL_ID, RPC_V2_JSON, SMITHY_PROTOCOL, UNIT } from "./wire.js";

/** The client protocol. */
export function createRpcV2JsonClient(): ClientProtocol {
  return Object.freeze({
    id: PROTOCOL_ID,

    async serializeRequest(operation: OperationSchema, input: unknown, context: ClientCallContext): Promise<HttpRequest> {
      refuseStreamingBlob("rpcv2Json", operation, "encode");
      const headers = new HttpHeaders({ [SMITHY_PROTOCOL]: RPC_V2_JSON, accept: JSON_MEDIA_TYPE });
      if (isQueryCompatible(context.service)) headers.set("x-amzn-query-mode", "true");
      const base = context.endpoint.pathname.replace(/\/+$/, "");
      const path = `${base}${rpcV2Path(context.service, operation)}`;
      const request = { method: "POST", path, query: [], headers, host: context.endpoint.host };
      // An operation without input sends no body and no Content-Type.
      if (operation.input.id === UNIT) return { ...request, body: undefined };
      const filled = fillIdempotencyTokens(operation.input, (input ?? {}) as Record<string, unknown>, context.idempotencyToken);
      const value = fillDefaults(operation.input, filled, CLIENT_INPUT_DEFAULTS) as Record<string, unknown>;
      let body = compileWriter(operation.input, JSON_SETTINGS).toBytes(value);
      headers.set("content-type", JSON_MEDIA_TYPE);
      if (operation.traits.requestCompression?.includes("gzip")) {
        body = await gzip(body);
        headers.set("content-encoding", "gzip");
      }
      headers.set("content-length", String(body.byteLength));
      return { ...request, body };
    },

    async deserializeResponse(operation: OperationSchema, response: HttpResponse, context: ClientCallContext): Promise<unknown> {
      const bytes = await readBody(response.body);
      if (response.status >= 200 && response.status < 300) {
        // No output: whatever the body holds (nothing, {}, "") is not read, as AWS SDKs do not.
        if (operation.output.id === UNIT) return {};
        const read = compileReader(operation.output, JSON_SETTINGS);
        // An empty body is an empty structure (defaults filled by the reader).
        return correctRequired(operation.output, (isBlank(bytes) ? read("{}") : read(bytes)) as Record<string, unknown>);
      }
      throw errorOf(operation, response, bytes, context);
    },
  });
}

/** The error a non-2xx response stands for: the modeled error its type (or awsQuery code) names, else an UnmodeledError. */
function errorOf(operation: OperationSchema, response: HttpResponse, bytes: Uint8Array, context: ClientCallContext): Error {
  const { body, message, bodyExcerpt } = jsonErrorBody(bytes);
  return responseError(operation, context.service, {
    protocol: "rpcv2Json",
    response,
    type: stringField(body, "__type"),
    message,
    bodyExcerpt,
    members: (schema) => compileReader(schema, JSON_SETTINGS).fromValue(body ?? {}) as Record<string, unknown>,
    queryCompatible: true,
  });
}
