/**
 * `anvil serve --fake`: a mock server from any model, no codegen step. The
 * model's schemas are built at run time (`@anvil/dynamic`), each operation's
 * fake table by `@anvil/fakes` (the tables `anvil generate --fakes` writes as
 * literals), and every HTTP protocol the service declares is served by
 * `@anvil/server`, input validation included.
 */
import type { OperationSchema, ServiceSchema, ServerProtocol } from "@anvil/core";
import type { FakeOperation } from "@anvil/core/protocol";
import { docsRoutes } from "@anvil/docs-site";
import { type ExampleRef, operationExamples, schemasFromModel } from "@anvil/dynamic";
import { createFakeHandler, fakeOperation, type FakeCall } from "@anvil/fakes";
import type { Model } from "@anvil/model";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { GRPC_PROTOCOL_ID, grpc, grpcHealth, grpcReflection } from "@anvil/protocol-grpc";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { rpcv2Json } from "@anvil/protocol-rpcv2json";
import { createHash, timingSafeEqual } from "node:crypto";
import { sigv4Verifier } from "@anvil/auth-sigv4";
import { type AccessLogEntry, type AuthOptions, createServer, type HandlerContext, type Server } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";

/** The gRPC protocol trait: served over cleartext HTTP/2 on a port of its own (`--grpc-port`). */
export const GRPC_PROTOCOL = GRPC_PROTOCOL_ID;

/** Every HTTP protocol `anvil serve` can answer on, by trait id. */
export function httpProtocols(): ReadonlyMap<string, ServerProtocol> {
  return new Map([restJson1(), simpleRestJson(), awsJson1_0(), awsJson1_1(), rpcv2Cbor(), rpcv2Json()].map((p) => [p.server.id, p.server]));
}

/**
 * The fake table of every operation of a service, by operation key: the
 * same tables generated fakes hold as literals.
 *
 * @param model - The model the service comes from.
 * @param service - The service's dynamic schema.
 * @param onWarning - Told about examples the fakes cannot use: why, and which one.
 */
export function serviceFakeTables(
  model: Model,
  service: ServiceSchema,
  onWarning?: (message: string, example: ExampleRef) => void,
): Record<string, FakeOperation> {
  const tables: Record<string, FakeOperation> = {};
  for (const [key, operation] of Object.entries(service.operations)) {
    tables[key] = fakeOperation(operation, operationExamples(model, model.getShape(operation.id)!, onWarning), onWarning);
  }
  return tables;
}

/** One fake server: a service on a set of protocols that share one router (one port). */
export interface FakeServer {
  /** The service it fakes. */
  readonly service: ServiceSchema;
  /** Protocol trait ids it answers on. */
  readonly protocols: readonly string[];
  /** The server, with the fake handler registered and the documentation routes mounted (unless `docs` is false); not yet listening. */
  readonly server: Server<ServiceSchema, FakeIdentity>;
  /** Whether it serves gRPC (cleartext HTTP/2, on the gRPC ports). */
  readonly grpc: boolean;
  /** The auth schemes the service declares, and those of them enforced (given credentials). */
  readonly auth: FakeAuthState;
}

/** Which of a service's auth schemes `anvil serve` enforces. */
export interface FakeAuthState {
  /** The auth scheme traits the service declares, in model order. */
  readonly declared: readonly string[];
  /** Those enforced: the ones credentials were given for. */
  readonly enforced: readonly string[];
}

/** What {@link fakeServers} builds: the servers, and the declared protocols no server answers. */
export interface FakeServers {
  /** One server per service and group of protocols whose routes do not collide, plus one per gRPC service. */
  readonly servers: readonly FakeServer[];
  /**
   * Declared protocols without an implementation here, by service id; an
   * empty list for a service that declares no protocol.
   */
  readonly unserved: ReadonlyMap<string, readonly string[]>;
}

/** Options of {@link fakeServers}. */
export interface FakeServersOptions {
  /** Service shape ids to serve; empty means every service of the model. */
  readonly services?: readonly string[];
  /** Called after every answered call. */
  readonly onCall?: (service: ServiceSchema, call: FakeCall) => void;
  /** Called with errors that became 500s. */
  readonly onInternalError?: (error: unknown) => void;
  /** Called for each request refused before the fake ran (malformed, failing validation), with its operation and protocol. */
  readonly onRejected?: (service: ServiceSchema, rejection: { readonly operation: string; readonly protocol: string; readonly error: unknown }) => void;
  /** Told about examples the fakes cannot use: why, and which one (the model's validator warns about the same examples). */
  readonly onWarning?: (message: string, example: ExampleRef) => void;
  /** Mount the documentation routes (`/openapi`, `/openapi.json`, `/docs`) on each server. Default true. */
  readonly docs?: boolean;
  /** Serve `/healthz` and `/readyz` on each HTTP server, and gRPC's health service on each gRPC port. Default true. */
  readonly health?: boolean;
  /** Where every server's access log goes: one entry per request (see `@anvil/server`'s `AccessLogEntry`). Default none. */
  readonly accessLog?: (entry: AccessLogEntry) => void;
  /** The buffered request body limit of every operation, in bytes (the server's default otherwise: 1 MiB, or a payload blob's `@length` max). */
  readonly bodyLimit?: number;
  /**
   * Credentials to accept, per scheme. With any, each service's operations
   * that take one of these schemes (by the model's auth traits) are refused
   * without valid credentials of it; schemes with none given here are not
   * enforced. Without, nothing is enforced.
   */
  readonly credentials?: FakeCredentials;
}

/** Credentials `anvil serve` accepts: `--bearer-token`, `--api-key`, `--basic`, `--sigv4` (each repeatable). */
export interface FakeCredentials {
  /** `@httpBearerAuth` tokens. */
  readonly bearerTokens?: readonly string[];
  /** `@httpApiKeyAuth` keys. */
  readonly apiKeys?: readonly string[];
  /** `@httpBasicAuth` users and passwords. */
  readonly basic?: readonly { readonly user: string; readonly password: string }[];
  /** `aws.auth#sigv4` access keys and their secrets (any region; the service's signing name). */
  readonly sigv4?: readonly { readonly accessKeyId: string; readonly secretAccessKey: string }[];
}

/** The identity of a caller `anvil serve` let in: which scheme, and which of its credentials (`token 1`, a user name). */
export interface FakeIdentity {
  /** `bearer`, `api key`, `basic` or `sigv4`. */
  readonly scheme: string;
  /** `token` (`token 2` when several were given), `key` likewise, the basic user's name, or the SigV4 access key id. */
  readonly id: string;
}

/** Whether `given` is one of `accepted`, compared in constant time (by SHA-256, so lengths do not show either). */
function oneOf(given: string, accepted: readonly string[]): number {
  const digest = createHash("sha256").update(given).digest();
  let found = -1;
  accepted.forEach((candidate, i) => {
    if (timingSafeEqual(digest, createHash("sha256").update(candidate).digest()) && found < 0) found = i;
  });
  return found;
}

/** The server's auth verifiers for the credentials given; undefined when none are. */
function fakeAuth(credentials: FakeCredentials | undefined): AuthOptions<FakeIdentity> | undefined {
  const tokens = credentials?.bearerTokens ?? [];
  const keys = credentials?.apiKeys ?? [];
  const users = credentials?.basic ?? [];
  const accessKeys = credentials?.sigv4 ?? [];
  if (tokens.length + keys.length + users.length + accessKeys.length === 0) return undefined;
  const numbered = (scheme: string, what: string, i: number, all: readonly unknown[]) => ({ scheme, id: all.length === 1 ? what : `${what} ${i + 1}` });
  return {
    allowUnverified: true,
    ...(tokens.length > 0 ? { bearer: (token: string) => ((i) => (i < 0 ? undefined : numbered("bearer", "token", i, tokens)))(oneOf(token, tokens)) } : {}),
    ...(keys.length > 0 ? { apiKey: (key: string) => ((i) => (i < 0 ? undefined : numbered("api key", "key", i, keys)))(oneOf(key, keys)) } : {}),
    ...(users.length > 0
      ? {
          basic: ({ user, password }: { user: string; password: string }) => {
            const i = oneOf(
              `${user}:${password}`,
              users.map((u) => `${u.user}:${u.password}`),
            );
            return i < 0 ? undefined : { scheme: "basic", id: users[i]!.user };
          },
        }
      : {}),
    ...(accessKeys.length > 0
      ? {
          schemes: [
            sigv4Verifier<FakeIdentity>({
              secretOf: (accessKeyId) => accessKeys.find((k) => k.accessKeyId === accessKeyId)?.secretAccessKey,
              identify: (accessKeyId) => ({ scheme: "sigv4", id: accessKeyId }),
            }),
          ],
        }
      : {}),
  };
}

/**
 * Fake servers for a model's services, not listening yet: every declared
 * protocol is served; protocols whose routes collide (restJson1 and
 * simpleRestJson share URIs) go to separate servers, in declaration order,
 * and gRPC gets a server of its own (it needs HTTP/2), which also serves
 * gRPC's health service and server reflection.
 * Throws when a fake table cannot be built (recursion no value can end).
 */
export function fakeServers(model: Model, options: FakeServersOptions = {}): FakeServers {
  const schemas = schemasFromModel(model);
  const available = httpProtocols();
  const wanted = options.services?.length ? options.services : undefined;
  const servers: FakeServer[] = [];
  const unserved = new Map<string, string[]>();
  const auth = fakeAuth(options.credentials);
  const given = [
    ...(auth?.bearer ? ["smithy.api#httpBearerAuth"] : []),
    ...(auth?.apiKey ? ["smithy.api#httpApiKeyAuth"] : []),
    ...(auth?.basic ? ["smithy.api#httpBasicAuth"] : []),
    ...(auth?.schemes ?? []).map((s) => s.id),
  ];
  for (const service of schemas.services()) {
    if (wanted && !wanted.includes(service.id)) continue;
    const handler = createFakeHandler(service, serviceFakeTables(model, service, options.onWarning), {
      ...(options.onCall ? { onCall: (call: FakeCall) => options.onCall!(service, call) } : {}),
    });
    const make = (ids: readonly string[]): Server<ServiceSchema, FakeIdentity> =>
      createServer(service, {
        protocols: ids.map((id) => (id === GRPC_PROTOCOL ? grpc() : available.get(id)!)),
        ...(options.onInternalError ? { onInternalError: options.onInternalError } : {}),
        ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
        ...(auth !== undefined ? { auth } : {}),
        // Liveness and readiness on the HTTP ports (gRPC has its own health protocol), request ids on every answer.
        ...(options.health !== false && !ids.includes(GRPC_PROTOCOL) ? { health: true } : {}),
        requestIds: true,
        ...(options.accessLog !== undefined ? { accessLog: options.accessLog } : {}),
        ...(options.onRejected
          ? {
              onRejected: (error: unknown, context: HandlerContext) =>
                options.onRejected!(service, { operation: operationKey(service, context.operation), protocol: context.protocol, error }),
            }
          : {}),
      })
        .register(handler)
        .mapService(...ids);
    const authState: FakeAuthState = { declared: service.auth, enforced: service.auth.filter((id) => given.includes(id)) };
    const groups: string[][] = [];
    if (service.protocols.length === 0) unserved.set(service.id, []);
    for (const id of service.protocols) {
      if (id === GRPC_PROTOCOL) {
        // gRPC's health service (following the server's readiness) and server reflection on the same port.
        const server = make([id]);
        if (options.health !== false) server.add(grpcHealth());
        servers.push({ service, protocols: [id], server: server.add(grpcReflection()), grpc: true, auth: authState });
        continue;
      }
      if (!available.has(id)) {
        unserved.set(service.id, [...(unserved.get(service.id) ?? []), id]);
        continue;
      }
      // Join the first group whose routes this protocol's do not collide with.
      const group = groups.find((g) => {
        try {
          make([...g, id]).start();
          return true;
        } catch {
          return false;
        }
      });
      if (group) group.push(id);
      else groups.push([id]);
    }
    for (const ids of groups) {
      const server = make(ids);
      if (options.docs !== false) for (const { prefix, handler } of docsRoutes(model, { service: service.id })) server.mount(prefix, handler);
      servers.push({ service, protocols: ids, server, grpc: false, auth: authState });
    }
  }
  return { servers, unserved };
}

/** The operation's key in its service (what the call log names). */
function operationKey(service: ServiceSchema, operation: OperationSchema): string {
  return Object.keys(service.operations).find((key) => service.operations[key] === operation) ?? operation.id;
}

/** Options of {@link startFakeServe}. */
export interface FakeServeOptions extends FakeServersOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  readonly host?: string;
  /** The first HTTP server's port; the next servers take the following ports (0: any free port each). Default 8080. */
  readonly port?: number;
  /** The first gRPC server's port (h2c); further gRPC services take the following ports. Default 8081. */
  readonly grpcPort?: number;
}

/** A running `anvil serve --fake`. */
export interface FakeServe {
  /** Each listening server: its service, protocols and base URL. */
  readonly listening: readonly {
    readonly service: string;
    readonly protocols: readonly string[];
    readonly url: string;
    readonly grpc: boolean;
    /** The auth schemes the service declares, and those enforced. */
    readonly auth: FakeAuthState;
  }[];
  /** Declared protocols no server answers, by service id. */
  readonly unserved: ReadonlyMap<string, readonly string[]>;
  /** Stops every server (calls in flight get `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts fake servers for a model's services on consecutive ports.
 *
 * @example
 * ```ts
 * const { model } = loadModel({ paths: ["model/"] });
 * const serve = await startFakeServe(model, { port: 0, onCall: (s, c) => console.log(s.name, c.operation, c.source) });
 * console.log(serve.listening.map((l) => l.url));
 * await serve.close();
 * ```
 */
export async function startFakeServe(model: Model, options: FakeServeOptions = {}): Promise<FakeServe> {
  const { servers, unserved } = fakeServers(model, options);
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 8080;
  const grpcPort = options.grpcPort ?? 8081;
  // gRPC servers count up from grpcPort; HTTP servers count up from port, stepping over the gRPC ones.
  const grpcCount = servers.filter((s) => s.grpc).length;
  const grpcPorts = grpcPort === 0 ? [] : Array.from({ length: grpcCount }, (_, i) => grpcPort + i);
  const listeners: NodeListener[] = [];
  try {
    let nextHttp = port;
    let nextGrpc = grpcPort;
    for (const s of servers) {
      if (s.grpc) {
        // Unary bodies must arrive within the request timeout; client-streaming ones may last, as long as they are not idle.
        listeners.push(await listen(s.server, { host, port: nextGrpc, http2: true }));
        if (nextGrpc !== 0) nextGrpc++;
        continue;
      }
      while (nextHttp !== 0 && grpcPorts.includes(nextHttp)) nextHttp++;
      // HTTP/2 clients with prior knowledge too (the AWS SDKs' HTTP/2 handler, which some services need).
      listeners.push(await listen(s.server, { host, port: nextHttp, http2: "both" }));
      if (nextHttp !== 0) nextHttp++;
    }
  } catch (e) {
    await Promise.all(listeners.map((l) => l.close({ graceMs: 0 })));
    throw e;
  }
  return {
    listening: servers.map((s, i) => ({ service: s.service.id, protocols: s.protocols, url: listeners[i]!.url, grpc: s.grpc, auth: s.auth })),
    unserved,
    close: async (graceMs = 1_000) => {
      await Promise.all(listeners.map((l) => l.close({ graceMs })));
    },
  };
}
