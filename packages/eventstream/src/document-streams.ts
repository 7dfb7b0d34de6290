/**
 * `@streaming` members under the protocols whose body is one document (RPC v2
 * CBOR, AWS JSON): an event stream is the whole body, framed as
 * `application/vnd.amazon.eventstream`, and the operation's other members
 * travel in the `initial-request` / `initial-response` message that opens
 * it. (Such protocols have no binding for a `@streaming` blob: see
 * `refuseStreamingBlob` in `@anvil/core`.)
 */
import { type MemberSchema, SerializationError, type StructSchema, type UnionSchema, type UnionValue } from "@anvil/core";
import { isAsyncIterable } from "@anvil/core/protocol";
import { compileEventStream, type EventPayloadCodec, type EventStreamSerde } from "./events.js";
import type { EventMessage } from "./message.js";
import { initialMessage, type InitialEventType, openEventStream, writeEventStream } from "./stream.js";

/** A member carrying an event stream (it targets a `@streaming` union). */
export interface EventStreamMember extends MemberSchema {
  /** The `@streaming` union of the stream's events. */
  readonly target: UnionSchema;
}

/** The member of a structure that is an event stream, if any. */
export function eventStreamMember(schema: StructSchema): EventStreamMember | undefined {
  return schema.members.find((m): m is EventStreamMember => m.target.kind === "union" && m.traits.streaming === true);
}

/** How a document protocol plugs its payload codec into event streams. */
export interface DocumentEventStreamOptions {
  /** The protocol's name in error messages, e.g. `rpcv2Cbor`. */
  readonly protocol: string;
  /** The codec of event payloads and of the initial message. */
  readonly payload: EventPayloadCodec;
  /** The structure's other members from the initial message (`undefined` when the stream has none). */
  readonly readInitial: (schema: StructSchema, initial: EventMessage | undefined) => Record<string, unknown>;
}

/** Event-stream bodies of one document protocol. */
export interface DocumentEventStreams {
  /**
   * The body of an outgoing event stream: the initial message (the other
   * members, already encoded), then the member's events, written as the
   * transport reads them.
   */
  body(
    member: EventStreamMember,
    events: unknown,
    initialType: InitialEventType,
    initial: Uint8Array,
    onInternalError?: (error: unknown) => void,
  ): AsyncIterable<Uint8Array>;
  /**
   * Reads an incoming event stream: the structure's other members from its
   * initial message, and the events, read as the application iterates them.
   */
  read(
    schema: StructSchema,
    member: EventStreamMember,
    body: Parameters<typeof openEventStream>[0],
    initialType: InitialEventType,
  ): Promise<Record<string, unknown>>;
}

/** Event streams for a document protocol; each union's serde is compiled once. */
export function documentEventStreams(options: DocumentEventStreamOptions): DocumentEventStreams {
  const { protocol, payload, readInitial } = options;
  const serdes = new WeakMap<UnionSchema, EventStreamSerde>();
  const serdeOf = (member: EventStreamMember): EventStreamSerde => {
    let serde = serdes.get(member.target);
    if (serde === undefined) serdes.set(member.target, (serde = compileEventStream(member.target, payload)));
    return serde;
  };
  return Object.freeze({
    body(
      member: EventStreamMember,
      events: unknown,
      initialType: InitialEventType,
      initial: Uint8Array,
      onInternalError?: (error: unknown) => void,
    ): AsyncIterable<Uint8Array> {
      const first = initialMessage(initialType, initial, payload.mediaType);
      if (events === undefined || events === null) return writeEventStream([], serdeOf(member), first);
      const iterable = isAsyncIterable(events) || (typeof events === "object" && Symbol.iterator in events);
      if (!iterable) throw new SerializationError(`encode ${protocol}: /${member.name} is not an iterable of events`, { path: `/${member.name}` });
      return writeEventStream(events as AsyncIterable<UnionValue> | Iterable<UnionValue>, serdeOf(member), first, onInternalError);
    },
    async read(
      schema: StructSchema,
      member: EventStreamMember,
      body: Parameters<typeof openEventStream>[0],
      initialType: InitialEventType,
    ): Promise<Record<string, unknown>> {
      const { initial, events } = await openEventStream(body, serdeOf(member), initialType);
      return { ...readInitial(schema, initial), [member.name]: events };
    },
  });
}
