/**
 * The server object: handlers are registered on it (one for the whole
 * service, or one per operation; the last registration of an operation
 * wins), the service is mapped onto the protocols it declares, and
 * transport adapters (Node, fetch) hand it requests. It also owns the
 * lifecycle: every exchange in flight is tracked so that `close` can drain
 * them and then abort the rest.
 */
import type { HandlerOf, HandlersOf, HttpRequest, HttpResponse, ServerProtocol, ServiceHost, ServiceModule, ServiceSchema, ServingState } from "@anvil/core";
import { HttpHeaders, ProtocolError } from "@anvil/core";
import { MAX_TIMER_MS } from "@anvil/core/protocol";
import type { AccessLogEntry } from "./access-log.js";
import type { AuthOptions } from "./auth.js";
import type { CorsOptions } from "./cors.js";
import { type Dispatcher, type DispatcherOptions, type DispatchOptions, type HandlerContext, createDispatcher } from "./dispatcher.js";
import type { ServerInterceptor } from "./interceptors.js";
import { isRequestHooks, type RequestHooks } from "./request-hooks.js";
import { type MountedHandler, Mounts } from "./mounts.js";
import { compileRouter, type Router } from "./router.js";

/** The handler of a whole service: one method per operation (an object or a class instance). */
export type ServiceHandler<S extends ServiceSchema, Id = unknown> = HandlersOf<S, HandlerContext<Id>>;

/** The handler of one operation of a service, by operation key. */
export type OperationHandler<S extends ServiceSchema, K extends keyof S["operations"], Id = unknown> = HandlerOf<S["operations"][K], HandlerContext<Id>>;

/** What {@link createServer} needs besides the service. `Id` is the callers' identity type, as `auth`'s verifiers return it. */
export interface ServerOptions<S extends ServiceSchema, Id = unknown> {
  /**
   * The server protocol implementations available: `restJson1().server`,
   * or the whole `restJson1()` (its `server` side is taken). The server
   * never imports a protocol package. {@link Server.mapService} picks the
   * ones the service declares.
   */
  readonly protocols: readonly (ServerProtocol | { readonly server: ServerProtocol })[];
  /** Called with every error that becomes a 500, for logging. */
  readonly onInternalError?: DispatcherOptions<S>["onInternalError"];
  /** Called with every request refused as the caller's mistake (4xx) before its handler ran, for logging. */
  readonly onRejected?: DispatcherOptions<S>["onRejected"];
  /** Largest buffered request body in bytes (default 1 MiB, or an operation's `@httpPayload` blob's `@length` maximum when larger); larger requests get a 413. */
  readonly bodyLimit?: number;
  /** Per-operation body limits, by operation key (e.g. a larger one for an upload). */
  readonly bodyLimits?: DispatcherOptions<S>["bodyLimits"];
  /**
   * The longest any call may run, in milliseconds: a longer deadline the
   * caller asks for (gRPC's `grpc-timeout`) is shortened to it, and calls
   * that ask for none get it. Default none (a caller's deadline is kept,
   * however long; calls without one are not timed).
   */
  readonly maxDeadlineMs?: number;
  /**
   * How often an idle Server-Sent Events answer gets a keep-alive comment,
   * in milliseconds: an output event stream a caller asked for as
   * `text/event-stream` (restJson1) sends one whenever the handler's
   * stream has had no event for this long. Default 15 000; 0 for none.
   */
  readonly sseKeepAliveMs?: number;
  /**
   * Verifiers of the auth schemes the model declares (`bearer`, `apiKey`,
   * `basic`): calls to operations that take them are authenticated before
   * their body is read, and the identity reaches handlers as
   * `context.identity`. Without this option nothing is enforced.
   */
  readonly auth?: AuthOptions<Id>;
  /**
   * CORS for browsers on other origins: as the service's `@cors` trait says
   * by default; `true` or settings turn it on (settings override the
   * trait's), `false` off.
   */
  readonly cors?: CorsOptions | boolean;
  /**
   * Return each call's request id on its answer (the caller's `x-request-id`
   * when it sent one, else a new one). Off by default (a few per cent on the
   * smallest calls); handlers see `context.requestId` either way.
   */
  readonly requestIds?: boolean;
  /**
   * Called once per request with its access-log entry (see
   * `AccessLogEntry`): `(entry) => logger.info(entry)` for a JSON logger,
   * `(entry) => console.log(formatAccessLog(entry))` for a line.
   */
  readonly accessLog?: (entry: AccessLogEntry) => void;
  /**
   * Health endpoints, mounted next to the service's routes: `true` for
   * `GET /healthz` (liveness: 200 while the process serves) and
   * `GET /readyz` (readiness: 200 once started, 503 while closing, so a load
   * balancer stops sending before the server stops), or other paths. Off by
   * default.
   */
  readonly health?: boolean | HealthOptions;
  /**
   * Interceptors around every call, outermost first; `use()` adds more.
   * Functions are call interceptors, around the handler (see
   * `ServerInterceptor`); objects with `aroundRequest` are request hooks,
   * around the whole routed request (see `RequestHooks`: tracing, metrics).
   */
  readonly interceptors?: readonly (ServerInterceptor<Id> | RequestHooks<Id>)[];
}

/**
 * One request/response exchange as a transport adapter sees it, from the
 * request's arrival to the last byte of the response.
 */
export interface Exchange {
  /** Handed to the handler: aborted by {@link Exchange.abort} or when the server's grace period ends. */
  readonly signal: AbortSignal;
  /** The caller went away (or the transport failed): aborts the handler's signal. */
  abort(reason?: unknown): void;
  /** The response is fully written (or abandoned): the exchange no longer counts as in flight. Idempotent. */
  end(): void;
}

/** Per-request details an adapter passes to {@link Server.dispatch}. */
export interface ExchangeInfo {
  /** The caller's address (IP). May be a getter: it is read only when a handler asks for it. */
  readonly remoteAddress?: string | undefined;
  /**
   * When the host ends the call, in epoch milliseconds (a Lambda's timeout):
   * the call runs under it as under a protocol's deadline (gRPC's
   * `grpc-timeout`), and the handler sees it as `context.deadline`.
   */
  readonly deadline?: number | undefined;
}

/** Options of {@link Server.close}. */
export interface CloseOptions {
  /** How long in-flight calls may take to finish before their signals are aborted, in milliseconds. Default 10 000. */
  readonly graceMs?: number;
  /**
   * Lame duck: for up to this long after closing begins (and within
   * `graceMs`), new calls are still served, not refused with 503, while
   * readiness already answers 503 and gRPC health NOT_SERVING. A load
   * balancer that learns of the close only from its probes, or from the
   * connections closing, goes on sending calls for a moment; served, none of
   * them fails. {@link NodeListener.close} ends it early once no connection
   * is left to send a call on. Default 0: new calls are refused at once.
   */
  readonly lameDuckMs?: number;
}

/** Where {@link ServerOptions.health} serves its endpoints. */
export interface HealthOptions {
  /** The liveness path. Default `/healthz`. */
  readonly liveness?: string;
  /** The readiness path. Default `/readyz`. */
  readonly readiness?: string;
}

/** A server for one service: register handlers, map the service, then hand it to an adapter. */
export interface Server<S extends ServiceSchema, Id = unknown> {
  /** The service it serves, as passed to {@link createServer}. */
  readonly service: S;
  /**
   * Registers one handler for the whole service: it serves every operation
   * (methods are called on the object, so class instances work). Later
   * registrations of single operations override it, and it overrides
   * earlier ones.
   */
  register(handler: ServiceHandler<S, Id>): this;
  /** Registers the handler of one operation; the last registration of an operation wins. */
  register<K extends keyof S["operations"] & string>(operation: K, handler: OperationHandler<S, K, Id>): this;
  /**
   * Serves more services on this server's listeners, next to its own: a
   * library's (gRPC's health and reflection services: `grpcHealth()`,
   * `grpcReflection()` of `@anvil/protocol-grpc`) or more of the
   * application's (`{ services: [{ service, handlers }], protocols: [grpc()] }`),
   * as a gRPC server hosts several services on one port. The server's own
   * routes come first; a request none of them matches goes to the modules'
   * routes, in the order they were added, so a server without modules pays
   * nothing for them. Module calls share the server's lifecycle (new calls
   * are refused while it closes, unless the module serves while closing),
   * its access log, request ids and error hooks; not its auth, CORS,
   * interceptors or mounts. Add modules before the server starts, as
   * handlers are registered; the module is told of the server at once
   * (`attach`).
   *
   * ```ts
   * createServer(Weather, { protocols: [grpc()] }).register(handler).mapService().add(grpcHealth()).add(grpcReflection());
   * ```
   */
  add(module: ServiceModule): this;
  /**
   * Adds an interceptor around every call, inside those of
   * `options.interceptors` and those added before: the first added sees a
   * call first and its outcome last. Request hooks (an object with
   * `aroundRequest`) go around the whole routed request, outside every call
   * interceptor.
   */
  use(interceptor: ServerInterceptor<Id> | RequestHooks<Id>): this;
  /** Adds an interceptor around the calls of one operation, inside every server-wide one. */
  use<K extends keyof S["operations"] & string>(operation: K, interceptor: ServerInterceptor<Id>): this;
  /**
   * Maps the service onto protocols: with no argument, every protocol the
   * service declares (each must be among `options.protocols`); otherwise the
   * given protocol ids. Routes of every mapped protocol are served together.
   */
  mapService(...protocolIds: string[]): this;
  /**
   * Compiles routes, validators and handlers. Throws if an operation has no
   * handler, no protocol is mapped, or two routes conflict (naming both).
   * Adapters call it when they are created, so these errors surface at
   * start-up; registering afterwards throws. Idempotent.
   */
  start(): this;
  /**
   * Serves the requests whose path is `prefix` or starts with `prefix/`
   * with a web-standard handler instead of the service's routes
   * (documentation, an API explorer, a health check). The longest matching
   * prefix wins. The Node and fetch adapters honour mounts; the handler gets
   * the request with its full URL (the origin the client used). Mounting
   * works before and after the server starts.
   *
   * ```ts
   * server.mount("/health", async () => new Response("ok"));
   * ```
   */
  mount(prefix: string, handler: MountedHandler): this;
  /**
   * The mounted handler serving a request target's path (origin-form, like
   * `/docs/x?y`, or absolute-form; the query is ignored), if any. Adapters
   * call it for every request; with nothing mounted it costs a length check.
   */
  mounted(target: string): MountedHandler | undefined;
  /** Starts an exchange: the adapter calls it when a request arrives and ends it when the response is written. */
  begin(): Exchange;
  /**
   * Answers a request of an exchange. Never rejects. While closing, answers
   * 503 (`ServiceUnavailableException`).
   */
  dispatch(request: HttpRequest, exchange: Exchange, info?: ExchangeInfo): Promise<HttpResponse>;
  /** Exchanges in flight. */
  readonly inFlight: number;
  /** Whether {@link Server.close} has been called. */
  readonly closing: boolean;
  /** Where the server is in its life: `starting`, `serving` once started, `closing` once {@link Server.close} is called. */
  readonly state: ServingState;
  /**
   * Stops taking new calls (they get 503), waits up to `graceMs` for the
   * exchanges in flight, then aborts the signals of those left and resolves.
   * Adapters stop their listeners first and close connections afterwards.
   */
  close(options?: CloseOptions): Promise<void>;
}

type AnyHandler = (input: unknown, context: HandlerContext) => unknown;

/** What ends a closing server's lame duck early (see {@link CloseOptions.lameDuckMs}), for as long as it lasts. */
const lameDucks = new WeakMap<Server<any, any>, () => void>();

/**
 * Ends `server`'s lame duck now, if it is in one: from now on new calls get
 * 503. Adapters call it once no connection is left to send a call on.
 * Internal to the package's adapters.
 */
export function endLameDuck(server: Server<any, any>): void {
  lameDucks.get(server)?.();
}

/**
 * Creates a server for a service schema.
 *
 * ```ts
 * const server = createServer(Weather, { protocols: [restJson1().server, rpcv2Cbor().server] })
 *   .register(new WeatherHandler())
 *   .register("getCity", getCity)
 *   .mapService();
 * ```
 */
export function createServer<S extends ServiceSchema, Id = unknown>(service: S, options: ServerOptions<S, Id>): Server<S, Id> {
  const handlers = new Map<string, AnyHandler>();
  const interceptors: (ServerInterceptor<Id> | RequestHooks<Id>)[] = [...(options.interceptors ?? [])];
  const operationInterceptors: Record<string, ServerInterceptor<Id>[]> = {};
  const mapped: ServerProtocol[] = [];
  const exchanges = new InFlight();
  const mounts = new Mounts();
  const idle: (() => void)[] = [];
  const modules: ServiceModule[] = [];
  /** The modules' services, routed, once started. */
  let hosted: readonly HostedRoute[] = [];
  const stateListeners = new Set<(state: ServingState) => void>();
  let dispatcher: Dispatcher | undefined;
  let closing = false;
  /** While closing, whether new calls are still served (the lame duck). */
  let admitting = false;
  const stateNow = (): ServingState => (closing ? "closing" : dispatcher === undefined ? "starting" : "serving");
  const changed = (): void => {
    const state = stateNow();
    for (const listener of [...stateListeners]) {
      try {
        listener(state);
      } catch {
        // A listener's failure is its own; the others are still told.
      }
    }
  };
  const host: ServiceHost = {
    get services() {
      return [service, ...modules.flatMap((m) => m.services.map((s) => s.service))];
    },
    get state() {
      return stateNow();
    },
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => void stateListeners.delete(listener);
    },
  };
  /** A request no route of the service matches, answered by the first module service whose routes do (while closing, only by those that serve then). */
  const toModule = (request: HttpRequest, dispatchOptions: DispatchOptions, whileClosing = false): Promise<HttpResponse> | undefined => {
    for (let i = 0; i < hosted.length; i++) {
      const route = hosted[i]!;
      if ((!whileClosing || route.whileClosing) && route.router.match(request) !== undefined) return route.dispatch(request, dispatchOptions);
    }
    return undefined;
  };

  const available = new Map<string, ServerProtocol>();
  for (const given of options.protocols) {
    const protocol = "server" in given ? given.server : given;
    if (!available.has(protocol.id)) available.set(protocol.id, protocol);
  }

  const mutable = (what: string): void => {
    if (dispatcher !== undefined) throw new Error(`${service.id}: cannot ${what} after the server started`);
  };

  const settle = (exchange: LazyExchange): void => {
    if (!exchanges.delete(exchange) || exchanges.size > 0 || idle.length === 0) return;
    for (const resolve of idle.splice(0)) resolve();
  };

  const unavailable = async (): Promise<HttpResponse> => {
    const error = new ProtocolError("ServiceUnavailableException", 503, "the server is shutting down");
    const protocol = mapped[0];
    if (protocol !== undefined) {
      try {
        const response = await protocol.serializeError(undefined, error, { service, labels: {} });
        response.headers.set("retry-after", "1");
        return response;
      } catch {
        // fall through to a bare answer
      }
    }
    return { status: 503, headers: new HttpHeaders({ "retry-after": "1" }), body: undefined };
  };

  if (options.health !== undefined && options.health !== false) {
    const paths = options.health === true ? {} : options.health;
    const answer = (status: number, state: string) =>
      new Response(JSON.stringify({ status: state }), {
        status,
        headers: { "content-type": "application/json", "cache-control": "no-store", ...(status === 503 ? { "retry-after": "1" } : {}) },
      });
    const probe = (check: () => [number, string]) => async (request: Request) => {
      if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: { allow: "GET, HEAD" } });
      return answer(...check());
    };
    mounts.add(
      paths.liveness ?? "/healthz",
      probe(() => [200, "ok"]),
    );
    mounts.add(
      paths.readiness ?? "/readyz",
      probe(() => (closing ? [503, "draining"] : dispatcher === undefined ? [503, "starting"] : [200, "ready"])),
    );
  }

  const server: Server<S, Id> = {
    service,

    use(first: ServerInterceptor<Id> | RequestHooks<Id> | string, interceptor?: ServerInterceptor<Id>) {
      mutable("add interceptors");
      if (typeof first === "function" || isRequestHooks(first)) {
        interceptors.push(first);
        return this;
      }
      if (typeof first !== "string") throw new TypeError("use: an interceptor is a function, or request hooks (an object with aroundRequest)");
      if (!Object.hasOwn(service.operations, first))
        throw new TypeError(`${service.id} has no operation ${first} (it has ${Object.keys(service.operations).join(", ")})`);
      if (typeof interceptor !== "function") throw new TypeError(`the interceptor of ${first} is not a function`);
      (operationInterceptors[first] ??= []).push(interceptor);
      return this;
    },

    register(first: ServiceHandler<S, Id> | string, handler?: unknown) {
      mutable("register handlers");
      if (typeof first === "string") {
        if (!Object.hasOwn(service.operations, first))
          throw new TypeError(`${service.id} has no operation ${first} (it has ${Object.keys(service.operations).join(", ")})`);
        if (typeof handler !== "function") throw new TypeError(`the handler of ${first} is not a function`);
        handlers.set(first, handler as AnyHandler);
        return this;
      }
      const object = first as unknown as Record<string, unknown>;
      for (const key of Object.keys(service.operations)) {
        const method = object[key];
        if (typeof method !== "function") throw new TypeError(`the service handler has no method ${key} (${service.operations[key]!.id})`);
        handlers.set(key, (input, context) => (method as AnyHandler).call(object, input, context));
      }
      return this;
    },

    add(module: ServiceModule) {
      mutable("add services");
      if (module === null || typeof module !== "object" || !Array.isArray(module.services) || !Array.isArray(module.protocols)) {
        throw new TypeError(`${service.id}: add() takes a ServiceModule: { services: [{ service, handlers }], protocols }`);
      }
      if (modules.includes(module)) throw new Error(`${service.id}: this module is added already`);
      if (module.protocols.length === 0) throw new Error(`${service.id}: a module needs at least one protocol to serve its services`);
      for (const { service: added, handlers } of module.services) {
        if (added === service || modules.some((m) => m.services.some((s) => s.service === added)))
          throw new Error(`${service.id}: ${added.id} is served already`);
        for (const key of Object.keys(added.operations)) {
          if (typeof (handlers as Record<string, unknown> | undefined)?.[key] !== "function")
            throw new TypeError(`${service.id}: the handlers of ${added.id} have no method ${key}`);
        }
      }
      // Told first: a module that cannot serve this server (it serves another already) is not added.
      module.attach?.(host);
      modules.push(module);
      return this;
    },

    mapService(...protocolIds: string[]) {
      mutable("map the service");
      const ids = protocolIds.length > 0 ? protocolIds : service.protocols;
      if (ids.length === 0) throw new Error(`${service.id} declares no protocol; name the ones to serve: mapService("aws.protocols#restJson1")`);
      for (const id of ids) {
        const protocol = available.get(id);
        if (protocol === undefined) {
          const known = [...available.keys()].join(", ") || "none";
          throw new Error(`${service.id}: no implementation of protocol ${id} was given (options.protocols has ${known})`);
        }
        if (!mapped.includes(protocol)) mapped.push(protocol);
      }
      return this;
    },

    mount(prefix: string, handler: MountedHandler) {
      mounts.add(prefix, handler);
      return this;
    },

    mounted(target: string) {
      return mounts.find(target);
    },

    start() {
      if (dispatcher !== undefined) return this;
      if (mapped.length === 0) throw new Error(`${service.id}: no protocol mapped; call mapService() before starting`);
      const missing = Object.keys(service.operations).filter((key) => !handlers.has(key));
      if (missing.length > 0) throw new Error(`${service.id}: no handler registered for ${missing.join(", ")}`);
      dispatcher = createDispatcher({
        service,
        protocols: mapped,
        handlers: Object.fromEntries(handlers) as unknown as HandlersOf<S, HandlerContext<Id>>,
        ...(options.auth !== undefined ? { auth: options.auth } : {}),
        ...(options.cors !== undefined ? { cors: options.cors } : {}),
        ...(options.accessLog !== undefined ? { accessLog: options.accessLog } : {}),
        ...(options.requestIds !== undefined ? { requestIds: options.requestIds } : {}),
        interceptors,
        operationInterceptors: operationInterceptors as DispatcherOptions<S, Id>["operationInterceptors"] & object,
        ...(options.onInternalError !== undefined ? { onInternalError: options.onInternalError } : {}),
        ...(options.onRejected !== undefined ? { onRejected: options.onRejected } : {}),
        ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
        ...(options.bodyLimits !== undefined ? { bodyLimits: options.bodyLimits } : {}),
        ...(options.maxDeadlineMs !== undefined ? { maxDeadlineMs: options.maxDeadlineMs } : {}),
        ...(options.sseKeepAliveMs !== undefined ? { sseKeepAliveMs: options.sseKeepAliveMs } : {}),
        ...(modules.length > 0 ? { fallback: (request: HttpRequest, dispatchOptions: DispatchOptions) => toModule(request, dispatchOptions) } : {}),
      });
      hosted = modules.flatMap((module) =>
        module.services.map(({ service: added, handlers }) => hostedRoute(module, added, handlers as Record<string, unknown>, options)),
      );
      changed();
      return this;
    },

    begin(): Exchange {
      const exchange = new LazyExchange(settle);
      exchanges.add(exchange);
      return exchange;
    },

    dispatch(request, exchange, info = {}) {
      if (closing && !admitting) return (hosted.length === 0 ? undefined : toModule(request, new ExchangeOptions(exchange, info), true)) ?? unavailable();
      this.start();
      return dispatcher!(request, new ExchangeOptions(exchange, info));
    },

    get inFlight() {
      return exchanges.size;
    },

    get closing() {
      return closing;
    },

    get state() {
      return stateNow();
    },

    async close({ graceMs = 10_000, lameDuckMs = 0 } = {}) {
      const graceEnds = Date.now() + graceMs;
      if (!closing) {
        closing = true;
        admitting = lameDuckMs > 0 && graceMs > 0;
        changed();
      }
      if (admitting) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve) => {
          lameDucks.set(server, resolve);
          timer = setTimeout(resolve, Math.min(lameDuckMs, graceMs, MAX_TIMER_MS));
        });
        clearTimeout(timer);
        lameDucks.delete(server);
        admitting = false;
      }
      if (exchanges.size > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const left = Math.max(0, graceEnds - Date.now());
        await Promise.race([
          new Promise<void>((resolve) => idle.push(resolve)),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(left, MAX_TIMER_MS)))),
        ]);
        clearTimeout(timer);
      }
      // A 503 (gRPC: UNAVAILABLE): what a call still waiting for its body is answered with, and what a handler
      // that rethrows its signal's reason answers.
      const reason = new ProtocolError("ServiceUnavailableException", 503, "the server is shutting down");
      for (const exchange of exchanges.snapshot()) exchange.abort(reason);
    },
  };
  return server;
}

/** A module's service, as the server routes to it. */
interface HostedRoute {
  readonly router: Router;
  readonly dispatch: Dispatcher;
  /** Whether it answers while the server closes. */
  readonly whileClosing: boolean;
}

/** Compiles a module's service: its routes, and a dispatcher sharing the server's logging hooks. */
function hostedRoute(module: ServiceModule, service: ServiceSchema, handlers: Record<string, unknown>, options: ServerOptions<any, any>): HostedRoute {
  const bound: Record<string, AnyHandler> = {};
  for (const key of Object.keys(service.operations)) {
    const method = handlers[key] as AnyHandler;
    bound[key] = (input, context) => method.call(handlers, input, context);
  }
  return {
    router: compileRouter(service, module.protocols),
    dispatch: createDispatcher({
      service,
      protocols: module.protocols,
      handlers: bound as unknown as HandlersOf<ServiceSchema, HandlerContext>,
      ...(options.requestIds !== undefined ? { requestIds: options.requestIds } : {}),
      ...(options.onInternalError !== undefined ? { onInternalError: options.onInternalError } : {}),
      ...(options.onRejected !== undefined ? { onRejected: options.onRejected } : {}),
    }),
    whileClosing: module.servesWhileClosing === true,
  };
}

/**
 * An exchange whose AbortController is made only when someone asks for the
 * signal (most handlers never do); an abort before that is remembered.
 */
class LazyExchange implements Exchange {
  #controller: AbortController | undefined;
  #aborted: { reason: unknown } | undefined;
  /** @internal Neighbours in {@link InFlight}'s list, and whether the exchange is in it. */
  prev: LazyExchange | undefined = undefined;
  /** @internal */
  next: LazyExchange | undefined = undefined;
  /** @internal */
  linked = false;

  constructor(private readonly settle: (exchange: LazyExchange) => void) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted !== undefined) this.#controller.abort(this.#aborted.reason);
    }
    return this.#controller.signal;
  }

  abort(reason?: unknown): void {
    if (this.#controller !== undefined) this.#controller.abort(reason);
    else this.#aborted ??= { reason };
  }

  end(): void {
    this.settle(this);
  }
}

/**
 * The exchanges in flight, as a list through the exchanges themselves:
 * adding and removing one is a few stores. A `Set` costs more per call, as
 * every exchange is a new object to hash, and as the table is resized when
 * the count swings (measured: about 5% of a small JSON request's time).
 */
class InFlight {
  size = 0;
  #head: LazyExchange | undefined = undefined;

  add(exchange: LazyExchange): void {
    const head = this.#head;
    exchange.next = head;
    if (head !== undefined) head.prev = exchange;
    this.#head = exchange;
    exchange.linked = true;
    this.size++;
  }

  /** Takes the exchange out; false if it was not in (ended already). */
  delete(exchange: LazyExchange): boolean {
    if (!exchange.linked) return false;
    const { prev, next } = exchange;
    if (prev !== undefined) prev.next = next;
    else this.#head = next;
    if (next !== undefined) next.prev = prev;
    exchange.prev = exchange.next = undefined;
    exchange.linked = false;
    this.size--;
    return true;
  }

  /** The exchanges in flight now (a copy: aborting one may end it). */
  snapshot(): LazyExchange[] {
    const all: LazyExchange[] = [];
    for (let e = this.#head; e !== undefined; e = e.next) all.push(e);
    return all;
  }
}

/** Dispatch options over an exchange: its signal, the caller's address and the host's deadline are read only when asked for. */
class ExchangeOptions implements DispatchOptions {
  constructor(
    private readonly exchange: Exchange,
    private readonly info: ExchangeInfo,
  ) {}

  get signal(): AbortSignal {
    return this.exchange.signal;
  }

  get remoteAddress(): string | undefined {
    return this.info.remoteAddress;
  }

  get deadline(): number | undefined {
    return this.info.deadline;
  }
}
