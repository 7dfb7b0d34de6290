/**
 * One event-stream message (`application/vnd.amazon.eventstream`): typed
 * headers and a body. Frames are encoded and decoded by
 * `@smithy/eventstream-codec` (prelude, CRCs, header wire types); this module
 * only converts between its types and Anvil's, and turns its failures into
 * SerializationErrors.
 */
import { EventStreamCodec, Int64, type Message, type MessageHeaderValue } from "@smithy/eventstream-codec";
import { SerializationError } from "@anvil/core";

/** The media type of an event-stream body. */
export const EVENT_STREAM_MEDIA_TYPE = "application/vnd.amazon.eventstream";

/**
 * A typed event-stream header value. `long` values are numbers when they are
 * safe integers, bigints otherwise; `binary` is a blob header.
 */
export type EventHeaderValue =
  | { readonly type: "boolean"; readonly value: boolean }
  | { readonly type: "byte" | "short" | "integer"; readonly value: number }
  | { readonly type: "long"; readonly value: number | bigint }
  | { readonly type: "binary"; readonly value: Uint8Array }
  | { readonly type: "string"; readonly value: string }
  | { readonly type: "timestamp"; readonly value: Date }
  | { readonly type: "uuid"; readonly value: string };

/** One message: headers by name (in writing order) and the payload bytes. */
export interface EventMessage {
  /** The headers by name (`:event-type`, `:content-type`, ...), in writing order. */
  readonly headers: Readonly<Record<string, EventHeaderValue>>;
  /** The payload bytes; empty when the message has no payload. */
  readonly body: Uint8Array;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });
const codec = new EventStreamCodec(
  (bytes) => utf8Decoder.decode(bytes),
  (text) => utf8Encoder.encode(text),
);

/** The longest header name, in UTF-8 bytes: aws-c-event-stream's bound (the format's own is 255). */
const MAX_HEADER_NAME_BYTES = 127;
/** The most header bytes one message carries: aws-c-event-stream's bound. */
const MAX_HEADERS_BYTES = 128 * 1024;

/** Fails a header name longer than {@link MAX_HEADER_NAME_BYTES} (a name of 42 UTF-16 units or fewer never is). */
function checkHeaderName(name: string, side: "encode" | "decode"): void {
  if (name.length > 42 && utf8Encoder.encode(name).byteLength > MAX_HEADER_NAME_BYTES) {
    throw new SerializationError(`${side} event stream: a header name is longer than ${MAX_HEADER_NAME_BYTES} bytes`);
  }
}

/** The headers' length a frame's prelude states (the frame has at least its 12-byte prelude). */
const headersLength = (frame: Uint8Array): number => new DataView(frame.buffer, frame.byteOffset, 12).getUint32(4, false);

/** Encodes one message into a frame. Throws a SerializationError for a header the format (or AWS's bounds) cannot carry. */
export function encodeEventMessage(message: EventMessage): Uint8Array {
  const headers: Record<string, MessageHeaderValue> = {};
  for (const name of Object.keys(message.headers)) {
    checkHeaderName(name, "encode");
    headers[name] = toCodecHeader(message.headers[name]!);
  }
  let frame: Uint8Array;
  try {
    frame = codec.encode({ headers, body: message.body });
  } catch (cause) {
    throw new SerializationError(`encode event stream: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (headersLength(frame) > MAX_HEADERS_BYTES) throw new SerializationError(`encode event stream: headers longer than ${MAX_HEADERS_BYTES} bytes`);
  return frame;
}

/**
 * Decodes one whole frame. Throws a SerializationError for a frame that is
 * too short, has a wrong length or checksum, headers that do not parse, or
 * headers beyond AWS's bounds ({@link MAX_HEADERS_BYTES} in all, names of
 * {@link MAX_HEADER_NAME_BYTES}).
 */
export function decodeEventMessage(frame: Uint8Array): EventMessage {
  let decoded: Message;
  try {
    decoded = codec.decode(frame);
  } catch (cause) {
    throw new SerializationError(`decode event stream: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  // The frame decoded, so its prelude is whole (and its checksum right).
  if (headersLength(frame) > MAX_HEADERS_BYTES) throw new SerializationError(`decode event stream: headers longer than ${MAX_HEADERS_BYTES} bytes`);
  const headers: Record<string, EventHeaderValue> = {};
  for (const name of Object.keys(decoded.headers)) {
    checkHeaderName(name, "decode");
    Object.defineProperty(headers, name, { value: fromCodecHeader(decoded.headers[name]!), enumerable: true, writable: true, configurable: true });
  }
  // The codec's views share the frame's buffer; a copy lets the frame go.
  return { headers, body: decoded.body.slice() };
}

function toCodecHeader(h: EventHeaderValue): MessageHeaderValue {
  switch (h.type) {
    case "long":
      return { type: "long", value: toInt64(h.value) };
    case "timestamp":
      if (Number.isNaN(h.value.getTime())) throw new SerializationError("encode event stream: invalid timestamp header");
      return h;
    default:
      return h as MessageHeaderValue;
  }
}

function fromCodecHeader(h: MessageHeaderValue): EventHeaderValue {
  if (h.type === "long") return { type: "long", value: fromInt64(h.value.bytes) };
  if (h.type === "binary") return { type: "binary", value: h.value.slice() };
  return h as EventHeaderValue;
}

function toInt64(value: number | bigint): Int64 {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new SerializationError(`encode event stream: long header ${value} is not an integer`);
    return Int64.fromNumber(value);
  }
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, BigInt.asIntN(64, value), false);
  return new Int64(bytes);
}

function fromInt64(bytes: Uint8Array): number | bigint {
  const value = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0, false);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}
