/** What a client is configured with, and how the defaults fill it in. */
import { type AuthScheme, type ClientProtocol, type RequestCustomization, type ServiceSchema, withRequestCustomizations } from "@anvil/core";
import { assertSigV4Configured } from "./auth/auth-scheme.js";
// `default-transport-node.ts` under the `node` condition (node:http), else `default-transport.ts` (fetch): package.json's `imports`.
import { defaultTransport } from "#default-transport";
import type { ClientInterceptor, Interceptor } from "./interceptor.js";
import { type RetryStrategy, standardRetry, type StandardRetryOptions } from "./retry.js";
import { sleep } from "./sleep.js";
import type { Transport, TransportRequest } from "./transport.js";

/**
 * A protocol as given to a client: a `ClientProtocol`, or what the protocol
 * packages' factories return (`restJson1()`, with its `client` side).
 */
export type ProtocolValue = ClientProtocol | { readonly client: ClientProtocol };

/** The configuration of a client. Only `endpoint` and `protocols` are required. */
export interface ClientConfig {
  /** Where requests go: scheme, host, port and an optional base path, e.g. `https://api.example.com/v1`. */
  readonly endpoint: string | URL;
  /**
   * The protocols the client may speak, as values (`restJson1()`,
   * `awsJson1_1()`, ...). The client speaks the first one the service
   * declares, in the model's order, unless `protocol` names one.
   */
  readonly protocols: ProtocolValue | readonly ProtocolValue[];
  /** The id of the protocol to speak (e.g. `aws.protocols#awsJson1_1`), among `protocols`. */
  readonly protocol?: string;
  /**
   * How requests travel. Default, over HTTP/1.1: on Node, one
   * `nodeHttpTransport()` (from `@anvil/client-core/node`) shared by the
   * clients made without a transport; elsewhere (browsers, Workers, Deno,
   * Bun) `fetchTransport()`. A protocol that needs HTTP/2 gets an
   * HTTP/2 transport of the client's own instead (see `requiresHttp2`).
   */
  readonly transport?: Transport;
  /** Retry strategy, or settings of the standard one (the default: 3 attempts). */
  readonly retry?: RetryStrategy | Partial<StandardRetryOptions>;
  /** Default time limit of a call in milliseconds, retries included. Default none. */
  readonly timeoutMs?: number;
  /**
   * How long, in milliseconds, a streamed output (a `@streaming` blob, an
   * event stream, a gRPC server stream) may wait for its first read before
   * the client releases it, and the connection it holds (a socket of the
   * HTTP/1.1 pool, an HTTP/2 stream with its flow-control window): a body
   * nobody reads cannot hold a pool's sockets for good. Reading it later
   * fails with a `TransportError` coded `UNREAD_BODY_TIMEOUT`. Calls
   * whose input streams too are left alone (their output may wait for the
   * input). Default 60 000; `Infinity` for none.
   *
   * A caller that will not read a body can release it at once:
   * `await using body = output.data` (the member is async-disposable), or
   * `output.data[Symbol.asyncIterator]().return()`.
   */
  readonly unreadBodyTimeoutMs?: number;
  /**
   * Call interceptors (functions: `(next) => (call) => ...`, around each
   * call, the first outermost) and attempt hooks (objects with
   * `beforeAttempt`/`afterAttempt`, around every attempt, in order).
   */
  readonly interceptors?: readonly (ClientInterceptor | Interceptor)[];
  /** Opt-in service customizations (core's request customizations), e.g. from `@anvil/aws-customizations`. */
  readonly customizations?: readonly RequestCustomization[];
  /**
   * Auth schemes the client may sign with (see `selectAuthScheme`):
   * `httpBearerAuth()`, `httpApiKeyAuth()`, `sigv4()` from
   * `@anvil/auth-sigv4`, or your own. A service whose operations must be
   * signed with `@aws.auth#sigv4` needs `sigv4()` here; without it
   * `createClient` throws rather than send unsigned requests.
   */
  readonly auth?: readonly AuthScheme[];
  /** Headers sent with every request (after the protocol's own). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Source of `@idempotencyToken` values the caller leaves out; default random UUIDs. */
  readonly idempotencyToken?: () => string;
  /** Waits between attempts; tests inject a fake clock. Default a timer. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** How long a streamed output may wait for its first read by default (see `unreadBodyTimeoutMs`). */
const DEFAULT_UNREAD_BODY_TIMEOUT_MS = 60_000;

/** A configuration with its defaults applied. */
export interface ResolvedConfig {
  readonly endpoint: URL;
  readonly protocol: ClientProtocol;
  readonly transport: Transport;
  readonly retry: RetryStrategy;
  readonly timeoutMs: number | undefined;
  readonly unreadBodyTimeoutMs: number;
  /** The attempt hooks of `interceptors`. */
  readonly interceptors: readonly Interceptor[];
  /** The call interceptors of `interceptors`. */
  readonly callInterceptors: readonly ClientInterceptor[];
  readonly auth: readonly AuthScheme[];
  readonly headers: readonly (readonly [string, string])[];
  readonly idempotencyToken: (() => string) | undefined;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Applies the defaults; throws a TypeError naming the mistake for a configuration that cannot work. */
export function resolveConfig(service: ServiceSchema, config: ClientConfig): ResolvedConfig {
  const endpoint = parseEndpoint(config.endpoint);
  const protocol = withRequestCustomizations(selectProtocol(service, config), config.customizations ?? []);
  const retry = config.retry === undefined || !("retryDelay" in config.retry) ? standardRetry(config.retry) : config.retry;
  if (config.timeoutMs !== undefined && !(config.timeoutMs > 0)) throw new TypeError(`createClient: timeoutMs must be positive, got ${config.timeoutMs}`);
  const unreadBodyTimeoutMs = config.unreadBodyTimeoutMs ?? DEFAULT_UNREAD_BODY_TIMEOUT_MS;
  if (!(unreadBodyTimeoutMs > 0)) throw new TypeError(`createClient: unreadBodyTimeoutMs must be positive, got ${unreadBodyTimeoutMs}`);
  return Object.freeze({
    endpoint,
    protocol,
    transport: transportFor(protocol, config.transport),
    retry,
    timeoutMs: config.timeoutMs,
    unreadBodyTimeoutMs,
    interceptors: Object.freeze((config.interceptors ?? []).filter((i): i is Interceptor => typeof i !== "function")),
    callInterceptors: Object.freeze((config.interceptors ?? []).filter((i): i is ClientInterceptor => typeof i === "function")),
    auth: authSchemes(service, config),
    headers: Object.freeze(Object.entries(config.headers ?? {})),
    idempotencyToken: config.idempotencyToken,
    sleep: config.sleep ?? sleep,
  });
}

/**
 * The transport given (it must speak HTTP/2 for a protocol that needs it);
 * else, for such a protocol, an HTTP/2 transport of the client's own where
 * the platform has `node:http2`; else the platform's default (`node:http`
 * on Node, `fetch` elsewhere).
 */
function transportFor(protocol: ClientProtocol, transport: Transport | undefined): Transport {
  if (protocol.requiresHttp2 === true) {
    if (transport === undefined) {
      const own = platformHttp2Transport();
      if (own !== undefined) return own;
      throw new TypeError(`createClient: ${protocol.id} needs HTTP/2, which this platform's fetch does not offer; pass an HTTP/2 transport (httpVersion "2")`);
    }
    if (transport.httpVersion !== "2") {
      throw new TypeError(
        `createClient: ${protocol.id} needs HTTP/2, but the transport given speaks ${transport.httpVersion === undefined ? "an undeclared HTTP version" : `HTTP/${transport.httpVersion}`}; use http2Transport() from @anvil/client-core/node (or a transport whose httpVersion is "2")`,
      );
    }
  }
  return transport ?? defaultTransport();
}

/**
 * An HTTP/2 transport over `node:http2` when the platform has it (Node,
 * Bun, Deno), found without importing a Node module into this entry. Its
 * sessions never keep a process alive while idle. Its code loads with its
 * first call: a browser bundle, where there is no `node:http2`, leaves it
 * in a chunk of its own, never fetched.
 */
function platformHttp2Transport(): Transport | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const http2 = process?.getBuiltinModule?.("node:http2") as { connect?: typeof import("node:http2").connect } | undefined;
  const connect = http2?.connect;
  if (connect === undefined) return undefined;
  type Http2Transport = Transport & { close(): Promise<void> };
  let loaded: Http2Transport | undefined;
  let loading: Promise<Http2Transport> | undefined;
  const load = (): Promise<Http2Transport> =>
    (loading ??= import("./http2-transport.js").then(
      (module) => (loaded = module.createHttp2Transport(connect)),
      (error: unknown) => {
        loading = undefined; // tried again on the next call
        throw error;
      },
    ));
  return Object.freeze({
    httpVersion: "2" as const,
    send: (request: TransportRequest) => (loaded === undefined ? load().then((transport) => transport.send(request)) : loaded.send(request)),
    close: async () => {
      if (loading !== undefined) await (await loading).close();
    },
  });
}

function parseEndpoint(endpoint: string | URL | undefined): URL {
  // Plain JavaScript callers can leave it out: Anvil resolves no endpoint from a model's rule set or a region.
  if (endpoint === undefined || endpoint === "") {
    throw new TypeError(
      'createClient: an endpoint is required, e.g. { endpoint: "https://api.example.com" } (endpoints are not resolved from a region or the model\'s endpoint rules)',
    );
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TypeError(`createClient: endpoint ${JSON.stringify(String(endpoint))} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`createClient: endpoint ${url.href} must be http: or https:`);
  return url;
}

/** The protocol named by `config.protocol`, else the first the service declares among those given. */
export function selectProtocol(service: ServiceSchema, config: Pick<ClientConfig, "protocols" | "protocol">): ClientProtocol {
  const values: readonly ProtocolValue[] = Array.isArray(config.protocols) ? config.protocols : [config.protocols as ProtocolValue];
  const given = values.map((p) => ("client" in p ? p.client : p));
  const ids = given.map((p) => p.id).join(", ") || "none";
  if (config.protocol !== undefined) {
    const chosen = given.find((p) => p.id === config.protocol);
    if (chosen === undefined) throw new TypeError(`createClient: protocol ${config.protocol} is not among the protocols given (${ids})`);
    return chosen;
  }
  for (const declared of service.protocols) {
    const match = given.find((p) => p.id === declared);
    if (match !== undefined) return match;
  }
  if (service.protocols.length === 0 && given.length > 0) return given[0]!;
  throw new TypeError(`createClient: ${service.id} declares ${service.protocols.join(", ") || "no protocol"}; none of the protocols given (${ids}) matches`);
}

function authSchemes(service: ServiceSchema, config: ClientConfig): readonly AuthScheme[] {
  const schemes = Object.freeze([...(config.auth ?? [])]);
  assertSigV4Configured(service, schemes);
  return schemes;
}
