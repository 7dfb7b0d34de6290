/**
 * Type-level tests of the generated client and handler types. `tsc --noEmit`
 * (the package's test script) checks them: every `@ts-expect-error` line
 * must be an error, every `expectTypeOf` must hold.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { ByteStream, ByteStreamInput, Document, EventStream } from "@anvil/core";
import { type Client, createClient } from "@anvil/client-core";
import type { HandlerContext } from "@anvil/server";
import type { SimpleWeatherHandler } from "./generated/simple-weather.server.js";
import {
  type AlertEvents,
  AlertLevel,
  type CityDetails,
  type GetCityInput,
  type GetCityOutput,
  type ImageType,
  NoSuchCity,
  type Precipitation,
  Sky,
} from "./generated/example.weather.shapes.js";
import { Weather } from "./generated/weather.js";
import type { WeatherClient } from "./generated/weather.client.js";
import type { GetForecastHandler, WeatherHandler } from "./generated/weather.server.js";
import { createWeatherHandler, type ExampleHandler } from "./handlers.js";
import { PROTOCOLS } from "./server.js";
import { createStore } from "./store.js";

const client = createClient(Weather, { endpoint: "http://127.0.0.1:1", protocols: PROTOCOLS });

describe("the typed client", () => {
  it("has one method per operation, taking the input and resolving to the output with $metadata", () => {
    expectTypeOf(client).toEqualTypeOf<Client<typeof Weather>>();
    expectTypeOf(client.getCity).parameter(0).toEqualTypeOf<GetCityInput>();
    expectTypeOf(client.getCity).returns.resolves.toMatchTypeOf<GetCityOutput>();
    expectTypeOf(client.getCity).returns.resolves.toHaveProperty("$metadata");
    expectTypeOf<keyof typeof client>().toEqualTypeOf<
      | "getCurrentTime"
      | "reportObservation"
      | "watchAlerts"
      | "createCity"
      | "getCity"
      | "deleteCity"
      | "listCities"
      | "getForecast"
      | "putCityPhoto"
      | "getCityPhoto"
    >();
  });

  it("is assignable to the generated client interface", () => {
    expectTypeOf(client).toExtend<WeatherClient>();
  });

  it("maps model types: timestamps, longs, enums, intEnums, unions, blobs, documents, streams", () => {
    expectTypeOf<CityDetails["createdAt"]>().toEqualTypeOf<Date>();
    expectTypeOf<NonNullable<CityDetails["population"]>>().toEqualTypeOf<number | bigint>();
    expectTypeOf<Sky>().toEqualTypeOf<"CLEAR" | "CLOUDY" | "RAIN" | "SNOW">();
    expectTypeOf<AlertLevel>().toEqualTypeOf<1 | 2 | 3 | 4>();
    expectTypeOf<ImageType>().toEqualTypeOf<"image/jpeg" | "image/png" | "image/webp">();
    expectTypeOf<Extract<Precipitation, { $case: "rainMm" }>["value"]>().toEqualTypeOf<number>();
    expectTypeOf<Parameters<typeof client.reportObservation>[0]["observation"]["raw"]>().toEqualTypeOf<Uint8Array | undefined>();
    expectTypeOf<Parameters<typeof client.reportObservation>[0]["observation"]["extras"]>().toEqualTypeOf<Document | undefined>();
    // A streaming blob is sent from a stream, whole bytes or text, and always arrives as a stream.
    expectTypeOf<Parameters<typeof client.putCityPhoto>[0]["body"]>().toEqualTypeOf<ByteStreamInput>();
    expectTypeOf<Parameters<WeatherClient["putCityPhoto"]>[0]["body"]>().toEqualTypeOf<ByteStreamInput>();
    expectTypeOf<Parameters<WeatherHandler["putCityPhoto"]>[0]["body"]>().toEqualTypeOf<ByteStream>();
    expectTypeOf<Awaited<ReturnType<typeof client.getCityPhoto>>["body"]>().toEqualTypeOf<ByteStream>();
    expectTypeOf<Awaited<ReturnType<WeatherHandler["getCityPhoto"]>>["body"]>().toEqualTypeOf<ByteStreamInput>();
    expectTypeOf<Awaited<ReturnType<typeof client.watchAlerts>>["events"]>().toEqualTypeOf<EventStream<AlertEvents>>();
  });

  it("rejects inputs the model does not allow", () => {
    const never = (_: unknown) => undefined;
    // @ts-expect-error: cityId is required
    never(() => client.getCity({}));
    // @ts-expect-error: an unknown member
    never(() => client.getCity({ cityId: "paris", town: "x" }));
    // @ts-expect-error: days is a number
    never(() => client.getForecast({ cityId: "paris", days: "3" }));
    // @ts-expect-error: not a Sky value
    never(() => client.reportObservation({ cityId: "paris", stationId: "P-1", observation: { temperatureC: 1, sky: "FOG" } }));
    // @ts-expect-error: not an AlertLevel
    never(() => client.watchAlerts({ cityId: "paris", minLevel: 5 }));
    // @ts-expect-error: no such operation
    never(() => client.renameCity({ cityId: "paris" }));
    // exactOptionalPropertyTypes: an optional member is left out, not set to undefined
    // @ts-expect-error: undefined is not a page size
    never(() => client.listCities({ pageSize: undefined }));
  });

  it("narrows modeled errors with the generated class", () => {
    const error: unknown = undefined;
    if (NoSuchCity.is(error)) {
      expectTypeOf(error.cityId).toEqualTypeOf<string | undefined>();
      expectTypeOf(error.message).toEqualTypeOf<string>();
    }
  });
});

describe("the handler types", () => {
  it("take the input and the server's context, and return the output or a promise of it", () => {
    expectTypeOf<WeatherHandler<HandlerContext>["getCity"]>().parameters.toEqualTypeOf<[GetCityInput, HandlerContext]>();
    expectTypeOf<WeatherHandler<HandlerContext>["getCity"]>().returns.toEqualTypeOf<GetCityOutput | Promise<GetCityOutput>>();
    expectTypeOf(createWeatherHandler(createStore())).toEqualTypeOf<ExampleHandler>();
    expectTypeOf(createWeatherHandler(createStore())).toMatchTypeOf<WeatherHandler<HandlerContext>>();
  });

  it("make the service handler satisfy every per-operation interface, and SimpleWeather's handler", () => {
    expectTypeOf<WeatherHandler<HandlerContext>>().toMatchTypeOf<GetForecastHandler<HandlerContext>>();
    expectTypeOf<WeatherHandler<HandlerContext>>().toMatchTypeOf<SimpleWeatherHandler<HandlerContext>>();
  });

  it("reject handlers that do not fit the model", () => {
    // @ts-expect-error: the output lacks the required cityId
    const forecast: GetForecastHandler = { getForecast: () => ({ days: [] }) };
    const union: GetForecastHandler = {
      getForecast: ({ cityId }) => ({
        cityId,
        days: [
          {
            date: new Date(),
            highC: 1,
            lowC: 0,
            sky: Sky.CLEAR,
            // @ts-expect-error: not a variant of Precipitation
            precipitation: { $case: "hail", value: 1 },
            alertLevel: AlertLevel.GREEN,
          },
        ],
      }),
    };
    // @ts-expect-error: a whole-service handler must implement every operation
    const partial: WeatherHandler = { getForecast: union.getForecast };
    expectTypeOf([forecast, union, partial]).not.toBeNever();
  });
});
