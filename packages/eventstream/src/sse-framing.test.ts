import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SerializationError } from "@anvil/core";
import { formatServerSentComment, formatServerSentEvent, readServerSentEvents, type ServerSentEvent } from "./sse-framing.js";

const utf8 = new TextEncoder();

async function parse(input: string | Uint8Array | readonly (string | Uint8Array)[], maxMessageLength?: number): Promise<ServerSentEvent[]> {
  const chunks = (typeof input === "string" || input instanceof Uint8Array ? [input] : input).map((c) => (typeof c === "string" ? utf8.encode(c) : c));
  async function* body(): AsyncGenerator<Uint8Array> {
    yield* chunks;
  }
  const out: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(body(), maxMessageLength === undefined ? {} : { maxMessageLength })) out.push(event);
  return out;
}

const message = (data: string, type = "message", lastEventId = ""): ServerSentEvent => ({ type, data, lastEventId });

describe("Server-Sent Events parser (the WHATWG grammar)", () => {
  it.each([
    ["LF", "data: a\n\n"],
    ["CRLF", "data: a\r\n\r\n"],
    ["CR", "data: a\r\r"],
    ["mixed", "data: a\r\n\n"],
  ])("ends lines with %s", async (_, text) => {
    expect(await parse(text)).toEqual([message("a")]);
  });

  it("joins data lines with LF, takes the event type and dispatches on a blank line", async () => {
    expect(await parse("event: alert\ndata: one\ndata:two\ndata\n\ndata: next\n\n")).toEqual([message("one\ntwo\n", "alert"), message("next")]);
  });

  it("removes one space after the colon, and only one", async () => {
    expect(await parse("data:  two spaces\ndata:none\n\n")).toEqual([message(" two spaces\nnone")]);
  });

  it("ignores comments, unknown fields and field names that differ in case", async () => {
    expect(await parse(": hello\n:\nfoo: bar\nData: no\nEVENT: no\ndata: yes\n\n")).toEqual([message("yes")]);
  });

  it("reads a field without a colon as one with an empty value", async () => {
    expect(await parse("data\ndata\n\nevent\ndata: x\n\n")).toEqual([message("\n"), message("x")]);
  });

  it("dispatches nothing for a message without data, and forgets its type", async () => {
    expect(await parse("event: lonely\n\ndata: x\n\n")).toEqual([message("x")]);
  });

  it("keeps the last id from message to message, refuses one with NUL, and an empty id resets it", async () => {
    const events = await parse("id: 1\ndata: a\n\ndata: b\n\nid: 2\0\ndata: c\n\nid\ndata: d\n\n");
    expect(events.map((e) => [e.data, e.lastEventId])).toEqual([
      ["a", "1"],
      ["b", "1"],
      ["c", "1"],
      ["d", ""],
    ]);
  });

  it("takes retry only when it is all digits", async () => {
    const events = await parse("retry: 10x\ndata: a\n\nretry: 2500\ndata: b\n\n");
    expect([events[0]!.retry, events[1]!.retry]).toEqual([undefined, 2500]);
  });

  it("removes a byte order mark at the start of the stream only", async () => {
    expect(await parse(["\uFEFFdata: a\n\n", "\uFEFFdata: b\n\n"])).toEqual([message("a")]);
    expect(await parse([Uint8Array.of(0xef, 0xbb), Uint8Array.of(0xbf, 0x64), utf8.encode("ata: a\n\n")])).toEqual([message("a")]);
  });

  it("drops a message the end of the stream cuts off", async () => {
    expect(await parse("data: a\n\ndata: cut")).toEqual([message("a")]);
    expect(await parse("data: a\n\ndata: cut\n")).toEqual([message("a")]);
  });

  it("reads a CR at the end of a chunk and a LF at the start of the next as one line end", async () => {
    expect(await parse(["data: a\r", "\ndata: b\r", "\n\r", "\n"])).toEqual([message("a\nb")]);
  });

  it("decodes UTF-8 split across chunks, and invalid UTF-8 as U+FFFD", async () => {
    const bytes = utf8.encode("data: Reykjavík ⛈\n\n");
    expect(await parse([...bytes].map((b) => Uint8Array.of(b)))).toEqual([message("Reykjavík ⛈")]);
    expect(await parse(Uint8Array.of(...utf8.encode("data: "), 0xff, 0x0a, 0x0a))).toEqual([message("\uFFFD")]);
  });

  it("reads a whole body as well as a stream", async () => {
    const out: ServerSentEvent[] = [];
    for await (const e of readServerSentEvents("data: whole\n\n")) out.push(e);
    expect(out).toEqual([message("whole")]);
  });

  it("refuses a message or a line longer than the limit, with a SerializationError", async () => {
    await expect(parse(`data: ${"x".repeat(100)}\n\n`, 50)).rejects.toThrow(SerializationError);
    await expect(parse(["data: a\n", ...Array.from({ length: 20 }, () => "data: 0123456789\n")], 100)).rejects.toThrow(SerializationError);
    await expect(parse([":", ..."x".repeat(200)], 100)).rejects.toThrow(SerializationError);
    // A long comment, once its line ended, holds nothing.
    expect(await parse([`: ${"x".repeat(40)}\n`, `: ${"x".repeat(40)}\n`, "data: a\n\n"], 50)).toEqual([message("a")]);
  });

  it("gives the same messages however the bytes are cut", async () => {
    const text = "\uFEFFevent: a\r\ndata: 1\r\ndata: 2\r\rid: 7\ndata: ü\n\n: c\ndata\r\n\r\n";
    const whole = await parse(text);
    expect(whole).toEqual([message("1\n2", "a"), message("ü", "message", "7"), message("", "message", "7")]);
    const bytes = utf8.encode(text);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 8 }), async (cuts) => {
        const at = [0, ...cuts.sort((a, b) => a - b), bytes.length];
        const chunks = at.slice(1).map((end, i) => bytes.subarray(at[i], end));
        expect(await parse(chunks)).toEqual(whole);
      }),
    );
  });

  it("never fails on random bytes but with a SerializationError", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        await parse(bytes, 64).catch((error: unknown) => expect(error).toBeInstanceOf(SerializationError));
      }),
    );
  });
});

describe("Server-Sent Events writer", () => {
  it("writes event, id and data lines and the blank line that dispatches them", () => {
    expect(formatServerSentEvent({ type: "alert", id: "3", data: '{"level":3}' })).toBe('event: alert\nid: 3\ndata: {"level":3}\n\n');
    expect(formatServerSentEvent({ data: "plain" })).toBe("data: plain\n\n");
  });

  it("splits data on every kind of line end, as several data lines", () => {
    expect(formatServerSentEvent({ data: "a\nb\r\nc\rd" })).toBe("data: a\ndata: b\ndata: c\ndata: d\n\n");
  });

  it("refuses a type or id that a line end would corrupt", () => {
    expect(() => formatServerSentEvent({ type: "a\nb", data: "" })).toThrow(SerializationError);
    expect(() => formatServerSentEvent({ id: "1\r", data: "" })).toThrow(SerializationError);
    expect(() => formatServerSentEvent({ id: "1\0", data: "" })).toThrow(SerializationError);
  });

  it("writes comments", () => {
    expect([formatServerSentComment(), formatServerSentComment("keep-alive")]).toEqual([":\n\n", ": keep-alive\n\n"]);
  });

  it("round-trips any data, type and id through the parser", async () => {
    const noBreak = fc.string().filter((s) => !/[\r\n\0]/.test(s));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ type: noBreak.filter((s) => s !== ""), id: noBreak, data: fc.string() }), { maxLength: 5 }), async (messages) => {
        const text = messages.map((m) => formatServerSentEvent(m)).join("");
        const parsed = await parse(text);
        expect(parsed.map((e) => [e.type, e.lastEventId, e.data])).toEqual(messages.map((m) => [m.type, m.id, m.data.replace(/\r\n|\r/g, "\n")]));
      }),
    );
  });
});
