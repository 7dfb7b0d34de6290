/**
 * Bounded mixed load through nginx with the example's generated clients:
 * a few callers, each making one call at a time from a fixed mix (reads and
 * writes, over restJson1, awsJson1_1, rpcv2Cbor and gRPC), with the client's
 * standard retries. Every call is recorded with whether the model says it is
 * safe to repeat, how it ended and how many attempts it took.
 */
import { createClient, isIdempotent } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import type { OperationSchema } from "@anvil/core";
import { awsJson1_1 } from "@anvil/protocol-awsjson";
import { grpc } from "@anvil/protocol-grpc";
import { restJson1 } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { Weather } from "../../../apps/example/src/generated/weather.js";
import { WeatherGrpc } from "../../../apps/example/src/generated/weather-grpc.js";

/** How one call ended. */
export interface CallRecord {
  /** `protocol operation`, e.g. `restJson1 getCity`. */
  readonly name: string;
  /** The `X-Request-Id` every attempt of the call carried: nginx and the instances log it. */
  readonly requestId: string;
  /** What the model says: `@readonly`, `@idempotent` or an `@idempotencyToken`. */
  readonly idempotent: boolean;
  readonly started: number;
  readonly ended: number;
  /** Attempts the client made (its `$metadata.attempts`). */
  readonly attempts: number;
  /** Undefined for a call that succeeded; else the error's code and message. */
  readonly error?: string;
}

/** A running load. */
export interface Load {
  /** Every call that ended so far. */
  readonly records: readonly CallRecord[];
  /** Calls under way now. */
  readonly inFlight: number;
  /** Resolves once `n` more calls have ended than when it was called. */
  more(n: number): Promise<void>;
  /** Stops the callers after their current call; resolves when all have ended. */
  stop(): Promise<readonly CallRecord[]>;
}

interface Op {
  readonly name: string;
  readonly operation: OperationSchema<any, any>;
  /** Makes call number `n` of caller `caller`. */
  call(caller: number, n: number, options: { readonly headers: Record<string, string> }): Promise<{ readonly $metadata: { readonly attempts?: number } }>;
}

/** Settings of {@link startLoad}. */
export interface LoadOptions {
  /** nginx's REST listener. */
  readonly restUrl: string;
  /** nginx's gRPC listener. */
  readonly grpcUrl: string;
  /** Callers, each with one call under way at a time. */
  readonly callers: number;
  /** Calls at most, all callers together (the load is bounded even if nobody stops it). */
  readonly maxCalls: number;
  /** Milliseconds at most (the same). */
  readonly maxMs: number;
}

/** Starts the callers. */
export function startLoad(options: LoadOptions): Load {
  const protocols = [restJson1(), awsJson1_1(), rpcv2Cbor()];
  const rest = createClient(Weather, { endpoint: options.restUrl, protocols, protocol: "aws.protocols#restJson1" });
  const awsJson = createClient(Weather, { endpoint: options.restUrl, protocols, protocol: "aws.protocols#awsJson1_1" });
  const cbor = createClient(Weather, { endpoint: options.restUrl, protocols, protocol: "smithy.protocols#rpcv2Cbor" });
  const transport = http2Transport();
  const rpc = createClient(WeatherGrpc, { endpoint: options.grpcUrl, protocols: [grpc()], transport });
  const W = Weather.operations;
  const G = WeatherGrpc.operations;
  const observation = (caller: number, n: number) => ({
    cityId: "paris",
    stationId: `S-${caller}-${n}`,
    observation: { temperatureC: 21.5, sky: "CLEAR" as const, readings: { humidity: 0.41 } },
  });
  const city = (prefix: string, caller: number, n: number) => ({
    name: `${prefix} ${caller} ${n}`,
    country: "ZZ",
    coordinates: { latitude: 10, longitude: 20 },
  });
  // The mix: reads and writes, idempotent and not, on every protocol nginx carries.
  const ops: readonly Op[] = [
    { name: "restJson1 getCity", operation: W.getCity, call: (_c, _n, o) => rest.getCity({ cityId: "seattle" }, o) },
    { name: "restJson1 reportObservation", operation: W.reportObservation, call: (c, n, o) => rest.reportObservation(observation(c, n), o) },
    { name: "grpc getCity", operation: G.getCity, call: (_c, _n, o) => rpc.getCity({ cityId: "tokyo" }, o) },
    { name: "awsJson1_1 getCity", operation: W.getCity, call: (_c, _n, o) => awsJson.getCity({ cityId: "paris" }, o) },
    { name: "restJson1 createCity", operation: W.createCity, call: (c, n, o) => rest.createCity(city("Rest", c, n), o) },
    { name: "grpc reportObservation", operation: G.reportObservation, call: (c, n, o) => rpc.reportObservation(observation(c, n), o) },
    { name: "rpcv2Cbor getForecast", operation: W.getForecast, call: (_c, _n, o) => cbor.getForecast({ cityId: "paris", days: 2 }, o) },
    { name: "restJson1 listCities", operation: W.listCities, call: (_c, _n, o) => rest.listCities({ pageSize: 2 }, o) },
    { name: "grpc createCity", operation: G.createCity, call: (c, n, o) => rpc.createCity(city("Grpc", c, n), o) },
    { name: "awsJson1_1 reportObservation", operation: W.reportObservation, call: (c, n, o) => awsJson.reportObservation(observation(c, n), o) },
    { name: "grpc getForecast", operation: G.getForecast, call: (_c, _n, o) => rpc.getForecast({ cityId: "reykjavik", days: 1 }, o) },
    { name: "restJson1 getForecast", operation: W.getForecast, call: (_c, _n, o) => rest.getForecast({ cityId: "tokyo", days: 3 }, o) },
  ];

  const records: CallRecord[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let inFlight = 0;
  let started = 0;
  let stopped = false;
  const deadline = Date.now() + options.maxMs;

  const caller = async (c: number): Promise<void> => {
    for (let n = 0; !stopped && started < options.maxCalls && Date.now() < deadline; n++) {
      // Callers start at different places in the mix, so that every kind of call is under way at any time.
      const op = ops[(c * 5 + n) % ops.length]!;
      started++;
      inFlight++;
      const t0 = Date.now();
      const requestId = `load-${c}-${n}`;
      let record: CallRecord;
      try {
        const output = await op.call(c, n, { headers: { "x-request-id": requestId } });
        record = { name: op.name, requestId, idempotent: isIdempotent(op.operation), started: t0, ended: Date.now(), attempts: output.$metadata.attempts ?? 1 };
      } catch (error) {
        const e = error as { code?: string; message?: string; $metadata?: { attempts?: number } };
        record = {
          name: op.name,
          requestId,
          idempotent: isIdempotent(op.operation),
          started: t0,
          ended: Date.now(),
          attempts: e.$metadata?.attempts ?? 1,
          error: `${e.code ?? "?"}: ${e.message ?? String(error)}`,
        };
      }
      inFlight--;
      records.push(record);
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (records.length < waiters[i]!.count) continue;
        waiters[i]!.resolve();
        waiters.splice(i, 1);
      }
    }
  };
  const all = Promise.all(Array.from({ length: options.callers }, (_, c) => caller(c)));

  return {
    records,
    get inFlight() {
      return inFlight;
    },
    more(n) {
      const count = records.length + n;
      return new Promise((resolve, reject) => {
        waiters.push({ count, resolve });
        // The load is bounded: if it ends first, say so rather than wait forever.
        void all.then(() => {
          if (records.length < count) reject(new Error(`the load ended after ${records.length} calls, before ${count}`));
        });
      });
    },
    async stop() {
      stopped = true;
      await all;
      await transport.close();
      return records;
    },
  };
}
