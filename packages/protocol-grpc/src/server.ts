/**
 * The server side of gRPC: one `POST /<package>.<Service>/<Operation>`
 * route per operation; the body's length-prefixed messages read as they
 * arrive (the protocol bounds them itself, so the server does not buffer
 * them); the answer a message then `grpc-status` trailers, a stream of
 * messages for a streamed output, or a trailers-only answer for an error.
 */
import {
  AnvilError,
  HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  ModeledError,
  type OperationSchema,
  ProtocolError,
  type ServerCallContext,
  type ServerProtocol,
  TransportError,
} from "@anvil/core";
import { DEADLINE_EXCEEDED, postRoutes } from "@anvil/core/protocol";
import { GRPC_PROTOCOL_ID } from "./constants.js";
import { statusOfError, writeStatus } from "./errors.js";
import { frameMessage, grpcFailure, oneMessageOptions, readMessages, readOneMessage } from "./frames.js";
import { grpcPath } from "./names.js";
import type { ResolvedGrpcOptions } from "./options.js";
import { GrpcStatus } from "./status.js";
import { nextOrAbort, type StreamMember, streamingBlobOf, streamMemberOf } from "./streams.js";
import { parseTimeout } from "./timeout.js";
import { GRPC_PROTO, isAnyGrpcContentType, isGrpcContentType } from "./content-type.js";

const NO_HEADERS = Object.freeze({});
const SIDE = "grpc server";

/** The message encodings the server reads, as every answer says (`grpc-accept-encoding`). */
const ACCEPTED_ENCODINGS = "identity, gzip";

/** The header fields of every gRPC answer, as an HTTP stack hands them over: cheaper to make per call than from a record. */
const ANSWER_FIELDS = Object.freeze(["content-type", GRPC_PROTO, "grpc-accept-encoding", ACCEPTED_ENCODINGS]);

/** The trailers of every successful call (only read by the transports). */
const OK_TRAILERS = new HttpHeaders({ "grpc-status": "0" });

/** The server protocol. */
export function createGrpcServer(options: ResolvedGrpcOptions): ServerProtocol {
  const { codec } = options;
  const plans = new WeakMap<OperationSchema, OperationPlan>();
  const planOf = (operation: OperationSchema): OperationPlan => {
    let plan = plans.get(operation);
    if (plan === undefined) plans.set(operation, (plan = new OperationPlan(operation, codec)));
    return plan;
  };
  const readOptions = (request: HttpRequest) => ({
    maxMessageBytes: options.maxReceiveMessageBytes,
    encoding: request.headers.get("grpc-encoding") ?? undefined,
    side: SIDE,
  });
  const unary = oneMessageOptions(options.maxReceiveMessageBytes, SIDE);

  const errorAnswer = (operation: OperationSchema | undefined, error: unknown, context: ServerCallContext): HttpResponse => {
    // A caller that is not speaking gRPC gets a plain HTTP answer it can read.
    if (ProtocolError.is(error) && error.code === "UnsupportedMediaTypeException") {
      return { status: 415, headers: new HttpHeaders({ "content-type": "text/plain" }), body: new TextEncoder().encode(error.message) };
    }
    const headers = writeStatus(HttpHeaders.fromRawPairs(ANSWER_FIELDS), statusOfError(operation, error, context.service), context.service, options);
    return { status: 200, headers, body: undefined };
  };

  return Object.freeze({
    id: GRPC_PROTOCOL_ID,
    readsOwnBody: true,

    routes: postRoutes((service, operation) => ({ path: grpcPath(service, operation), headers: NO_HEADERS })),

    deadline(request: HttpRequest): number | undefined {
      const value = request.headers.get("grpc-timeout");
      return value === null ? undefined : parseTimeout(value);
    },

    deserializeRequest(operation: OperationSchema, request: HttpRequest, context: ServerCallContext): unknown {
      const contentType = request.headers.get("content-type");
      if (!isGrpcContentType(contentType)) {
        if (isAnyGrpcContentType(contentType))
          throw grpcFailure("UNIMPLEMENTED", `${SIDE}: content type ${contentType} is not supported (application/grpc+proto)`);
        throw new ProtocolError(
          "UnsupportedMediaTypeException",
          415,
          `${SIDE}: a gRPC request must be application/grpc+proto, got ${contentType ?? "no Content-Type"}`,
        );
      }
      // An encoding the server cannot read is refused from the head, compressed messages or not (as grpc-go does).
      const encoding = request.headers.get("grpc-encoding");
      if (encoding !== null && encoding !== "identity" && encoding !== "gzip") {
        throw grpcFailure("UNIMPLEMENTED", `${SIDE}: message encoding ${encoding} is not supported (${ACCEPTED_ENCODINGS})`);
      }
      const plan = planOf(operation);
      if (plan.refusal !== undefined) throw grpcFailure("UNIMPLEMENTED", plan.refusal);
      const stream = plan.inputStream;
      if (stream !== undefined) {
        // The handler reads the events as they arrive.
        return { [stream.name]: decodeEach(readMessages(request.body, readOptions(request)), plan.read, context.signal) };
      }
      // A body at hand (the Node adapter's, for most unary calls) is decoded at once: nothing for the pipeline to wait on.
      return readOneMessage(request.body, request.headers, unary, plan.readOne);
    },

    serializeResponse(operation: OperationSchema, output: unknown, context: ServerCallContext): HttpResponse {
      const headers = HttpHeaders.fromRawPairs(ANSWER_FIELDS);
      const plan = planOf(operation);
      const stream = plan.outputStream;
      if (stream !== undefined) {
        const events = (output as Record<string, unknown> | undefined)?.[stream.name] as AsyncIterable<unknown> | undefined;
        let finish!: (trailers: Headers) => void;
        const trailers = new Promise<Headers>((resolve) => (finish = resolve));
        const signal = context.signal;
        const body = encodeEach(events, plan.write, signal, (error) => {
          if (error === undefined) return finish(OK_TRAILERS);
          const failure = streamError(operation, error, signal);
          // What the caller hears as INTERNAL (a plain error, an undeclared modeled one) is the server's to log.
          if (!AnvilError.isAnvilError(failure) && !(signal?.aborted === true && error === signal.reason)) context.reportInternalError?.(error);
          finish(writeStatus(new HttpHeaders(), statusOfError(operation, failure, context.service), context.service, options));
        });
        return { status: 200, headers, body, trailers };
      }
      return { status: 200, headers, body: frameMessage(plan.write(output ?? {})), trailers: OK_TRAILERS };
    },

    serializeError(operation: OperationSchema | undefined, error: unknown, context: ServerCallContext): HttpResponse {
      return errorAnswer(operation, error, context);
    },

    recognizes(request: HttpRequest): boolean {
      return isAnyGrpcContentType(request.headers.get("content-type"));
    },

    methodNotAllowed(request: HttpRequest, allowed: readonly string[]): HttpResponse {
      // gRPC calls are POSTs: another verb on a method's path is an HTTP 405 (which gRPC clients read as UNIMPLEMENTED).
      const headers = writeStatus(
        HttpHeaders.fromRawPairs(ANSWER_FIELDS),
        { code: GrpcStatus.UNIMPLEMENTED, message: `${request.method} ${request.path}: gRPC calls are ${allowed.join(", ")}` },
        undefined,
        options,
      );
      headers.set("allow", allowed.join(", "));
      return { status: 405, headers, body: undefined };
    },

    notFound(request: HttpRequest): Promise<HttpResponse> | undefined {
      // Only a gRPC caller hears about it in gRPC terms; other protocols answer the rest.
      if (!isAnyGrpcContentType(request.headers.get("content-type"))) return undefined;
      const headers = writeStatus(
        HttpHeaders.fromRawPairs(ANSWER_FIELDS),
        { code: GrpcStatus.UNIMPLEMENTED, message: `unknown method ${request.path}` },
        undefined,
        options,
      );
      return Promise.resolve({ status: 200, headers, body: undefined });
    },
  });
}

/**
 * The error a stream ended with, as the caller may hear of it: the call's
 * signal firing for another reason than its deadline (the server shutting
 * down; a caller that went away hears nothing) is UNAVAILABLE; see
 * {@link declaredOnly} for the rest.
 */
function streamError(operation: OperationSchema, error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted === true && error === signal.reason && !(TransportError.is(error) && error.code === DEADLINE_EXCEEDED)) {
    return grpcFailure("UNAVAILABLE", `${SIDE}: the call was stopped (the server is shutting down)`);
  }
  return declaredOnly(operation, error);
}

/**
 * An error a stream ended with, as the caller may hear of it: a modeled error
 * the operation (or its service) does not declare is an internal failure,
 * as the server treats a handler's throw.
 */
function declaredOnly(operation: OperationSchema, error: unknown): unknown {
  if (!ModeledError.isModeledError(error)) return error;
  return operation.errors.some((e) => e.id === error.$shapeId) ? error : UNDECLARED;
}

/** What an undeclared modeled error becomes: a plain error that is none of Anvil's kinds. */
const UNDECLARED = Object.freeze(new Error("undeclared error"));

/** What the server works out once per operation: its call kind, and its message reader and writer. */
class OperationPlan {
  /** Why the operation cannot be served (it streams a blob, which gRPC cannot carry), if it cannot. */
  readonly refusal: string | undefined;
  /** The `@streaming` union member of the input, for a client- or bidirectional-streaming call. */
  readonly inputStream: StreamMember | undefined;
  /** The `@streaming` union member of the output, for a server- or bidirectional-streaming call. */
  readonly outputStream: StreamMember | undefined;
  #read: ((bytes: Uint8Array) => unknown) | undefined;
  #write: ((value: unknown) => Uint8Array) | undefined;

  constructor(
    private readonly operation: OperationSchema,
    private readonly codec: ResolvedGrpcOptions["codec"],
  ) {
    const blob = streamingBlobOf(operation.input) ?? streamingBlobOf(operation.output);
    this.refusal = blob === undefined ? undefined : `${SIDE}: ${operation.name} streams a blob (${blob.name}), which gRPC cannot carry`;
    this.inputStream = streamMemberOf(operation.input);
    this.outputStream = streamMemberOf(operation.output);
  }

  /** Decodes a request message: the input, or one event of the input stream. */
  get read(): (bytes: Uint8Array) => unknown {
    const stream = this.inputStream;
    return (this.#read ??= stream === undefined ? this.codec.reader(this.operation.input) : this.codec.reader(stream.schema));
  }

  /** Decodes the one request message of a call without an input stream; a call without one is refused. */
  readonly readOne = (message: Uint8Array | undefined): unknown => {
    if (message === undefined) throw grpcFailure("UNIMPLEMENTED", `${SIDE}: ${this.operation.name} takes one request message, got none`);
    return this.read(message);
  };

  /** Encodes a response message: the output, or one event of the output stream. */
  get write(): (value: unknown) => Uint8Array {
    const stream = this.outputStream;
    return (this.#write ??= stream === undefined ? this.codec.writer<unknown>(this.operation.output) : this.codec.writer<unknown>(stream.schema));
  }
}

/** Request messages decoded one by one as the handler asks for them. */
async function* decodeEach(
  messages: AsyncIterable<Uint8Array>,
  read: (bytes: Uint8Array) => unknown,
  signal: AbortSignal | undefined,
): AsyncGenerator<unknown, void, undefined> {
  const iterator = messages[Symbol.asyncIterator]();
  for (;;) {
    const next = await nextOrAbort(iterator, signal);
    if (next.done === true) return;
    yield read(next.value);
  }
}

/**
 * The handler's events as framed messages; `done` learns how the stream
 * ended (undefined when it ran to its end), to write the trailers.
 */
async function* encodeEach(
  events: AsyncIterable<unknown> | undefined,
  write: (value: unknown) => Uint8Array,
  signal: AbortSignal | undefined,
  done: (error: unknown) => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  let failure: unknown;
  let ended = false;
  const iterator = events?.[Symbol.asyncIterator]();
  try {
    if (iterator === undefined) return;
    for (;;) {
      const next = await nextOrAbort(iterator, signal);
      if (next.done === true) {
        ended = true;
        return;
      }
      yield frameMessage(write(next.value));
    }
  } catch (error) {
    failure = error;
  } finally {
    // A source stopped early (an abort, a caller that went away) still gets to clean up.
    if (!ended) void iterator?.return?.()?.catch(() => undefined);
    done(failure ?? (signal?.aborted === true ? signal.reason : undefined));
  }
}
