/**
 * The protocol-agnostic request pipeline: route, deserialize, validate, call
 * the handler, serialize. Transport adapters (Node, fetch) sit in front of
 * it; protocols are values behind it.
 */
import {
  type HandlersOf,
  HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  ModeledError,
  type OperationSchema,
  ProtocolError,
  SerializationError,
  type ServerCallContext,
  type ServerProtocol,
  type ServiceSchema,
  ValidationError,
  TransportError,
} from "@anvil/core";
import { compileValidator, DEADLINE_EXCEEDED, isThenable, startTimer, stopTimer, type Timer, untilAborted, type Validator } from "@anvil/core/protocol";
import { type AuthOptions, authenticate, BodyCheck, compileAuth, type OperationAuth, UNAUTHENTICATED } from "./auth.js";
import { defaultBodyLimit, hasStreamingInput, markStreaming, readLimited } from "./body-limit.js";
import { type AccessLogEntry, accessLogEntry } from "./access-log.js";
import { type Cors, type CorsOptions, compileCors } from "./cors.js";
import { intercept, type ServerInterceptor, type ServerNext } from "./interceptors.js";
import { isRequestHooks, type RequestHooks, type RoutedRequest } from "./request-hooks.js";
import { compileRouter, type RouteMatch } from "./router.js";

/**
 * What a handler gets besides its input. `Id` is the type of the caller's
 * identity, as the server's auth verifiers return it.
 */
export interface HandlerContext<Id = unknown> {
  /** The request as the transport received it (a buffered body already read into bytes). */
  readonly request: HttpRequest;
  /** The request headers (the same object as `request.headers`). */
  readonly headers: Headers;
  /**
   * The caller's address (IP), when the transport knows it. The Node
   * adapter looks it up on first access, so read it while the connection
   * is open (it is undefined when first asked after the caller has gone).
   */
  readonly remoteAddress?: string | undefined;
  /** The operation being called. */
  readonly operation: OperationSchema;
  /** The protocol trait id the request came in with, e.g. `aws.protocols#restJson1`. */
  readonly protocol: string;
  /**
   * Aborted when the caller goes away or the server shuts down (after its
   * grace period). Made on first access (a getter): copy it explicitly
   * rather than spreading the context.
   */
  readonly signal: AbortSignal;
  /**
   * When the call's deadline passes (epoch milliseconds), when the protocol
   * gives one (gRPC's `grpc-timeout`); the signal aborts then. Undefined
   * when the call has none.
   */
  readonly deadline: number | undefined;
  /**
   * Headers to add to the response (made on first access): response
   * metadata the model does not bind, such as gRPC's custom response
   * metadata. A header the protocol writes itself keeps the protocol's value.
   */
  readonly responseHeaders: Headers;
  /**
   * The call's request id: the caller's `x-request-id` (or
   * `x-amzn-requestid`) when it sent a usable one, else a new one (made when
   * first asked for). With the server's `requestIds`, every answer carries it
   * back (`x-amzn-requestid` on the AWS protocols, `x-request-id` on the
   * others, gRPC's included).
   */
  readonly requestId: string;
  /**
   * The caller's identity, as the verifier of the scheme it authenticated
   * with returned it; undefined when the operation is served without
   * authentication (anonymous, `@optionalAuth` without credentials, or no
   * verifier configured).
   */
  readonly identity: Id | undefined;
}

/** What {@link createDispatcher} needs. */
export interface DispatcherOptions<S extends ServiceSchema, Id = unknown> {
  /** The service whose operations are dispatched. */
  readonly service: S;
  /** The server protocols to answer, in preference order (the first wins ties between routes and answers unknown routes). */
  readonly protocols: readonly ServerProtocol[];
  /** One handler per operation of the service. */
  readonly handlers: HandlersOf<S, HandlerContext<Id>>;
  /**
   * Verifiers of the auth schemes the model declares: with them, calls to
   * an operation that takes a scheme are authenticated before the body is
   * read (401 without valid credentials). Without, nothing is enforced.
   */
  readonly auth?: AuthOptions<Id>;
  /**
   * Interceptors around every call, outermost first: call interceptors
   * (functions, around the handler: see {@link ServerInterceptor}) and
   * request hooks (objects, around the whole routed request: see
   * {@link RequestHooks}).
   */
  readonly interceptors?: readonly (ServerInterceptor<Id> | RequestHooks<Id>)[];
  /**
   * CORS: on (`true`, or settings) answers browsers' preflight requests and
   * lets allowed origins read answers; `false` turns off what the service's
   * `@cors` trait turns on. Default: as the trait says.
   */
  readonly cors?: CorsOptions | boolean;
  /**
   * Return each call's request id on its answer (`x-amzn-requestid` on the
   * AWS protocols, `x-request-id` on the others, gRPC's included): the
   * caller's when it sent one, else a new one. Off by default: on the
   * smallest calls it costs a few per cent. Handlers and the access log see
   * `requestId` either way.
   */
  readonly requestIds?: boolean;
  /**
   * The longest any call may run, in milliseconds: a deadline the caller
   * asks for (gRPC's `grpc-timeout`) beyond it is shortened to it, and calls
   * that ask for none get it (their handler's signal aborts, and the answer
   * is the protocol's deadline error, gRPC `DEADLINE_EXCEEDED`). Default
   * none: a caller's deadline is kept, however long.
   */
  readonly maxDeadlineMs?: number;
  /**
   * How long a Server-Sent Events answer (an output event stream a caller
   * asked for as `text/event-stream`, restJson1) may stay silent before a
   * comment goes out to keep proxies and browsers from closing it, in
   * milliseconds: sent only while the handler's stream has no event ready.
   * Default 15 000; 0 for none.
   */
  readonly sseKeepAliveMs?: number;
  /**
   * Called once per request with its access-log entry (service, operation,
   * protocol, status, duration, request id, peer, sizes, identity), when the
   * answer's head is ready: a plain object for pino or any JSON logger
   * (`formatAccessLog` gives a line for people). No body or header value
   * is in it. A server without it pays nothing for the log.
   */
  readonly accessLog?: (entry: AccessLogEntry) => void;
  /** Interceptors of single operations, by operation key; they run inside {@link DispatcherOptions.interceptors}. */
  readonly operationInterceptors?: { readonly [K in keyof S["operations"]]?: readonly ServerInterceptor<Id>[] };
  /**
   * Called with every error that becomes a 500 (a handler's unmodeled throw,
   * an output that cannot be written), for logging. The caller only ever
   * sees the protocol's generic internal failure.
   */
  readonly onInternalError?: (error: unknown, context: HandlerContext) => void;
  /**
   * Called with every request refused as the caller's mistake before its
   * handler ran (a malformed request, a ValidationError, an unsupported media
   * type, a body over the limit), for logging; the caller gets the protocol's
   * 4xx answer as usual.
   */
  readonly onRejected?: (error: unknown, context: HandlerContext) => void;
  /**
   * Largest request body, in bytes, read into memory for an operation
   * without a streaming input member; larger requests get a 413
   * (`PayloadTooLargeException`). Default 1 MiB, or the `@length` maximum of
   * the operation's `@httpPayload` blob when that is larger.
   */
  readonly bodyLimit?: number;
  /** Per-operation overrides of {@link DispatcherOptions.bodyLimit}, by operation key. */
  readonly bodyLimits?: { readonly [K in keyof S["operations"]]?: number };
  /**
   * Answers a request no route of the service matches, before the
   * protocols' "unknown operation" answer: the answer of another service
   * served on the same listener, or undefined to leave the request to the
   * protocols. Called only for requests no route matches.
   */
  readonly fallback?: (request: HttpRequest, options: DispatchOptions) => Promise<HttpResponse> | undefined;
}

/** Per-request options of a dispatcher. */
export interface DispatchOptions {
  /** Aborted when the caller goes away or the server shuts down; handed to the handler. */
  readonly signal?: AbortSignal | undefined;
  /** The caller's address, handed to the handler (read only when the handler asks for it). */
  readonly remoteAddress?: string | undefined;
  /**
   * When the call's deadline passes (epoch milliseconds), if it has one. A
   * transport gives it for a host that ends calls at a time of its own (a
   * Lambda's timeout): the call then runs under it as under a protocol's
   * deadline (the handler's signal aborts when it passes, and the answer is
   * the protocol's deadline error), or under the protocol's when that is sooner.
   */
  readonly deadline?: number | undefined;
  /** @internal Where the access log finds the call's context. */
  readonly log?: { context?: HandlerContext<unknown> | undefined };
}

/** Answers one request. Never rejects: every failure becomes a response. */
export type Dispatcher = (request: HttpRequest, options?: DispatchOptions) => Promise<HttpResponse>;

type AnyHandler = (input: unknown, context: HandlerContext) => unknown;

interface Endpoint {
  /** The operation's key in the service. */
  readonly method: string;
  readonly validate: Validator<unknown>;
  /** The buffered body limit, or undefined for a streaming input (never buffered here). */
  readonly bodyLimit: number | undefined;
  readonly handler: AnyHandler;
  /** The handler in its interceptors, when there are any. */
  readonly intercepted: ServerNext | undefined;
  /** How calls are authenticated, when they are. */
  readonly auth: OperationAuth | undefined;
  /** Shape ids of the errors the operation (or its service) declares. */
  readonly errors: ReadonlySet<string>;
}

/**
 * Compiles a service's routes, validators and handlers once and returns the
 * function that answers requests:
 *
 * 1. no route matches: the `notFound` answer of the first protocol that
 *    recognizes the request, else of the first that gives one (else a bare 404);
 *    a route matches in all but its method: the protocol's `methodNotAllowed`;
 * 2. the call is authenticated when the operation takes an auth scheme
 *    with a verifier: 401 (`UnauthenticatedException`, with
 *    `WWW-Authenticate`) without valid credentials, before the body is read;
 * 3. a body over the operation's buffered limit is refused with a 413
 *    (by `Content-Length` before reading, else as soon as it passes the limit);
 * 4. the protocol deserializes the input; a SerializationError, ProtocolError
 *    or ValidationError there is the caller's mistake (400-class);
 * 5. the input is validated against the model's constraints (`@required`,
 *    `@length`, ...), answered as ValidationException;
 * 6. the handler runs, inside the interceptors; a modeled error the
 *    operation declares, or a `ProtocolError` refusal (403, ...), is
 *    serialized as such, anything else is a 500 that leaks no message or stack;
 * 7. the protocol serializes the output.
 *
 * Throws a `RouteConflictError` when two routes would match the same requests.
 */
export function createDispatcher<S extends ServiceSchema, Id = unknown>(options: DispatcherOptions<S, Id>): Dispatcher {
  const { service, protocols, onInternalError, onRejected } = options;
  const handlers = options.handlers as unknown as Readonly<Record<string, AnyHandler | undefined>>;
  const router = compileRouter(service, protocols);
  const bodyLimits = (options.bodyLimits ?? {}) as Readonly<Record<string, number | undefined>>;
  const auth = options.auth === undefined ? undefined : compileAuth(service, options.auth as AuthOptions<unknown>);
  const requestIds = options.requestIds === true;
  const maxDeadlineMs = options.maxDeadlineMs;
  if (maxDeadlineMs !== undefined && !(maxDeadlineMs > 0))
    throw new RangeError(`createDispatcher: maxDeadlineMs must be a positive number of milliseconds (got ${maxDeadlineMs})`);
  const sseKeepAliveMs = options.sseKeepAliveMs;
  if (sseKeepAliveMs !== undefined && !(sseKeepAliveMs >= 0))
    throw new RangeError(`createDispatcher: sseKeepAliveMs must be 0 or a positive number of milliseconds (got ${sseKeepAliveMs})`);
  const fallback = options.fallback;
  const given = (options.interceptors ?? []) as readonly (ServerInterceptor | RequestHooks)[];
  const shared = given.filter((i): i is ServerInterceptor => typeof i === "function");
  const hooks = given.filter((i): i is RequestHooks => typeof i !== "function");
  for (const hook of hooks)
    if (!isRequestHooks(hook)) throw new TypeError("createDispatcher: an interceptor is neither a function nor request hooks (an object with aroundRequest)");
  const perOperation = (options.operationInterceptors ?? {}) as Readonly<Record<string, readonly ServerInterceptor[] | undefined>>;
  const endpoints = new Map<OperationSchema, Endpoint>();
  for (const [key, operation] of Object.entries(service.operations)) {
    const handler = handlers[key];
    if (typeof handler !== "function") throw new TypeError(`createDispatcher: no handler for operation ${key} (${operation.id})`);
    const interceptors = [...shared, ...(perOperation[key] ?? [])];
    endpoints.set(operation, {
      method: key,
      validate: compileValidator(operation.input) as Validator<unknown>,
      bodyLimit: hasStreamingInput(operation) ? undefined : (bodyLimits[key] ?? options.bodyLimit ?? defaultBodyLimit(operation)),
      handler,
      intercepted: interceptors.length === 0 ? undefined : intercept(handler, interceptors),
      auth: auth?.get(operation),
      errors: new Set(operation.errors.map((e) => e.id)),
    });
  }

  const notFound = async (request: HttpRequest): Promise<HttpResponse> => {
    const answer = await notFoundAnswer(request);
    if (requestIds && !answer.headers.has("x-request-id")) answer.headers.set("x-request-id", callerRequestId(request.headers) ?? newRequestId());
    return answer;
  };
  const notFoundAnswer = async (request: HttpRequest): Promise<HttpResponse> => {
    // The protocol whose marks the request bears answers first: a caller hears of it in the terms it reads.
    for (const protocol of protocols) {
      if (protocol.recognizes?.(request) !== true) continue;
      const answer = protocol.notFound?.(request);
      if (answer !== undefined) return answer;
    }
    for (const protocol of protocols) {
      const answer = protocol.notFound?.(request);
      if (answer !== undefined) return answer;
    }
    return { status: 404, headers: new HttpHeaders(), body: undefined };
  };

  // Not async itself: it hands back `answer`'s promise as it is (an async function returning a promise costs extra turns).
  const dispatch: Dispatcher = (request, dispatchOptions = NO_OPTIONS) => {
    const match = router.match(request);
    if (match === undefined) return (fallback === undefined ? undefined : fallback(request, dispatchOptions)) ?? notFound(request);
    if (match.allowed !== undefined) return methodNotAllowed(match, match.allowed, request, dispatchOptions);
    if (hooks.length !== 0) return hooked(match, request, dispatchOptions);
    // As `routed` does, written out: a server without hooks takes the path it took before they existed.
    const limit = deadlineOf(match, request, dispatchOptions);
    if (limit === undefined) return answer(match, request, dispatchOptions);
    return underDeadline(match, request, dispatchOptions, limit);
  };
  /**
   * The call's deadline in ms: the one its caller asked for, shortened to `maxDeadlineMs` (which calls without one
   * get), and to what is left before the host's deadline (a Lambda's remaining time), when it gave one.
   */
  const deadlineOf = (match: RouteMatch, request: HttpRequest, dispatchOptions: DispatchOptions): number | undefined => {
    const asked = match.protocol.deadline?.(request);
    const limit = maxDeadlineMs === undefined ? asked : asked === undefined ? maxDeadlineMs : Math.min(asked, maxDeadlineMs);
    const host = dispatchOptions.deadline;
    if (host === undefined) return limit;
    const left = Math.max(host - Date.now(), 0);
    return limit === undefined ? left : Math.min(limit, left);
  };
  /** Answers a routed request, under its deadline when it has one. */
  const routed = (match: RouteMatch, request: HttpRequest, dispatchOptions: DispatchOptions): Promise<HttpResponse> => {
    const limit = deadlineOf(match, request, dispatchOptions);
    return limit === undefined ? answer(match, request, dispatchOptions) : underDeadline(match, request, dispatchOptions, limit);
  };
  /** Answers a routed request under its deadline of `limit` ms. */
  const underDeadline = (match: RouteMatch, request: HttpRequest, dispatchOptions: DispatchOptions, limit: number): Promise<HttpResponse> =>
    withDeadline(
      limit,
      dispatchOptions,
      (options) => answer(match, request, options),
      (error, options) => {
        // The call's own context when it got that far: the answer keeps its request id (and the log its identity).
        const context = (options.log?.context as Context | undefined) ?? new Context(service, request, match, options, onInternalError);
        if (requestIds) context.returnsRequestId = true;
        // That context (the one the access log and request hooks read) learns why the call ended.
        context.failed(error);
        return answerError(match.protocol, match.operation, error, context, onInternalError).then((response) => withRequestId(context, response));
      },
    );
  /** Answers a routed request inside the request hooks, the first outermost. */
  const hooked = (match: RouteMatch, request: HttpRequest, outer: DispatchOptions): Promise<HttpResponse> =>
    aroundRequest(new Routed(service, match, endpoints.get(match.operation)?.method ?? match.operation.name, request, outer), 0);
  /**
   * The rest of a call from hook `i` on: the hook, given the rest as `next`
   * (run once however often it is called); after the last hook the call
   * itself, with the call as its dispatch options. A failing hook is
   * reported and passed by.
   */
  const aroundRequest = (call: Routed, i: number): Promise<HttpResponse> => {
    if (i === hooks.length) return routed(call.match, call.arrived, call);
    let ran: Promise<HttpResponse> | undefined;
    const next = () => (ran ??= aroundRequest(call, i + 1));
    try {
      const answer = hooks[i]!.aroundRequest(call, next);
      // The rest's own promise never rejects: only a promise of the hook's own needs watching.
      return answer === ran ? answer : answer.catch((error: unknown) => hookFailed(call, next, error));
    } catch (error) {
      return hookFailed(call, next, error);
    }
  };
  /** Answers a call whose hook failed as if the hook were not there; reports the failure once answered (when there is a context to report with). */
  const hookFailed = (call: Routed, next: () => Promise<HttpResponse>, error: unknown): Promise<HttpResponse> =>
    next().then((response) => {
      const context = call.context;
      if (context !== undefined) onInternalError?.(error, context);
      return response;
    });
  const cors = compileCors(service, options.cors);
  const served = cors === undefined ? dispatch : withCors(dispatch, cors, router);
  return options.accessLog === undefined ? served : withAccessLog(served, options.accessLog, service);

  /** The answer to a request whose path takes other methods: the protocol's 405, its body unread, reported as rejected. */
  async function methodNotAllowed(
    match: RouteMatch,
    allowed: readonly string[],
    request: HttpRequest,
    dispatchOptions: DispatchOptions,
  ): Promise<HttpResponse> {
    const context = new Context(service, request, match, dispatchOptions, onInternalError);
    if (dispatchOptions.log !== undefined) dispatchOptions.log.context = context;
    if (requestIds) context.returnsRequestId = true;
    onRejected?.(
      new ProtocolError("MethodNotAllowedException", 405, `route: ${request.method} is not allowed on ${request.path} (allowed: ${allowed.join(", ")})`),
      context,
    );
    try {
      return withRequestId(context, await match.protocol.methodNotAllowed!(request, allowed));
    } catch (error) {
      onInternalError?.(error, context);
      return bareInternalError();
    }
  }

  /**
   * Answers a routed request. Every step that can finish at once does (a
   * protocol may read and write synchronously, a handler may return a
   * value), and the steps are plain functions chained only where something
   * is not there yet, such as the body or the handler's promise: a call
   * that never waits makes one promise, for its answer.
   */
  function answer(match: RouteMatch, request: HttpRequest, dispatchOptions: DispatchOptions): Promise<HttpResponse> {
    const response = answerNow(match, request, dispatchOptions);
    return response instanceof Promise ? response : Promise.resolve(response);
  }

  /** {@link answer}'s work: the answer itself when nothing had to wait (a promise in a `then` callback would cost two turns more). */
  function answerNow(match: RouteMatch, request: HttpRequest, dispatchOptions: DispatchOptions): Answer {
    const context = new Context(service, request, match, dispatchOptions, onInternalError);
    if (dispatchOptions.log !== undefined) dispatchOptions.log.context = context;
    if (requestIds) context.returnsRequestId = true;
    if (sseKeepAliveMs !== undefined) context.sseKeepAliveMs = sseKeepAliveMs;
    const endpoint = endpoints.get(match.operation);
    if (endpoint === undefined) return failure(context, new Error(`no endpoint for ${match.operation.id}`), true);
    context.bodyLimit = endpoint.bodyLimit;
    if (endpoint.auth === undefined) return afterAuth(context, endpoint);
    let authenticated: ReturnType<typeof authenticate>;
    try {
      authenticated = authenticate(endpoint.auth, context);
    } catch (error) {
      return unauthenticated(context, endpoint.auth, error);
    }
    if (authenticated instanceof BodyCheck) return afterAuth(context, endpoint, authenticated);
    if (authenticated instanceof Promise) {
      return authenticated.then(
        (result) => {
          context.identity = result.identity;
          return afterAuth(context, endpoint);
        },
        (error: unknown) => unauthenticated(context, endpoint.auth!, error),
      );
    }
    context.identity = authenticated.identity;
    return afterAuth(context, endpoint);
  }

  /** A call its verifier refused (401, with the operation's challenges), or whose verifier failed (500). */
  function unauthenticated(context: Context, auth: OperationAuth, error: unknown): Promise<HttpResponse> {
    if (!(ProtocolError.is(error) && error.code === UNAUTHENTICATED)) return failure(context, error, true);
    onRejected?.(error, context);
    return failure(context, error, false).then((response) => {
      if (auth.challenges !== undefined && response.status === 401) response.headers.set("www-authenticate", auth.challenges);
      return response;
    });
  }

  /** Reads the input of an authenticated call (or one whose scheme checks the body, once read) and handles it. */
  function afterAuth(context: Context, endpoint: Endpoint, check?: BodyCheck): Answer {
    let input: unknown;
    try {
      input = readInput(context, endpoint, check);
    } catch (error) {
      return rejected(context, error);
    }
    if (input instanceof Promise)
      return input.then(
        (value: unknown) => handle(context, endpoint, value),
        (error: unknown) => rejected(context, error),
      );
    return handle(context, endpoint, input);
  }

  /**
   * The call's input, deserialized from the request (its body read first,
   * within the limit, unless the protocol reads its own; then checked by a
   * scheme that signs the body); a promise if anything is pending.
   */
  function readInput(context: Context, endpoint: Endpoint, check: BodyCheck | undefined): unknown {
    const request = context.request;
    const body = request.body;
    // A streamed input is timed by how long it keeps its reader waiting, not by a deadline for all of it.
    if (endpoint.bodyLimit === undefined && body !== undefined) markStreaming(body);
    if (endpoint.bodyLimit !== undefined && body !== undefined && context.match.protocol.readsOwnBody !== true) {
      const bytes = readLimited(body, endpoint.bodyLimit, request.headers.get("content-length"));
      // The handler sees the request with its body read.
      if (bytes instanceof Promise) {
        // A body still arriving is waited for only while the call lives: the server closing (or the caller going
        // away) ends the wait with the signal's reason, which is answered (a 503 when the server closes).
        return untilAborted(bytes, context.signal).then((read) => {
          context.request = { ...request, body: read };
          return deserialize(context, check, read);
        });
      }
      if (bytes !== body) context.request = { ...request, body: bytes };
      return deserialize(context, check, bytes);
    }
    return deserialize(context, check, undefined);
  }

  /** The protocol's reading of the input, once the scheme that checks the body (if any) has let the call in. */
  function deserialize(context: Context, check: BodyCheck | undefined, body: unknown): unknown {
    if (check === undefined) {
      const protocol = context.match.protocol;
      const input = protocol.deserializeRequest(context.operation, context.request, context);
      // A protocol reading its own body (gRPC) waits for it only when it is still arriving: that wait too ends with the call.
      return protocol.readsOwnBody === true && input instanceof Promise ? untilAborted(input, context.signal) : input;
    }
    return check.run(body instanceof Uint8Array ? body : undefined).then((result) => {
      context.identity = result.identity;
      return context.match.protocol.deserializeRequest(context.operation, context.request, context);
    });
  }

  /** Validates the input and runs the handler on it. */
  function handle(context: Context, endpoint: Endpoint, input: unknown): Answer {
    let output: unknown;
    try {
      const violations = endpoint.validate(input);
      if (violations.length > 0) return rejected(context, new ValidationError(violations));
    } catch (error) {
      return rejected(context, error);
    }
    const intercepted = endpoint.intercepted;
    if (intercepted !== undefined) {
      const call = { service, operation: context.operation, method: endpoint.method, protocol: context.protocol, input, context };
      let outcome: Promise<unknown>;
      try {
        outcome = intercepted(call);
      } catch (error) {
        return handlerFailed(context, endpoint, error);
      }
      return outcome.then(
        (value: unknown) => respond(context, value),
        (error: unknown) => handlerFailed(context, endpoint, error),
      );
    }
    try {
      output = endpoint.handler(input, context);
    } catch (error) {
      return handlerFailed(context, endpoint, error);
    }
    if (isThenable(output))
      return Promise.resolve(output).then(
        (value: unknown) => respond(context, value),
        (error: unknown) => handlerFailed(context, endpoint, error),
      );
    return respond(context, output);
  }

  /** The protocol's answer carrying the handler's output. */
  function respond(context: Context, output: unknown): Answer {
    let response: Answer;
    try {
      response = context.match.protocol.serializeResponse(context.operation, output, context);
      if (!(response instanceof Promise)) return withAddedHeaders(context, response);
    } catch (error) {
      return failure(context, error, true);
    }
    return response.then((r) => withAddedHeaders(context, r)).catch((error: unknown) => failure(context, error, true));
  }

  /** The answer to a request that could not be read or is invalid: the caller's mistake (400-class), unless the server failed. */
  function rejected(context: Context, error: unknown): Promise<HttpResponse> {
    // A scheme that checks the body refused the call once it was read.
    const auth = ProtocolError.is(error) && error.code === UNAUTHENTICATED ? endpoints.get(context.operation)?.auth : undefined;
    if (auth !== undefined) return unauthenticated(context, auth, error);
    const mistake = isCallerMistake(error);
    if (mistake) onRejected?.(error, context);
    // A body cut short because the caller went away is not the server's failure either.
    return failure(context, error, !mistake && context.signal.aborted !== true);
  }

  /**
   * The answer to a handler's (or an interceptor's) error: a modeled error
   * the operation declares, or a refusal (a 4xx `ProtocolError` such as
   * `accessDenied()`), is the protocol's to say; anything else is a 500 that
   * leaks nothing.
   */
  function handlerFailed(context: Context, endpoint: Endpoint, error: unknown): Promise<HttpResponse> {
    const said = ModeledError.isModeledError(error)
      ? endpoint.errors.has(error.$shapeId)
      : ProtocolError.is(error) && error.status >= 400 && error.status < 500;
    return failure(context, error, !said).then((response) => withAddedHeaders(context, response));
  }

  /** The protocol's answer to a failed call; an internal failure is reported, and answered without details. */
  function failure(context: Context, error: unknown, internal: boolean): Promise<HttpResponse> {
    context.failed(error);
    if (internal) onInternalError?.(error, context);
    return answerError(context.match.protocol, context.operation, internal ? INTERNAL_FAILURE : error, context, onInternalError).then((response) =>
      withRequestId(context, response),
    );
  }
}

/**
 * The dispatcher with CORS: a preflight for a route that takes the
 * requested method is answered 204; answers to requests from an allowed
 * origin carry the headers that let it read them. Requests without an
 * `Origin` (not from a browser's cross-origin call) go straight through.
 */
function withCors(dispatch: Dispatcher, cors: Cors, router: ReturnType<typeof compileRouter>): Dispatcher {
  return (request, options) => {
    const origin = request.headers.get("origin");
    if (origin === null) return dispatch(request, options);
    const method = request.method === "OPTIONS" ? request.headers.get("access-control-request-method") : null;
    if (method !== null) {
      const match = router.match({ ...request, method: method.toUpperCase() });
      const answer = match !== undefined && match.allowed === undefined ? cors.preflight(request, origin) : undefined;
      if (answer !== undefined) return Promise.resolve(answer);
    }
    const headers = cors.responseHeaders(origin);
    if (headers === undefined) return dispatch(request, options);
    return dispatch(request, options).then((response) => {
      for (const [name, value] of Object.entries(headers)) {
        const existing = name === "vary" ? response.headers.get("vary") : null;
        response.headers.set(name, existing === null ? value : `${existing}, ${value}`);
      }
      return response;
    });
  };
}

/** The dispatcher with an access log: an entry per request, when the answer's head is ready. */
function withAccessLog(dispatch: Dispatcher, log: (entry: AccessLogEntry) => void, service: ServiceSchema): Dispatcher {
  const keys = new Map<OperationSchema, string>(Object.entries(service.operations).map(([key, operation]) => [operation, key]));
  // A call another service on the listener answered (see `fallback`) is logged under that service.
  const keyOf = (context: HandlerContext<unknown>): string | undefined =>
    keys.get(context.operation) ?? Object.entries((context as Context).service.operations).find(([, operation]) => operation === context.operation)?.[0];
  return (request, options = NO_OPTIONS) => {
    const startedAt = Date.now();
    const startedMs = performance.now();
    const slot: { context?: HandlerContext<unknown> } = {};
    const logged: DispatchOptions = {
      get signal() {
        return options.signal;
      },
      get remoteAddress() {
        return options.remoteAddress;
      },
      get deadline() {
        return options.deadline;
      },
      log: slot,
    } as DispatchOptions;
    return dispatch(request, logged).then((response) => {
      const context = slot.context;
      try {
        log(
          accessLogEntry(
            context === undefined ? service.id : (context as Context).service.id,
            context?.request ?? request,
            response,
            {
              ...(context !== undefined
                ? { operation: keyOf(context), protocol: context.protocol, requestId: context.requestId, identity: context.identity }
                : {}),
              ...(options.remoteAddress !== undefined ? { remoteAddress: options.remoteAddress } : {}),
            },
            startedAt,
            startedMs,
          ),
        );
      } catch {
        // A logger's failure is not the caller's.
      }
      return response;
    });
  };
}

/**
 * A routed request as request hooks see it. It is also the call's dispatch
 * options (reading through to the transport's, which make their signal and
 * address on demand) and the slot the pipeline puts the call's context in,
 * unless the access log brought one: one object per call for all three.
 */
class Routed implements RoutedRequest<unknown>, DispatchOptions {
  /** The slot the pipeline fills: the access log's, else this object. */
  readonly log: { context?: HandlerContext<unknown> | undefined };
  /** The call's context, when this object is the slot (set by the pipeline; no field until then). */
  declare own: HandlerContext<unknown> | undefined;

  constructor(
    readonly service: ServiceSchema,
    readonly match: RouteMatch,
    readonly method: string,
    readonly arrived: HttpRequest,
    private readonly outer: DispatchOptions,
  ) {
    this.log = outer.log ?? this;
  }

  get operation(): OperationSchema {
    return this.match.operation;
  }

  get protocol(): string {
    return this.match.protocol.id;
  }

  /** The call's context, once the pipeline made it (kept here, or in the access log's slot). */
  get context(): HandlerContext<unknown> | undefined {
    return this.log === this ? this.own : this.log.context;
  }

  set context(context: HandlerContext<unknown> | undefined) {
    this.own = context;
  }

  get signal(): AbortSignal | undefined {
    return this.outer.signal;
  }

  get remoteAddress(): string | undefined {
    return this.outer.remoteAddress;
  }

  get deadline(): number | undefined {
    return this.outer.deadline;
  }

  get request(): HttpRequest {
    return this.context?.request ?? this.arrived;
  }

  get error(): unknown {
    return (this.context as Context | undefined)?.failure;
  }
}

/** A response, or the promise of one where a step had to wait. */
type Answer = HttpResponse | Promise<HttpResponse>;

/** The response with the headers the handler added (the protocol's own keep their values), and the request id. */
function withAddedHeaders(context: HandlerContext, response: HttpResponse): HttpResponse {
  const added = (context as Context).addedHeaders;
  if (added !== undefined) {
    // Each Set-Cookie is a field of its own (iteration gives them one by one): all of the handler's go, unless the protocol wrote its own.
    const ownCookies = response.headers.has("set-cookie");
    added.forEach((value, name) => {
      if (name === "set-cookie") {
        if (!ownCookies) response.headers.append(name, value);
      } else if (!response.headers.has(name)) response.headers.set(name, value);
    });
  }
  return withRequestId(context as Context, response);
}

/** The response with the call's request id, under the header its protocol's callers read (unless the answer names one itself), when the server returns them. */
function withRequestId(context: Context, response: HttpResponse): HttpResponse {
  if (!context.returnsRequestId) return response;
  const name = context.match.protocol.id.startsWith("aws.protocols#") ? "x-amzn-requestid" : "x-request-id";
  if (!response.headers.has(name)) response.headers.set(name, context.requestId);
  return response;
}

/** A request id the caller sent (`x-request-id`, else `x-amzn-requestid`), when it is one to echo: 1 to 200 visible ASCII characters. */
function callerRequestId(headers: Headers): string | undefined {
  const given = headers.get("x-request-id") ?? headers.get("x-amzn-requestid");
  return given !== null && given.length <= 200 && USABLE_REQUEST_ID.test(given) ? given : undefined;
}

const USABLE_REQUEST_ID = /^[\x21-\x7e]+$/;

/** The first four groups of this process's request ids: random, made on first use (Workers forbid randomness at load time). */
let idPrefix: string | undefined;
let idCounter = 0;

/**
 * A new request id, in a UUID's shape: a random prefix for the process and a
 * counter (a random UUID per call costs a small call several per cent).
 */
function newRequestId(): string {
  idPrefix ??= crypto.randomUUID().slice(0, 23);
  return `${idPrefix}-${(++idCounter).toString(16).padStart(12, "0")}`;
}

/**
 * Runs a call under a deadline: its signal (handed to the handler and the
 * protocol) aborts when the deadline passes, and the call is answered with
 * the protocol's DEADLINE_EXCEEDED error if it has not answered by then. A
 * streamed answer keeps the timer: the protocol ends the stream when the
 * signal fires.
 */
async function withDeadline(
  ms: number,
  outer: DispatchOptions,
  run: (options: DispatchOptions) => Promise<HttpResponse>,
  expired: (error: unknown, options: DispatchOptions) => Promise<HttpResponse>,
): Promise<HttpResponse> {
  const controller = new AbortController();
  const outerSignal = outer.signal;
  if (outerSignal !== undefined) {
    if (outerSignal.aborted) controller.abort(outerSignal.reason);
    else outerSignal.addEventListener("abort", () => controller.abort(outerSignal.reason), { once: true });
  }
  const options: DispatchOptions = {
    signal: controller.signal,
    get remoteAddress() {
      return outer.remoteAddress;
    },
    deadline: Date.now() + ms,
    // A holder for the call's context even when no access log asked for one: the deadline's answer reuses it.
    log: outer.log ?? {},
  };
  let timer: Timer | undefined;
  const deadline = new Promise<HttpResponse>((resolve) => {
    // Any length (a grpc-timeout may ask for years), and it never keeps a process alive on its own.
    timer = startTimer(
      ms,
      () => {
        const error = new TransportError(DEADLINE_EXCEEDED, `deadline of ${ms} ms exceeded`);
        controller.abort(error);
        resolve(expired(error, options));
      },
      true,
    );
  });
  const response = await Promise.race([run(options), deadline]);
  if (response.body === undefined || response.body instanceof Uint8Array) stopTimer(timer);
  return response;
}

/** The answer when not even the protocol can say what failed: a 500 with no body. */
export function bareInternalError(): HttpResponse {
  return { status: 500, headers: new HttpHeaders(), body: undefined };
}

/** The protocol's answer to an error; a bare 500 when even that fails. */
async function answerError(
  protocol: ServerProtocol,
  operation: OperationSchema,
  error: unknown,
  context: Context,
  onInternalError: DispatcherOptions<ServiceSchema>["onInternalError"],
): Promise<HttpResponse> {
  try {
    return await protocol.serializeError(operation, error, context);
  } catch (failure) {
    onInternalError?.(failure, context);
    return bareInternalError();
  }
}

/** The signal of a call nothing can abort: made on first use, as Workers allow no AbortController at module load. */
let never: AbortSignal | undefined;

/** Dispatch options with nothing in them. */
const NO_OPTIONS: DispatchOptions = Object.freeze({});

/**
 * The one context of a call: the protocol's (service, labels) and the
 * handler's (request, headers, operation, ...). It reads the signal only
 * when asked: a transport may make it on demand (an AbortController per
 * call is not free).
 */
class Context implements ServerCallContext, HandlerContext {
  readonly labels: Readonly<Record<string, string>>;
  /** The caller's identity, once authenticated. */
  identity: unknown = undefined;
  /** Whether answers carry the request id (the server's `requestIds`). */
  returnsRequestId = false;
  #requestId: string | undefined;
  readonly operation: OperationSchema;
  readonly protocol: string;
  /** The operation's buffered body limit, once the call is routed to it. */
  bodyLimit: number | undefined = undefined;
  readonly #options: DispatchOptions;
  readonly #onInternalError: ((error: unknown, context: HandlerContext) => void) | undefined;
  #responseHeaders: Headers | undefined;
  /** What the call failed with, once it did (for request hooks): set on failure only, so that a call that succeeds pays no store. */
  declare failure: unknown;
  /** The server's `sseKeepAliveMs`, when it set one (no field otherwise). */
  declare sseKeepAliveMs: number | undefined;

  constructor(
    readonly service: ServiceSchema,
    /** The request; once its body is read, with the body as bytes. */
    public request: HttpRequest,
    /** @internal What the request matched (the protocol answering it). */
    readonly match: RouteMatch,
    options: DispatchOptions,
    onInternalError?: (error: unknown, context: HandlerContext) => void,
  ) {
    this.labels = match.labels;
    this.operation = match.operation;
    this.protocol = match.protocol.id;
    this.#options = options;
    this.#onInternalError = onInternalError;
  }

  /** Puts another body in place of the request's (an auth scheme's checking stream). */
  replaceBody(body: HttpRequest["body"]): void {
    this.request = { ...this.request, body };
  }

  /** Records what the call failed with (the first failure: an error answering an error does not replace it). */
  failed(error: unknown): void {
    if (this.failure === undefined) this.failure = error;
  }

  /** Hands a streamed answer's late failure to the server's `onInternalError` (when it has one). */
  reportInternalError(error: unknown): void {
    this.#onInternalError?.(error, this);
  }

  get remoteAddress(): string | undefined {
    return this.#options.remoteAddress;
  }

  get headers(): Headers {
    return this.request.headers;
  }

  get signal(): AbortSignal {
    return this.#options.signal ?? (never ??= new AbortController().signal);
  }

  get deadline(): number | undefined {
    return this.#options.deadline;
  }

  get requestId(): string {
    return (this.#requestId ??= callerRequestId(this.request.headers) ?? newRequestId());
  }

  get responseHeaders(): Headers {
    return (this.#responseHeaders ??= new Headers());
  }

  /** The headers the handler added, if it asked for the container. */
  get addedHeaders(): Headers | undefined {
    return this.#responseHeaders;
  }
}

/** What protocols answer as a 500 that says nothing: a plain error that is none of Anvil's kinds. */
const INTERNAL_FAILURE = Object.freeze(new Error("internal failure"));

/** Errors that mean the request was wrong, not the server. */
function isCallerMistake(error: unknown): boolean {
  return SerializationError.is(error) || ValidationError.is(error) || ProtocolError.is(error);
}
