/**
 * The client side of RPC v2 JSON: every operation is `POST
 * /service/<Service>/operation/<Operation>` below the endpoint's path, the
 * input a JSON object (no body at all for an operation without input), and
 * the output or a `__type`-marked error back.
 */
import {
  type ClientCallContext,
  type ClientProtocol,
  HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  type OperationSchema,
  UnmodeledError,
} from "@anvil/core";
import {
  BODY_EXCERPT_LENGTH,
  CLIENT_INPUT_DEFAULTS,
  correctRequired,
  bodyMessage,
  createModeledError,
  fillDefaults,
  fillIdempotencyTokens,
  findErrorByQueryCode,
  findErrorSchema,
  gzip,
  isBlank,
  isQueryCompatible,
  readBody,
  refuseStreamingBlob,
  responseQueryCode,
  rpcV2Path,
  sanitizeErrorType,
} from "@anvil/core/protocol";
import { compileReader, compileWriter } from "@anvil/codec-json";
import { JSON_MEDIA_TYPE, JSON_SETTINGS, PROTOCOL_ID, RPC_V2_JSON, SMITHY_PROTOCOL, UNIT } from "./wire.js";

const utf8 = new TextDecoder("utf-8", { fatal: false });

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
        const read = compileReader(operation.output, JSON_SETTINGS);
        // An empty body is an empty structure (defaults filled by the reader).
        return correctRequired(operation.output, (isBlank(bytes) ? read("{}") : read(bytes)) as Record<string, unknown>);
      }
      throw errorOf(operation, response, bytes, context);
    },
  });
}

/** The error a non-2xx response stands for: the modeled error its type names, else an UnmodeledError. */
function errorOf(operation: OperationSchema, response: HttpResponse, bytes: Uint8Array, context: ClientCallContext): Error {
  const $metadata = { httpStatus: response.status, ...requestIdOf(response.headers) };
  let parsed: unknown;
  let text = "";
  if (!isBlank(bytes)) {
    text = utf8.decode(bytes);
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined; // a proxy's HTML page, a truncated body: reported below
    }
  }
  const body = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  const type = stringField(body, "__type");
  const name = type === undefined ? undefined : sanitizeErrorType(type);
  let schema = name === undefined ? undefined : (findErrorSchema(operation.errors, name) ?? findErrorSchema(context.service.errors, name));
  const queryCode = responseQueryCode(response.headers, context.service);
  if (schema === undefined && queryCode !== undefined) schema = findErrorByQueryCode([...operation.errors, ...context.service.errors], queryCode);
  const bodyExcerpt = text.slice(0, BODY_EXCERPT_LENGTH);
  if (schema !== undefined) {
    try {
      const members = compileReader(schema, JSON_SETTINGS).fromValue(body ?? {}) as Record<string, unknown>;
      return createModeledError(schema, members, { $metadata, message: bodyMessage(body) });
    } catch (cause) {
      return new UnmodeledError(name ?? "UnknownError", `rpcv2Json: error ${name ?? queryCode} body does not match its shape`, {
        $metadata,
        cause,
        bodyExcerpt,
      });
    }
  }
  const code = queryCode || name || `Http${response.status}`;
  const message = bodyMessage(body) ?? `rpcv2Json: HTTP ${response.status} error response${name ? ` (${name})` : ""}`;
  return new UnmodeledError(code, message, { $metadata, bodyExcerpt });
}

function stringField(body: Record<string, unknown> | undefined, key: string): string | undefined {
  const v = body?.[key];
  return typeof v === "string" ? v : undefined;
}

function requestIdOf(headers: Headers): { requestId?: string } {
  const id = headers.get("x-amzn-requestid") ?? headers.get("x-amz-request-id");
  return id === null ? {} : { requestId: id };
}
