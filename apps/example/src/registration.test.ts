/**
 * Registration semantics on the generated service: one handler for the
 * whole service, per-operation handlers where the last registration wins,
 * start-up errors, and mapping only some protocols.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "@anvil/client-core";
import { createServer, type HandlerContext } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { SimpleWeather } from "./generated/simple-weather.js";
import { Weather } from "./generated/weather.js";
import type { GetCityHandler, WeatherHandler } from "./generated/weather.server.js";
import { createWeatherHandler } from "./handlers.js";
import { PROTOCOLS } from "./server.js";
import { createStore } from "./store.js";

const listeners: NodeListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close({ graceMs: 0 })));
});

async function serve(server: Parameters<typeof listen>[0]): Promise<NodeListener> {
  const listener = await listen(server);
  listeners.push(listener);
  return listener;
}

const client = (listener: NodeListener, protocol: string) =>
  createClient(Weather, { endpoint: listener.url, protocols: PROTOCOLS, protocol, retry: { maxAttempts: 1 } });

describe("registration on the generated Weather service", () => {
  it("serves every operation over every declared protocol from one whole-service handler, with the protocol in the context", async () => {
    const calls: string[] = [];
    const getCity: GetCityHandler<HandlerContext>["getCity"] = ({ cityId }, context) => {
      calls.push(`${cityId} over ${context.protocol}`);
      return { city: { cityId, name: cityId.toUpperCase(), country: "XX", coordinates: { latitude: 0, longitude: 0 }, createdAt: new Date(0) } };
    };
    const handler: WeatherHandler<HandlerContext> = { ...createWeatherHandler(createStore()), getCity };
    const listener = await serve(createServer(Weather, { protocols: PROTOCOLS }).register(handler).mapService());
    for (const protocol of Weather.protocols) {
      expect((await client(listener, protocol).getCity({ cityId: "oslo" })).city.name).toBe("OSLO");
    }
    expect(calls).toEqual(Weather.protocols.map((p) => `oslo over ${p}`));
  });

  it("lets the last registration of an operation win, whole-service or single", async () => {
    const base = createWeatherHandler(createStore());
    const time = (iso: string) => () => ({ time: new Date(iso) });
    const listener = await serve(
      createServer(Weather, { protocols: PROTOCOLS })
        .register("getCurrentTime", time("2001-01-01T00:00:00Z")) // overridden by the whole-service handler below
        .register(base)
        .register("getCurrentTime", time("2002-02-02T00:00:00Z")) // overrides it
        .register("getCurrentTime", time("2003-03-03T00:00:00Z")) // and wins
        .mapService(),
    );
    const weather = client(listener, "smithy.protocols#rpcv2Cbor");
    expect((await weather.getCurrentTime({})).time).toEqual(new Date("2003-03-03T00:00:00Z"));
    expect((await weather.getCity({ cityId: "paris" })).city.name).toBe("Paris");
  });

  it("refuses to start when an operation has no handler, naming it", () => {
    const { watchAlerts: _left, ...partial } = createWeatherHandler(createStore());
    expect(() =>
      createServer(Weather, { protocols: PROTOCOLS })
        .register(partial as unknown as WeatherHandler<HandlerContext>)
        .mapService()
        .start(),
    ).toThrow("the service handler has no method watchAlerts (example.weather#WatchAlerts)");
  });

  it("refuses to start when a declared protocol has no implementation", () => {
    expect(() =>
      createServer(Weather, { protocols: PROTOCOLS.slice(0, 1) })
        .register(createWeatherHandler(createStore()))
        .mapService()
        .start(),
    ).toThrow("no implementation of protocol aws.protocols#awsJson1_1 was given");
  });

  it("serves only the protocols it maps", async () => {
    const listener = await serve(
      createServer(Weather, { protocols: PROTOCOLS }).register(createWeatherHandler(createStore())).mapService("smithy.protocols#rpcv2Cbor"),
    );
    expect((await client(listener, "smithy.protocols#rpcv2Cbor").getCity({ cityId: "paris" })).city.cityId).toBe("paris");
    await expect(client(listener, "aws.protocols#restJson1").getCity({ cityId: "paris" })).rejects.toMatchObject({ $metadata: { httpStatus: 404 } });
  });

  it("registers the Weather handler on SimpleWeather too: its operations are a subset with the same shapes", async () => {
    const listener = await serve(createServer(SimpleWeather, { protocols: PROTOCOLS }).register(createWeatherHandler(createStore())).mapService());
    const simple = createClient(SimpleWeather, { endpoint: listener.url, protocols: PROTOCOLS });
    expect((await simple.getCity({ cityId: "tokyo" })).city.country).toBe("JP");
  });
});
