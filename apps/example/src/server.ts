/**
 * Wiring: the generated service descriptors, the protocols they declare and
 * the handler. Weather declares restJson1, awsJson1_1 and rpcv2Cbor, and one
 * server answers all three on one port. SimpleWeather declares
 * alloy#simpleRestJson; its routes are the same URIs as Weather's restJson1
 * routes, so it gets a server (and a port) of its own, with the same handler.
 * Each server also serves its documentation from the model: `/openapi.json`,
 * the `/openapi` explorer and the `/docs` reference site (`docs: false` turns
 * them off).
 * WeatherGrpc declares alloy.proto#grpc: cleartext gRPC is HTTP/2 (h2c), so
 * it too has a port of its own (with TLS, ALPN could share one). That port
 * also serves gRPC's standard health service (`grpc.health.v1.Health`,
 * following the server's readiness) and server reflection (so grpcurl needs
 * no `.proto`).
 * Weather's model declares bearer auth for `DeleteCity` (every other call
 * is anonymous) and `@cors`: its server checks tokens against the one it is
 * given, and answers browsers on other origins.
 * Nothing here needs Node: the same servers run on Node (`main.ts`) and, as
 * one fetch handler, on Bun, Deno and Workers (`fetch-handler.ts`).
 */
import { docsRoutes } from "@anvil/docs-site";
import { loadModel, type Model } from "@anvil/model";
import { awsJson1_1 } from "@anvil/protocol-awsjson";
import { grpc, grpcHealth, grpcReflection } from "@anvil/protocol-grpc";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { type AccessLogEntry, createServer, type Server } from "@anvil/server";
import { MODEL } from "./generated/model.js";
import { SimpleWeather } from "./generated/simple-weather.js";
import { Weather } from "./generated/weather.js";
import { WeatherGrpc } from "./generated/weather-grpc.js";
import type { ExampleHandler } from "./handlers.js";

/** Every protocol implementation the example serves. */
export const PROTOCOLS = [restJson1(), awsJson1_1(), rpcv2Cbor(), simpleRestJson(), grpc()] as const;

/** Options of {@link createWeatherServers}. */
export interface WeatherServerOptions {
  /** Logs errors that became 500s. Default `console.error`. */
  readonly onInternalError?: (error: unknown) => void;
  /** Serve `/openapi.json`, `/openapi` and `/docs`, generated from the model. Default true. */
  readonly docs?: boolean;
  /** The same for SimpleWeather's server. Default: as `docs`. */
  readonly simpleWeatherDocs?: boolean;
  /** The bearer token `DeleteCity` takes (`Authorization: Bearer <token>`). Default {@link DEMO_TOKEN}. */
  readonly token?: string;
  /** Where every server's access log goes: one entry per request. Default none. */
  readonly accessLog?: (entry: AccessLogEntry) => void;
}

/**
 * How long calls in flight get to finish when `npm start` is told to stop
 * (SIGTERM, Ctrl-C), in milliseconds. Deployments size their own timers by
 * it: `deploy/kubernetes.yaml`'s `terminationGracePeriodSeconds` leaves room
 * for its preStop pause plus this (a test checks that it does).
 */
export const CLOSE_GRACE_MS = 5_000;

/**
 * The lame duck on SIGTERM, within {@link CLOSE_GRACE_MS}: for up to this
 * long the connections already open (a load balancer's kept-alive ones)
 * are still served, each answer closing its connection, so that a call a
 * load balancer sends as the instance stops is answered, not lost. It ends
 * as soon as every connection has closed. `deploy/nginx.conf` closes idle
 * upstream connections sooner than this (`keepalive_timeout`).
 */
export const LAME_DUCK_MS = 4_000;

/** The bearer token the example accepts unless told otherwise (`WEATHER_TOKEN` for `npm start`). */
export const DEMO_TOKEN = "demo-token";

/** Who called, as the example's token check says: handlers read it as `context.identity`. */
export interface Caller {
  readonly id: string;
}

let model: Model | undefined;
/**
 * The example's model, loaded once per process from the copy `anvil generate`
 * embeds (`src/generated/model.ts`, `embedModel` in anvil.config.json): no
 * file is read, so the docs routes work where there are no files (Workers, a
 * one-file bundle).
 */
export function exampleModel(): Model {
  model ??= loadModel({ sources: [MODEL] }).model;
  return model;
}

/** Whether two secrets are equal, compared in constant time (by their SHA-256, so that lengths do not show either). */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const digest = async (text: string) => new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** Mounts the documentation routes of one service of the example's model on a server. */
function withDocs<S extends Server<any, any>>(server: S, enabled: boolean): S {
  if (enabled) for (const { prefix, handler } of docsRoutes(exampleModel(), { service: server.service.id })) server.mount(prefix, handler);
  return server;
}

/** The three servers of the example, sharing one handler. */
export interface WeatherServers {
  readonly weather: Server<typeof Weather, Caller>;
  readonly simpleWeather: Server<typeof SimpleWeather>;
  readonly weatherGrpc: Server<typeof WeatherGrpc>;
}

/** Makes the example's servers: every protocol each service declares, mapped. */
export function createWeatherServers(handler: ExampleHandler, options: WeatherServerOptions = {}): WeatherServers {
  const onInternalError = options.onInternalError ?? ((error: unknown) => console.error(error));
  const docs = options.docs ?? true;
  const token = options.token ?? DEMO_TOKEN;
  // The model says which operations take a bearer token; this says which token is valid.
  const auth = { bearer: async (given: string): Promise<Caller | undefined> => ((await sameSecret(given, token)) ? { id: "demo" } : undefined) };
  // Liveness and readiness (/healthz, /readyz) on the REST ports; request ids on every answer; every server logs its
  // calls where it is told.
  const common = { protocols: PROTOCOLS, onInternalError, requestIds: true, ...(options.accessLog !== undefined ? { accessLog: options.accessLog } : {}) };
  return {
    weather: withDocs(
      createServer(Weather, { ...common, auth, health: true })
        .register(handler)
        .mapService(),
      docs,
    ),
    // The same handler object: SimpleWeather's operations are a subset of Weather's.
    simpleWeather: withDocs(
      createServer(SimpleWeather, { ...common, health: true })
        .register(handler)
        .mapService(),
      options.simpleWeatherDocs ?? docs,
    ),
    // gRPC health and reflection next to WeatherGrpc, on its port.
    weatherGrpc: createServer(WeatherGrpc, common).register(handler).mapService().add(grpcHealth()).add(grpcReflection()),
  };
}
