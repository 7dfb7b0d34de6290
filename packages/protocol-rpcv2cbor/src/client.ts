/**
 * The client side of RPC v2 CBOR: every operation is `POST
 * /service/<Service>/operation/<Operation>` below the endpoint's path, the
 * input a CBOR map (no body at all for an operation without input), and the
 * output or a `__type`-marked error back.
 */
import { type ClientCallContext, type ClientProtocol, HttpHeaders, type HttpRequest, type HttpResponse, type OperationSchema } from "@anvil/core";
import {
  BODY_EXCERPT_LENGTH,
  CLIENT_INPUT_DEFAULTS,
  correctRequired,
  fillDefaults,
  fillIdempotencyTokens,
  isQueryCompatible,
  readBody,
  refuseStreamingBlob,
  responseError,
  rpcV2Path,
} from "@anvil/core/protocol";
import { member, string, struct } from "@anvil/core/codegenv1";
import { compileReader, compileWriter } from "@anvil/codec-cbor";
import { EVENT_STREAM_MEDIA_TYPE } from "@anvil/eventstream";
import { eventStreamMember, eventStreams, PROTOCOL_NAME } from "./streaming.js";
import { CBOR, PROTOCOL_ID, RPC_V2_CBOR, SMITHY_PROTOCOL, UNIT } from "./wire.js";

/**
 * What the client reads of an error body before it knows the error's shape:
 * the type marker and the message (unknown members are skipped).
 */
const ErrorEnvelope = struct("anvil.rpcv2cbor#ErrorEnvelope", [member("__type", string), member("message", string), member("Message", string)]);

interface Envelope {
  readonly __type?: string;
  readonly message?: string;
  readonly Message?: string;
}

/** The client protocol. */
export function createRpcV2CborClient(): ClientProtocol {
  return Object.freeze({
    id: PROTOCOL_ID,

    async serializeRequest(operation: OperationSchema, input: unknown, context: ClientCallContext): Promise<HttpRequest> {
      refuseStreamingBlob(PROTOCOL_NAME, operation, "encode");
      // A response event stream is asked for by its media type (the protocol's errors stay CBOR).
      const accept = eventStreamMember(operation.output) === undefined ? CBOR : EVENT_STREAM_MEDIA_TYPE;
      const headers = new HttpHeaders({ [SMITHY_PROTOCOL]: RPC_V2_CBOR, accept });
      if (isQueryCompatible(context.service)) headers.set("x-amzn-query-mode", "true");
      const base = context.endpoint.pathname.replace(/\/+$/, "");
      const path = `${base}${rpcV2Path(context.service, operation)}`;
      const request = { method: "POST", path, query: [], headers, host: context.endpoint.host };
      // An operation without input sends no body and no Content-Type.
      if (operation.input.id === UNIT) return { ...request, body: undefined };
      const filled = fillIdempotencyTokens(operation.input, (input ?? {}) as Record<string, unknown>, context.idempotencyToken);
      const value = fillDefaults(operation.input, filled, CLIENT_INPUT_DEFAULTS) as Record<string, unknown>;
      const stream = eventStreamMember(operation.input);
      if (stream !== undefined) {
        // The other members open the stream in its initial-request message.
        const initial = compileWriter(operation.input)({ ...value, [stream.name]: undefined });
        headers.set("content-type", EVENT_STREAM_MEDIA_TYPE);
        return { ...request, body: eventStreams.body(stream, value[stream.name], "initial-request", initial) };
      }
      const body = compileWriter(operation.input)(value);
      headers.set("content-type", CBOR);
      headers.set("content-length", String(body.byteLength));
      return { ...request, body };
    },

    async deserializeResponse(operation: OperationSchema, response: HttpResponse, context: ClientCallContext): Promise<unknown> {
      const stream = eventStreamMember(operation.output);
      if (stream !== undefined && response.status >= 200 && response.status < 300) {
        return eventStreams.read(operation.output, stream, response.body, "initial-response");
      }
      const bytes = await readBody(response.body);
      if (response.status >= 200 && response.status < 300) {
        // No output: whatever the body holds (nothing, an empty map, "") is not read, as AWS SDKs do not.
        if (operation.output.id === UNIT) return {};
        const read = compileReader(operation.output);
        // An empty body is an empty structure (defaults filled by the reader).
        const output = bytes.length === 0 ? read.fromValue({}) : read(bytes);
        return correctRequired(operation.output, output as Record<string, unknown>);
      }
      throw errorOf(operation, response, bytes, context);
    },
  });
}

/** The error a non-2xx response stands for: the modeled error its type (or awsQuery code) names, else an UnmodeledError. */
function errorOf(operation: OperationSchema, response: HttpResponse, bytes: Uint8Array, context: ClientCallContext): Error {
  let envelope: Envelope | undefined;
  if (bytes.length > 0) {
    try {
      envelope = compileReader(ErrorEnvelope)(bytes) as Envelope;
    } catch {
      envelope = undefined; // a proxy's HTML page, a truncated body: reported with its start
    }
  }
  return responseError(operation, context.service, {
    protocol: "rpcv2Cbor",
    response,
    type: envelope?.__type,
    message: envelope?.message ?? envelope?.Message,
    bodyExcerpt: excerpt(bytes),
    members: (schema) => compileReader(schema)(bytes) as Record<string, unknown>,
    queryCompatible: true,
  });
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/**
 * The start of a body: as text when it looks like text (a proxy's HTML
 * page), else as hex (CBOR maps start with a byte of 0xa0 or more).
 */
function excerpt(bytes: Uint8Array): string {
  const head = bytes.subarray(0, BODY_EXCERPT_LENGTH);
  const isText = (b: number): boolean => b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b !== 0x7f);
  const first = head[0];
  if (first === undefined) return "";
  if (first < 0x80 && head.every((b) => b >= 0x80 || isText(b))) return utf8.decode(head);
  return Array.from(head.subarray(0, BODY_EXCERPT_LENGTH / 2), (b) => b.toString(16).padStart(2, "0")).join("");
}
