/**
 * A streaming blob (`@streaming blob`): bytes that arrive over time. Readers
 * hand out an async iterable; writers accept either form, or whole bytes.
 */
export type ByteStream = AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

/** What a writer accepts for a streaming blob member. */
export type ByteStreamInput = ByteStream | Uint8Array | string;

/**
 * An event stream (`@streaming` union): the union's variants, one event at a
 * time. Back-pressure follows the consumer's iteration.
 */
export type EventStream<Event> = AsyncIterable<Event>;

/**
 * A byte stream that can also hand over all its bytes at once (the Node
 * adapter's request bodies do): one wait, instead of one per chunk through
 * the async-iterator protocol, which matters for the small bodies most
 * requests have. Readers that want the whole body use {@link readWholeBody}.
 */
export interface WholeBody extends AsyncIterable<Uint8Array> {
  /**
   * The whole body. Rejects with `tooLarge(limit)` as soon as more than
   * `limit` bytes have arrived, reading no further.
   */
  readWhole(limit: number, tooLarge: (limit: number) => Error): Promise<Uint8Array>;
}

/** Whether a byte stream is a {@link WholeBody}. */
export function isWholeBody(stream: ByteStream): stream is WholeBody {
  return typeof (stream as Partial<WholeBody>).readWhole === "function";
}

/**
 * A byte stream read into one buffer, refused with `tooLarge(limit)` (and
 * read no further) as soon as it passes `limit` bytes: in one piece from a
 * {@link WholeBody}, chunk by chunk from any other stream.
 */
export function readWholeBody(stream: ByteStream, limit: number, tooLarge: (limit: number) => Error): Promise<Uint8Array> {
  return isWholeBody(stream) ? stream.readWhole(limit, tooLarge) : collectLimited(byteChunks(stream), limit, tooLarge);
}

async function collectLimited(chunks: AsyncIterable<Uint8Array>, limit: number, tooLarge: (limit: number) => Error): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(limit);
    parts.push(chunk);
  }
  return concatBytes(parts, size);
}

/** Whether a value is an async iterable (a stream of bytes or events). */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
}

/** Reads a whole byte stream into one buffer (for buffered protocols and tests). */
export async function collectBytes(stream: ByteStreamInput): Promise<Uint8Array> {
  if (stream instanceof Uint8Array) return stream;
  if (typeof stream === "string") return new TextEncoder().encode(stream);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of byteChunks(stream)) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return concatBytes(chunks, size);
}

/**
 * The bytes as a plain `Uint8Array` over the same memory (the bytes
 * themselves when they are one). A subclass, such as Node's `Buffer`, has
 * a `slice` that does not copy, and a receiver map of its own.
 */
export function plainBytes(bytes: Uint8Array): Uint8Array {
  return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The chunks as one buffer (the only chunk itself when there is one); `size` is their total length when known. */
export function concatBytes(chunks: readonly Uint8Array[], size?: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size ?? chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** A byte stream as an async iterable (a ReadableStream is read through its reader). */
export function byteChunks(stream: ByteStream): AsyncIterable<Uint8Array> {
  return isAsyncIterable(stream) ? (stream as AsyncIterable<Uint8Array>) : readableToIterable(stream);
}

async function* readableToIterable(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
