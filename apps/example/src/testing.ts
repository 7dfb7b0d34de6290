/** Test helpers: the example's servers on free ports, over a store with a pinned clock. */
import { createClient } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import { listen, type NodeListener } from "@anvil/server/node";
import { SimpleWeather } from "./generated/simple-weather.js";
import { Weather } from "./generated/weather.js";
import { WeatherGrpc } from "./generated/weather-grpc.js";
import { createWeatherHandler, type WeatherHandlerOptions } from "./handlers.js";
import { createWeatherServers, PROTOCOLS } from "./server.js";
import { createStore, type WeatherStore } from "./store.js";

/** The time the test store's clock shows. */
export const NOW = new Date("2024-06-01T12:00:00.000Z");

/** The example running on free ports. */
export interface RunningExample {
  readonly store: WeatherStore;
  readonly weather: NodeListener;
  readonly simpleWeather: NodeListener;
  /** WeatherGrpc on h2c. */
  readonly weatherGrpc: NodeListener;
  /** Errors that became 500s. */
  readonly internalErrors: unknown[];
  /** A typed Weather client speaking one protocol (no retries: the tests count calls). */
  client(protocol: string): ReturnType<typeof createClient<typeof Weather>>;
  /** A typed SimpleWeather client. */
  simpleClient(): ReturnType<typeof createClient<typeof SimpleWeather>>;
  /** A typed WeatherGrpc client (gRPC over one HTTP/2 session). */
  grpcClient(): ReturnType<typeof createClient<typeof WeatherGrpc>>;
  close(): Promise<void>;
}

/** Starts the example's servers with a fresh store. */
export async function startExample(options: WeatherHandlerOptions = { heartbeatMs: 20, heartbeats: 2 }): Promise<RunningExample> {
  const store = createStore({ now: () => NOW });
  const internalErrors: unknown[] = [];
  const servers = createWeatherServers(createWeatherHandler(store, options), { onInternalError: (e) => internalErrors.push(e) });
  const [weather, simpleWeather, weatherGrpc] = await Promise.all([
    listen(servers.weather),
    listen(servers.simpleWeather),
    listen(servers.weatherGrpc, { http2: true }),
  ]);
  const transport = http2Transport();
  return {
    store,
    weather,
    simpleWeather,
    weatherGrpc,
    internalErrors,
    client: (protocol) => createClient(Weather, { endpoint: weather.url, protocols: PROTOCOLS, protocol, retry: { maxAttempts: 1 } }),
    simpleClient: () => createClient(SimpleWeather, { endpoint: simpleWeather.url, protocols: PROTOCOLS, retry: { maxAttempts: 1 } }),
    grpcClient: () => createClient(WeatherGrpc, { endpoint: weatherGrpc.url, protocols: PROTOCOLS, transport, retry: { maxAttempts: 1 } }),
    close: async () => {
      await transport.close();
      await Promise.all([weather.close({ graceMs: 100 }), simpleWeather.close({ graceMs: 100 }), weatherGrpc.close({ graceMs: 100 })]);
    },
  };
}
