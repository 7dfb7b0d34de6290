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
  type Codec,
  HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  type OperationSchema,
  ProtocolError,
  SerializationError,
  type ServiceSchema,
  UnmodeledError,
} from "@anvil/core";
import { BODY_EXCERPT_LENGTH, isThenable, readBody } from "@anvil/core/protocol";
import { GRPC_PROTOCOL_ID } from "./constants.js";
import { errorOfStatus, GRPC_STATUS, readStatus, type ReceivedStatus } from "./errors.js";
import { frameMessage, grpcFailure, oneMessageOptions, readMessages, readOneMessage } from "./frames.js";
import { grpcPath } from "./names.js";
import type { ResolvedGrpcOptions } from "./options.js";
import { GrpcStatus, statusFromHttp, statusName } from "./status.js";
import { type StreamMember, streamingBlobOf, streamMemberOf } from "./streams.js";
import { formatTimeout } from "./timeout.js";
import { GRPC_PROTO, isAnyGrpcContentType } from "./content-type.js";

const SIDE = "grpc client";
const USER_AGENT = "grpc-anvil/0.1";

/**
 * The header fields of every request, as an HTTP stack hands them over:
 * cheaper to make per call than from a record. In order of name, as
 * transports list them (nothing to sort).
 */
const REQUEST_FIELDS = Object.freeze(["content-type", GRPC_PROTO, "grpc-accept-encoding", "identity,gzip", "te", "trailers", "user-agent", USER_AGENT]);

/** A gRPC request has no query. */
const NO_QUERY: readonly (readonly [string, string])[] = Object.freeze([]);

/** What the client works out once per operation (on its first call: its schemas may still be loading when the client is made). */
interface Plan {
  /** The service the path was made for (an operation schema may be shared by services). */
  readonly service: ServiceSchema;
  /** `/<package>.<Service>/<Operation>`. */
  readonly path: string;
  /** Why the operation cannot be called over gRPC (it streams a blob), if it cannot. */
  readonly refusal: string | undefined;
  /** The input's and the output's `@streaming` union members, if they have one. */
  readonly inputStream: StreamMember | undefined;
  readonly outputStream: StreamMember | undefined;
  /** The input's writer and the output's reader (undefined for a refused operation). */
  readonly write: ((value: unknown) => Uint8Array) | undefined;
  readonly read: ((bytes: Uint8Array) => unknown) | undefined;
}

/** The message of a unary answer as it is: the client decodes it once the status says OK. */
const asIs = (message: Uint8Array | undefined): Uint8Array | undefined => message;

/** The client protocol. */
export function createGrpcClient(options: ResolvedGrpcOptions): ClientProtocol {
  const { codec } = options;
  const plans = new WeakMap<OperationSchema, Plan>();
  const planOf = (operation: OperationSchema, service: ServiceSchema): Plan => {
    let plan = plans.get(operation);
    if (plan === undefined || plan.service !== service) plans.set(operation, (plan = makePlan(operation, service, codec)));
    return plan;
  };
  const unary = oneMessageOptions(options.maxReceiveMessageBytes, SIDE);
  // The endpoint's path without its trailing slashes, for the last endpoint seen (a client has one).
  let lastEndpoint: URL | undefined;
  let lastBase = "";
  let lastHost = "";

  return Object.freeze({
    id: GRPC_PROTOCOL_ID,
    requiresHttp2: true,

    async serializeRequest(operation: OperationSchema, input: unknown, context: ClientCallContext): Promise<HttpRequest> {
      const plan = planOf(operation, context.service);
      if (plan.refusal !== undefined) throw new SerializationError(plan.refusal);
      const headers = HttpHeaders.fromRawPairs(REQUEST_FIELDS);
      if (context.deadline !== undefined) headers.set("grpc-timeout", formatTimeout(context.deadline - Date.now()));
      const endpoint = context.endpoint;
      if (endpoint !== lastEndpoint) {
        lastBase = endpoint.pathname.replace(/\/+$/, "");
        lastHost = endpoint.host;
        lastEndpoint = endpoint;
      }
      const path = lastBase === "" ? plan.path : `${lastBase}${plan.path}`;
      const stream = plan.inputStream;
      let body: HttpRequest["body"];
      if (stream !== undefined) {
        const events = (input as Record<string, unknown> | undefined)?.[stream.name] as AsyncIterable<unknown> | undefined;
        body = encodeEach(events, plan.write!);
      } else {
        body = frameMessage(plan.write!(input ?? {}));
      }
      return { method: "POST", path, query: NO_QUERY, headers, host: lastHost, body };
    },

    async deserializeResponse(operation: OperationSchema, response: HttpResponse, context: ClientCallContext): Promise<unknown> {
      const headers = response.headers;
      if (response.status !== 200 || !isAnyGrpcContentType(headers.get("content-type"))) {
        throw await notGrpc(response);
      }
      const plan = planOf(operation, context.service);
      const read = plan.read;
      if (read === undefined) throw new SerializationError(plan.refusal!);
      // Trailers-only: the status came with the headers, and nothing follows.
      const early = readStatus(headers);
      const stream = plan.outputStream;
      if (early !== undefined) {
        // Nothing follows, but the body must still be read to its end for the stream to close.
        await readBody(response.body).catch(() => undefined);
        if (early.code !== GrpcStatus.OK) throw errorOfStatus(early, operation, context.service, options);
        if (stream === undefined) throw errorOfStatus(noMessage(operation), operation, context.service, options);
        return { [stream.name]: emptyEvents() };
      }
      const encoding = headers.get("grpc-encoding") ?? undefined;
      if (stream !== undefined) {
        const messages = readMessages(response.body, { maxMessageBytes: options.maxReceiveMessageBytes, encoding, side: SIDE });
        const fail = (status: ReceivedStatus): Error => errorOfStatus(status, operation, context.service, options);
        return { [stream.name]: decodeEach(messages, read, response, fail) };
      }
      // A unary answer: its one message, read whole (no generator), then its status.
      let message: Uint8Array | undefined;
      try {
        // An encoding the client cannot read is refused from the head, compressed message or not.
        if (encoding !== undefined && encoding !== "identity" && encoding !== "gzip") {
          throw grpcFailure("UNIMPLEMENTED", `${SIDE}: message encoding ${encoding} is not supported (identity, gzip)`);
        }
        const one = readOneMessage(response.body, headers, unary, asIs) as Uint8Array | undefined | Promise<Uint8Array | undefined>;
        message = one instanceof Promise ? await one : one;
      } catch (error) {
        throw clientError(error);
      }
      const trailers = response.trailers;
      // Trailers given as headers (the in-memory transport's) cost no wait.
      const status = statusOf(isThenable(trailers) ? await trailers : trailers);
      if (status.code !== GrpcStatus.OK) throw errorOfStatus(status, operation, context.service, options);
      if (message === undefined) throw errorOfStatus(noMessage(operation), operation, context.service, options);
      return read(message);
    },
  });
}

/** The status of an answer that ended without its message. */
function noMessage(operation: OperationSchema): ReceivedStatus {
  return { code: GrpcStatus.UNIMPLEMENTED, message: `${SIDE}: ${operation.name} answered no message`, details: null };
}

/** An operation's {@link Plan}. */
function makePlan(operation: OperationSchema, service: ServiceSchema, codec: Codec): Plan {
  const blob = streamingBlobOf(operation.input) ?? streamingBlobOf(operation.output);
  const refusal = blob === undefined ? undefined : `encode grpc: ${operation.name} streams a blob (${blob.name}), which gRPC cannot carry`;
  const inputStream = streamMemberOf(operation.input);
  const outputStream = streamMemberOf(operation.output);
  return Object.freeze({
    service,
    path: grpcPath(service, operation),
    refusal,
    inputStream,
    outputStream,
    write: refusal === undefined ? codec.writer<unknown>(inputStream?.schema ?? operation.input) : undefined,
    read: refusal !== undefined ? undefined : outputStream === undefined ? codec.reader(operation.output) : codec.reader(outputStream.schema),
  });
}

const OK_STATUS: ReceivedStatus = Object.freeze({ code: GrpcStatus.OK, message: "", details: null });

/** The status trailers carry; a response that ends without one is INTERNAL. */
function statusOf(trailers: Headers | undefined): ReceivedStatus {
  // Most answers are OK, whose message and details nobody reads.
  if (trailers?.get(GRPC_STATUS) === "0") return OK_STATUS;
  const status = trailers === undefined ? undefined : readStatus(trailers);
  return status ?? { code: GrpcStatus.INTERNAL, message: `${SIDE}: the answer ended without a grpc-status`, details: null };
}

/** The status in a response's trailers; a response that ends without one is INTERNAL. */
async function trailerStatus(response: HttpResponse): Promise<ReceivedStatus> {
  return statusOf(response.trailers === undefined ? undefined : await response.trailers);
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
