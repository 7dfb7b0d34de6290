/** Type-level helpers that turn schemas into the client and handler types users see. */
import type { OperationSchema, ServiceSchema } from "./schema.js";

/** The input type of an operation schema. */
export type InputOf<Op> = Op extends OperationSchema<infer I, any> ? I : never;
/** The output type of an operation schema. */
export type OutputOf<Op> = Op extends OperationSchema<any, infer O> ? O : never;

/** Per-call options every client method takes. */
export interface CallOptions {
  /** Aborts the call. */
  readonly signal?: AbortSignal;
  /** Extra headers to send (after the protocol's own). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The typed client of a service: one async method per operation. */
export type ClientOf<S extends ServiceSchema> = {
  readonly [K in keyof S["operations"]]: (input: InputOf<S["operations"][K]>, options?: CallOptions) => Promise<OutputOf<S["operations"][K]>>;
};

/** The handler of one operation. */
export type HandlerOf<Op, Ctx = unknown> = (input: InputOf<Op>, context: Ctx) => Promise<OutputOf<Op>> | OutputOf<Op>;

/** Handlers for every operation of a service: what a server implementation provides. */
export type HandlersOf<S extends ServiceSchema, Ctx = unknown> = {
  readonly [K in keyof S["operations"]]: HandlerOf<S["operations"][K], Ctx>;
};
