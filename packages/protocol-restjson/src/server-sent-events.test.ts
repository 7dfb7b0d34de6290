import { describe, expect, it } from "vitest";
import { errorClass, type HttpResponse, type UnionValue, UnmodeledError } from "@anvil/core";
import { blob, integer, member, operation, service, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { restJson1, simpleRestJson } from "./index.js";
import { prefersServerSentEvents } from "./event-stream.js";

// Our own fixture: a city's weather, as a stream of every kind of event.
const Reading = struct("example.sse#Reading", [
  member("station", string, { eventHeader: true }),
  member("celsius", integer),
  member("at", timestamp),
  member("raw", blob, { jsonName: "raw_bytes" }),
]);
const Photo = struct("example.sse#Photo", [member("caption", string, { eventHeader: true }), member("bytes", blob, { eventPayload: true })]);
const Note = struct("example.sse#Note", [member("text", string, { eventPayload: true })]);
const Point = struct("example.sse#Point", [member("x", integer), member("y", integer)]);
const Located = struct("example.sse#Located", [member("point", Point, { eventPayload: true })]);
const Empty = struct("example.sse#Empty", []);
const Storm = struct("example.sse#StormWarning", [member("message", string), member("level", integer)], { error: "server" });
const Updates = union(
  "example.sse#Updates",
  [member("reading", Reading), member("photo", Photo), member("note", Note), member("located", Located), member("tick", Empty), member("storm", Storm)],
  { streaming: true },
);

const Watch = operation("example.sse#Watch", {
  input: struct("example.sse#WatchInput", [member("cityId", string, { required: true, httpLabel: true })]),
  output: struct("example.sse#WatchOutput", [
    member("session", string, { httpHeader: "X-Session", required: true }),
    member("updates", Updates, { httpPayload: true }),
  ]),
  traits: { http: { method: "GET", uri: "/cities/{cityId}/watch", code: 200 } },
});
const Watcher = service("example.sse#Watcher", { operations: { watch: Watch }, protocols: ["aws.protocols#restJson1"] });

const utf8 = new TextEncoder();
const events: UnionValue[] = [
  { $case: "reading", value: { station: "north", celsius: 12, at: new Date(1_700_000_000_000), raw: utf8.encode("hi") } },
  { $case: "photo", value: { caption: "skyline", bytes: utf8.encode("JPEG") } },
  { $case: "note", value: { text: "two\nlines" } },
  { $case: "located", value: { point: { x: 1, y: 2 } } },
  { $case: "tick", value: {} },
];

const request = (accept?: string) => ({
  method: "GET",
  path: "/cities/paris/watch",
  query: [],
  headers: new Headers(accept === undefined ? {} : { accept }),
  body: undefined,
});
const contextOf = (accept?: string, extra: object = {}) => ({ service: Watcher, labels: { cityId: "paris" }, request: request(accept), ...extra });
const clientContext = { endpoint: new URL("https://weather.example.com"), service: Watcher };

async function textOf(body: HttpResponse["body"]): Promise<string> {
  let out = "";
  const decoder = new TextDecoder();
  for await (const chunk of body as AsyncIterable<Uint8Array>) out += decoder.decode(chunk, { stream: true });
  return out;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

describe("Accept negotiation of an output event stream's framing", () => {
  it.each([
    [undefined, false],
    ["*/*", false],
    ["application/json", false],
    ["application/vnd.amazon.eventstream", false],
    ["text/event-stream", true],
    ["Text/Event-Stream; charset=utf-8", true],
    ["text/event-stream, */*", true],
    ["text/*", true],
    ["text/event-stream, application/vnd.amazon.eventstream", false],
    ["text/event-stream;q=0.5, application/vnd.amazon.eventstream", false],
    ["text/event-stream, application/vnd.amazon.eventstream;q=0.9", true],
    ["text/event-stream;q=0, */*", false],
    ["text/*;q=0.2, application/*;q=0.1", true],
    ["text/event-stream;q=2", false],
    ["text/event-stream;q=0.8, text/*;q=1, */*;q=0.9", false],
    ["text/html, text/event-stream;q=0.9, */*;q=0.8", true],
  ])("Accept %s prefers Server-Sent Events: %s", (accept, expected) => {
    expect(prefersServerSentEvents(accept)).toBe(expected);
  });
});

describe("restJson1 output event streams as Server-Sent Events", () => {
  const { server } = restJson1();

  it("answer text/event-stream to a caller that asks for it: initial members in the head, one message per event", async () => {
    const response = await server.serializeResponse(Watch, { session: "s-1", updates: events }, contextOf("text/event-stream"));
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers as unknown as Iterable<[string, string]>)).toEqual({
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
      vary: "accept",
      "x-session": "s-1",
    });
    expect(await textOf(response.body)).toBe(
      [
        // Every member in one JSON object: the event header too; blobs base64, timestamps epoch seconds, @jsonName honoured.
        'event: reading\nid: 1\ndata: {"station":"north","celsius":12,"at":1700000000,"raw_bytes":"aGk="}\n\n',
        'event: photo\nid: 2\ndata: {"caption":"skyline","bytes":"SlBFRw=="}\n\n',
        'event: note\nid: 3\ndata: {"text":"two\\nlines"}\n\n',
        'event: located\nid: 4\ndata: {"point":{"x":1,"y":2}}\n\n',
        "event: tick\nid: 5\ndata: {}\n\n",
      ].join(""),
    );
  });

  it("keep the binary framing without Accept, for */* and when the binary framing is as welcome", async () => {
    for (const accept of [undefined, "*/*", "application/json", "text/event-stream, application/vnd.amazon.eventstream"]) {
      const response = await server.serializeResponse(Watch, { session: "s", updates: [] }, contextOf(accept));
      expect(response.headers.get("content-type"), accept).toBe("application/vnd.amazon.eventstream");
      expect(response.headers.has("cache-control")).toBe(false);
    }
  });

  it("end with a modeled exception named by its shape, or an unmodeled failure that says nothing", async () => {
    async function* stormy(): AsyncGenerator<UnionValue> {
      yield events[4]!;
      throw new (errorClass(Storm))({ message: "take shelter", level: 4 });
    }
    const modeled = await server.serializeResponse(Watch, { session: "s", updates: stormy() }, contextOf("text/event-stream"));
    expect(await textOf(modeled.body)).toBe('event: tick\nid: 1\ndata: {}\n\nevent: StormWarning\nid: 2\ndata: {"message":"take shelter","level":4}\n\n');

    const reported: unknown[] = [];
    const broken = (): AsyncIterable<UnionValue> => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error("the sensor database is gone")) }),
    });
    const failed = await server.serializeResponse(
      Watch,
      { session: "s", updates: broken() },
      contextOf("text/event-stream", { reportInternalError: (e: unknown) => reported.push(e) }),
    );
    expect(await textOf(failed.body)).toBe('event: error\nid: 1\ndata: {"code":"InternalFailure","message":"Internal failure"}\n\n');
    expect(reported).toEqual([new Error("the sensor database is gone")]);
  });

  it("send keep-alive comments at the server's interval while the handler has nothing", async () => {
    let release: () => void = () => {};
    async function* quiet(): AsyncGenerator<UnionValue> {
      await new Promise<void>((resolve) => (release = resolve));
      yield events[4]!;
    }
    const response = await server.serializeResponse(Watch, { session: "s", updates: quiet() }, contextOf("text/event-stream", { sseKeepAliveMs: 5 }));
    const body = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    expect(new TextDecoder().decode((await body.next()).value)).toBe(": keep-alive\n\n");
    release();
    await body.return?.();
  });

  it("leave simpleRestJson, which defines no event streams over Server-Sent Events, on the binary framing", async () => {
    const response = await simpleRestJson().server.serializeResponse(Watch, { session: "s", updates: [] }, contextOf("text/event-stream"));
    expect(response.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
  });
});

describe("restJson1 clients reading Server-Sent Events", () => {
  it("ask for them with eventStreams: 'sse', and only for output event streams", async () => {
    const sse = restJson1({ eventStreams: "sse" }).client;
    expect((await sse.serializeRequest(Watch, { cityId: "paris" }, clientContext)).headers.get("accept")).toBe("text/event-stream");
    expect((await restJson1().client.serializeRequest(Watch, { cityId: "paris" }, clientContext)).headers.get("accept")).toBe("application/json");
    expect(() => restJson1({ eventStreams: "ws" as "sse" })).toThrow(TypeError);
  });

  it("read every kind of event back as typed values, then the modeled exception", async () => {
    const { server } = restJson1();
    async function* stormy(): AsyncGenerator<UnionValue> {
      yield* events;
      throw new (errorClass(Storm))({ message: "take shelter", level: 4 });
    }
    // Whichever framing it asked for, a client reads what the answer's Content-Type says.
    for (const client of [restJson1({ eventStreams: "sse" }).client, restJson1().client]) {
      const response = await server.serializeResponse(Watch, { session: "s-9", updates: stormy() }, contextOf("text/event-stream"));
      const output = (await client.deserializeResponse(Watch, response, clientContext)) as { session: string; updates: AsyncIterable<UnionValue> };
      expect(output.session).toBe("s-9");
      const received: UnionValue[] = [];
      const error = await (async () => {
        for await (const e of output.updates) received.push(e);
      })().catch((e: unknown) => e);
      expect(received).toEqual(events);
      expect(error).toBeInstanceOf(errorClass(Storm));
      expect(error).toMatchObject({ message: "take shelter", level: 4 });
    }
  });

  it("read an unmodeled failure as an UnmodeledError", async () => {
    const { client } = restJson1({ eventStreams: "sse" });
    const response: HttpResponse = {
      status: 200,
      headers: new Headers({ "content-type": "text/event-stream", "x-session": "s" }),
      body: utf8.encode('event: note\ndata: {"text":"a"}\n\nevent: error\ndata: {"code":"InternalFailure","message":"Internal failure"}\n\n'),
    };
    const output = (await client.deserializeResponse(Watch, response, clientContext)) as { updates: AsyncIterable<UnionValue> };
    await expect(collect(output.updates)).rejects.toBeInstanceOf(UnmodeledError);
  });
});
