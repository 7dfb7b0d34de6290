import { describe, expect, it } from "vitest";
import { errorClass, type Schema, SerializationError, type UnionValue, UnmodeledError } from "@anvil/core";
import { member, string, struct, union } from "@anvil/core/codegenv1";
import { compileServerSentEvents, type EventTextCodec, readServerSentEventStream, writeServerSentEvents } from "./sse-events.js";
import { readServerSentEvents, type ServerSentEvent } from "./sse-framing.js";
import { counted, Overheated, Telemetry } from "./test-fixtures.js";

/** Plain JSON text of a structure's own members: enough to test the mapping, which does not depend on the codec. */
const plainText: EventTextCodec = Object.freeze({
  reader: (_schema: Schema) => (text: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (cause) {
      throw new SerializationError("decode json: not JSON", { cause });
    }
  },
  writer: (schema: Schema) => (value: unknown) => {
    if (schema.kind !== "structure") return JSON.stringify(value);
    const own: Record<string, unknown> = {};
    for (const m of schema.members) own[m.name] = (value as Record<string, unknown>)[m.name];
    return JSON.stringify(own);
  },
});

const serde = compileServerSentEvents(Telemetry, plainText);
const text = new TextDecoder();

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}

async function textOf(source: AsyncIterable<Uint8Array>): Promise<string> {
  return (await collect(source)).map((c) => text.decode(c)).join("");
}

const events: UnionValue[] = [
  { $case: "loose", value: { source: "north", note: "one", n: 1 } },
  { $case: "note", value: { text: "two\nlines" } },
  { $case: "located", value: { source: "south", point: { x: 1, y: 2 } } },
];

describe("event streams as Server-Sent Events", () => {
  it("write one message per event: the member name, every member in one JSON object, a sequence number", async () => {
    expect(await textOf(writeServerSentEvents(events, serde))).toBe(
      [
        'event: loose\nid: 1\ndata: {"source":"north","note":"one","n":1}\n\n',
        'event: note\nid: 2\ndata: {"text":"two\\nlines"}\n\n',
        'event: located\nid: 3\ndata: {"source":"south","point":{"x":1,"y":2}}\n\n',
      ].join(""),
    );
  });

  it("read back the events they write", async () => {
    expect(await collect(readServerSentEventStream(writeServerSentEvents(counted(events).iterable, serde), serde))).toEqual(events);
  });

  it("end with the modeled exception the source throws, named by its error shape, and read it back as that error", async () => {
    async function* failing(): AsyncGenerator<UnionValue> {
      yield events[0]!;
      throw new (errorClass(Overheated))({ message: "too hot", celsius: 90 });
    }
    const written = await textOf(writeServerSentEvents(failing(), serde));
    expect(written).toContain('event: Overheated\nid: 2\ndata: {"message":"too hot","celsius":90}\n\n');
    const read: UnionValue[] = [];
    const error = await (async () => {
      for await (const e of readServerSentEventStream(written, serde)) read.push(e);
    })().catch((e: unknown) => e);
    expect(read).toEqual([events[0]]);
    expect(error).toBeInstanceOf(errorClass(Overheated));
    expect(error).toMatchObject({ message: "too hot", celsius: 90 });
  });

  it("write an error variant yielded as an event as its exception, also read by its member name", async () => {
    const written = await textOf(writeServerSentEvents([{ $case: "overheated", value: { message: "hot", celsius: 70 } }], serde));
    expect(written).toBe('event: Overheated\nid: 1\ndata: {"message":"hot","celsius":70}\n\n');
    await expect(collect(readServerSentEventStream('event: overheated\ndata: {"message":"hot"}\n\n', serde))).rejects.toBeInstanceOf(errorClass(Overheated));
  });

  it("end an unmodeled failure with an error message that says nothing of it, and hand it to onInternalError", async () => {
    const heard: unknown[] = [];
    async function* failing(): AsyncGenerator<UnionValue> {
      yield events[0]!;
      throw new Error("secret: the disk is on fire");
    }
    const written = await textOf(writeServerSentEvents(failing(), serde, { onInternalError: (e) => heard.push(e) }));
    expect(written.endsWith('event: error\nid: 2\ndata: {"code":"InternalFailure","message":"Internal failure"}\n\n')).toBe(true);
    expect(written).not.toContain("fire");
    expect(heard).toEqual([new Error("secret: the disk is on fire")]);
    const error = await collect(readServerSentEventStream(written, serde)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnmodeledError);
    expect(error).toMatchObject({ code: "InternalFailure", message: "Internal failure" });
  });

  it("read an error message that is not JSON as an UnmodeledError, an unnamed event as $unknown, bad data as a SerializationError", async () => {
    await expect(collect(readServerSentEventStream("event: error\ndata: overloaded\n\n", serde))).rejects.toMatchObject({
      code: "UnknownError",
      message: "overloaded",
    });
    expect(await collect(readServerSentEventStream("event: gust\ndata: {}\n\ndata: hi\n\n", serde))).toEqual([
      { $case: "$unknown", name: "gust", value: { type: "gust", data: "{}", lastEventId: "" } },
      { $case: "$unknown", name: "message", value: { type: "message", data: "hi", lastEventId: "" } },
    ]);
    await expect(collect(readServerSentEventStream("event: loose\ndata: {not json\n\n", serde))).rejects.toBeInstanceOf(SerializationError);
  });

  it("name the failure message stream-error for a union with an event named error, and read each as itself", async () => {
    const Failed = struct("ex#Failed", [member("reason", string)]);
    const Progress = struct("ex#Progress", [member("percent", string)]);
    const Job = union("ex#JobEvents", [member("progress", Progress), member("error", Failed)], { streaming: true });
    const jobs = compileServerSentEvents(Job, plainText);
    async function* failing(): AsyncGenerator<UnionValue> {
      yield { $case: "error", value: { reason: "one file skipped" } };
      throw new UnmodeledError("Throttled", "slow down");
    }
    const written = await textOf(writeServerSentEvents(failing(), jobs));
    expect(written).toBe(
      'event: error\nid: 1\ndata: {"reason":"one file skipped"}\n\nevent: stream-error\nid: 2\ndata: {"code":"Throttled","message":"slow down"}\n\n',
    );
    const read: unknown[] = [];
    const error = await (async () => {
      for await (const event of readServerSentEventStream(written, jobs)) read.push(event);
    })().catch((e: unknown) => e);
    expect(read).toEqual([{ $case: "error", value: { reason: "one file skipped" } }]);
    expect(error).toBeInstanceOf(UnmodeledError);
    expect(error).toMatchObject({ code: "Throttled", message: "slow down" });
  });

  it("refuse an event the union does not name", async () => {
    await expect(collect(writeServerSentEvents([{ $case: "nope", value: {} } as UnionValue], serde))).rejects.toBeInstanceOf(SerializationError);
  });

  it("ask the source for an event only when the previous message was taken", async () => {
    const source = counted(events);
    const stream = writeServerSentEvents(source.iterable, serde, { keepAliveMs: 60_000 });
    expect(source.pulled()).toBe(0);
    await stream.next();
    expect(source.pulled()).toBe(1);
    await stream.next();
    expect(source.pulled()).toBe(2);
    await stream.return();
    expect(source.returned()).toBe(true);
  });

  it("send a comment while the source is idle, then its event; no timer outlives the stream", async () => {
    let release: () => void = () => {};
    async function* slow(): AsyncGenerator<UnionValue> {
      await new Promise<void>((resolve) => (release = resolve));
      yield events[0]!;
    }
    const timersBefore = activeTimers();
    const stream = writeServerSentEvents(slow(), serde, { keepAliveMs: 5 });
    const chunks: string[] = [];
    for (let i = 0; i < 3; i++) chunks.push(text.decode((await stream.next()).value as Uint8Array));
    expect(chunks).toEqual([": keep-alive\n\n", ": keep-alive\n\n", ": keep-alive\n\n"]);
    release();
    // The source's event comes next (a comment may have gone out just before it did).
    let next = text.decode((await stream.next()).value as Uint8Array);
    while (next.startsWith(":")) next = text.decode((await stream.next()).value as Uint8Array);
    expect(next).toMatch(/^event: loose\nid: 1\n/);
    expect((await stream.next()).done).toBe(true);
    // No more timers than before the stream (another test's may have ended meanwhile; none of ours is left).
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
  });

  it("end at once when the signal aborts, while the source has nothing to say, and stop the source once it answers", async () => {
    let release: () => void = () => {};
    let stopped = false;
    async function* stuck(): AsyncGenerator<UnionValue> {
      try {
        await new Promise<void>((resolve) => (release = resolve));
        yield events[0]!;
        yield events[1]!;
      } finally {
        stopped = true;
      }
    }
    const timersBefore = activeTimers();
    const controller = new AbortController();
    const stream = writeServerSentEvents(stuck(), serde, { keepAliveMs: 60_000, signal: controller.signal });
    const first = stream.next();
    controller.abort();
    expect(await first).toEqual({ done: true, value: undefined });
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
    release();
    await expect.poll(() => stopped).toBe(true);
  });

  it("hand the read side every message the framing dispatches, ids included", async () => {
    const messages: ServerSentEvent[] = await collect(readServerSentEvents(writeServerSentEvents(events, serde)));
    expect(messages.map((m) => [m.type, m.lastEventId])).toEqual([
      ["loose", "1"],
      ["note", "2"],
      ["located", "3"],
    ]);
  });
});

/** How many timers the process holds. */
function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
}
