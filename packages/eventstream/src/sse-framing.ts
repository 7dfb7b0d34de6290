/**
 * Server-Sent Events (`text/event-stream`, the WHATWG HTML standard's
 * "Server-sent events" section) as text: messages written as `event:`,
 * `id:` and `data:` lines, and a parser of the whole grammar (CR, LF and
 * CRLF line ends, a leading byte order mark, comments, fields without a
 * colon, `data` accumulated over lines, `id` kept from event to event,
 * `retry`, dispatch on a blank line). Web APIs only (`TextDecoder`), so it
 * runs in browsers and Workers.
 */
import { byteChunks, type HttpBody, SerializationError } from "@anvil/core";
import { binaryBody } from "@anvil/core/protocol";
import { DEFAULT_MAX_FRAME_BYTES } from "./frames.js";

/** `text/event-stream`. */
export const SSE_MEDIA_TYPE = "text/event-stream";

/** One message of a Server-Sent Events stream, as the parser dispatches it (what `EventSource` hands a listener). */
export interface ServerSentEvent {
  /** The `event:` field, or `message` when the message has none. */
  readonly type: string;
  /** The `data:` lines, joined with line feeds. */
  readonly data: string;
  /** The last `id:` the stream set, on this message or an earlier one (`""` when none). */
  readonly lastEventId: string;
  /** The reconnection time the stream last asked for with `retry:`, in milliseconds, if it did. */
  readonly retry?: number;
}

/** A message to write: its type (left out for `message`), its data (any text: each line becomes a `data:` line) and its id. */
export interface ServerSentEventInit {
  /** The `event:` field; none (or `message`) for a plain message. */
  readonly type?: string;
  /** The data: any text, written as one `data:` line per line. */
  readonly data: string;
  /** The `id:` field, if any. */
  readonly id?: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * One message as text, ending with the blank line that dispatches it.
 * Throws a SerializationError for a type or id that a line end (or, in an
 * id, a NUL) would corrupt.
 */
export function formatServerSentEvent(message: ServerSentEventInit): string {
  let out = "";
  const { type, id, data } = message;
  if (type !== undefined && type !== "message") {
    if (LINE_BREAK.test(type)) throw new SerializationError("encode server-sent event: an event type cannot hold a line break");
    out += `event: ${type}\n`;
  }
  if (id !== undefined) {
    if (LINE_BREAK.test(id) || id.includes("\0")) throw new SerializationError("encode server-sent event: an id cannot hold a line break or NUL");
    out += `id: ${id}\n`;
  }
  // JSON has no raw line breaks: one line, the usual case, without splitting.
  if (data.indexOf("\n") < 0 && data.indexOf("\r") < 0) return `${out}data: ${data}\n\n`;
  for (const line of data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** A comment (ignored by every reader): what keeps an idle stream's connection from looking dead to proxies. */
export function formatServerSentComment(text = ""): string {
  if (LINE_BREAK.test(text)) throw new SerializationError("encode server-sent event: a comment cannot hold a line break");
  return text === "" ? ":\n\n" : `: ${text}\n\n`;
}

/** Options for reading a Server-Sent Events stream. */
export interface ReadServerSentEventsOptions {
  /**
   * The most UTF-16 code units one message (its lines, before dispatch) or
   * one unfinished line may hold; a stream that sends more fails with a
   * SerializationError instead of growing memory. Default
   * `DEFAULT_MAX_FRAME_BYTES`.
   */
  readonly maxMessageLength?: number;
}

/**
 * The messages of a Server-Sent Events byte stream, dispatched as the
 * WHATWG parser dispatches them, read lazily (a chunk is pulled when the
 * consumer asks for the next message). A message cut off by the end of the
 * stream (no blank line after it) is dropped, as the standard says.
 * Invalid UTF-8 becomes U+FFFD, as in `EventSource`.
 */
export async function* readServerSentEvents(body: HttpBody, options: ReadServerSentEventsOptions = {}): AsyncGenerator<ServerSentEvent, void, undefined> {
  const parser = new SseParser(options.maxMessageLength ?? DEFAULT_MAX_FRAME_BYTES);
  const decoder = new TextDecoder("utf-8", { ignoreBOM: false });
  const source = binaryBody(body);
  if (source === undefined) return;
  if (source instanceof Uint8Array) {
    yield* parser.push(decoder.decode(source));
    return;
  }
  for await (const chunk of byteChunks(source)) {
    if (chunk.byteLength === 0) continue;
    const text = decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield* parser.push(text);
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield* parser.push(rest);
}

/**
 * The parser's state between chunks: the unfinished line, and the message
 * being built. `TextDecoder` removes the leading byte order mark.
 */
class SseParser {
  #line = "";
  /** The last chunk ended with CR: a LF starting the next one ends nothing. */
  #afterCr = false;
  #data = "";
  #hasData = false;
  #type = "";
  #lastEventId = "";
  #retry: number | undefined;
  /** Code units held for the message being built. */
  #held = 0;

  constructor(private readonly max: number) {}

  *push(text: string): Generator<ServerSentEvent, void, undefined> {
    let start = 0;
    if (this.#afterCr && text.charCodeAt(0) === 10) start = 1;
    this.#afterCr = false;
    const length = text.length;
    for (let i = start; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      const line = this.#line === "" ? text.slice(start, i) : this.#line + text.slice(start, i);
      this.#line = "";
      if (c === 13) {
        if (i + 1 < length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else this.#afterCr = true;
      }
      start = i + 1;
      const event = this.#take(line);
      if (event !== undefined) yield event;
    }
    if (start < length) {
      this.#line += text.slice(start);
      if (this.#line.length + this.#held > this.max) this.#tooLong();
    }
  }

  /** Processes one line; a blank one dispatches the message built so far. */
  #take(line: string): ServerSentEvent | undefined {
    if (line.length === 0) return this.#dispatch();
    if (line.charCodeAt(0) === 58) return undefined; // ":" a comment
    const colon = line.indexOf(":");
    let field: string;
    let value: string;
    if (colon < 0) {
      field = line;
      value = "";
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case "data":
        this.#held += value.length + 1;
        if (this.#held > this.max) this.#tooLong();
        this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
        this.#hasData = true;
        break;
      case "event":
        this.#type = value;
        break;
      case "id":
        if (!value.includes("\0")) this.#lastEventId = value;
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) this.#retry = Number(value);
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
    return undefined;
  }

  #dispatch(): ServerSentEvent | undefined {
    const hasData = this.#hasData;
    const data = this.#data;
    const type = this.#type;
    this.#data = "";
    this.#hasData = false;
    this.#type = "";
    this.#held = 0;
    if (!hasData) return undefined;
    const event: { type: string; data: string; lastEventId: string; retry?: number } = {
      type: type === "" ? "message" : type,
      data,
      lastEventId: this.#lastEventId,
    };
    if (this.#retry !== undefined) event.retry = this.#retry;
    return event;
  }

  #tooLong(): never {
    throw new SerializationError(`decode server-sent events: a message longer than ${this.max} characters`);
  }
}
