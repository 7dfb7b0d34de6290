/**
 * Handlers of the test service, shared by the tests that serve it with
 * Anvil. Imports only core (they are plain functions over the schemas).
 *
 * @internal
 */
import type { EventStream } from "@anvil/core";
import { type ChatEvent, type ChunkEvent, NoSuchName, type TickEvent, Undeclared } from "./test-service.js";

/** What the handlers saw. */
export interface Seen {
  /** Chunks the download handler has produced so far. */
  produced?: number;
  /** Chunks the upload handler has read so far. */
  consumed?: number;
  /** Request headers of the last sayHello call. */
  headers?: Headers;
  /** Reasons of aborted signals, as messages. */
  readonly aborted: string[];
  /** The deadline the last wait call's context had. */
  deadline?: number | undefined;
}

interface Ctx {
  readonly headers: Headers;
  readonly signal: AbortSignal;
  readonly deadline?: number | undefined;
  readonly responseHeaders: Headers;
}

/** The test service's handlers, recording into `seen`. */
export function greeterHandlers(seen: Seen) {
  return {
    sayHello(input: { name: string; times?: number }, context: Ctx) {
      seen.headers = context.headers;
      context.responseHeaders.set("x-served-by", "anvil");
      if (input.name === "nobody") throw new NoSuchName({ message: "no such name", name: input.name });
      return { message: `hello ${input.name}`.repeat(input.times ?? 1) };
    },
    echo(input: { data?: Uint8Array }) {
      return { size: input.data?.byteLength ?? 0, ...(input.data !== undefined && input.data.byteLength < 1024 ? { data: input.data } : {}) };
    },
    fail(): never {
      throw new Error("secret database password in a stack trace");
    },
    wait(_input: unknown, context: Ctx) {
      seen.deadline = context.deadline;
      return new Promise<Record<string, never>>((_resolve, reject) => {
        context.signal.addEventListener("abort", () => {
          seen.aborted.push(String((context.signal.reason as Error | undefined)?.message));
          reject(context.signal.reason);
        });
      });
    },
    countdown(input: { from?: number }) {
      const from = input.from ?? 3;
      async function* ticks(): AsyncGenerator<TickEvent> {
        // 1000 ticks one a second: a stream still going when the server shuts down.
        if (from === 1000) {
          for (let n = from; n > 0; n--) {
            yield { $case: "tick", value: { n } };
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }
        for (let n = Math.abs(from); n > 0; n--) yield { $case: "tick", value: { n } };
        // A negative start fails after its events, with a modeled error in the trailers; -99 with one the operation does not declare.
        if (from === -99) throw new Undeclared({ message: "secret detail" });
        if (from < 0) throw new NoSuchName({ message: "ran out", name: "countdown" });
      }
      return { ticks: ticks() };
    },
    async sum(input: { ticks?: EventStream<TickEvent> }) {
      let total = 0;
      for await (const event of input.ticks ?? []) if (event.$case === "tick") total += (event.value as { n: number }).n;
      return { total };
    },
    download(input: { count?: number }) {
      seen.produced = 0;
      async function* chunks(): AsyncGenerator<ChunkEvent> {
        for (let i = 0; i < (input.count ?? 0); i++) {
          seen.produced! += 1;
          yield { $case: "chunk", value: { data: new Uint8Array(16 * 1024).fill(i % 256) } };
        }
      }
      return { chunks: chunks() };
    },
    async upload(input: { chunks?: EventStream<ChunkEvent> }) {
      seen.consumed = 0;
      for await (const _chunk of input.chunks ?? []) {
        seen.consumed += 1;
        // A slow reader: the sender must wait for it.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { count: seen.consumed };
    },
    chat(input: { says?: EventStream<ChatEvent> }) {
      async function* replies(): AsyncGenerator<ChatEvent> {
        for await (const event of input.says ?? []) {
          if (event.$case === "say") yield { $case: "say", value: { text: `you said ${(event.value as { text: string }).text}` } };
        }
      }
      return { replies: replies() };
    },
  };
}
