/**
 * The client side of gRPC: the input as one length-prefixed message (or a
 * stream of them for a streamed input member) to
 * `/<package>.<Service>/<Operation>`; the answer's message (or messages)
 * then its `grpc-status` trailers, or a trailers-only error. An answer
 * that is not gRPC at all (a proxy's 404, 503 or HTML page) fails with the
 * status the gRPC HTTP-to-status table gives it.
 */
import {
  type ClientCallContext,
  type ClientProtocol,
  type HttpRequest,
  type HttpResponse,
  type OperationSchema,
  ProtocolError,
  SerializationError,
  UnmodeledError,
} from "@anvil/core";
import { BODY_EXCERPT_LENGTH, readBody } from "@anvil/core/protocol";
import { GRPC_PROTOCOL_ID } from "./constants.js";
import { errorOfStatus, readStatus, type ReceivedStatus } from "./errors.js";
import { frameMessage, grpcFailure, readMessages } from "./frames.js";
import { grpcPath } from "./names.js";
import type { ResolvedGrpcOptions } from "./options.js";
import { GrpcStatus, statusFromHttp, statusName } from "./status.js";
import { streamingBlobOf, streamMemberOf } from "./streams.js";
import { formatTimeout } from "./timeout.js";
import { GRPC_PROTO, isAnyGrpcContentType } from "./content-type.js";

const SIDE = "grpc client";
const USER_AGENT = "grpc-anvil/0.1";

/** The client protocol. */
export function createGrpcClient(options: ResolvedGrpcOptions): ClientProtocol {
  const { codec } = options;

  return Object.freeze({
    id: GRPC_PROTOCOL_ID,
    requiresHttp2: true,

    async serializeRequest(operation: OperationSchema, input: unknown, context: ClientCallContext): Promise<HttpRequest> {
      const blob = streamingBlobOf(operation.input) ?? streamingBlobOf(operation.output);
      if (blob !== undefined) throw new SerializationError(`encode grpc: ${operation.name} streams a blob (${blob.name}), which gRPC cannot carry`);
      const headers = new Headers({ "content-type": GRPC_PROTO, te: "trailers", "user-agent": USER_AGENT, "grpc-accept-encoding": "identity,gzip" });
      if (context.deadline !== undefined) headers.set("grpc-timeout", formatTimeout(context.deadline - Date.now()));
      const base = context.endpoint.pathname.replace(/\/+$/, "");
      const request = { method: "POST", path: `${base}${grpcPath(context.service, operation)}`, query: [], headers, host: context.endpoint.host };
      const stream = streamMemberOf(operation.input);
      if (stream !== undefined) {
        const events = (input as Record<string, unknown> | undefined)?.[stream.name] as AsyncIterable<unknown> | undefined;
        return { ...request, body: encodeEach(events, codec.writer<unknown>(stream.schema)) };
      }
      return { ...request, body: frameMessage(codec.writer<unknown>(operation.input)(input ?? {})) };
    },

    async deserializeResponse(operation: OperationSchema, response: HttpResponse, context: ClientCallContext): Promise<unknown> {
      const fail = (status: ReceivedStatus): Error => errorOfStatus(status, operation, context.service, options);
      if (response.status !== 200 || !isAnyGrpcContentType(response.headers.get("content-type"))) {
        throw await notGrpc(response);
      }
      // Trailers-only: the status came with the headers, and nothing follows.
      const early = readStatus(response.headers);
      const stream = streamMemberOf(operation.output);
      if (early !== undefined) {
        // Nothing follows, but the body must still be read to its end for the stream to close.
        await readBody(response.body).catch(() => undefined);
        if (early.code !== GrpcStatus.OK) throw fail(early);
        if (stream === undefined) throw fail({ code: GrpcStatus.UNIMPLEMENTED, message: `${SIDE}: ${operation.name} answered no message`, details: null });
        return { [stream.name]: emptyEvents() };
      }
      const messages = readMessages(response.body, {
        maxMessageBytes: options.maxReceiveMessageBytes,
        encoding: response.headers.get("grpc-encoding") ?? undefined,
        side: SIDE,
      });
      if (stream !== undefined) {
        return { [stream.name]: decodeEach(messages, codec.reader(stream.schema), response, fail) };
      }
      let message: Uint8Array | undefined;
      try {
        for await (const m of messages) {
          if (message !== undefined) throw grpcFailure("UNIMPLEMENTED", `${SIDE}: ${operation.name} answered more than one message`);
          message = m;
        }
      } catch (error) {
        throw clientError(error);
      }
      const status = await trailerStatus(response);
      if (status.code !== GrpcStatus.OK) throw fail(status);
      if (message === undefined) throw fail({ code: GrpcStatus.UNIMPLEMENTED, message: `${SIDE}: ${operation.name} answered no message`, details: null });
      return codec.reader(operation.output)(message);
    },
  });
}

/** The status in a response's trailers; a response that ends without one is INTERNAL. */
async function trailerStatus(response: HttpResponse): Promise<ReceivedStatus> {
  const trailers = response.trailers === undefined ? undefined : await response.trailers;
  const status = trailers === undefined ? undefined : readStatus(trailers);
  return status ?? { code: GrpcStatus.INTERNAL, message: `${SIDE}: the answer ended without a grpc-status`, details: null };
}

/** The error of an answer that is not gRPC: the status the HTTP-to-status table gives it, with an excerpt of its body. */
async function notGrpc(response: HttpResponse): Promise<UnmodeledError> {
  const code = response.status === 200 ? GrpcStatus.UNKNOWN : statusFromHttp(response.status);
  let bodyExcerpt = "";
  try {
    bodyExcerpt = new TextDecoder("utf-8", { fatal: false }).decode((await readBody(response.body)).subarray(0, BODY_EXCERPT_LENGTH));
  } catch {
    // the excerpt is for diagnosis only
  }
  const type = response.headers.get("content-type") ?? "no content type";
  return new UnmodeledError(statusName(code), `${SIDE}: HTTP ${response.status} (${type}) is not a gRPC answer`, {
    $metadata: { httpStatus: code },
    bodyExcerpt,
  });
}

/** A frame-level failure (over the limit, cut short) as the call's error. */
function clientError(error: unknown): unknown {
  if (!ProtocolError.is(error)) return error;
  const name = error.code as keyof typeof GrpcStatus;
  return new UnmodeledError(name, error.message, { $metadata: { httpStatus: GrpcStatus[name] ?? GrpcStatus.INTERNAL }, cause: error });
}

async function* emptyEvents(): AsyncGenerator<never, void, undefined> {}

/** The answer's events, decoded as the caller iterates; the trailers' status ends the stream (or fails it). */
async function* decodeEach(
  messages: AsyncIterable<Uint8Array>,
  read: (bytes: Uint8Array) => unknown,
  response: HttpResponse,
  fail: (status: ReceivedStatus) => Error,
): AsyncGenerator<unknown, void, undefined> {
  try {
    for await (const message of messages) yield read(message);
  } catch (error) {
    throw clientError(error);
  }
  const status = await trailerStatus(response);
  if (status.code !== GrpcStatus.OK) throw fail(status);
}

/** The caller's events as framed messages, pulled as the transport can send them. */
async function* encodeEach(events: AsyncIterable<unknown> | undefined, write: (value: unknown) => Uint8Array): AsyncGenerator<Uint8Array, void, undefined> {
  if (events === undefined) return;
  for await (const event of events) yield frameMessage(write(event));
}
