/**
 * The example's business logic: one handler object for the whole Weather
 * service. It knows nothing of protocols; the same object also serves
 * SimpleWeather (its operations are a subset with the same shapes) and
 * WeatherGrpc (Weather's operations without the photos, plus
 * `streamReadings`).
 */
import { byteChunks } from "@anvil/core";
import type { HandlerContext } from "@anvil/server";
import {
  type Alert,
  type AlertEvents,
  type AlertLevel,
  type CityDetails,
  CityAlreadyExists,
  type CreateCityOutput,
  type DailyForecast,
  NoSuchCity,
  NoSuchPhoto,
  type Precipitation,
  ServiceUnavailable,
  Sky,
  type LevelEvents,
  type ReadingEvents,
} from "./generated/example.weather.shapes.js";
import { ValidationException } from "./generated/smithy.framework.shapes.js";
import type { WeatherHandler } from "./generated/weather.server.js";
import type { WeatherGrpcHandler } from "./generated/weather-grpc.server.js";
import type { WeatherStore } from "./store.js";

/** Options of {@link createWeatherHandler}. */
export interface WeatherHandlerOptions {
  /** Time between heartbeats of `WatchAlerts`, in milliseconds. Default 1 000. */
  readonly heartbeatMs?: number;
  /** Heartbeats a `WatchAlerts` stream sends before it ends. Default 3. */
  readonly heartbeats?: number;
}

const DAY_MS = 86_400_000;
const SKIES = [Sky.CLEAR, Sky.CLOUDY, Sky.RAIN, Sky.SNOW] as const;

/** The handler of every service of the example: Weather's operations and WeatherGrpc's `streamReadings`. */
export type ExampleHandler = WeatherHandler<HandlerContext> & Pick<WeatherGrpcHandler<HandlerContext>, "streamReadings">;

/** Makes the handler of the Weather service (and of its twins) over a store. */
export function createWeatherHandler(store: WeatherStore, options: WeatherHandlerOptions = {}): ExampleHandler {
  const heartbeatMs = options.heartbeatMs ?? 1_000;
  const heartbeats = options.heartbeats ?? 3;
  const created = new Map<string, CreateCityOutput>(); // by idempotency token

  const cityOf = (cityId: string): CityDetails => {
    const city = store.cities.get(cityId);
    if (!city) throw new NoSuchCity({ message: `no city ${cityId}`, cityId });
    return city;
  };

  return {
    getCurrentTime() {
      const time = store.now();
      return { time, date: time };
    },

    createCity(input) {
      const earlier = input.clientToken === undefined ? undefined : created.get(input.clientToken);
      if (earlier) return earlier;
      const cityId = slug(input.name);
      if (store.cities.has(cityId)) throw new CityAlreadyExists({ message: `city ${cityId} exists already`, cityId });
      const { clientToken, ...fields } = input;
      const city: CityDetails = { ...fields, cityId, createdAt: store.now() };
      store.cities.set(cityId, city);
      const output = { city, location: `/cities/${cityId}` };
      if (clientToken !== undefined) created.set(clientToken, output);
      return output;
    },

    getCity({ cityId }) {
      const city = cityOf(cityId);
      return { city, lastModified: city.createdAt };
    },

    // The server lets only calls with a valid bearer token through (the model's @auth); context.identity says whose.
    deleteCity({ cityId }) {
      cityOf(cityId);
      store.cities.delete(cityId);
      return {};
    },

    listCities({ nextToken, pageSize = 10, tags = [], filters = {} }) {
      const offset = nextToken === undefined ? 0 : Number(nextToken);
      if (!Number.isInteger(offset) || offset < 0) {
        throw new ValidationException({
          message: "1 validation error detected. Value at '/nextToken' failed to satisfy constraint: not a token from a previous page",
          fieldList: [{ path: "/nextToken", message: "not a token from a previous page" }],
        });
      }
      const matches = [...store.cities.values()]
        .filter((c) => tags.every((t) => c.tags?.includes(t)) && (filters.country === undefined || c.country === filters.country))
        .sort((a, b) => a.cityId.localeCompare(b.cityId));
      const page = matches.slice(offset, offset + pageSize);
      const end = offset + page.length;
      return {
        items: page.map(({ cityId, name }) => ({ cityId, name })),
        totalCount: matches.length,
        ...(end < matches.length ? { nextToken: String(end) } : {}),
      };
    },

    async getForecast({ cityId, days = 3 }) {
      cityOf(cityId);
      const today = Math.floor(store.now().getTime() / DAY_MS) * DAY_MS;
      const forecast: DailyForecast[] = [];
      for (let day = 1; day <= days; day++) forecast.push(await forecastOf(cityId, new Date(today + day * DAY_MS), store.alerts.get(cityId)));
      return { cityId, days: forecast };
    },

    async putCityPhoto({ cityId, photoKey, contentType, metadata = {}, body }) {
      cityOf(cityId);
      // Chunks are stored as they arrive: the upload is never one buffer (the digest, WebCrypto's, takes it whole).
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of byteChunks(body)) {
        chunks.push(chunk);
        size += chunk.byteLength;
      }
      store.photos.set(`${cityId}/${photoKey}`, { contentType, metadata, chunks });
      const digest = await sha256(await new Blob(chunks as BlobPart[]).arrayBuffer());
      return { size, etag: `"${size}-${hex(digest).slice(0, 8)}"` };
    },

    getCityPhoto({ cityId, photoKey }) {
      cityOf(cityId);
      const photo = store.photos.get(`${cityId}/${photoKey}`);
      if (!photo) throw new NoSuchPhoto({ message: `no photo ${photoKey} of ${cityId}`, photoKey });
      return {
        ...(photo.contentType === undefined ? {} : { contentType: photo.contentType }),
        metadata: photo.metadata,
        body: replay(photo.chunks),
      };
    },

    reportObservation(input) {
      const { cityId, stationId, observedAt, observation } = input;
      cityOf(cityId);
      if (store.stationsDown.has(stationId)) {
        throw new ServiceUnavailable({ message: `station ${stationId} is being serviced`, retryAfterSeconds: 3600 });
      }
      const known = store.stations.get(cityId) ?? new Set<string>();
      store.stations.set(cityId, known);
      const first = !known.has(stationId);
      known.add(stationId);
      const receivedAt = store.now();
      if (observation.temperatureC >= 35) {
        store.issueAlert(cityId, { level: 4, headline: `Extreme heat: ${observation.temperatureC} °C at ${stationId}`, issuedAt: observedAt ?? receivedAt });
      }
      store.observations.push(input);
      return { status: first ? 201 : 200, observationId: `${cityId}-${store.observations.length}`, receivedAt };
    },

    watchAlerts({ cityId, minLevel = 1 }, context) {
      cityOf(cityId);
      return { events: watch(store, cityId, minLevel, heartbeats, heartbeatMs, context.signal) };
    },

    streamReadings({ readings }) {
      return { levels: levelsOf(readings, cityOf) };
    },
  };
}

/** The alert level of each reading, as the readings arrive: 4 from 35 °C, 3 from 30 °C, 2 from 25 °C, else 1. */
async function* levelsOf(readings: AsyncIterable<ReadingEvents>, cityOf: (cityId: string) => CityDetails): AsyncGenerator<LevelEvents> {
  for await (const event of readings) {
    if (event.$case !== "reading") continue;
    const { cityId, temperatureC } = event.value;
    cityOf(cityId);
    const level: AlertLevel = temperatureC >= 35 ? 4 : temperatureC >= 30 ? 3 : temperatureC >= 25 ? 2 : 1;
    yield { $case: "level", value: { cityId, level } };
  }
}

/** The identifier a new city gets from its name: `São Paulo` → `sao-paulo`. */
export function slug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** SHA-256 with WebCrypto, which every runtime the example runs on has (Node, Bun, Deno, Workers). */
async function sha256(data: string | ArrayBuffer): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", typeof data === "string" ? new TextEncoder().encode(data) : data));
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** A made-up but stable forecast: the same city and day always give the same weather. */
async function forecastOf(cityId: string, date: Date, alerts: readonly Alert[] = []): Promise<DailyForecast> {
  const seed = await sha256(`${cityId}/${date.toISOString()}`);
  const sky = SKIES[seed[0]! % SKIES.length]!;
  const lowC = (seed[1]! % 25) - 5;
  const highC = lowC + 2 + (seed[2]! % 10);
  const amount = 1 + (seed[3]! % 20);
  const precipitation: Precipitation =
    sky === Sky.RAIN ? { $case: "rainMm", value: amount } : sky === Sky.SNOW ? { $case: "snowCm", value: amount } : { $case: "none", value: {} };
  const alertLevel = alerts.reduce<AlertLevel>((level, a) => (a.level > level ? a.level : level), 1);
  return { date, highC, lowC, sky, precipitation, alertLevel };
}

/** Replays stored chunks as a stream. */
async function* replay(chunks: readonly Uint8Array[]): AsyncIterable<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

/**
 * The alerts of a city: the current ones, then new ones as they are issued,
 * with a heartbeat every `heartbeatMs`; ends after `heartbeats` heartbeats
 * or when the call's signal fires (the client went away, the server closes).
 */
async function* watch(
  store: WeatherStore,
  cityId: string,
  minLevel: AlertLevel,
  heartbeats: number,
  heartbeatMs: number,
  signal: AbortSignal,
): AsyncGenerator<AlertEvents> {
  const pending: Alert[] = (store.alerts.get(cityId) ?? []).filter((a) => a.level >= minLevel);
  let wake: (() => void) | undefined;
  const stop = store.onAlert((id, alert) => {
    if (id !== cityId || alert.level < minLevel) return;
    pending.push(alert);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  try {
    let beats = 0;
    while (!signal.aborted) {
      for (let alert = pending.shift(); alert; alert = pending.shift()) yield { $case: "alert", value: alert };
      if (beats === heartbeats) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, heartbeatMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
      if (pending.length === 0 && !signal.aborted) {
        beats += 1;
        yield { $case: "heartbeat", value: { at: store.now() } };
      }
    }
  } finally {
    stop();
    signal.removeEventListener("abort", onAbort);
  }
}
