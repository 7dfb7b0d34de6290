/**
 * Protocols are values. `client-core` and `server` take objects implementing
 * these interfaces and never import a protocol package; each protocol package
 * exports a factory returning them.
 */
import type { OperationSchema, ServiceSchema } from "../schema/schema.js";
import type { HandlersOf } from "../schema/mapped-types.js";
import type { HttpRequest, HttpResponse } from "./http.js";

/** Per-call context a client protocol gets. */
export interface ClientCallContext {
  /** The endpoint the request goes to, e.g. `https://api.example.com/base`. */
  readonly endpoint: URL;
  /** The service the called operation belongs to. */
  readonly service: ServiceSchema;
  /** Aborts the call: the caller's signal, tied to the call's time limit when it has one; absent when neither is set. */
  readonly signal?: AbortSignal;
  /**
   * Where `@idempotencyToken` members the caller left out get their value;
   * default a random UUID v4 (`newIdempotencyToken`). Tests inject a
   * deterministic source.
   */
  readonly idempotencyToken?: () => string;
  /**
   * When the call times out, in milliseconds since the epoch (`Date.now()`
   * scale), if it has a time limit. Protocols that carry deadlines (gRPC's
   * `grpc-timeout`) send what is left of it.
   */
  readonly deadline?: number;
}

/** The client side of a protocol: turns input into a request and a response into output or an error. */
export interface ClientProtocol {
  /** The protocol trait id, e.g. `aws.protocols#restJson1`. */
  readonly id: string;
  /**
   * Whether the protocol works only over HTTP/2 (gRPC: trailers, full
   * duplex streams). Clients refuse a transport that is not HTTP/2 for it.
   */
  readonly requiresHttp2?: boolean;
  /**
   * Serializes an operation's input. Rejects with a SerializationError when
   * the input cannot be written (for example a missing label).
   */
  serializeRequest(operation: OperationSchema, input: unknown, context: ClientCallContext): Promise<HttpRequest>;
  /**
   * Deserializes a response: the output on success; otherwise rejects with
   * the modeled error (an instance of its errorClass) or an UnmodeledError.
   */
  deserializeResponse(operation: OperationSchema, response: HttpResponse, context: ClientCallContext): Promise<unknown>;
}

/** A route a server protocol contributes: how to recognise requests for one operation. */
export interface Route {
  /** The operation the route's requests call. */
  readonly operation: OperationSchema;
  /** HTTP method (upper case). */
  readonly method: string;
  /**
   * Path pattern: literal segments and `{label}` / `{label+}` (greedy)
   * segments, as in `@http` URIs, e.g. `/cities/{cityId}/forecast`.
   */
  readonly path: string;
  /** Literal query parameters the request must carry (`@http` URI query part). */
  readonly query?: readonly (readonly [string, string | undefined])[];
  /** Headers that must match exactly (e.g. `x-amz-target` for awsJson). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Per-request context a server protocol gets. */
export interface ServerCallContext {
  /** The service the server serves. */
  readonly service: ServiceSchema;
  /** Labels captured by the router, percent-decoded. */
  readonly labels: Readonly<Record<string, string>>;
  /** Aborted when the caller goes away, the request's deadline passes or the server shuts down; absent when nothing can abort the call. */
  readonly signal?: AbortSignal;
  /**
   * Tells the server of a failure it cannot see itself: an error a streamed
   * answer's source threw after the answer began (the caller hears a
   * generic internal failure), for its `onInternalError` log.
   */
  readonly reportInternalError?: (error: unknown) => void;
  /**
   * The most bytes of request body the server reads into memory for this
   * call (its buffered body limit), when it has one: a protocol that
   * inflates a compressed body holds the inflated bytes to it too.
   */
  readonly bodyLimit?: number | undefined;
  /**
   * The request being answered, as the transport received it: what a
   * protocol negotiates a streamed answer's framing by (its `Accept`).
   * Absent where a server does not give it.
   */
  readonly request?: HttpRequest;
  /**
   * How long a Server-Sent Events answer may stay silent before a comment
   * keeps its connection open, in milliseconds (the server's
   * `sseKeepAliveMs`; 0 for none). Absent: the protocol's default.
   */
  readonly sseKeepAliveMs?: number | undefined;
}

/**
 * The `code` of the TransportError a server hands to
 * `ServerProtocol.serializeError` when a request's deadline (see
 * `ServerProtocol.deadline`) passes before its answer is ready.
 */
export const DEADLINE_EXCEEDED = "DeadlineExceeded";

/** The server side of a protocol. */
export interface ServerProtocol {
  /** The protocol trait id, e.g. `aws.protocols#restJson1`. */
  readonly id: string;
  /**
   * Whether the protocol reads request bodies itself, within limits of its
   * own (gRPC's length-prefixed messages carry their sizes): the server
   * then hands `deserializeRequest` the body as it streams in, instead of
   * buffering it under its `bodyLimit`.
   */
  readonly readsOwnBody?: boolean;
  /**
   * The time limit a request sets on its own answer, in milliseconds
   * (gRPC's `grpc-timeout`), or undefined for none. When it passes, the
   * server aborts the handler's signal (and the call context's) with a
   * TransportError whose code is {@link DEADLINE_EXCEEDED}, and answers
   * with `serializeError` of that error if no answer was ready.
   */
  deadline?(request: HttpRequest): number | undefined;
  /** Every route this protocol serves for the service. */
  routes(service: ServiceSchema): readonly Route[];
  /**
   * Deserializes a request into the operation's input. Throws (or rejects
   * with) a SerializationError (400-class) for malformed requests.
   *
   * This and the two serializers may answer synchronously when they have
   * everything at hand (a buffered body, a whole output): the server then
   * goes on without waiting for a turn of the microtask queue. They return
   * a promise only when they have to wait (a streamed body, a decompression).
   */
  deserializeRequest(operation: OperationSchema, request: HttpRequest, context: ServerCallContext): unknown;
  /** Serializes a handler's output. */
  serializeResponse(operation: OperationSchema, output: unknown, context: ServerCallContext): HttpResponse | Promise<HttpResponse>;
  /**
   * Serializes any error into a response: modeled errors with their status
   * and type marker, ValidationError as ValidationException,
   * SerializationError as the protocol's malformed-request answer, anything
   * else as a 500 that leaks nothing. `operation` is undefined when no route
   * matched.
   */
  serializeError(operation: OperationSchema | undefined, error: unknown, context: ServerCallContext): HttpResponse | Promise<HttpResponse>;
  /** The answer when no route matches (the protocol's "unknown operation"). */
  notFound?(request: HttpRequest): Promise<HttpResponse> | undefined;
  /**
   * Whether a request bears this protocol's marks (its `smithy-protocol`
   * header, its `X-Amz-Target`, its media type), so that a server answering
   * several protocols tells a caller of this one of an unknown operation in
   * this protocol's terms, whichever protocol comes first. A protocol
   * without marks (restJson1) leaves it out.
   */
  recognizes?(request: HttpRequest): boolean;
  /**
   * The answer when the request fits a route of this protocol in all but
   * its method (RFC 9110's 405 Method Not Allowed, which carries an `Allow`
   * header): `allowed` lists the methods that routes of the request's path
   * take, upper case. A protocol without it answers such a request as it
   * answers an unknown one ({@link ServerProtocol.notFound}).
   */
  methodNotAllowed?(request: HttpRequest, allowed: readonly string[]): HttpResponse | Promise<HttpResponse>;
}

/**
 * Where a server is in its life, as the services it hosts see it:
 * `starting` until it serves its first call (its adapter starts it),
 * `serving`, then `closing` from the moment its `close` is called (new
 * calls are refused, calls in flight get their grace period).
 */
export type ServingState = "starting" | "serving" | "closing";

/** What a {@link ServiceModule} learns of the server it is added to. */
export interface ServiceHost {
  /** Every service the server answers: its own first, then those of the modules added to it, in order. */
  readonly services: readonly ServiceSchema[];
  /** Where the server is in its life now. */
  readonly state: ServingState;
  /** Calls `listener` on every change of state (synchronously, as it happens); returns a function that stops the calls. */
  onStateChange(listener: (state: ServingState) => void): () => void;
}

/**
 * A service and its handlers: one function per operation, called with the
 * input and the call's context (an entry of {@link ServiceModule.services},
 * typed: `const entry: ServiceImplementation<typeof Other> = { service: Other, handlers }`).
 */
export interface ServiceImplementation<S extends ServiceSchema = ServiceSchema, Ctx = never> {
  /** The service. */
  readonly service: S;
  /** Its handlers, by operation key (an object or a class instance). */
  readonly handlers: HandlersOf<S, Ctx>;
}

/**
 * Services served by a server next to its own, on the same listeners
 * (`server.add(module)`): services a library implements, such as gRPC's
 * health and reflection services (`grpcHealth()`, `grpcReflection()` of
 * `@anvil/protocol-grpc`), or more services of an application's on one
 * port, as gRPC servers usually host several. The server's own routes come
 * first; a request none of them matches goes to the modules' routes.
 */
export interface ServiceModule {
  /** The services, each with its handlers (see {@link ServiceImplementation}). */
  readonly services: readonly { readonly service: ServiceSchema; readonly handlers: object }[];
  /** The protocols that serve them (every one given serves every service of the module). */
  readonly protocols: readonly ServerProtocol[];
  /**
   * Whether its calls are answered while the server closes, when every
   * other new call is refused (a health service reports the drain itself).
   * Default false.
   */
  readonly servesWhileClosing?: boolean;
  /** Told of the server when it is added to one (a module serves one server). */
  attach?(host: ServiceHost): void;
}
