/**
 * The example as one fetch handler, `(Request) => Promise<Response>`, for
 * hosts built on the Fetch API: Bun, Deno, Cloudflare Workers (the entry
 * files are in `runtimes/`), and Node through any fetch bridge. Weather
 * (restJson1, awsJson1_1, rpcv2Cbor, the docs routes, `/healthz` and
 * `/readyz`) answers at the root, SimpleWeather (simpleRestJson) under
 * `/simple`: its routes are Weather's restJson1 routes, so they need a path of
 * their own when one handler serves both.
 *
 * WeatherGrpc is not here: gRPC ends every call with HTTP/2 trailers, which a
 * fetch `Response` cannot carry. `main.ts` serves it on Node.
 *
 * Nothing in this module or below it needs Node, reads a file or does
 * anything at load time that Workers forbid (timers, random numbers, I/O):
 * it bundles into one file for `--platform=browser` or `--platform=neutral`.
 */
import { type FetchHandler, type FetchHandlerOptions, fetchHandler } from "@anvil/server";
import { createWeatherHandler, type WeatherHandlerOptions } from "./handlers.js";
import { createWeatherServers, type WeatherServerOptions } from "./server.js";
import { createStore, type WeatherStore } from "./store.js";

/** Where SimpleWeather answers: `/simple/cities/paris`. */
export const SIMPLE_WEATHER_PREFIX = "/simple";

/** Options of {@link createExampleFetchHandler}. */
export interface ExampleFetchHandlerOptions extends WeatherServerOptions, WeatherHandlerOptions, FetchHandlerOptions {
  /** The data the handlers work on. Default: a new store with the example's four cities. */
  readonly store?: WeatherStore;
}

/** Makes the example's fetch handler: its own store, servers and handlers. */
export function createExampleFetchHandler(options: ExampleFetchHandlerOptions = {}): FetchHandler {
  const store = options.store ?? createStore();
  const { heartbeatMs, heartbeats, requestSignal } = options;
  const handler = createWeatherHandler(store, {
    ...(heartbeatMs !== undefined ? { heartbeatMs } : {}),
    ...(heartbeats !== undefined ? { heartbeats } : {}),
  });
  // SimpleWeather's documentation routes would sit under /simple, where the docs pages' links do not expect them;
  // Weather's describe the same model.
  const servers = createWeatherServers(handler, { ...options, simpleWeatherDocs: false });
  const fetchOptions: FetchHandlerOptions = requestSignal !== undefined ? { requestSignal } : {};
  const simple = fetchHandler(servers.simpleWeather, fetchOptions);
  servers.weather.mount(SIMPLE_WEATHER_PREFIX, (request) => simple(withoutPrefix(request, SIMPLE_WEATHER_PREFIX)));
  return fetchHandler(servers.weather, fetchOptions);
}

/**
 * The request with a path prefix taken off. The copy leaves the request's
 * signal behind (reading it makes Deno warn): SimpleWeather's handlers learn
 * that a client went away from a streamed answer being cancelled, and not
 * while they work on an answer.
 */
function withoutPrefix(request: Request, prefix: string): Request {
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(prefix.length) || "/";
  const init = { method: request.method, headers: request.headers, body: request.body, redirect: request.redirect, duplex: "half" };
  return new Request(url, init as RequestInit);
}
