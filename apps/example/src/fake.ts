/**
 * The example on its generated fakes (`npm start -- --fake`): every answer
 * comes from the model's `@examples` (else synthesized values), not from the
 * handlers and their store.
 */
import type { HandlerContext } from "@anvil/server";
import { WeatherGrpcFake } from "./generated/weather-grpc.fakes.js";
import { WeatherFake } from "./generated/weather.fakes.js";
import type { ExampleHandler } from "./handlers.js";

/**
 * The fake of every service of the example: Weather's generated fake, with
 * WeatherGrpc's for the one operation only WeatherGrpc has.
 */
export class ExampleFake extends WeatherFake<HandlerContext> implements ExampleHandler {
  readonly #grpc = new WeatherGrpcFake<HandlerContext>();

  /** Answers `StreamReadings` from WeatherGrpc's generated fake. */
  streamReadings(...args: Parameters<ExampleHandler["streamReadings"]>): ReturnType<ExampleHandler["streamReadings"]> {
    return this.#grpc.streamReadings(...args);
  }
}
