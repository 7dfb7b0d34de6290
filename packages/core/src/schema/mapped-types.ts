/** Type-level helpers that turn schemas into the client and handler types users see. */
import type { ByteStream, ByteStreamInput } from "../values/streams.js";
import type { OperationSchema, ServiceSchema } from "./schema.js";

/** The input type of an operation schema. */
export type InputOf<Op> = Op extends OperationSchema<infer I, any> ? I : never;
/** The output type of an operation schema. */
export type OutputOf<Op> = Op extends OperationSchema<any, infer O> ? O : never;

/**
 * A structure as it is sent: its streaming blob members (`ByteStream`) also
 * take whole bytes or text (`ByteStreamInput`), which every writer accepts.
 * Clients take their inputs, and handlers give their outputs, in this form;
 * what arrives is always a `ByteStream`. Other members are as they are.
 */
export type Sendable<T> = {
  [K in keyof T]: IsByteStream<Exclude<T[K], undefined>> extends true ? ByteStreamInput | Extract<T[K], undefined> : T[K];
};

/** Whether a type is exactly `ByteStream` (not `never`, as an empty record's values are). */
type IsByteStream<V> = [V] extends [ByteStream] ? ([ByteStream] extends [V] ? true : false) : false;

/** Per-call options every client method takes. */
export interface CallOptions {
  /** Aborts the call. */
  readonly signal?: AbortSignal;
  /** Extra headers to send (after the protocol's own). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The typed client of a service: one async method per operation, which may
 * be called without input when no member of the input is required.
 */
export type ClientOf<S extends ServiceSchema> = {
  readonly [K in keyof S["operations"]]: ClientMethod<S["operations"][K], CallOptions, OutputOf<S["operations"][K]>>;
};

/**
 * A client method of an operation: its input (left out when no member is
 * required: `{}` is then a valid input) and per-call options in, `Result`
 * out. `ClientOf` and `@anvil/client-core`'s `Client` are made of these.
 */
export type ClientMethod<Op, Options, Result> =
  // biome-ignore lint/complexity/noBannedTypes: the empty object literal type is the question asked: is an input with no members valid?
  {} extends InputOf<Op>
    ? (input?: Sendable<InputOf<Op>>, options?: Options) => Promise<Result>
    : (input: Sendable<InputOf<Op>>, options?: Options) => Promise<Result>;

/** The handler of one operation. */
export type HandlerOf<Op, Ctx = unknown> = (input: InputOf<Op>, context: Ctx) => Promise<Sendable<OutputOf<Op>>> | Sendable<OutputOf<Op>>;

/** Handlers for every operation of a service: what a server implementation provides. */
export type HandlersOf<S extends ServiceSchema, Ctx = unknown> = {
  readonly [K in keyof S["operations"]]: HandlerOf<S["operations"][K], Ctx>;
};
