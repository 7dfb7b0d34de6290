/**
 * `npm start -- --fake`: the example's servers on the generated fake answer
 * every protocol with the model's examples, over real sockets.
 */
import { createClient } from "@anvil/client-core";
import { ModeledError } from "@anvil/core";
import { listen, type NodeListener } from "@anvil/server/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Weather } from "./generated/weather.js";
import { WeatherFake, WeatherFakes } from "./generated/weather.fakes.js";
import { createWeatherServers, PROTOCOLS } from "./server.js";

let listener: NodeListener;
beforeAll(async () => {
  listener = await listen(createWeatherServers(new WeatherFake()).weather, { port: 0 });
});
afterAll(() => listener.close({ graceMs: 0 }));

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
