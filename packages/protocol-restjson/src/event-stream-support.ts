/**
 * What the HTTP binding engine knows of event streams without loading them:
 * which member of a structure is one, and their media type. The framing and
 * event codec (`./event-stream.js`, on `@anvil/eventstream`) load when an
 * operation with an event stream is first called, so a client whose calls
 * have none carries none of it.
 *
 * @internal
 */
import type { MemberSchema, StructSchema, UnionSchema } from "@anvil/core";
import { bindingsOf, type Direction } from "./bindings.js";
import { lazyModule } from "./lazy-module.js";

/** `application/vnd.amazon.eventstream` (`@anvil/eventstream`'s `EVENT_STREAM_MEDIA_TYPE`, spelled here so that naming it loads nothing). */
export const EVENT_STREAM_MEDIA_TYPE = "application/vnd.amazon.eventstream";

/** `text/event-stream`: Server-Sent Events, the framing browsers read (`@anvil/eventstream`'s `SSE_MEDIA_TYPE`). */
export const SSE_MEDIA_TYPE = "text/event-stream";

/** A member carrying an event stream. */
export interface EventStreamMember extends MemberSchema {
  readonly target: UnionSchema;
}

/** The `@httpPayload` member of a structure that is an event stream, if any. */
export function eventStreamPayload(schema: StructSchema, direction: Direction): EventStreamMember | undefined {
  const payload = bindingsOf(schema, direction).payload;
  return payload !== undefined && payload.target.kind === "union" && payload.traits.streaming ? (payload as EventStreamMember) : undefined;
}

/** The event-stream machinery: bodies of events and events of bodies. */
export type EventStreams = typeof import("./event-stream.js");

/** The event-stream machinery, loaded by the first operation that has an event stream. */
export const eventStreams = lazyModule<EventStreams>(() => import("./event-stream.js"));

/**
 * Runs `use` with the event-stream machinery: at once when it has loaded
 * (every call after the first), else once it has (a server protocol may
 * answer with a promise).
 */
export function withEventStreams<T>(use: (streams: EventStreams) => T): T | Promise<T> {
  const loaded = eventStreams.current;
  return loaded !== undefined ? use(loaded) : eventStreams.load().then(use);
}
