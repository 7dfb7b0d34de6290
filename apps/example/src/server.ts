/**
 * Wiring: the generated service descriptors, the protocols they declare and
 * the handler. Weather declares restJson1, awsJson1_1 and rpcv2Cbor, and one
 * server answers all three on one port. SimpleWeather declares
 * alloy#simpleRestJson; its routes are the same URIs as Weather's restJson1
 * routes, so it gets a server (and a port) of its own, with the same handler.
 */
import { awsJson1_1 } from "@anvil/protocol-awsjson";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { createServer, type HandlerContext, type Server } from "@anvil/server";
import { SimpleWeather } from "./generated/simple-weather.js";
import { Weather } from "./generated/weather.js";
import type { WeatherHandler } from "./generated/weather.server.js";

/** Every protocol implementation the example serves. */
export const PROTOCOLS = [restJson1(), awsJson1_1(), rpcv2Cbor(), simpleRestJson()] as const;

/** Options of {@link createWeatherServers}. */
export interface WeatherServerOptions {
  /** Logs errors that became 500s. Default `console.error`. */
  readonly onInternalError?: (error: unknown) => void;
}

/** The two servers of the example, sharing one handler. */
export interface WeatherServers {
  readonly weather: Server<typeof Weather>;
  readonly simpleWeather: Server<typeof SimpleWeather>;
}

/** Makes the example's servers: every protocol each service declares, mapped. */
export function createWeatherServers(handler: WeatherHandler<HandlerContext>, options: WeatherServerOptions = {}): WeatherServers {
  const onInternalError = options.onInternalError ?? ((error: unknown) => console.error(error));
  return {
    weather: createServer(Weather, { protocols: PROTOCOLS, onInternalError }).register(handler).mapService(),
    // The same handler object: SimpleWeather's operations are a subset of Weather's.
    simpleWeather: createServer(SimpleWeather, { protocols: PROTOCOLS, onInternalError }).register(handler).mapService(),
  };
}
