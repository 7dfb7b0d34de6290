/**
 * One event-stream message (`application/vnd.amazon.eventstream`): typed
 * headers and a body, and its frame: a prelude (total and header lengths,
 * their CRC32), the headers, the body and the CRC32 of all that. Written
 * here on `DataView` and `TextEncoder` alone, so that the codec runs and
 * bundles anywhere (Workers, browsers, `--platform=neutral`); the tests check
 * it against `@smithy/eventstream-codec` frame for frame.
 */
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

/** Prelude (total length, header length, prelude CRC) and message CRC: the framing around headers and body. */
const PRELUDE_BYTES = 12;
const FRAMING_BYTES = PRELUDE_BYTES + 4;

/** Header value type tags on the wire. */
const TAG = { true: 0, false: 1, byte: 2, short: 3, integer: 4, long: 5, binary: 6, string: 7, timestamp: 8, uuid: 9 } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

let crcTable: Int32Array | undefined;

/** CRC-32 (IEEE 802.3, as zlib and the event-stream format compute it) of `bytes[from, to)`. */
function crc32(bytes: Uint8Array, from = 0, to = bytes.byteLength): number {
  const table = (crcTable ??= makeCrcTable());
  let crc = -1;
  for (let i = from; i < to; i++) crc = table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

function makeCrcTable(): Int32Array {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
}

/** A header ready to write: its name's bytes, and its value's bytes for strings and blobs. */
interface PendingHeader {
  readonly name: Uint8Array;
  readonly header: EventHeaderValue;
  readonly bytes: Uint8Array | undefined;
  readonly size: number;
}

function encodeError(message: string): SerializationError {
  return new SerializationError(`encode event stream: ${message}`);
}

function pendingHeader(name: string, header: EventHeaderValue): PendingHeader {
  const nameBytes = utf8Encoder.encode(name);
  if (nameBytes.byteLength > MAX_HEADER_NAME_BYTES) throw encodeError(`a header name is longer than ${MAX_HEADER_NAME_BYTES} bytes`);
  let bytes: Uint8Array | undefined;
  let valueSize: number;
  switch (header.type) {
    case "boolean":
      valueSize = 0;
      break;
    case "byte":
      valueSize = 1;
      break;
    case "short":
      valueSize = 2;
      break;
    case "integer":
      valueSize = 4;
      break;
    case "long":
      if (typeof header.value === "number" && !Number.isSafeInteger(header.value)) throw encodeError(`long header ${header.value} is not an integer`);
      valueSize = 8;
      break;
    case "timestamp":
      if (Number.isNaN(header.value.getTime())) throw encodeError("invalid timestamp header");
      valueSize = 8;
      break;
    case "uuid":
      if (!UUID.test(header.value)) throw encodeError(`uuid header ${JSON.stringify(header.value)} is not a UUID`);
      valueSize = 16;
      break;
    case "binary":
    case "string":
      bytes = header.type === "string" ? utf8Encoder.encode(header.value) : header.value;
      if (bytes.byteLength > 0xffff) throw encodeError(`${header.type} header ${name} is longer than 65535 bytes`);
      valueSize = 2 + bytes.byteLength;
      break;
    default:
      throw encodeError(`unknown header type ${JSON.stringify((header as { type: unknown }).type)}`);
  }
  return { name: nameBytes, header, bytes, size: 1 + nameBytes.byteLength + 1 + valueSize };
}

/** The longest header name, in UTF-8 bytes: aws-c-event-stream's bound (the format's own is 255). */
const MAX_HEADER_NAME_BYTES = 127;
/** The most header bytes one message carries: aws-c-event-stream's bound. */
const MAX_HEADERS_BYTES = 128 * 1024;

/** Encodes one message into a frame. Throws a SerializationError for a header the format (or AWS's bounds) cannot carry. */
export function encodeEventMessage(message: EventMessage): Uint8Array {
  const pending: PendingHeader[] = [];
  let headersSize = 0;
  for (const name of Object.keys(message.headers)) {
    const header = pendingHeader(name, message.headers[name]!);
    pending.push(header);
    headersSize += header.size;
  }
  if (headersSize > MAX_HEADERS_BYTES) throw encodeError(`headers longer than ${MAX_HEADERS_BYTES} bytes`);
  const total = FRAMING_BYTES + headersSize + message.body.byteLength;
  const frame = new Uint8Array(total);
  const view = new DataView(frame.buffer);
  view.setUint32(0, total, false);
  view.setUint32(4, headersSize, false);
  view.setUint32(8, crc32(frame, 0, 8), false);
  let at = PRELUDE_BYTES;
  for (let i = 0; i < pending.length; i++) at = writeHeader(frame, view, at, pending[i]!);
  frame.set(message.body, at);
  view.setUint32(total - 4, crc32(frame, 0, total - 4), false);
  return frame;
}

function writeHeader(frame: Uint8Array, view: DataView, start: number, { name, header, bytes }: PendingHeader): number {
  let at = start;
  frame[at++] = name.byteLength;
  frame.set(name, at);
  at += name.byteLength;
  switch (header.type) {
    case "boolean":
      frame[at++] = header.value ? TAG.true : TAG.false;
      return at;
    case "byte":
      frame[at++] = TAG.byte;
      view.setInt8(at, header.value);
      return at + 1;
    case "short":
      frame[at++] = TAG.short;
      view.setInt16(at, header.value, false);
      return at + 2;
    case "integer":
      frame[at++] = TAG.integer;
      view.setInt32(at, header.value, false);
      return at + 4;
    case "long":
      frame[at++] = TAG.long;
      view.setBigInt64(at, BigInt.asIntN(64, BigInt(header.value)), false);
      return at + 8;
    case "timestamp":
      frame[at++] = TAG.timestamp;
      view.setBigInt64(at, BigInt(header.value.getTime()), false);
      return at + 8;
    case "uuid": {
      frame[at++] = TAG.uuid;
      const hex = header.value.replace(/-/g, "");
      for (let i = 0; i < 16; i++) frame[at + i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
      return at + 16;
    }
    default:
      frame[at++] = header.type === "string" ? TAG.string : TAG.binary;
      view.setUint16(at, bytes!.byteLength, false);
      frame.set(bytes!, at + 2);
      return at + 2 + bytes!.byteLength;
  }
}

function decodeError(message: string): SerializationError {
  return new SerializationError(`decode event stream: ${message}`);
}

/**
 * Decodes one whole frame. Throws a SerializationError for a frame that is
 * too short, has a wrong length or checksum, headers that do not parse, or
 * headers beyond AWS's bounds (128 KiB in all, names of 127 bytes).
 */
export function decodeEventMessage(frame: Uint8Array): EventMessage {
  if (frame.byteLength < FRAMING_BYTES) throw decodeError(`a frame of ${frame.byteLength} bytes is shorter than the ${FRAMING_BYTES} bytes of framing`);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const total = view.getUint32(0, false);
  if (total !== frame.byteLength) throw decodeError(`the frame says it has ${total} bytes, it has ${frame.byteLength}`);
  const preludeCrc = view.getUint32(8, false);
  if (preludeCrc !== crc32(frame, 0, 8)) throw decodeError(`the prelude checksum ${preludeCrc} does not match the prelude`);
  const messageCrc = view.getUint32(total - 4, false);
  if (messageCrc !== crc32(frame, 0, total - 4)) throw decodeError(`the message checksum ${messageCrc} does not match the message`);
  const headersLength = view.getUint32(4, false);
  if (headersLength > MAX_HEADERS_BYTES) throw decodeError(`headers longer than ${MAX_HEADERS_BYTES} bytes`);
  const headersEnd = PRELUDE_BYTES + headersLength;
  if (headersEnd > total - 4) throw decodeError("the headers run past the end of the frame");
  const headers: Record<string, EventHeaderValue> = {};
  let at = PRELUDE_BYTES;
  try {
    while (at < headersEnd) {
      const nameLength = frame[at++]!;
      if (nameLength > MAX_HEADER_NAME_BYTES) throw decodeError(`a header name is longer than ${MAX_HEADER_NAME_BYTES} bytes`);
      const name = utf8Decoder.decode(bounded(frame, at, nameLength, headersEnd));
      at += nameLength;
      const [header, next] = readHeader(frame, view, at, headersEnd);
      at = next;
      // defineProperty: a header named `__proto__` is a header like any other.
      Object.defineProperty(headers, name, { value: header, enumerable: true, writable: true, configurable: true });
    }
  } catch (cause) {
    if (cause instanceof SerializationError) throw cause;
    throw new SerializationError(`decode event stream: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  // A copy lets the frame go.
  return { headers, body: frame.slice(headersEnd, total - 4) };
}

/** `length` bytes at `at`, which must end by `end`. */
function bounded(frame: Uint8Array, at: number, length: number, end: number): Uint8Array {
  if (at + length > end) throw decodeError("a header runs past the end of the headers");
  return frame.subarray(at, at + length);
}

function readHeader(frame: Uint8Array, view: DataView, start: number, end: number): [EventHeaderValue, number] {
  if (start >= end) throw decodeError("a header has no type");
  const tag = frame[start]!;
  const at = start + 1;
  switch (tag) {
    case TAG.true:
    case TAG.false:
      return [{ type: "boolean", value: tag === TAG.true }, at];
    case TAG.byte:
      bounded(frame, at, 1, end);
      return [{ type: "byte", value: view.getInt8(at) }, at + 1];
    case TAG.short:
      bounded(frame, at, 2, end);
      return [{ type: "short", value: view.getInt16(at, false) }, at + 2];
    case TAG.integer:
      bounded(frame, at, 4, end);
      return [{ type: "integer", value: view.getInt32(at, false) }, at + 4];
    case TAG.long: {
      bounded(frame, at, 8, end);
      const value = view.getBigInt64(at, false);
      const safe = value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER);
      return [{ type: "long", value: safe ? Number(value) : value }, at + 8];
    }
    case TAG.timestamp:
      bounded(frame, at, 8, end);
      return [{ type: "timestamp", value: new Date(Number(view.getBigInt64(at, false))) }, at + 8];
    case TAG.uuid: {
      const bytes = bounded(frame, at, 16, end);
      let hex = "";
      for (let i = 0; i < 16; i++) hex += bytes[i]!.toString(16).padStart(2, "0");
      const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      return [{ type: "uuid", value: uuid }, at + 16];
    }
    case TAG.binary:
    case TAG.string: {
      bounded(frame, at, 2, end);
      const length = view.getUint16(at, false);
      const bytes = bounded(frame, at + 2, length, end);
      const header: EventHeaderValue = tag === TAG.string ? { type: "string", value: utf8Decoder.decode(bytes) } : { type: "binary", value: bytes.slice() };
      return [header, at + 2 + length];
    }
    default:
      throw decodeError(`unknown header type ${tag}`);
  }
}
