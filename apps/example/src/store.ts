/**
 * The example's data: cities, photos, observations and alerts, in memory.
 * A real service would put a database here; the handlers only see this
 * small interface.
 */
import type { Alert, CityDetails, ImageType, ReportObservationInput, StringMap } from "./generated/example.weather.shapes.js";

/** A stored photo. */
export interface StoredPhoto {
  readonly contentType: ImageType | undefined;
  readonly metadata: StringMap;
  readonly chunks: readonly Uint8Array[];
}

/** A listener for alerts issued while a watch is open. */
export type AlertListener = (cityId: string, alert: Alert) => void;

/** The in-memory data the handlers work on. */
export interface WeatherStore {
  /** Cities by identifier, kept sorted by identifier when listed. */
  readonly cities: Map<string, CityDetails>;
  /** Photos by `cityId/photoKey`. */
  readonly photos: Map<string, StoredPhoto>;
  /** Current alerts by city. */
  readonly alerts: Map<string, Alert[]>;
  /** Stations that have reported, by city: the first report of a station is answered 201. */
  readonly stations: Map<string, Set<string>>;
  /** Stations under maintenance: their reports are refused with `ServiceUnavailable`. */
  readonly stationsDown: Set<string>;
  /** Observations stored so far, oldest first. */
  readonly observations: ReportObservationInput[];
  /** The clock (tests pin it). */
  readonly now: () => Date;
  /** Issues an alert for a city and tells every open watch. */
  issueAlert(cityId: string, alert: Alert): void;
  /** Follows alerts as they are issued; returns the function that stops following. */
  onAlert(listener: AlertListener): () => void;
}

/** Options of {@link createStore}. */
export interface StoreOptions {
  /** The clock. Default: the system clock. */
  readonly now?: () => Date;
}

const EPOCH = new Date("2024-01-01T00:00:00Z");

/** A tiny JPEG-looking photo, so that there is something to download. */
const SKYLINE = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9]);

/** Makes a store seeded with four cities, a photo of Seattle and an alert for Reykjavík. */
export function createStore(options: StoreOptions = {}): WeatherStore {
  const now = options.now ?? (() => new Date());
  const listeners = new Set<AlertListener>();
  const city = (c: Omit<CityDetails, "createdAt">): [string, CityDetails] => [c.cityId, { ...c, createdAt: EPOCH }];
  const store: WeatherStore = {
    cities: new Map([
      city({ cityId: "paris", name: "Paris", country: "FR", coordinates: { latitude: 48.8566, longitude: 2.3522 }, population: 2_102_650, tags: ["capital"] }),
      city({
        cityId: "reykjavik",
        name: "Reykjavík",
        country: "IS",
        coordinates: { latitude: 64.1466, longitude: -21.9426 },
        population: 139_875,
        tags: ["capital", "coastal"],
      }),
      city({
        cityId: "seattle",
        name: "Seattle",
        country: "US",
        coordinates: { latitude: 47.6062, longitude: -122.3321 },
        population: 737_015,
        tags: ["coastal", "rainy"],
      }),
      city({
        cityId: "tokyo",
        name: "Tokyo",
        country: "JP",
        coordinates: { latitude: 35.6762, longitude: 139.6503 },
        population: 14_094_034,
        tags: ["capital", "coastal"],
      }),
    ]),
    photos: new Map([["seattle/skyline/night.jpg", { contentType: "image/jpeg", metadata: { photographer: "ana" }, chunks: [SKYLINE] }]]),
    alerts: new Map([["reykjavik", [{ level: 3, headline: "Gale warning for the capital region", issuedAt: EPOCH }]]]),
    stations: new Map(),
    stationsDown: new Set(["PAR-99"]),
    observations: [],
    now,
    issueAlert(cityId, alert) {
      const current = store.alerts.get(cityId) ?? [];
      store.alerts.set(cityId, [...current, alert]);
      for (const listener of listeners) listener(cityId, alert);
    },
    onAlert(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return store;
}
