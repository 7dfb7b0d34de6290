/**
 * `npm start -- --fake`: the example's servers on the generated fake answer
 * every protocol with the model's examples, over real sockets.
 */
import { createClient } from "@anvil/client-core";
import { ModeledError } from "@anvil/core";
import { listen, type NodeListener } from "@anvil/server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Weather } from "./generated/weather.js";
import { ExampleFake } from "./fake.js";
import { WeatherGrpc } from "./generated/weather-grpc.js";
import { WeatherFakeClient, WeatherFakes } from "./generated/weather.fakes.js";
import { WeatherGrpcFakes } from "./generated/weather-grpc.fakes.js";
import { paginateListCities } from "./generated/weather.client.js";
import { createWeatherServers, PROTOCOLS } from "./server.js";

let listener: NodeListener;
let grpcListener: NodeListener;
beforeAll(async () => {
  const servers = createWeatherServers(new ExampleFake(), { docs: false });
  listener = await listen(servers.weather, { port: 0 });
  grpcListener = await listen(servers.weatherGrpc, { port: 0, http2: true });
});
afterAll(() => Promise.all([listener.close({ graceMs: 0 }), grpcListener.close({ graceMs: 0 })]));

const client = (protocol: string) => createClient(Weather, { endpoint: listener.url, protocols: PROTOCOLS, protocol, retry: { maxAttempts: 1 } });

describe.each(Weather.protocols.map((p) => [p]))("the example on its fake, over %s", (protocol) => {
  it("answers each example of createCity with its output or its modeled error", async () => {
    for (const example of WeatherFakes.createCity.examples) {
      const call = client(protocol).createCity(example.input as never);
      if (example.error) {
        const error = await call.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ModeledError);
        expect((error as ModeledError).$shapeId).toBe(example.error.shapeId);
      } else {
        const { $metadata: _, ...output } = await call;
        expect(output).toEqual(example.output);
      }
    }
  });
});

describe("the example's paginator on its fake", () => {
  it("follows the token from the first page's example to the next page's, then stops", async () => {
    const pages = [];
    for await (const page of paginateListCities(client(Weather.protocols[0]!), {}, { pageSize: 2 })) pages.push(page.items.map((c) => c.cityId));
    expect(pages).toEqual([
      ["paris", "reykjavik"],
      ["seattle", "tokyo"],
    ]);
  });

  it("pages the same over the fake client, in memory", async () => {
    const cities = [];
    for await (const city of paginateListCities(new WeatherFakeClient(), { pageSize: 2 }).items()) cities.push(city.cityId);
    expect(cities).toEqual(["paris", "reykjavik", "seattle", "tokyo"]);
  });
});

describe("the example on its fake, over gRPC", () => {
  const grpcClient = () => createClient(WeatherGrpc, { endpoint: grpcListener.url, protocols: PROTOCOLS, retry: { maxAttempts: 1 } });

  it("answers a unary call with the example's output", async () => {
    const example = WeatherFakes.getCity.examples.find((e) => !e.error)!;
    const { $metadata: _, ...output } = await grpcClient().getCity(example.input as never);
    expect(output).toEqual(example.output);
  });

  it("answers the bidirectional call with the example's events, then ends the stream", async () => {
    async function* readings() {
      yield { $case: "reading" as const, value: { cityId: "paris", temperatureC: 31 } };
    }
    const { levels } = await grpcClient().streamReadings({ readings: readings() });
    const received = [];
    for await (const event of levels) received.push(event);
    expect(received).toEqual((WeatherGrpcFakes.streamReadings.output as { levels: unknown[] }).levels);
    expect(received).toHaveLength(2);
  });
});
