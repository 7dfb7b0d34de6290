import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AnvilError, errorClass, SerializationError, type UnionValue, UnmodeledError } from "@anvil/core";
import { compileEventStream } from "./events.js";
import { splitFrames } from "./frames.js";
import { decodeEventMessage, encodeEventMessage } from "./message.js";
import { initialMessage, openEventStream, readEventStream, writeEventStream } from "./stream.js";
import { counted, Overheated, plainJson, Telemetry } from "./test-fixtures.js";

const serde = compileEventStream(Telemetry, plainJson);
const utf8 = new TextEncoder();
const events: UnionValue[] = [
  { $case: "note", value: { text: "one" } },
  { $case: "reading", value: { count: 2 } },
  { $case: "chunk", value: { data: utf8.encode("three") } },
];

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}

async function bytesOf(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  return Uint8Array.from((await collect(source)).flatMap((c) => [...c]));
}

describe("event streams", () => {
  it("read back the events they write, from async and sync iterables", async () => {
    expect(await collect(readEventStream(writeEventStream(counted(events).iterable, serde), serde))).toEqual(events);
    expect(await collect(readEventStream(await bytesOf(writeEventStream(events, serde)), serde))).toEqual(events);
  });

  it("open the envelopes of a stream an AWS SDK signed, ending at the empty signed message", async () => {
    // As @aws-sdk/eventstream-handler-node signs: each message the payload of one with `:date` and `:chunk-signature`.
    const signed = (body: Uint8Array) =>
      encodeEventMessage({
        headers: { ":date": { type: "timestamp", value: new Date(0) }, ":chunk-signature": { type: "binary", value: new Uint8Array(32).fill(7) } },
        body,
      });
    const frames = [...events.map((e) => signed(encodeEventMessage(serde.encode(e)))), signed(new Uint8Array(0))];
    expect(await collect(readEventStream(counted(frames).iterable, serde))).toEqual(events);
    const opened = await openEventStream(
      counted([signed(encodeEventMessage(initialMessage("initial-request", utf8.encode("{}"), "application/json"))), ...frames]).iterable,
      serde,
      "initial-request",
    );
    expect(opened.initial?.headers[":event-type"]).toEqual({ type: "string", value: "initial-request" });
    expect(await collect(opened.events)).toEqual(events);
    // A message of its own that happens to carry a `:chunk-signature` header is not an envelope.
    const own = encodeEventMessage({
      ...serde.encode(events[0]!),
      headers: { ...serde.encode(events[0]!).headers, ":chunk-signature": { type: "binary", value: new Uint8Array(1) } },
    });
    expect(await collect(readEventStream(counted([own]).iterable, serde))).toEqual([events[0]]);
    // An envelope around bytes that are no message is a SerializationError.
    await expect(collect(readEventStream(counted([signed(utf8.encode("not a message"))]).iterable, serde))).rejects.toThrow(SerializationError);
  });

  it("H7: write one frame per event, pulling the source only as frames are read", async () => {
    const source = counted(events);
    const frames = writeEventStream(source.iterable, serde);
    expect(source.pulled()).toBe(0);
    await frames.next();
    expect(source.pulled()).toBe(1);
    await frames.next();
    expect(source.pulled()).toBe(2);
  });

  it("read the body only as events are asked for, and cancel it when the reader stops", async () => {
    const frames = events.map((e) => encodeEventMessage(serde.encode(e)));
    const body = counted(frames);
    const reader = readEventStream(body.iterable, serde);
    await reader.next();
    expect(body.pulled()).toBe(1);
    await reader.return();
    expect(body.returned()).toBe(true);
  });

  it("let the source clean up when the transport stops reading", async () => {
    const source = counted(events);
    for await (const _ of writeEventStream(source.iterable, serde)) break;
    expect(source.returned()).toBe(true);
  });

  it("end with the exception of a modeled error the source throws, which the reader throws", async () => {
    const Overheat = errorClass(Overheated);
    async function* failing(): AsyncGenerator<UnionValue> {
      yield events[0]!;
      throw new Overheat({ message: "hot", celsius: 99 });
    }
    const bytes = await bytesOf(writeEventStream(failing(), serde));
    const read: UnionValue[] = [];
    const error = await (async () => {
      for await (const e of readEventStream(bytes, serde)) read.push(e);
    })().catch((e: unknown) => e);
    expect(read).toEqual([events[0]]);
    expect(Overheat.is(error)).toBe(true);
    expect(error).toMatchObject({ message: "hot", celsius: 99 });
  });

  it("end with an error message, saying nothing, when the source fails otherwise", async () => {
    // biome-ignore lint/correctness/useYield: a source that fails before its first event
    async function* failing(): AsyncGenerator<UnionValue> {
      throw new TypeError("secret detail");
    }
    const error = await collect(readEventStream(await bytesOf(writeEventStream(failing(), serde)), serde)).catch((e: unknown) => e);
    expect(UnmodeledError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: "InternalFailure", message: "Internal failure" });
  });

  it("end with a SerializationException, not an internal failure, when the source fails on bytes that do not decode (the caller's own malformed stream)", async () => {
    async function* echoing(): AsyncGenerator<UnionValue> {
      yield events[0]!;
      // What a handler echoing the caller's input stream meets when a frame of it is corrupt.
      for await (const e of readEventStream(Uint8Array.of(0, 0, 0, 9, 1, 2, 3, 4, 5), serde)) yield e;
    }
    const internal: unknown[] = [];
    const read: UnionValue[] = [];
    const error = await (async () => {
      for await (const e of readEventStream(await bytesOf(writeEventStream(echoing(), serde, undefined, (e) => internal.push(e))), serde)) read.push(e);
    })().catch((e: unknown) => e);
    expect(read).toEqual([events[0]]);
    expect(UnmodeledError.is(error) && error.code).toBe("SerializationException");
    expect((error as Error).message).toMatch(/decode event stream/);
    expect(internal).toEqual([]);
  });

  it("reject a corrupt frame with a SerializationError after the good ones", async () => {
    const bytes = await bytesOf(writeEventStream(events, serde));
    bytes[bytes.length - 1] ^= 0xff;
    const got: UnionValue[] = [];
    const error = await (async () => {
      for await (const e of readEventStream(bytes, serde)) got.push(e);
    })().catch((e: unknown) => e);
    expect(got).toEqual(events.slice(0, 2));
    expect(error).toBeInstanceOf(SerializationError);
  });

  it("never crash on random bytes: events or a typed error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 48 }), { maxLength: 6 }), async (chunks) => {
        await expectTypedOutcome(readEventStream(counted(chunks).iterable, serde));
      }),
    );
  });

  it("never crash on well-framed random messages: events or a typed error", async () => {
    const header = fc.oneof(
      fc.constantFrom(":message-type", ":event-type", ":exception-type", ":error-code", "flag", "count", "big", "tag", "at", "text", "data"),
      fc.string({ maxLength: 8 }),
    );
    const value = fc.oneof(
      fc
        .constantFrom("event", "exception", "error", "reading", "chunk", "note", "located", "loose", "overheated")
        .map((v) => ({ type: "string" as const, value: v })),
      fc.boolean().map((v) => ({ type: "boolean" as const, value: v })),
      fc.integer({ min: -128, max: 127 }).map((v) => ({ type: "byte" as const, value: v })),
      fc.integer().map((v) => ({ type: "integer" as const, value: v })),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((v) => ({ type: "long" as const, value: v })),
      fc.uint8Array({ maxLength: 8 }).map((v) => ({ type: "binary" as const, value: v })),
      fc.integer({ min: -1e12, max: 1e12 }).map((v) => ({ type: "timestamp" as const, value: new Date(v) })),
    );
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 16 }),
      fc.json().map((j) => utf8.encode(j)),
    );
    const kind = fc.constantFrom(["event", ":event-type"], ["exception", ":exception-type"], ["error", ":error-code"]);
    const variant = fc.constantFrom("reading", "chunk", "note", "located", "loose", "overheated", "other");
    const message = fc.tuple(kind, variant, fc.dictionary(header, value, { maxKeys: 4 }), body).map(([[type, name], v, extra, b]) => ({
      headers: { ":message-type": { type: "string" as const, value: type }, [name]: { type: "string" as const, value: v }, ...extra },
      body: b,
    }));
    await fc.assert(
      fc.asyncProperty(fc.array(message, { maxLength: 4 }), async (messages) => {
        const frames = messages.map((m) => encodeEventMessage(m));
        await expectTypedOutcome(readEventStream(counted(frames).iterable, serde));
      }),
    );
  });

  describe("initial messages (RPC protocols)", () => {
    const initial = initialMessage("initial-response", utf8.encode('{"id":"x"}'), "application/json");

    it("write the initial message first", async () => {
      const frames = await collect(splitFrames(await bytesOf(writeEventStream(events, serde, initial))));
      expect(decodeEventMessage(frames[0]!)).toEqual(initial);
      expect(frames).toHaveLength(4);
    });

    it("open a stream with its initial message, then its events", async () => {
      const opened = await openEventStream(writeEventStream(events, serde, initial), serde, "initial-response");
      expect(opened.initial).toEqual(initial);
      expect(await collect(opened.events)).toEqual(events);
    });

    it("open a stream without one: the first message is the first event", async () => {
      const opened = await openEventStream(writeEventStream(events, serde), serde, "initial-response");
      expect(opened.initial).toBeUndefined();
      expect(await collect(opened.events)).toEqual(events);
    });

    it("open an empty stream", async () => {
      const opened = await openEventStream(undefined, serde, "initial-request");
      expect(opened.initial).toBeUndefined();
      expect(await collect(opened.events)).toEqual([]);
    });
  });
});

async function expectTypedOutcome(events: AsyncIterable<UnionValue>): Promise<void> {
  try {
    for await (const _ of events);
  } catch (error) {
    expect(AnvilError.isAnvilError(error), String(error)).toBe(true);
  }
}
