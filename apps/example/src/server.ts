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
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { fileURLToPath } from "node:url";
import { docsRoutes } from "@anvil/docs-site";
import { loadModel, type Model } from "@anvil/model";
import { awsJson1_1 } from "@anvil/protocol-awsjson";
import { grpc, grpcHealth, grpcReflection } from "@anvil/protocol-grpc";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { type AccessLogEntry, createServer, type Server } from "@anvil/server";
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
  /** The bearer token `DeleteCity` takes (`Authorization: Bearer <token>`). Default {@link DEMO_TOKEN}. */
  readonly token?: string;
  /** Where every server's access log goes: one entry per request. Default none. */
  readonly accessLog?: (entry: AccessLogEntry) => void;
}

/** The bearer token the example accepts unless told otherwise (`WEATHER_TOKEN` for `npm start`). */
export const DEMO_TOKEN = "demo-token";

/** Who called, as the example's token check says: handlers read it as `context.identity`. */
export interface Caller {
  readonly id: string;
}

/** The example's Smithy model, next to `src/` and `dist/`. */
export const MODEL_DIR = fileURLToPath(new URL("../model/", import.meta.url));

let model: Model | undefined;
/** The example's model, loaded once per process. */
export function exampleModel(): Model {
  model ??= loadModel({ paths: [MODEL_DIR] }).model;
  return model;
}

/** Whether two secrets are equal, compared in constant time (by their SHA-256, so that lengths do not show either). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
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
  const auth = { bearer: (given: string): Caller | undefined => (sameSecret(given, token) ? { id: "demo" } : undefined) };
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
      docs,
    ),
    // gRPC health and reflection next to WeatherGrpc, on its port.
    weatherGrpc: createServer(WeatherGrpc, common).register(handler).mapService().add(grpcHealth()).add(grpcReflection()),
  };
}
