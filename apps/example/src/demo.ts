/**
 * The demo client: calls every operation of Weather over each protocol it
 * declares (restJson1, awsJson1_1, rpcv2Cbor), WeatherGrpc's over gRPC and
 * SimpleWeather's over simpleRestJson, with the typed client, and prints
 * what comes back.
 *
 *   node dist/demo.js                 # against `npm start` (127.0.0.1:8080, :8081 and :8082; HOST, PORT as for main)
 *   node dist/demo.js --self          # starts its own servers first
 *   WEATHER_URL=... WEATHER_GRPC_URL=... SIMPLE_WEATHER_URL=... node dist/demo.js
 */
import { createClient, httpBearerAuth } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import { listen } from "@anvil/server/node";
import { SimpleWeather } from "./generated/simple-weather.js";
import { Weather } from "./generated/weather.js";
import { WeatherGrpc } from "./generated/weather-grpc.js";
import { createWeatherHandler } from "./handlers.js";
import { createWeatherServers, DEMO_TOKEN, PROTOCOLS } from "./server.js";
import { createStore } from "./store.js";
import { type Print, tourGrpc, tourShared, tourWeather } from "./tour.js";

/** The example's endpoints. */
export interface DemoEndpoints {
  readonly weather: string;
  readonly weatherGrpc: string;
  readonly simpleWeather: string;
  /** The bearer token DeleteCity takes. Default the example's (`WEATHER_TOKEN` for `npm start`, else `demo-token`). */
  readonly token?: string;
}

/** Runs the tour over every protocol against the three endpoints. */
export async function demo(endpoints: DemoEndpoints, print: Print = console.log): Promise<void> {
  for (const protocol of Weather.protocols) {
    print(`\n── Weather over ${protocol} (${endpoints.weather})`);
    const weather = createClient(Weather, { endpoint: endpoints.weather, protocols: PROTOCOLS, protocol });
    // The same client with the token DeleteCity takes: the model says which calls send it (only DeleteCity's).
    const withToken = createClient(Weather, {
      endpoint: endpoints.weather,
      protocols: PROTOCOLS,
      protocol,
      auth: [httpBearerAuth({ token: endpoints.token ?? DEMO_TOKEN })],
    });
    await tourWeather(weather, protocol, (line) => print(`  ${line}`), withToken);
  }
  for (const protocol of WeatherGrpc.protocols) {
    print(`\n── WeatherGrpc over ${protocol} (${endpoints.weatherGrpc}): HTTP/2, one session`);
    const transport = http2Transport();
    try {
      const weather = createClient(WeatherGrpc, { endpoint: endpoints.weatherGrpc, protocols: PROTOCOLS, protocol, transport });
      await tourGrpc(weather, (line) => print(`  ${line}`));
    } finally {
      await transport.close();
    }
  }
  for (const protocol of SimpleWeather.protocols) {
    print(`\n── SimpleWeather over ${protocol} (${endpoints.simpleWeather}): the same handler, another wire`);
    const simple = createClient(SimpleWeather, { endpoint: endpoints.simpleWeather, protocols: PROTOCOLS, protocol });
    await tourShared(simple, protocol, (line) => print(`  ${line}`));
  }
}

async function main(): Promise<void> {
  if (process.argv.includes("--self")) {
    const servers = createWeatherServers(createWeatherHandler(createStore(), { heartbeatMs: 200 }));
    const [weather, weatherGrpc, simple] = await Promise.all([
      listen(servers.weather),
      listen(servers.weatherGrpc, { http2: true }),
      listen(servers.simpleWeather),
    ]);
    try {
      await demo({ weather: weather.url, weatherGrpc: weatherGrpc.url, simpleWeather: simple.url });
    } finally {
      await Promise.all([weather.close(), weatherGrpc.close(), simple.close()]);
    }
    return;
  }
  // The same defaults as main.ts: HOST and PORT, Weather on PORT, WeatherGrpc on the next one and SimpleWeather on the one after.
  const host = process.env.HOST ?? "127.0.0.1";
  const port = Number(process.env.PORT ?? 8080);
  const weather = process.env.WEATHER_URL ?? `http://${host}:${port}`;
  const weatherGrpc = process.env.WEATHER_GRPC_URL ?? `http://${host}:${port + 1}`;
  const simpleWeather = process.env.SIMPLE_WEATHER_URL ?? `http://${host}:${port + 2}`;
  try {
    await demo({ weather, weatherGrpc, simpleWeather, ...(process.env.WEATHER_TOKEN ? { token: process.env.WEATHER_TOKEN } : {}) });
  } catch (error) {
    if ((error as { code?: string }).code === "ConnectionRefused" || String(error).includes("ECONNREFUSED")) {
      console.error(`\nNo server at ${weather}: start one with \`npm start\`, or run the demo with --self.`);
      process.exitCode = 1;
      return;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
