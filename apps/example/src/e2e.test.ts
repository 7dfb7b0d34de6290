/**
 * End to end: the generated client against the generated server over real
 * sockets, every operation over every protocol Weather declares, modeled
 * errors and validation included.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { collectBytes, SerializationError } from "@anvil/core";
import { AlertLevel, CityAlreadyExists, NoSuchCity, NoSuchPhoto, ServiceUnavailable, Sky } from "./generated/example.weather.shapes.js";
import { ValidationException } from "./generated/smithy.framework.shapes.js";
import { Weather } from "./generated/weather.js";
import { NOW, type RunningExample, startExample } from "./testing.js";
import { BLOB_STREAMING_PROTOCOLS } from "./tour.js";

let example: RunningExample;
beforeAll(async () => {
  example = await startExample();
});
afterAll(() => example.close());
afterEach(() => {
  // No call of these tests may end in a 500: every failure is modeled or a 400.
  expect(example.internalErrors).toEqual([]);
});

/** Runs a call that must fail and returns the error. */
async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    (output) => {
      throw new Error(`expected an error, got ${JSON.stringify(output)}`);
    },
    (error: unknown) => error,
  );
}

const bytes = (s: string) => new TextEncoder().encode(s);
const isRestJson1 = (protocol: string) => protocol === "aws.protocols#restJson1";

describe.each(Weather.protocols.map((p) => [p]))("Weather over %s", (protocol) => {
  const client = () => example.client(protocol);
  const blobs = BLOB_STREAMING_PROTOCOLS.includes(protocol);
  // Each protocol creates its own city, so that the protocols' runs do not collide.
  const name = { "aws.protocols#restJson1": "Lisbon", "aws.protocols#awsJson1_1": "Porto", "smithy.protocols#rpcv2Cbor": "Madrid" }[protocol]!;
  const cityId = name.toLowerCase();

  it("getCurrentTime: the server's clock, also in the Date header under restJson1", async () => {
    const out = await client().getCurrentTime({});
    expect(out.time).toEqual(NOW);
    expect(out.date).toEqual(NOW);
    expect(out.$metadata.httpStatus).toBe(200);
  });

  describe("createCity", () => {
    const input = { name, country: "PT", coordinates: { latitude: 38.7, longitude: -9.1 }, population: 545_000, tags: ["coastal", "capital"] };

    it("creates a city: 201 from @http(code) under restJson1, the Location header, list header members", async () => {
      const out = await client().createCity({ ...input, clientToken: `token-${cityId}` });
      expect(out.city).toEqual({ ...input, cityId, createdAt: NOW });
      expect(out.location).toBe(`/cities/${cityId}`);
      expect(out.$metadata.httpStatus).toBe(isRestJson1(protocol) ? 201 : 200);
      expect(example.store.cities.get(cityId)?.tags).toEqual(["coastal", "capital"]);
    });

    it("answers a retry with the same idempotency token as the first call", async () => {
      const again = await client().createCity({ ...input, clientToken: `token-${cityId}` });
      expect(again.city.cityId).toBe(cityId);
    });

    it("throws CityAlreadyExists (409) for a new call on an existing city, with its members", async () => {
      const error = await failure(client().createCity(input));
      expect(CityAlreadyExists.is(error)).toBe(true);
      const e = error as CityAlreadyExists;
      expect(e.cityId).toBe(cityId);
      expect(e.message).toBe(`city ${cityId} exists already`);
      expect(e.$metadata.httpStatus).toBe(409);
    });

    it.each([
      ["a lower-case country code", { ...input, name: "Faro", country: "pt" }, "/country"],
      ["a latitude out of range", { ...input, name: "Faro", coordinates: { latitude: 91, longitude: 0 } }, "/coordinates/latitude"],
      ["the same tag twice", { ...input, name: "Faro", tags: ["coastal", "coastal"] }, "/tags"],
      ["an empty name", { ...input, name: "" }, "/name"],
      ["a negative population", { ...input, name: "Faro", population: -1 }, "/population"],
    ])("refuses %s with a ValidationException naming the field", async (_what, bad, path) => {
      const error = await failure(client().createCity(bad));
      expect(ValidationException.is(error)).toBe(true);
      const e = error as ValidationException;
      expect(e.$metadata.httpStatus).toBe(400);
      expect(e.fieldList?.map((f) => f.path)).toEqual([path]);
      expect(example.store.cities.has("faro")).toBe(false);
    });
  });

  describe("getCity", () => {
    it("returns the city and its Last-Modified date", async () => {
      const out = await client().getCity({ cityId: "seattle" });
      expect(out.city).toMatchObject({ cityId: "seattle", name: "Seattle", country: "US", population: 737_015, tags: ["coastal", "rainy"] });
      expect(out.city.coordinates).toEqual({ latitude: 47.6062, longitude: -122.3321 });
      expect(out.lastModified).toEqual(new Date("2024-01-01T00:00:00Z"));
    });

    it("throws NoSuchCity (404) with its members", async () => {
      const error = await failure(client().getCity({ cityId: "atlantis" }));
      expect(NoSuchCity.is(error)).toBe(true);
      expect(error).toBeInstanceOf(NoSuchCity);
      expect((error as NoSuchCity).cityId).toBe("atlantis");
      expect((error as NoSuchCity).$metadata.httpStatus).toBe(404);
    });

    it.each([["Not An Id"], ["x".repeat(65)]])("refuses the identifier %j before the handler runs", async (cityId) => {
      const error = await failure(client().getCity({ cityId }));
      expect(ValidationException.is(error)).toBe(true);
      expect((error as ValidationException).fieldList?.[0]?.path).toBe("/cityId");
    });
  });

  describe("listCities", () => {
    it("pages through every city with nextToken and pageSize", async () => {
      const seen: string[] = [];
      let nextToken: string | undefined;
      let pages = 0;
      do {
        const page = await client().listCities({ pageSize: 2, ...(nextToken === undefined ? {} : { nextToken }) });
        seen.push(...page.items.map((c) => c.cityId));
        expect(page.totalCount).toBe(example.store.cities.size);
        nextToken = page.nextToken;
        pages += 1;
      } while (nextToken !== undefined);
      expect(seen).toEqual([...example.store.cities.keys()].sort());
      expect(pages).toBe(Math.ceil(example.store.cities.size / 2));
    });

    it("filters by repeated tag query parameters and by the free-form query map", async () => {
      const out = await client().listCities({ tags: ["coastal", "rainy"] });
      expect(out.items).toEqual([{ cityId: "seattle", name: "Seattle" }]);
      const japan = await client().listCities({ filters: { country: "JP" } });
      expect(japan.items.map((c) => c.cityId)).toEqual(["tokyo"]);
      expect(japan.totalCount).toBe(1);
    });

    it("refuses a page size out of range, and a token the handler does not know", async () => {
      const range = await failure(client().listCities({ pageSize: 0 }));
      expect((range as ValidationException).fieldList?.[0]?.path).toBe("/pageSize");
      const token = await failure(client().listCities({ nextToken: "not-a-token" }));
      expect(ValidationException.is(token)).toBe(true);
      expect((token as ValidationException).fieldList?.[0]?.path).toBe("/nextToken");
    });
  });

  describe("getForecast", () => {
    it("forecasts 3 days by default, with unions, enums and intEnums", async () => {
      const out = await client().getForecast({ cityId: "reykjavik" });
      expect(out.cityId).toBe("reykjavik");
      expect(out.days.map((d) => d.date)).toEqual([1, 2, 3].map((n) => new Date(Date.UTC(2024, 5, 1 + n))));
      for (const day of out.days) {
        expect(Object.values(Sky)).toContain(day.sky);
        expect(day.highC).toBeGreaterThan(day.lowC);
        expect(["none", "rainMm", "snowCm"]).toContain(day.precipitation.$case);
        expect(day.precipitation.$case === "rainMm").toBe(day.sky === Sky.RAIN);
        // Reykjavík's gale warning (ORANGE), or a heat alert (RED) another test issued.
        expect(day.alertLevel).toBe(Math.max(...(example.store.alerts.get("reykjavik") ?? []).map((a) => a.level)));
      }
    });

    it("is the same forecast on every call (the example's weather is made up, but stable)", async () => {
      expect(await client().getForecast({ cityId: "paris", days: 2 })).toEqual(await client().getForecast({ cityId: "paris", days: 2 }));
    });

    it("refuses 11 days, and throws NoSuchCity for an unknown city", async () => {
      const error = await failure(client().getForecast({ cityId: "paris", days: 11 }));
      expect((error as ValidationException).fieldList).toEqual([{ path: "/days", message: expect.stringContaining("between 1 and 10") }]);
      expect(NoSuchCity.is(await failure(client().getForecast({ cityId: "atlantis" })))).toBe(true);
    });
  });

  describe("reportObservation", () => {
    const observation = {
      temperatureC: 18.5,
      sky: Sky.CLOUDY,
      readings: { humidity: 0.6, windKph: 14 },
      raw: bytes("RAW"),
      extras: { firmware: "2.1", calibrated: true, offsets: [0.1, -0.2] },
    };
    const station = `${cityId.slice(0, 3).toUpperCase()}-01`;

    it("stores the reading (a structure payload with a map, a blob and a document); 201 first, 200 after", async () => {
      const observedAt = new Date("2024-06-01T11:00:00Z");
      const first = await client().reportObservation({ cityId: "tokyo", stationId: station, observedAt, observation });
      expect(first.status).toBe(201);
      if (isRestJson1(protocol)) expect(first.$metadata.httpStatus).toBe(201);
      expect(first.receivedAt).toEqual(NOW);
      const second = await client().reportObservation({ cityId: "tokyo", stationId: station, observation });
      expect(second.status).toBe(200);
      const stored = example.store.observations.find((o) => o.stationId === station);
      expect(stored).toEqual({ cityId: "tokyo", stationId: station, observedAt, observation });
    });

    it("throws the server error ServiceUnavailable (503) with its header-bound member", async () => {
      const error = await failure(client().reportObservation({ cityId: "paris", stationId: "PAR-99", observation }));
      expect(ServiceUnavailable.is(error)).toBe(true);
      const e = error as ServiceUnavailable;
      expect(e.$metadata.httpStatus).toBe(503);
      expect(e.retryAfterSeconds).toBe(3600);
      expect(e.$fault).toBe("server");
    });

    it("refuses a station id too short and a temperature out of range, naming both fields", async () => {
      const error = await failure(client().reportObservation({ cityId: "paris", stationId: "P", observation: { ...observation, temperatureC: 99 } }));
      expect((error as ValidationException).fieldList?.map((f) => f.path).sort()).toEqual(["/observation/temperatureC", "/stationId"]);
    });
  });

  // awsJson1_1 and rpcv2Cbor have no binding for a @streaming blob (their body is the input or output
  // document): those tests need restJson1, and the refusal below is what the other protocols do instead.
  describe.skipIf(!blobs)("@streaming blobs (restJson1: awsJson1_1 and rpcv2Cbor cannot carry them)", () => {
    it("putCityPhoto streams an upload to the handler; getCityPhoto streams it back, greedy label and prefix headers included", async () => {
      const chunks = [bytes("first chunk, "), bytes("second chunk")];
      const put = await client().putCityPhoto({
        cityId: "tokyo",
        photoKey: "night/shibuya-crossing.webp",
        contentType: "image/webp",
        metadata: { photographer: "kenji", license: "cc-by" },
        body: (async function* () {
          yield* chunks;
        })(),
      });
      expect(put.size).toBe(25);
      expect(put.etag).toMatch(/^"25-[0-9a-f]{8}"$/);
      const got = await client().getCityPhoto({ cityId: "tokyo", photoKey: "night/shibuya-crossing.webp" });
      expect(got.contentType).toBe("image/webp");
      expect(got.metadata).toEqual({ photographer: "kenji", license: "cc-by" });
      expect(new TextDecoder().decode(await collectBytes(got.body))).toBe("first chunk, second chunk");
    });

    it("getCityPhoto throws NoSuchPhoto for a missing key", async () => {
      const error = await failure(client().getCityPhoto({ cityId: "tokyo", photoKey: "nope.png" }));
      expect(NoSuchPhoto.is(error)).toBe(true);
      expect((error as NoSuchPhoto).photoKey).toBe("nope.png");
    });
  });

  describe.skipIf(blobs)("@streaming blobs are refused by protocols without a binding for them", () => {
    it("putCityPhoto and getCityPhoto throw a SerializationError before anything is sent", async () => {
      for (const call of [
        () =>
          client().putCityPhoto({
            cityId: "tokyo",
            photoKey: "a.png",
            body: (async function* () {
              yield Uint8Array.of(1);
            })(),
          }),
        () => client().getCityPhoto({ cityId: "tokyo", photoKey: "a.png" }),
      ]) {
        const error = await failure(call());
        expect(SerializationError.is(error)).toBe(true);
        expect((error as Error).message).toMatch(/@streaming blob .* cannot carry/);
      }
    });
  });

  describe("event streams", () => {
    it("watchAlerts streams the current alerts, then alerts issued while watching", async () => {
      // Heartbeats a minute apart: the events seen are the alerts, whatever the machine's speed.
      const quiet = await startExample({ heartbeatMs: 60_000 });
      try {
        const watcher = quiet.client(protocol);
        const { events } = await watcher.watchAlerts({ cityId: "reykjavik", minLevel: AlertLevel.YELLOW });
        const seen: string[] = [];
        for await (const event of events) {
          if (event.$case !== "alert") throw new Error(`unexpected ${event.$case}`);
          seen.push(`${event.value.level} ${event.value.headline}`);
          // A heat reading while the stream is open issues an alert the watcher gets; a mild one does not.
          if (seen.length === 1) {
            await watcher.reportObservation({ cityId: "reykjavik", stationId: "REY-01", observation: { temperatureC: 12, sky: Sky.RAIN } });
            await watcher.reportObservation({ cityId: "reykjavik", stationId: "REY-01", observation: { temperatureC: 36, sky: Sky.CLEAR } });
          }
          if (seen.length === 2) break; // leaving the loop ends the call
        }
        expect(seen).toEqual(["3 Gale warning for the capital region", "4 Extreme heat: 36 °C at REY-01"]);
      } finally {
        await quiet.close();
      }
      expect(quiet.internalErrors).toEqual([]);
    });

    it("watchAlerts sends heartbeats while nothing happens, and leaves out alerts below minLevel", async () => {
      // The shared example: heartbeats 20 ms apart, two per stream.
      const { events } = await client().watchAlerts({ cityId: "reykjavik", minLevel: AlertLevel.RED });
      const seen: string[] = [];
      for await (const event of events) seen.push(event.$case === "heartbeat" ? `heartbeat ${event.value.at.toISOString()}` : event.$case);
      const red = (example.store.alerts.get("reykjavik") ?? []).filter((a) => a.level === AlertLevel.RED).map(() => "alert");
      expect(seen).toEqual([...red, `heartbeat ${NOW.toISOString()}`, `heartbeat ${NOW.toISOString()}`]);
    });

    it("watchAlerts throws NoSuchCity before any event", async () => {
      expect(NoSuchCity.is(await failure(client().watchAlerts({ cityId: "atlantis" })))).toBe(true);
    });
  });
});

describe("SimpleWeather over alloy#simpleRestJson: the same handler, another wire", () => {
  it("serves the shared operations through the Weather handler", async () => {
    const client = example.simpleClient();
    const out = await client.getCity({ cityId: "tokyo" });
    expect(out.city.name).toBe("Tokyo");
    const page = await client.listCities({ pageSize: 1 });
    expect(page.items).toHaveLength(1);
    expect((await client.getForecast({ cityId: "tokyo", days: 1 })).days).toHaveLength(1);
    const error = await failure(client.getCity({ cityId: "atlantis" }));
    expect(NoSuchCity.is(error)).toBe(true);
  });

  it("names errors with X-Error-Type on simpleRestJson, X-Amzn-Errortype on restJson1", async () => {
    const simple = await fetch(`${example.simpleWeather.url}/cities/atlantis`);
    expect(simple.status).toBe(404);
    expect(simple.headers.get("x-error-type")).toBe("NoSuchCity");
    const rest = await fetch(`${example.weather.url}/cities/atlantis`);
    expect(rest.status).toBe(404);
    expect(rest.headers.get("x-amzn-errortype")).toBe("NoSuchCity");
    expect(await simple.json()).toEqual(await rest.json());
  });

  it("has no awsJson1_1 or rpcv2Cbor routes", async () => {
    const awsJson = await fetch(`${example.simpleWeather.url}/`, {
      method: "POST",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "SimpleWeather.GetCity" },
      body: JSON.stringify({ cityId: "tokyo" }),
    });
    expect(awsJson.status).toBe(404);
  });
});

describe("malformed requests get a 400-class answer in the protocol's format, never a 500", () => {
  it.each([
    ["restJson1: a body that is not JSON", "PUT", "/cities", { "content-type": "application/json" }, "{not json", 400, "SerializationException"],
    ["restJson1: an unknown route", "GET", "/towns/paris", {}, undefined, 404, "UnknownOperationException"],
    ["restJson1: a label with a % that is no escape", "GET", "/cities/par%zzis", {}, undefined, 400, "SerializationException"],
    ["restJson1: a query value whose escapes are not UTF-8", "GET", "/cities?nextToken=%FF", {}, undefined, 400, "SerializationException"],
    ["restJson1: a single-valued query parameter given twice", "GET", "/cities?pageSize=1&pageSize=2", {}, undefined, 400, "SerializationException"],
    ["awsJson1_1: an unknown operation", "POST", "/", { "content-type": "application/x-amz-json-1.1", "x-amz-target": "Weather.Nope" }, "{}", 404, undefined],
    [
      "awsJson1_1: a wrong type",
      "POST",
      "/",
      { "content-type": "application/x-amz-json-1.1", "x-amz-target": "Weather.GetCity" },
      '{"cityId":42}',
      400,
      undefined,
    ],
    [
      "rpcv2Cbor: bytes that are not CBOR",
      "POST",
      "/service/Weather/operation/GetCity",
      { "content-type": "application/cbor", "smithy-protocol": "rpc-v2-cbor" },
      "\xff\xff",
      400,
      undefined,
    ],
    [
      "rpcv2Cbor: a JSON body",
      "POST",
      "/service/Weather/operation/GetCity",
      { "content-type": "application/json", "smithy-protocol": "rpc-v2-cbor" },
      '{"cityId":"paris"}',
      415,
      undefined,
    ],
    [
      "rpcv2Cbor: an Accept without CBOR",
      "POST",
      "/service/Weather/operation/GetCity",
      { "content-type": "application/cbor", accept: "application/json", "smithy-protocol": "rpc-v2-cbor" },
      undefined,
      406,
      undefined,
    ],
  ] as const)("%s", async (_what, method, path, headers, body, status, errorType) => {
    const response = await fetch(`${example.weather.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    expect(response.status).toBe(status);
    if (errorType !== undefined) expect(response.headers.get("x-amzn-errortype")).toBe(errorType);
    await response.arrayBuffer();
  });

  it("restJson1: a known path with another method is a 405 listing the methods it takes", async () => {
    const response = await fetch(`${example.weather.url}/cities`, { method: "DELETE" });
    expect([response.status, response.headers.get("allow"), response.headers.get("x-amzn-errortype")]).toEqual([405, "GET, PUT", "MethodNotAllowedException"]);
    expect(await response.json()).toEqual({ message: "DELETE is not allowed at /cities; it takes GET, PUT" });
  });
});
