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
import { type HttpResponse, SerializationError, type ServerCallContext, type StructSchema, type UnionValue } from "@anvil/core";
import { baseMediaType, binaryBody, isAsyncIterable } from "@anvil/core/protocol";
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
import { readMessage } from "./message.js";
import { type EventStreamMember, SSE_MEDIA_TYPE } from "./event-stream-support.js";

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

/** How long a Server-Sent Events answer stays silent before a keep-alive comment, unless the server says otherwise. */
export const DEFAULT_SSE_KEEP_ALIVE_MS = 15_000;

/**
 * The answer of an output event stream as Server-Sent Events, for a caller
 * that asked for them (a browser's `EventSource`, `fetch`, `curl -N`): the
 * bound members' head with the SSE headers, and the events as messages.
 */
export function sseResponse(
  settings: HttpBindingSettings,
  member: EventStreamMember,
  head: HttpResponse,
  events: unknown,
  context: ServerCallContext,
  onInternalError: ((error: unknown) => void) | undefined,
): HttpResponse {
  const headers = head.headers;
  headers.set("content-type", SSE_MEDIA_TYPE);
  // Neither a cache nor a buffering proxy (nginx's X-Accel-Buffering) may hold the events back.
  headers.set("cache-control", "no-cache");
  headers.set("x-accel-buffering", "no");
  headers.append("vary", "accept");
  const options = { keepAliveMs: context.sseKeepAliveMs ?? DEFAULT_SSE_KEEP_ALIVE_MS, signal: context.signal, onInternalError };
  return { status: head.status, headers, body: sseBody(settings, member, events, options) };
}

/** A range that could admit `text/event-stream` names `text/` (or is `*\/*`, which prefers neither). */
const TEXT_RANGE = /text\//i;

/**
 * Whether an `Accept` prefers Server-Sent Events to
 * `application/vnd.amazon.eventstream`: each type's quality is the q-value
 * of the most specific range that matches it (RFC 9110, 12.5.1), and
 * `text/event-stream` wins when its quality is higher, or as high and
 * named more specifically (`text/event-stream, *\/*`). No `Accept`, `*\/*`
 * or a tie keep the binary framing. A cheap look for `text/` comes first:
 * the binary path parses nothing.
 */
export function prefersServerSentEvents(accept: string | null | undefined): boolean {
  if (accept === null || accept === undefined || !TEXT_RANGE.test(accept)) return false;
  const ranges = parseAccept(accept);
  const sse = qualityOf(ranges, "text", "event-stream");
  if (sse.q <= 0) return false;
  const binary = qualityOf(ranges, "application", "vnd.amazon.eventstream");
  return sse.q > binary.q || (sse.q === binary.q && sse.specificity > binary.specificity);
}

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/** The ranges of an `Accept`, lower case; a range that is no `type/subtype` or has a q-value that is not one is left out. */
function parseAccept(accept: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of accept.split(",")) {
    const [range = "", ...params] = part.split(";");
    const name = range.trim().toLowerCase();
    const slash = name.indexOf("/");
    if (slash <= 0 || slash === name.length - 1) continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const eq = param.indexOf("=");
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "q") continue;
      const value = param.slice(eq + 1).trim();
      if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value)) valid = false;
      else q = Number(value);
    }
    if (valid) out.push({ type: name.slice(0, slash), subtype: name.slice(slash + 1), q });
  }
  return out;
}

/** The quality an `Accept`'s ranges give a type, and how specific the range that gave it is (3 exact, 2 `type/*`, 1 `*\/*`, 0 none: quality 0). */
function qualityOf(ranges: readonly MediaRange[], type: string, subtype: string): { q: number; specificity: number } {
  let q = 0;
  let specificity = 0;
  for (const r of ranges) {
    const s = r.type === type && r.subtype === subtype ? 3 : r.type === type && r.subtype === "*" ? 2 : r.type === "*" && r.subtype === "*" ? 1 : 0;
    if (s === 0 || s < specificity) continue;
    if (s > specificity) {
      specificity = s;
      q = r.q;
    } else q = Math.max(q, r.q);
  }
  return { q, specificity };
}

/**
 * The output of an event-stream response: the bound members from the HTTP
 * message and the stream from its body, read lazily. Unlike buffered
 * responses, a missing `@required` member is an error, not corrected: the
 * headers are the stream's initial response, and a stream without its
 * required initial members is not one the operation produces.
 */
export function eventStreamOutput(
  settings: HttpBindingSettings,
  output: StructSchema,
  stream: EventStreamMember,
  response: HttpResponse,
): Record<string, unknown> {
  const contentType = response.headers.get("content-type");
  const value = readMessage(settings, output, "response", { headers: response.headers, status: response.status }, new Uint8Array(0));
  for (const m of output.members) {
    if (m.traits.required && m !== stream && value[m.name] === undefined) {
      throw new SerializationError(`decode ${settings.name}: the event stream's initial response lacks the required member ${m.name}`, { path: `/${m.name}` });
    }
  }
  // The server chose the framing (Server-Sent Events when asked for them, and when it offers them).
  const sse = contentType !== null && baseMediaType(contentType) === SSE_MEDIA_TYPE;
  value[stream.name] = sse ? sseValue(settings, stream, binaryBody(response.body)) : eventStreamValue(settings, stream, binaryBody(response.body));
  return value;
}
