/**
 * Wiring: the generated service descriptors, the protocols they declare and
 * the handler. Weather declares restJson1, awsJson1_1 and rpcv2Cbor, and one
 * server answers all three on one port. SimpleWeather declares
 * alloy#simpleRestJson; its routes are the same URIs as Weather's restJson1
 * routes, so it gets a server (and a port) of its own, with the same handler.
 * WeatherGrpc declares alloy.proto#grpc: cleartext gRPC is HTTP/2 (h2c), so
 * it too has a port of its own (with TLS, ALPN could share one).
 */
import { awsJson1_1 } from "@anvil/protocol-awsjson";
import { grpc } from "@anvil/protocol-grpc";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { createServer, type Server } from "@anvil/server";
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
}

/** The three servers of the example, sharing one handler. */
export interface WeatherServers {
  readonly weather: Server<typeof Weather>;
  readonly simpleWeather: Server<typeof SimpleWeather>;
  readonly weatherGrpc: Server<typeof WeatherGrpc>;
}

/** Makes the example's servers: every protocol each service declares, mapped. */
export function createWeatherServers(handler: ExampleHandler, options: WeatherServerOptions = {}): WeatherServers {
  const onInternalError = options.onInternalError ?? ((error: unknown) => console.error(error));
  return {
    weather: createServer(Weather, { protocols: PROTOCOLS, onInternalError }).register(handler).mapService(),
    // The same handler object: SimpleWeather's operations are a subset of Weather's.
    simpleWeather: createServer(SimpleWeather, { protocols: PROTOCOLS, onInternalError }).register(handler).mapService(),
    weatherGrpc: createServer(WeatherGrpc, { protocols: PROTOCOLS, onInternalError }).register(handler).mapService(),
  };
}
