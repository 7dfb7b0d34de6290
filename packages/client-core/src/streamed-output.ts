/**
 * Streamed outputs (a `@streaming` blob, an event stream, a gRPC server
 * stream) hold their connection until they are read to the end: an
 * HTTP/1.1 socket of the pool, an HTTP/2 stream's concurrency slot and
 * flow-control window. A caller that never reads one would hold it for
 * good, and a pool's last socket with it. The client hands such members out
 * wrapped: the wrapper releases the body (by aborting the call's signal,
 * which every transport honours for the body too) when the caller disposes
 * of it, returns its iterator, or leaves it unread past a time limit.
 */
import { type OperationSchema, TransportError } from "@anvil/core";
import { isAsyncIterable, startTimer, stopTimer, type Timer } from "@anvil/core/protocol";
import { ABORTED, UNREAD_BODY_TIMEOUT } from "./retry.js";

/**
 * Hands the streamed members of an output (async iterables, web
 * `ReadableStream`s among them) to the caller wrapped in one lease of the
 * call's body: they fail as the call does once its signal fired (`callError`
 * maps the abort's and the timeout's errors), can be disposed of, and are
 * released if left unread for `unreadMs`. Says whether a stream outlives the
 * call (and `settled` will be called when it ends or is released).
 */
export function leaseStreams(
  output: unknown,
  operation: OperationSchema,
  controller: AbortController,
  unreadMs: number | undefined,
  settled: () => void,
  callError: (error: unknown) => unknown,
): boolean {
  if (typeof output !== "object" || output === null) return false;
  const value = output as Record<string, unknown>;
  let lease: BodyLease | undefined;
  const signal = controller.signal;
  const mapError = (error: unknown): unknown => {
    const reason: unknown = signal.reason;
    if (reason instanceof UnreadBodyTimeout) {
      const message = `${operation.name}: the streamed output was released, unread after ${reason.ms} ms (unreadBodyTimeoutMs); read it as soon as the call returns`;
      return new TransportError(UNREAD_BODY_TIMEOUT, message, { cause: error });
    }
    if (reason instanceof BodyReleased) return new TransportError(ABORTED, `${operation.name}: the streamed output was released`, { cause: error });
    return callError(error);
  };
  for (const m of operation.output.members) {
    const stream = value[m.name];
    if (m.traits.streaming !== true || !isAsyncIterable(stream)) continue;
    lease ??= new BodyLease(controller, settled);
    value[m.name] = stream instanceof ReadableStream ? leasedWebStream(stream, lease, mapError) : leasedStream(stream, lease, mapError);
  }
  if (lease === undefined) return false;
  if (unreadMs !== undefined) lease.releaseUnreadAfter(unreadMs);
  return true;
}

/**
 * `Symbol.asyncDispose` where the platform has it (Node 20 defines it),
 * else `Symbol.for("Symbol.asyncDispose")`, which esbuild's `await using`
 * helper falls back on.
 */
const ASYNC_DISPOSE: symbol = (Symbol as { asyncDispose?: symbol }).asyncDispose ?? Symbol.for("Symbol.asyncDispose");

/** Why a call's signal fired when its streamed output waited too long for a first read. */
class UnreadBodyTimeout {
  constructor(readonly ms: number) {}
}

/** Why a call's signal fired when its caller released the streamed output. */
class BodyReleased {}

/**
 * The body of one call's streamed output: unread until a wrapper is first
 * read, then reading, and in the end finished (read to the end, or failed)
 * or released.
 */
class BodyLease {
  #state: "unread" | "reading" | "settled" = "unread";
  #timer: Timer | undefined;

  constructor(
    private readonly controller: AbortController,
    /** Called once when the body is finished or released. */
    private readonly settled: () => void,
  ) {}

  /** Releases the body if nobody has read it within `ms` milliseconds. */
  releaseUnreadAfter(ms: number): void {
    if (this.#state !== "unread" || !Number.isFinite(ms)) return;
    this.#timer = startTimer(ms, () => this.release(new UnreadBodyTimeout(ms)), true);
  }

  /** The call's signal: it fires when the body is released, or when the caller aborts the call. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A wrapper reads: the unread timer no longer applies. */
  reading(): void {
    if (this.#state !== "unread") return;
    this.#state = "reading";
    stopTimer(this.#timer);
  }

  /** The body ended (read to the end, or failed): nothing is left to release. */
  finish(): void {
    if (this.#state === "settled") return;
    this.#state = "settled";
    stopTimer(this.#timer);
    this.settled();
  }

  /** Releases the body and its connection, unless it has ended already. */
  release(reason: UnreadBodyTimeout | BodyReleased): void {
    if (this.#state === "settled") return;
    this.#state = "settled";
    stopTimer(this.#timer);
    if (!this.controller.signal.aborted) this.controller.abort(reason);
    this.settled();
  }
}

/**
 * A streamed output member as the caller gets it: an async iterable (read
 * once) that is also its own iterator, and async-disposable, so that
 * `await using body = output.data` releases what the caller does not read.
 * Returning its iterator before reading releases it too. Errors are passed
 * through `mapError` (the call's abort and timeout errors).
 */
function leasedStream<T>(source: AsyncIterable<T>, lease: BodyLease, mapError: (error: unknown) => unknown): AsyncIterableIterator<T> {
  let iterator: AsyncIterator<T> | undefined;
  const release = async (): Promise<IteratorResult<T>> => {
    // Abort first: a read in flight fails at once, and the source's `return` no longer waits for it.
    lease.release(new BodyReleased());
    try {
      await iterator?.return?.();
    } catch {
      // The source failed as it was released: the caller asked for no more of it.
    }
    return { done: true, value: undefined };
  };
  const stream: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => stream,
    async next(): Promise<IteratorResult<T>> {
      if (iterator === undefined) {
        // Released before the first read: by the caller, nothing more to read; by the timer or an abort, the error.
        if (lease.signal.aborted) {
          if (lease.signal.reason instanceof BodyReleased) return { done: true, value: undefined };
          throw mapError(lease.signal.reason);
        }
        lease.reading();
        iterator = source[Symbol.asyncIterator]();
      }
      try {
        const result = await iterator.next();
        if (result.done === true) lease.finish();
        return result;
      } catch (error) {
        lease.finish();
        throw mapError(error);
      }
    },
    return: release,
  };
  (stream as unknown as Record<symbol, unknown>)[ASYNC_DISPOSE] = release;
  return stream;
}

/**
 * {@link leasedStream} for a web `ReadableStream` member, which stays one: a
 * stream pulled only as its reader asks (`highWaterMark` 0, so that making
 * it is no read), cancelled or disposed of to release the body.
 */
function leasedWebStream<T>(source: ReadableStream<T>, lease: BodyLease, mapError: (error: unknown) => unknown): ReadableStream<T> {
  let reader: ReadableStreamDefaultReader<T> | undefined;
  const stream = new ReadableStream<T>(
    {
      async pull(controller) {
        if (reader === undefined) {
          if (lease.signal.aborted) {
            if (lease.signal.reason instanceof BodyReleased) controller.close();
            else controller.error(mapError(lease.signal.reason));
            return;
          }
          lease.reading();
          reader = source.getReader();
        }
        try {
          const result = await reader.read();
          if (result.done) {
            lease.finish();
            controller.close();
          } else controller.enqueue(result.value);
        } catch (error) {
          lease.finish();
          controller.error(mapError(error));
        }
      },
      async cancel(reason) {
        lease.release(new BodyReleased());
        await (reader ?? source).cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
  // A stream its caller is reading (locked) cannot be cancelled: releasing the body fails the read instead.
  const dispose = async (): Promise<void> => (stream.locked ? lease.release(new BodyReleased()) : stream.cancel());
  (stream as unknown as Record<symbol, unknown>)[ASYNC_DISPOSE] = dispose;
  return stream;
}
