/**
 * Event streams of the HTTP binding protocols: an `@httpPayload` member
 * targeting a `@streaming` union is the body, framed as
 * `application/vnd.amazon.eventstream` by `@anvil/eventstream`, with JSON
 * (the protocol's JSON settings) for structured event payloads; or, for an
 * output a caller asked for as `text/event-stream`, as Server-Sent Events
 * whose data is each event's JSON. The other bound members travel in the HTTP message as usual (the
 * "initial request/response" of these protocols).
 *
 * Loaded only when an operation with an event stream is called
 * (`eventStreams` in `./event-stream-support.js`): import it from nowhere
 * else, or every client would carry it.
 *
 * @internal
 */
import { SerializationError, type UnionValue } from "@anvil/core";
import { isAsyncIterable } from "@anvil/core/protocol";
import { compileReader, compileWriter } from "@anvil/codec-json";
import {
  compileEventStream,
  compileServerSentEvents,
  type EventPayloadCodec,
  type EventStreamSerde,
  type EventTextCodec,
  readEventStream,
  readServerSentEventStream,
  type ServerSentEventSerde,
  writeEventStream,
  writeServerSentEvents,
} from "@anvil/eventstream";
import { type HttpBindingSettings, JSON_MEDIA_TYPE } from "./bindings.js";
import type { EventStreamMember } from "./event-stream-support.js";

const payloadCodecs = new WeakMap<HttpBindingSettings, EventPayloadCodec>();

/** JSON with the protocol's settings, as the payload codec of events. */
function payloadCodecOf(settings: HttpBindingSettings): EventPayloadCodec {
  let codec = payloadCodecs.get(settings);
  if (codec === undefined) {
    codec = Object.freeze({
      mediaType: JSON_MEDIA_TYPE,
      reader: (schema) => compileReader(schema, settings.json),
      writer: (schema) => compileWriter(schema, settings.json).toBytes,
    } satisfies EventPayloadCodec);
    payloadCodecs.set(settings, codec);
  }
  return codec;
}

function serdeOf(settings: HttpBindingSettings, member: EventStreamMember): EventStreamSerde {
  return compileEventStream(member.target, payloadCodecOf(settings));
}

/** The body of an outgoing event stream: the member's events as frames, written as the transport reads them. */
export function eventStreamBody(
  settings: HttpBindingSettings,
  member: EventStreamMember,
  value: unknown,
  /** Hears an unmodeled error of the events' source (see `writeEventStream`). */
  onInternalError?: (error: unknown) => void,
): AsyncIterable<Uint8Array> {
  if (value === undefined || value === null) return writeEventStream([], serdeOf(settings, member));
  const iterable = isAsyncIterable(value) || (typeof value === "object" && Symbol.iterator in value);
  if (!iterable) throw new SerializationError(`encode ${settings.name}: /${member.name} is not an iterable of events`, { path: `/${member.name}` });
  return writeEventStream(value as AsyncIterable<UnionValue> | Iterable<UnionValue>, serdeOf(settings, member), undefined, onInternalError);
}

/** The events of an incoming body, read as the application iterates them. */
export function eventStreamValue(
  settings: HttpBindingSettings,
  member: EventStreamMember,
  body: Parameters<typeof readEventStream>[0],
): AsyncIterable<UnionValue> {
  return readEventStream(body, serdeOf(settings, member));
}

const textCodecs = new WeakMap<HttpBindingSettings, EventTextCodec>();

/** JSON text with the protocol's settings (blobs base64, timestamps as the protocol writes them), for Server-Sent Events. */
function textCodecOf(settings: HttpBindingSettings): EventTextCodec {
  let codec = textCodecs.get(settings);
  if (codec === undefined) {
    codec = Object.freeze({
      reader: (schema) => compileReader(schema, settings.json),
      writer: (schema) => compileWriter(schema, settings.json),
    } satisfies EventTextCodec);
    textCodecs.set(settings, codec);
  }
  return codec;
}

function sseSerdeOf(settings: HttpBindingSettings, member: EventStreamMember): ServerSentEventSerde {
  return compileServerSentEvents(member.target, textCodecOf(settings));
}

/** What an outgoing Server-Sent Events body needs besides its events. */
export interface SseBodyOptions {
  /** Milliseconds of silence before a keep-alive comment; 0 for none. */
  readonly keepAliveMs: number;
  /** Ends the body when the caller goes away. */
  readonly signal?: AbortSignal | undefined;
  /** Hears an unmodeled error of the events' source. */
  readonly onInternalError?: ((error: unknown) => void) | undefined;
}

/** The body of an outgoing event stream as Server-Sent Events, written as the transport reads it. */
export function sseBody(settings: HttpBindingSettings, member: EventStreamMember, value: unknown, options: SseBodyOptions): AsyncIterable<Uint8Array> {
  if (value === undefined || value === null) return writeServerSentEvents([], sseSerdeOf(settings, member));
  const iterable = isAsyncIterable(value) || (typeof value === "object" && Symbol.iterator in value);
  if (!iterable) throw new SerializationError(`encode ${settings.name}: /${member.name} is not an iterable of events`, { path: `/${member.name}` });
  return writeServerSentEvents(value as AsyncIterable<UnionValue> | Iterable<UnionValue>, sseSerdeOf(settings, member), options);
}

/** The events of an incoming Server-Sent Events body, read as the application iterates them. */
export function sseValue(
  settings: HttpBindingSettings,
  member: EventStreamMember,
  body: Parameters<typeof readServerSentEventStream>[0],
): AsyncIterable<UnionValue> {
  return readServerSentEventStream(body, sseSerdeOf(settings, member));
}
