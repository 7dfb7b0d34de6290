/**
 * A `@streaming` union as Server-Sent Events: the second framing of the
 * same event stream, for browsers and plain HTTP clients. Each event is one
 * message whose `event:` is the variant's name and whose `data:` is the
 * event structure written with the protocol's text codec (JSON), every
 * member in one object (those `application/vnd.amazon.eventstream` carries
 * in headers too). A modeled exception is named by its error shape
 * (`event: ThrottlingException`); a failure the union does not model ends
 * the stream with an `error` message of a code and a message only.
 *
 * Streams are pull-based like the binary framing's: a message is written
 * when the transport asks for bytes. While the source has nothing to say,
 * a comment goes out every `keepAliveMs`.
 */
import {
  type HttpBody,
  ModeledError,
  type Schema,
  SerializationError,
  type StructSchema,
  type UnionSchema,
  type UnionValue,
  UnmodeledError,
} from "@anvil/core";
import { createModeledError, shapeName, startTimer, stopTimer, type Timer } from "@anvil/core/protocol";
import { formatServerSentComment, formatServerSentEvent, readServerSentEvents, type ReadServerSentEventsOptions, type ServerSentEvent } from "./sse-framing.js";

/**
 * How a protocol writes event structures as text (JSON for restJson1), for
 * Server-Sent Events. Readers and writers should be compiled and cached per
 * schema by the codec.
 */
export interface EventTextCodec {
  /** The decoder of this schema's values: text to value. Throws a SerializationError for text that is not one. */
  reader(schema: Schema): (text: string) => unknown;
  /** The encoder of this schema's values: value to text. */
  writer(schema: Schema): (value: unknown) => string;
}

/** A message of a Server-Sent Events stream, before framing: its type and its data. */
export interface ServerSentEventMessage {
  /** The `event:` field: the event's member name, an error's shape name, or `error`. */
  readonly type: string;
  /** The `data:`: the event's text (JSON). */
  readonly data: string;
}

/** A `@streaming` union compiled for Server-Sent Events with one text codec. */
export interface ServerSentEventSerde {
  /** The message of an event; a variant that is an `@error` structure is named by its shape. */
  encode(event: UnionValue): ServerSentEventMessage;
  /**
   * The message that ends a stream whose source failed: the modeled error's
   * message for an error the union names, else an `error` message with the
   * `code` and `message` of an error of Anvil's own (`InternalFailure` and
   * nothing more for any other).
   */
  encodeError(error: unknown): ServerSentEventMessage;
  /**
   * The event of a message. Throws the modeled error of an exception
   * message, an UnmodeledError for an `error` message, and a
   * SerializationError for data that does not decode. A message the union
   * does not name is the `$unknown` variant, with the message as its value.
   */
  decode(message: ServerSentEvent): UnionValue;
}

/**
 * The type of the message that ends a stream with a failure the union does
 * not model; for a union with an event (or an error shape) named `error`,
 * {@link SSE_STREAM_ERROR_EVENT}.
 */
export const SSE_ERROR_EVENT = "error";

/**
 * The type of the failure message of a union that names an event `error`:
 * a hyphenated name, which no Smithy member or shape can have.
 */
export const SSE_STREAM_ERROR_EVENT = "stream-error";

interface TextVariant {
  readonly name: string;
  readonly target: Schema;
  readonly isError: boolean;
  /** The message type: the member name of an event, the shape name of an error. */
  readonly type: string;
  write(value: unknown): string;
  read(data: string): unknown;
}

const cache = new WeakMap<EventTextCodec, WeakMap<UnionSchema<any>, ServerSentEventSerde>>();

/** Compiles a `@streaming` union for Server-Sent Events with a text codec (cached per union and codec). */
export function compileServerSentEvents(union: UnionSchema<any>, codec: EventTextCodec): ServerSentEventSerde {
  let byUnion = cache.get(codec);
  if (byUnion === undefined) cache.set(codec, (byUnion = new WeakMap()));
  let serde = byUnion.get(union);
  if (serde === undefined) byUnion.set(union, (serde = buildSerde(union, codec)));
  return serde;
}

function buildSerde(union: UnionSchema<any>, codec: EventTextCodec): ServerSentEventSerde {
  const byName = new Map<string, TextVariant>();
  const byErrorId = new Map<string, TextVariant>();
  const byType = new Map<string, TextVariant>();
  for (const m of union.members) {
    const target = m.target;
    const isError = target.kind === "structure" && target.traits.error !== undefined;
    const write = codec.writer(target);
    const read = codec.reader(target);
    const variant: TextVariant = {
      name: m.name,
      target,
      isError,
      type: isError ? shapeName(target.id) : m.name,
      write: (value) => {
        if (target.kind === "structure" && (typeof value !== "object" || value === null))
          throw new SerializationError(`encode event stream: event ${m.name} is not a structure`, { path: `/${m.name}` });
        return write(value);
      },
      read: (data) => (data === "" && target.kind === "structure" ? {} : read(data)),
    };
    byName.set(m.name, variant);
    if (isError) byErrorId.set(target.id, variant);
  }
  // Events by member name first; errors by shape name, then by member name (what the binary framing names them by).
  for (const v of byName.values()) if (!v.isError) byType.set(v.type, v);
  for (const v of byName.values()) if (v.isError && !byType.has(v.type)) byType.set(v.type, v);
  for (const v of byName.values()) if (v.isError && !byType.has(v.name)) byType.set(v.name, v);
  // The failure message's type: never one of the union's own, so that neither side takes one for the other.
  const failureType = byType.has(SSE_ERROR_EVENT) ? SSE_STREAM_ERROR_EVENT : SSE_ERROR_EVENT;
  const failure = (code: string, message: string): ServerSentEventMessage => ({ type: failureType, data: JSON.stringify({ code, message }) });

  return Object.freeze({
    encode(event: UnionValue): ServerSentEventMessage {
      const name = typeof event === "object" && event !== null ? (event as { $case?: unknown }).$case : undefined;
      const variant = typeof name === "string" ? byName.get(name) : undefined;
      if (variant === undefined) throw new SerializationError(`encode event stream: ${union.id} has no event ${JSON.stringify(name)}`);
      return { type: variant.type, data: variant.write((event as { value?: unknown }).value) };
    },

    encodeError(error: unknown): ServerSentEventMessage {
      if (ModeledError.isModeledError(error)) {
        const variant = byErrorId.get(error.$shapeId);
        if (variant !== undefined) return { type: variant.type, data: variant.write(error.members()) };
        return failure(error.code, error.message);
      }
      if (UnmodeledError.is(error)) return failure(error.code, error.message);
      // Bytes that do not decode, such as a malformed message of the stream the caller sends: the caller's to hear.
      if (SerializationError.is(error)) return failure("SerializationException", error.message);
      return failure("InternalFailure", "Internal failure");
    },

    decode(message: ServerSentEvent): UnionValue {
      const variant = byType.get(message.type);
      if (variant !== undefined) {
        const value = variant.read(message.data);
        if (variant.isError) throw createModeledError(variant.target as StructSchema, value as Record<string, unknown>);
        return { $case: variant.name, value } as UnionValue;
      }
      if (message.type === failureType) throw unmodeled(message.data);
      return { $case: "$unknown", name: message.type, value: message };
    },
  });
}

/** The UnmodeledError of an `error` message: its `code` and `message`, when its data is such an object. */
function unmodeled(data: string): UnmodeledError {
  let code = "UnknownError";
  let message: string | undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed === "object" && parsed !== null) {
      const fields = parsed as { code?: unknown; message?: unknown };
      if (typeof fields.code === "string" && fields.code !== "") code = fields.code;
      if (typeof fields.message === "string") message = fields.message;
    }
  } catch {
    // Not JSON: the data is all there is to say.
    if (data !== "") message = data;
  }
  return new UnmodeledError(code, message ?? `event stream: error ${code}`, { bodyExcerpt: data.slice(0, 256) });
}

/** Options for writing an event stream as Server-Sent Events. */
export interface WriteServerSentEventsOptions {
  /**
   * Milliseconds of silence after which a comment goes out, while the
   * source has no event ready (not while the reader is slow to take what
   * was written). 0 or `Infinity`: none.
   */
  readonly keepAliveMs?: number;
  /** Ends the stream when it aborts (the caller went away), without waiting for the source's next event. */
  readonly signal?: AbortSignal | undefined;
  /** Hears an error of the source that is neither modeled nor unmodeled (it ends the stream as an internal failure). */
  readonly onInternalError?: ((error: unknown) => void) | undefined;
}

const utf8 = new TextEncoder();

/**
 * The bytes of an event stream as Server-Sent Events: one message per
 * event, with `id:` a sequence number from 1. When `events` throws a
 * modeled error of the union, the stream ends with its message; any other
 * error ends it with an `error` message. Pull-based: the source is asked
 * for its next event only when the previous message has been taken.
 */
export async function* writeServerSentEvents(
  events: AsyncIterable<UnionValue> | Iterable<UnionValue>,
  serde: ServerSentEventSerde,
  options: WriteServerSentEventsOptions = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const keepAliveMs = options.keepAliveMs ?? 0;
  const idleMs = keepAliveMs > 0 && Number.isFinite(keepAliveMs) ? keepAliveMs : undefined;
  const signal = options.signal;
  const it: AsyncIterator<UnionValue> | Iterator<UnionValue> =
    Symbol.asyncIterator in events ? events[Symbol.asyncIterator]() : (events as Iterable<UnionValue>)[Symbol.iterator]();
  let done = false;
  /** The source's next event, asked for and not yet taken (kept across keep-alive comments). */
  let pull: Pull | undefined;
  let seq = 0;
  try {
    for (;;) {
      if (signal?.aborted) return;
      let next: IteratorResult<UnionValue>;
      try {
        if (idleMs === undefined && signal === undefined) next = await it.next();
        else {
          pull ??= new Pull(it);
          const woken = await pull.wait(idleMs, signal);
          if (woken === IDLE) {
            yield keepAlive();
            continue;
          }
          if (woken === ABORTED) return;
          next = pull.take();
          pull = undefined;
        }
      } catch (error) {
        pull = undefined;
        done = true; // a source that threw is finished
        if (!ModeledError.isModeledError(error) && !UnmodeledError.is(error) && !SerializationError.is(error)) options.onInternalError?.(error);
        yield utf8.encode(formatServerSentEvent({ ...serde.encodeError(error), id: String(++seq) }));
        return;
      }
      if (next.done === true) {
        done = true;
        return;
      }
      yield utf8.encode(formatServerSentEvent({ ...serde.encode(next.value), id: String(++seq) }));
    }
  } finally {
    // The transport stopped reading, the caller went away or an event failed to encode: let the source clean up.
    if (!done) {
      if (pull === undefined) await it.return?.();
      // An async generator takes `return` only after its pending `next`: asked for, not waited for (it may never come).
      else pull.thenStop(it);
    }
  }
}

/** What {@link Pull.wait} resolves with when it is time for a keep-alive comment. */
const IDLE = 1;
/** What {@link Pull.wait} resolves with when the signal aborted. */
const ABORTED = 2;
/** What {@link Pull.wait} resolves with when the source answered. */
const READY = 0;

/**
 * One `next()` of the source, waited for across keep-alive comments: one
 * handler on its promise however many waits there are, so that a stream
 * idle for hours holds nothing more than one idle for a second.
 */
class Pull {
  #state: "pending" | "ready" | "failed" = "pending";
  #result: IteratorResult<UnionValue> | undefined;
  #error: unknown;
  #wake: ((woken: number) => void) | undefined;
  #after: (() => void) | undefined;

  constructor(it: AsyncIterator<UnionValue> | Iterator<UnionValue>) {
    let asked: Promise<IteratorResult<UnionValue>>;
    try {
      asked = Promise.resolve(it.next());
    } catch (error) {
      asked = Promise.reject(error);
    }
    asked.then(
      (result) => {
        this.#state = "ready";
        this.#result = result;
        this.#settled();
      },
      (error: unknown) => {
        this.#state = "failed";
        this.#error = error;
        this.#settled();
      },
    );
  }

  #settled(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.(READY);
    this.#after?.();
  }

  /** Resolves once the source answered ({@link READY}), after `idleMs` ({@link IDLE}), or when `signal` aborts ({@link ABORTED}). */
  wait(idleMs: number | undefined, signal: AbortSignal | undefined): Promise<number> {
    if (this.#state !== "pending") return Promise.resolve(READY);
    return new Promise<number>((resolve) => {
      let timer: Timer | undefined;
      const onAbort = (): void => wake(ABORTED);
      const wake = (woken: number): void => {
        this.#wake = undefined;
        stopTimer(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(woken);
      };
      this.#wake = wake;
      if (idleMs !== undefined) timer = startTimer(idleMs, () => wake(IDLE));
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** The source's answer, once {@link wait} said it came: its result, or what it threw. */
  take(): IteratorResult<UnionValue> {
    if (this.#state === "failed") throw this.#error;
    return this.#result!;
  }

  /** Returns the iterator once this `next` has settled (never waited for, never failing). */
  thenStop(it: AsyncIterator<UnionValue> | Iterator<UnionValue>): void {
    const stop = (): void => {
      try {
        void Promise.resolve(it.return?.()).catch(() => {});
      } catch {
        // A source that fails to stop has nothing more to say.
      }
    };
    if (this.#state === "pending") this.#after = stop;
    else stop();
  }
}

/** The keep-alive comment's bytes (each yield hands out its own copy: a transport may hold on to a chunk). */
let keepAliveBytes: Uint8Array | undefined;
function keepAlive(): Uint8Array {
  keepAliveBytes ??= utf8.encode(formatServerSentComment("keep-alive"));
  return keepAliveBytes.slice();
}

/** The events of a Server-Sent Events byte stream, read lazily; iteration throws what {@link ServerSentEventSerde.decode} throws. */
export async function* readServerSentEventStream(
  body: HttpBody,
  serde: ServerSentEventSerde,
  options: ReadServerSentEventsOptions = {},
): AsyncGenerator<UnionValue, void, undefined> {
  for await (const message of readServerSentEvents(body, options)) yield serde.decode(message);
}
