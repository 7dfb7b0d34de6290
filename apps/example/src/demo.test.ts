import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demo } from "./demo.js";
import { SimpleWeather } from "./generated/simple-weather.js";
import { Weather } from "./generated/weather.js";
import { WeatherGrpc } from "./generated/weather-grpc.js";
import { type RunningExample, startExample } from "./testing.js";
import { BLOB_STREAMING_PROTOCOLS } from "./tour.js";

let example: RunningExample;
beforeAll(async () => {
  example = await startExample();
});
afterAll(() => example.close());

describe("the demo client", () => {
  it("calls every operation over every declared protocol, WeatherGrpc's over gRPC and SimpleWeather's over simpleRestJson", async () => {
    const lines: string[] = [];
    await demo({ weather: example.weather.url, weatherGrpc: example.weatherGrpc.url, simpleWeather: example.simpleWeather.url }, (line) => lines.push(line));
    const sections = lines.join("\n").split("\n── ").slice(1);
    expect(sections.map((s) => s.split(" ")[2])).toEqual([...Weather.protocols, ...WeatherGrpc.protocols, ...SimpleWeather.protocols]);
    for (const section of sections) {
      const protocol = section.split(" ")[2]!;
      const service = section.startsWith("SimpleWeather") ? SimpleWeather : section.startsWith("WeatherGrpc") ? WeatherGrpc : Weather;
      for (const operation of Object.keys(service.operations)) {
        const blob = ["putCityPhoto", "getCityPhoto"].includes(operation);
        if (blob && !BLOB_STREAMING_PROTOCOLS.includes(protocol)) expect(section).toContain("skipped: @streaming blobs need restJson1");
        else expect(section, `${operation} over ${protocol}`).toMatch(new RegExp(`\\n  ${operation}[( ].*→ `));
      }
    }
    expect(example.internalErrors).toEqual([]);
  });
});
