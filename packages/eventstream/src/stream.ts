/**
 * Event streams as byte streams and back: the pieces HTTP bodies are made
 * of. Both directions are pull-based async generators, so back-pressure
 * follows the consumer: a frame is written when the transport asks for
 * bytes, and a frame is read when the application asks for an event.
 */
import { type HttpBody, ModeledError, SerializationError, type UnionValue, UnmodeledError } from "@anvil/core";
import type { EventStreamSerde } from "./events.js";
import { splitFrames } from "./frames.js";
import { decodeEventMessage, encodeEventMessage, type EventMessage } from "./message.js";

/** Options for reading an event stream. */
export interface ReadEventStreamOptions {
  /** The largest frame accepted (default `DEFAULT_MAX_FRAME_BYTES`). */
  readonly maxFrameBytes?: number;
}

/**
 * The frames of an event stream. When `events` throws a modeled error of
 * the union, the stream ends with its exception message; any other error
 * ends it with an `error` message. `initial` (an `initial-request` or
 * `initial-response` message, see {@link initialMessage}) goes first.
 */
export async function* writeEventStream(
  events: AsyncIterable<UnionValue> | Iterable<UnionValue>,
  serde: EventStreamSerde,
  initial?: EventMessage,
  /** Hears an error of the source that is neither modeled nor unmodeled (it ends the stream as an internal failure). */
  onInternalError?: (error: unknown) => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  if (initial !== undefined) yield encodeEventMessage(initial);
  const it: AsyncIterator<UnionValue> | Iterator<UnionValue> =
    Symbol.asyncIterator in events ? events[Symbol.asyncIterator]() : (events as Iterable<UnionValue>)[Symbol.iterator]();
  let done = false;
  try {
    for (;;) {
      let next: IteratorResult<UnionValue>;
      try {
        next = await it.next();
      } catch (error) {
        done = true; // a source that threw is finished
        if (!ModeledError.isModeledError(error) && !UnmodeledError.is(error) && !SerializationError.is(error)) onInternalError?.(error);
        yield encodeEventMessage(serde.encodeError(error));
        return;
      }
      if (next.done) {
        done = true;
        return;
      }
      yield encodeEventMessage(serde.encode(next.value));
    }
  } finally {
    // The transport stopped reading (or an event failed to encode): let the source clean up.
    if (!done) await it.return?.();
  }
}

/**
 * The events of a byte stream, read lazily. Iteration throws what
 * {@link EventStreamSerde.decode} throws (the modeled error of an exception
 * message, ...) and a SerializationError for a bad frame.
 */
export async function* readEventStream(
  body: HttpBody,
  serde: EventStreamSerde,
  options: ReadEventStreamOptions = {},
): AsyncGenerator<UnionValue, void, undefined> {
  for await (const message of eventMessages(body, options)) yield serde.decode(message);
}

/**
 * The messages of an event stream, signed ones opened. An AWS SDK that signs
 * its event stream (SigV4 event signing, as Transcribe Streaming's clients
 * do) sends each message inside another, whose `:date` and
 * `:chunk-signature` headers sign it and whose payload is the message; an
 * empty signed message ends the stream. The signatures are not checked here:
 * like the request's own signature, that is for the server's authentication.
 */
async function* eventMessages(body: HttpBody, options: ReadEventStreamOptions): AsyncGenerator<EventMessage, void, undefined> {
  for await (const frame of splitFrames(body, options.maxFrameBytes)) {
    const message = decodeEventMessage(frame);
    if (!isSignedEnvelope(message)) {
      yield message;
      continue;
    }
    if (message.body.byteLength === 0) return;
    const inner = decodeEventMessage(message.body);
    if (isSignedEnvelope(inner)) throw new SerializationError("decode event stream: a signed message inside a signed message");
    yield inner;
  }
}

/** Whether a message is a signed envelope: a `:chunk-signature`, and no `:message-type` of its own. */
function isSignedEnvelope(message: EventMessage): boolean {
  const headers = message.headers;
  return headers[":chunk-signature"] !== undefined && headers[":message-type"] === undefined;
}

/**
 * Reads the first message of an event stream when it is the `initial-request`
 * or `initial-response` event (RPC protocols carry the operation's other
 * members there), and returns it with the stream's events. A stream that
 * starts with another message has no initial message; that message is its
 * first event.
 */
export async function openEventStream(
  body: HttpBody,
  serde: EventStreamSerde,
  initialEventType: InitialEventType,
  options: ReadEventStreamOptions = {},
): Promise<{ readonly initial: EventMessage | undefined; readonly events: AsyncIterable<UnionValue> }> {
  const messages = eventMessages(body, options);
  const first = await messages.next();
  if (first.done) return { initial: undefined, events: empty() };
  const message = first.value;
  const eventType = message.headers[":event-type"];
  const messageType = message.headers[":message-type"];
  const isInitial = messageType?.type === "string" && messageType.value === "event" && eventType?.type === "string" && eventType.value === initialEventType;
  async function* events(): AsyncGenerator<UnionValue, void, undefined> {
    if (!isInitial) yield serde.decode(message);
    for await (const next of messages) yield serde.decode(next);
  }
  return { initial: isInitial ? message : undefined, events: events() };
}

/** The event types of the messages that carry an RPC operation's non-stream members. */
export type InitialEventType = "initial-request" | "initial-response";

/** An `initial-request` / `initial-response` message with a payload in the codec's media type. */
export function initialMessage(eventType: InitialEventType, body: Uint8Array, contentType: string): EventMessage {
  return {
    headers: {
      ":message-type": { type: "string", value: "event" },
      ":event-type": { type: "string", value: eventType },
      ":content-type": { type: "string", value: contentType },
    },
    body,
  };
}

async function* empty(): AsyncGenerator<UnionValue, void, undefined> {}
