/**
 * A tour of the Weather API with the typed client: every operation, the
 * errors it models and a validation failure. The demo prints it for every
 * protocol; a test runs it against a live server.
 */
import { collectBytes, UnmodeledError } from "@anvil/core";
import type { Client } from "@anvil/client-core";
import type { SimpleWeather } from "./generated/simple-weather.js";
import { paginateListCities, waitUntilCityExists } from "./generated/simple-weather.client.js";
import { CityAlreadyExists, NoSuchCity, type ReadingEvents, ServiceUnavailable, Sky } from "./generated/example.weather.shapes.js";
import { ValidationException } from "./generated/smithy.framework.shapes.js";
import type { WeatherGrpc } from "./generated/weather-grpc.js";
import type { Weather } from "./generated/weather.js";

/** Where the tour writes: one line per call. */
export type Print = (line: string) => void;

/**
 * The protocols that carry `@streaming` blobs (the photos). awsJson1_1 and
 * rpcv2Cbor have no binding for one (their body is the input or output
 * document): their clients refuse such a call before sending it. All three
 * carry event streams (the alerts).
 */
export const BLOB_STREAMING_PROTOCOLS: readonly string[] = ["aws.protocols#restJson1"];

/** A city each protocol creates, so that tours over several protocols do not collide. */
const NEW_CITY: Record<string, { name: string; country: string; latitude: number; longitude: number }> = {
  "aws.protocols#restJson1": { name: "Lisbon", country: "PT", latitude: 38.7223, longitude: -9.1393 },
  "aws.protocols#awsJson1_1": { name: "Porto", country: "PT", latitude: 41.1579, longitude: -8.6291 },
  "smithy.protocols#rpcv2Cbor": { name: "Madrid", country: "ES", latitude: 40.4168, longitude: -3.7038 },
  "alloy#simpleRestJson": { name: "Valencia", country: "ES", latitude: 39.4699, longitude: -0.3763 },
  "alloy.proto#grpc": { name: "Bilbao", country: "ES", latitude: 43.263, longitude: -2.935 },
};

/** Calls every Weather operation over one protocol and prints what comes back. */
export async function tourWeather(weather: Client<typeof Weather>, protocol: string, print: Print, withToken: Client<typeof Weather>): Promise<void> {
  await tourShared(weather, protocol, print);
  await tourDelete(weather, withToken, protocol, print);
  await tourObservations(weather, print);
  if (BLOB_STREAMING_PROTOCOLS.includes(protocol)) await tourPhotos(weather, print);
  else print("putCityPhoto, getCityPhoto → skipped: @streaming blobs need restJson1 (awsJson1_1 and rpcv2Cbor cannot carry them)");
  await tourAlerts(weather, print);
}

/**
 * Calls every WeatherGrpc operation (gRPC): Weather's without the photos,
 * `watchAlerts` server streaming, and `streamReadings` bidirectional.
 */
export async function tourGrpc(weather: Client<typeof WeatherGrpc>, print: Print): Promise<void> {
  await tourShared(weather, "alloy.proto#grpc", print);
  await tourObservations(weather, print);
  await tourAlerts(weather, print);
  // Each reading goes out once the answer to the one before has come back: both directions stay open.
  const temperatures = [18.5, 31, 36.2];
  let answered: () => void = () => undefined;
  async function* readings(): AsyncGenerator<ReadingEvents> {
    for (const temperatureC of temperatures) {
      const answer = new Promise<void>((resolve) => (answered = resolve));
      yield { $case: "reading", value: { cityId: "paris", temperatureC } };
      await answer;
    }
  }
  const { levels } = await weather.streamReadings({ readings: readings() });
  let i = 0;
  for await (const event of levels) {
    if (event.$case === "level") print(`streamReadings(paris, ${temperatures[i++]} °C) → alert level ${event.value.level}`);
    answered();
  }
}

/**
 * Removes the city the tour created: refused without a token (DeleteCity is
 * the one operation that takes one), done with the client that sends it.
 */
async function tourDelete(weather: Client<typeof Weather>, withToken: Client<typeof Weather>, protocol: string, print: Print): Promise<void> {
  const cityId = (NEW_CITY[protocol] ?? NEW_CITY["aws.protocols#restJson1"]!).name.toLowerCase();
  await expectError(print, `deleteCity(${cityId}) without a token`, UnmodeledError, () => weather.deleteCity({ cityId }));
  const deleted = await withToken.deleteCity({ cityId });
  print(`deleteCity(${cityId}) with the bearer token → status ${deleted.$metadata.httpStatus}`);
}

/** Reports observations: a station's first reading, then one from a station that is down. */
async function tourObservations(weather: Client<typeof WeatherGrpc> | Client<typeof Weather>, print: Print): Promise<void> {
  const first = await weather.reportObservation({
    cityId: "paris",
    stationId: "PAR-01",
    observedAt: new Date(),
    observation: { temperatureC: 21.5, sky: Sky.CLEAR, readings: { humidity: 0.41 }, raw: Uint8Array.of(1, 2, 3), extras: { firmware: "2.1" } },
  });
  print(
    `reportObservation(paris, PAR-01) → ${first.observationId}, status ${first.status ?? first.$metadata.httpStatus}, received ${first.receivedAt.toISOString()}`,
  );
  await expectError(print, "reportObservation(paris, PAR-99)", ServiceUnavailable, () =>
    weather.reportObservation({ cityId: "paris", stationId: "PAR-99", observation: { temperatureC: 20, sky: Sky.CLOUDY } }),
  );
}

/** Watches a city's alerts until the first heartbeat. */
async function tourAlerts(weather: Client<typeof WeatherGrpc> | Client<typeof Weather>, print: Print): Promise<void> {
  const { events } = await weather.watchAlerts({ cityId: "reykjavik", minLevel: 2 });
  for await (const event of events) {
    if (event.$case === "alert") print(`watchAlerts(reykjavik) → alert level ${event.value.level}: ${event.value.headline}`);
    else if (event.$case === "heartbeat") {
      print(`watchAlerts(reykjavik) → heartbeat ${event.value.at.toISOString()}`);
      break; // one is enough for a demo; leaving the loop ends the call
    }
  }
}

/** Uploads a photo as a stream and reads it back (restJson1: the protocols with a binding for `@streaming` blobs). */
async function tourPhotos(weather: Client<typeof Weather>, print: Print): Promise<void> {
  const photo = new TextEncoder().encode("not really a PNG");
  const put = await weather.putCityPhoto({
    cityId: "paris",
    photoKey: "eiffel/tower.png",
    contentType: "image/png",
    metadata: { photographer: "demo" },
    body: (async function* () {
      yield photo.subarray(0, 8);
      yield photo.subarray(8);
    })(),
  });
  print(`putCityPhoto(paris, eiffel/tower.png) → ${put.size} bytes, etag ${put.etag}`);
  const got = await weather.getCityPhoto({ cityId: "paris", photoKey: "eiffel/tower.png" });
  const bytes = await collectBytes(got.body);
  print(`getCityPhoto(paris, eiffel/tower.png) → ${got.contentType}, ${bytes.byteLength} bytes, metadata ${JSON.stringify(got.metadata)}`);
  await expectError(print, "getCityPhoto(paris, nope.png)", undefined, () => weather.getCityPhoto({ cityId: "paris", photoKey: "nope.png" }));
}

/** The operations Weather and SimpleWeather share: the time, cities and forecasts. */
export async function tourShared(weather: Client<typeof SimpleWeather>, protocol: string, print: Print): Promise<void> {
  const { time } = await weather.getCurrentTime({});
  print(`getCurrentTime → ${time.toISOString()}`);

  const page = await weather.listCities({ pageSize: 2 });
  print(`listCities(pageSize 2) → ${page.items.map((c) => c.cityId).join(", ")} of ${page.totalCount}, next page ${page.nextToken}`);
  const next = await weather.listCities({ pageSize: 2, ...(page.nextToken === undefined ? {} : { nextToken: page.nextToken }) });
  print(`listCities(nextToken ${page.nextToken}) → ${next.items.map((c) => c.cityId).join(", ")}`);
  // The paginator sends the token on for us, a call per page; items() walks the cities of every page.
  const everyCity: string[] = [];
  for await (const city of paginateListCities(weather, {}, { pageSize: 2 }).items()) everyCity.push(city.cityId);
  print(`paginateListCities(pageSize 2).items() → ${everyCity.join(", ")}`);
  const coastal = await weather.listCities({ tags: ["coastal"], filters: { country: "US" } });
  print(`listCities(tag coastal, country US) → ${coastal.items.map((c) => c.name).join(", ")}`);

  const { city, lastModified } = await weather.getCity({ cityId: "seattle" });
  print(`getCity(seattle) → ${city.name}, ${city.country}, ${city.population} people, tags ${city.tags?.join("/")}, modified ${lastModified?.toUTCString()}`);
  await expectError(print, "getCity(atlantis)", NoSuchCity, () => weather.getCity({ cityId: "atlantis" }));
  await expectError(print, "getCity(Not An Id)", ValidationException, () => weather.getCity({ cityId: "Not An Id" }));

  const spec = NEW_CITY[protocol] ?? NEW_CITY["aws.protocols#restJson1"]!;
  const input = { name: spec.name, country: spec.country, coordinates: { latitude: spec.latitude, longitude: spec.longitude }, tags: ["coastal"] };
  // A waiter polls GetCity until the city shows up (the model's CityExists waiter; NoSuchCity means "not yet"),
  // here started before the city is created; the delays are the demo's, far below the model's 1 to 10 s.
  const cityId = spec.name.toLowerCase();
  const appeared = waitUntilCityExists(weather, { cityId }, { maxWaitTime: 10, minDelay: 0.05, maxDelay: 0.2 });
  const created = await weather.createCity({ ...input, clientToken: `demo-${spec.name}` });
  print(`createCity(${spec.name}) → ${created.city.cityId} at ${created.location}, status ${created.$metadata.httpStatus}`);
  const waited = await appeared;
  print(
    `waitUntilCityExists(${cityId}) → ${waited.state}: ${waited.output?.city.name}, after ${waited.attempts} call${waited.attempts === 1 ? "" : "s"} of getCity`,
  );
  await expectError(print, `createCity(${spec.name}) again, new token`, CityAlreadyExists, () => weather.createCity(input));

  const forecast = await weather.getForecast({ cityId: "paris", days: 2 });
  for (const day of forecast.days) {
    const p = day.precipitation;
    const precipitation = p.$case === "rainMm" ? `${p.value} mm rain` : p.$case === "snowCm" ? `${p.value} cm snow` : "dry";
    print(
      `getForecast(paris) → ${day.date.toISOString().slice(0, 10)}: ${day.sky}, ${day.lowC}…${day.highC} °C, ${precipitation}, alert level ${day.alertLevel}`,
    );
  }
  await expectError(print, "getForecast(paris, days 11)", ValidationException, () => weather.getForecast({ cityId: "paris", days: 11 }));
}

/** Runs a call that should fail and prints the error; a result or an unexpected error class is a failure of the tour. */
async function expectError(print: Print, label: string, expected: { is(e: unknown): boolean } | undefined, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (expected !== undefined && !expected.is(error)) throw error;
    const e = error as Error & { $metadata?: { httpStatus?: number } };
    print(`${label} → ${e.name} (${e.$metadata?.httpStatus}): ${e.message}`);
    return;
  }
  throw new Error(`${label}: expected an error, got a result`);
}
