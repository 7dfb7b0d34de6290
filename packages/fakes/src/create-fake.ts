/**
 * Fakes as data: a service handler and a client that answer from fake
 * tables, whether built at run time (`anvil serve --fake`) or generated
 * (the `WeatherFakes` table of `weather.fakes.ts`). The generated fake
 * classes are these with a class's shape.
 */
import type { ClientOf, HandlersOf, ServiceSchema } from "@anvil/core";
import { fakeClientCall } from "@anvil/core/codegenv1";
import type { FakeOperation } from "@anvil/core/protocol";
import { fakeAnswer } from "@anvil/core/protocol";

/** A fake table per operation of a service, by operation key: what `fakeOperation` builds, and `anvil generate --fakes` writes. */
export type FakeTables<S extends ServiceSchema> = { readonly [K in keyof S["operations"]]: FakeOperation };

/** One answered call, for logs. */
export interface FakeCall {
  /** The operation's key in the service (`getCity`). */
  readonly operation: string;
  /** The protocol the call came in with, when the server says (`aws.protocols#restJson1`). */
  readonly protocol?: string;
  /** Where the answer comes from: `example "title"` or `synthesized`. */
  readonly source: string;
  /** Whether the answer is a modeled error. */
  readonly error: boolean;
}

/** Options of {@link createFakeHandler}. */
export interface FakeHandlerOptions<S extends ServiceSchema = ServiceSchema, Ctx = unknown> {
  /** Called once per call the fake answers, with what answered it. */
  readonly onCall?: (call: FakeCall) => void;
  /** Handlers that replace the fake's for their operations. */
  readonly overrides?: Partial<HandlersOf<S, Ctx>>;
}

/**
 * A service handler answering every operation from its fake table, but
 * those `overrides` handles. Register it on a server like any handler:
 * input is validated before it answers.
 *
 * @example
 * ```ts
 * import { WeatherFakes } from "./generated/weather.fakes.js";
 * const handler = createFakeHandler(Weather, WeatherFakes, { overrides: { getCurrentTime: () => ({ time: new Date(0) }) } });
 * createServer(Weather, { protocols }).register(handler).mapService();
 * ```
 *
 * @param service - The service schema.
 * @param tables - Each operation's table, by operation key (see `fakeOperation`, or a generated `WeatherFakes`).
 * @param options - Overrides and logging.
 */
export function createFakeHandler<S extends ServiceSchema, Ctx = unknown>(
  service: S,
  tables: FakeTables<S>,
  options: FakeHandlerOptions<S, Ctx> = {},
): HandlersOf<S, Ctx> {
  const handler: Record<string, (input: unknown, context: unknown) => Promise<unknown>> = {};
  for (const key of Object.keys(service.operations)) {
    const operation = service.operations[key]!;
    const table = tables[key as keyof S["operations"]];
    handler[key] = async (input, context) => {
      const answer = fakeAnswer(operation, table, input);
      const protocol = (context as { protocol?: unknown } | undefined)?.protocol;
      options.onCall?.({ operation: key, ...(typeof protocol === "string" ? { protocol } : {}), source: answer.source, error: "error" in answer });
      if ("error" in answer) throw answer.error;
      return answer.output;
    };
  }
  return { ...handler, ...options.overrides } as HandlersOf<S, Ctx>;
}

/** Options of {@link createFakeClient}. */
export interface FakeClientOptions<S extends ServiceSchema = ServiceSchema> {
  /** Methods that replace the fake's for their operations. */
  readonly overrides?: Partial<ClientOf<S>>;
}

/**
 * A client answering every operation from its fake table in memory, with
 * no network and no serialization: for tests of code that calls a service.
 * Input is validated first, and invalid input rejects as a real client
 * talking to the fake server would (the modeled ValidationException when
 * the service declares it, else an `UnmodeledError`).
 *
 * @example
 * ```ts
 * import { WeatherFakes } from "./generated/weather.fakes.js";
 * const weather = createFakeClient(Weather, WeatherFakes);
 * const { name } = await weather.getCity({ cityId: "paris" });
 * ```
 *
 * @param service - The service schema.
 * @param tables - Each operation's table, by operation key.
 * @param options - Overrides.
 */
export function createFakeClient<S extends ServiceSchema>(service: S, tables: FakeTables<S>, options: FakeClientOptions<S> = {}): ClientOf<S> {
  const client: Record<string, (input?: unknown) => Promise<unknown>> = {};
  for (const key of Object.keys(service.operations)) {
    const operation = service.operations[key]!;
    const table = tables[key as keyof S["operations"]];
    client[key] = (input) => fakeClientCall(operation, table, input as never);
  }
  return Object.freeze({ ...client, ...options.overrides }) as ClientOf<S>;
}
