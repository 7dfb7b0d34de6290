/**
 * restJson1 output event streams as Server-Sent Events over real sockets:
 * the typed client (fetch, and HTTP/2) reads every kind of event and the
 * modeled exception; an unmodeled failure reaches the caller as a generic
 * error event; an idle stream gets keep-alive comments at the server's
 * interval; a caller that goes away aborts the handler's signal; a caller
 * that stops reading stops the handler (pull-based, like the binary
 * framing), over the Node adapter and the fetch handler.
 */
import * as http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import { errorClass, type UnionValue, UnmodeledError } from "@anvil/core";
import { blob, integer, member, operation, service, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer, fetchHandler, type HandlerContext } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";

const Reading = struct("example.feed#Reading", [
  member("station", string, { eventHeader: true }),
  member("celsius", integer),
  member("at", timestamp),
  member("raw", blob),
]);
const Note = struct("example.feed#Note", [member("text", string, { eventPayload: true })]);
const Tick = struct("example.feed#Tick", []);
const Outage = struct("example.feed#Outage", [member("message", string), member("stations", integer)], { error: "server" });
const Feed = union("example.feed#Feed", [member("reading", Reading), member("note", Note), member("tick", Tick), member("outage", Outage)], {
  streaming: true,
});

const Follow = operation("example.feed#Follow", {
  input: struct<{ mode: string }>("example.feed#FollowInput", [member("mode", string, { required: true, httpLabel: true })]),
  output: struct<{ since?: string; feed: AsyncIterable<UnionValue> }>("example.feed#FollowOutput", [
    member("since", string, { httpHeader: "X-Since" }),
    member("feed", Feed, { httpPayload: true }),
  ]),
  traits: { http: { method: "GET", uri: "/feeds/{mode}", code: 200 } },
});
/** A POST with a JSON body answered with an event stream: what EventSource cannot call, and fetch can. */
const Search = operation("example.feed#Search", {
  input: struct<{ term: string; limit?: number }>("example.feed#SearchInput", [member("term", string, { required: true }), member("limit", integer)]),
  output: struct<{ hits: AsyncIterable<UnionValue> }>("example.feed#SearchOutput", [member("hits", Feed, { httpPayload: true })]),
  traits: { http: { method: "POST", uri: "/search", code: 200 } },
});
const Feeds = service("example.feed#Feeds", { operations: { follow: Follow, search: Search }, protocols: ["aws.protocols#restJson1"] });

const utf8 = new TextEncoder();
const EVENTS: UnionValue[] = [
  { $case: "reading", value: { station: "north", celsius: -3, at: new Date("2024-06-01T12:00:00Z"), raw: utf8.encode("AQID") } },
  { $case: "note", value: { text: "sleet\nthen snow" } },
  { $case: "tick", value: {} },
];
const BIG = "x".repeat(16 * 1024);

/** What the handlers did, per mode. */
const seen = {
  /** Events the endless handler produced. */
  produced: 0,
  /** The signals of the calls that waited for a release, and whether their streams ended. */
  waits: [] as { signal: AbortSignal; ended: boolean }[],
  release: undefined as (() => void) | undefined,
};
const internal: unknown[] = [];

function follow({ mode }: { mode: string }, context: HandlerContext): { since: string; feed: AsyncIterable<UnionValue> } {
  async function* feed(): AsyncGenerator<UnionValue> {
    switch (mode) {
      case "all":
        yield* EVENTS;
        throw new (errorClass(Outage))({ message: "stations down", stations: 3 });
      case "broken":
        yield EVENTS[2]!;
        throw new Error("the feed's database password is hunter2");
      case "quiet": {
        const wait = { signal: context.signal, ended: false };
        seen.waits.push(wait);
        try {
          yield EVENTS[2]!;
          // Nothing to say until released (or the caller goes away).
          await new Promise<void>((resolve) => {
            seen.release = resolve;
            context.signal.addEventListener("abort", () => resolve(), { once: true });
          });
          yield EVENTS[1]!;
        } finally {
          wait.ended = true;
        }
        return;
      }
      case "endless":
        for (;;) {
          seen.produced++;
          yield { $case: "note", value: { text: BIG } };
        }
    }
  }
  return { since: "2024-06-01", feed: feed() };
}

const server = () =>
  createServer(Feeds, { protocols: [restJson1()], sseKeepAliveMs: 25, onInternalError: (e) => internal.push(e) })
    .register("follow", follow as never)
    .register("search", async ({ term, limit = 2 }) => ({
      hits: (async function* () {
        for (let i = 1; i <= limit; i++) yield { $case: "note", value: { text: `${term} ${i}` } } as UnionValue;
      })(),
    }))
    .mapService();

let h1: NodeListener;
let h2: NodeListener;
let h1Server: ReturnType<typeof server>;
beforeAll(async () => {
  h1Server = server();
  h1 = await listen(h1Server);
  h2 = await listen(server(), { http2: true });
});
afterAll(async () => {
  await h1.close({ graceMs: 100 });
  await h2.close({ graceMs: 100 });
});

async function drain(feed: AsyncIterable<UnionValue>): Promise<{ events: UnionValue[]; error: unknown }> {
  const events: UnionValue[] = [];
  const error = await (async () => {
    for await (const e of feed) events.push(e);
  })().catch((e: unknown) => e);
  return { events, error };
}

/** A GET over a socket of its own, and a reader of its body's text that leaves the body open between reads. */
function get(path: string, accept: string): Promise<{ res: http.IncomingMessage; req: http.ClientRequest; body: TextReader }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${h1.url}${path}`, { headers: { accept }, agent: false }, (res) => resolve({ res, req, body: new TextReader(res) }));
    req.on("error", reject);
  });
}

class TextReader {
  readonly #chunks: AsyncIterator<Uint8Array>;
  readonly #decoder = new TextDecoder();
  text = "";
  constructor(res: http.IncomingMessage) {
    this.#chunks = (res as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  }
  /** Reads on until the text read so far holds `count` matches of `pattern` (or the body ends); returns all of it. */
  async until(pattern: RegExp, count: number): Promise<string> {
    while ((this.text.match(new RegExp(pattern, "g")) ?? []).length < count) {
      const next = await this.#chunks.next();
      if (next.done === true) break;
      this.text += this.#decoder.decode(next.value, { stream: true });
    }
    return this.text;
  }
}

describe("Server-Sent Events through the typed client", () => {
  const clients = {
    "HTTP/1.1 (fetch)": () => createClient(Feeds, { endpoint: h1.url, protocols: restJson1({ eventStreams: "sse" }), retry: { maxAttempts: 1 } }),
    "HTTP/2": () =>
      createClient(Feeds, { endpoint: h2.url, protocols: restJson1({ eventStreams: "sse" }), transport: http2Transport(), retry: { maxAttempts: 1 } }),
  };

  it.each(Object.keys(clients))("%s: every kind of event, typed, then the modeled exception", async (name) => {
    const client = clients[name as keyof typeof clients]();
    const output = await client.follow({ mode: "all" });
    expect(output.since).toBe("2024-06-01");
    const { events, error } = await drain(output.feed);
    expect(events).toEqual(EVENTS);
    expect(error).toBeInstanceOf(errorClass(Outage));
    expect(error).toMatchObject({ message: "stations down", stations: 3 });
  });

  it("an unmodeled failure: an UnmodeledError that says nothing, and the server's onInternalError hears it", async () => {
    const client = clients["HTTP/1.1 (fetch)"]();
    const { events, error } = await drain((await client.follow({ mode: "broken" })).feed);
    expect(events).toEqual([EVENTS[2]]);
    expect(error).toBeInstanceOf(UnmodeledError);
    expect(error).toMatchObject({ code: "InternalFailure", message: "Internal failure" });
    expect(JSON.stringify(error)).not.toContain("hunter2");
    await expect.poll(() => internal.some((e) => String(e).includes("hunter2"))).toBe(true);
  });

  it("a client that asks for the binary framing still gets it from the same server", async () => {
    const client = createClient(Feeds, { endpoint: h1.url, protocols: restJson1(), retry: { maxAttempts: 1 } });
    const { events } = await drain((await client.follow({ mode: "all" })).feed);
    expect(events).toEqual(EVENTS);
  });
});

describe("Server-Sent Events on the wire", () => {
  it("answers curl -N -H 'Accept: text/event-stream' with the SSE head and messages", async () => {
    const { res, body } = await get("/feeds/all", "text/event-stream");
    expect([res.statusCode, res.headers["content-type"], res.headers["cache-control"], res.headers["x-accel-buffering"], res.headers["x-since"]]).toEqual([
      200,
      "text/event-stream",
      "no-cache",
      "no",
      "2024-06-01",
    ]);
    const text = await body.until(/\n\n/, 99);
    expect(text).toBe(
      [
        'event: reading\nid: 1\ndata: {"station":"north","celsius":-3,"at":1717243200,"raw":"QVFJRA=="}\n\n',
        'event: note\nid: 2\ndata: {"text":"sleet\\nthen snow"}\n\n',
        "event: tick\nid: 3\ndata: {}\n\n",
        'event: Outage\nid: 4\ndata: {"message":"stations down","stations":3}\n\n',
      ].join(""),
    );
  });

  it("keeps an idle stream alive with comments at the server's interval, then sends the event", async () => {
    const { body } = await get("/feeds/quiet", "text/event-stream");
    const idle = await body.until(/: keep-alive\n\n/, 2);
    expect(idle.startsWith("event: tick\nid: 1\ndata: {}\n\n: keep-alive\n\n")).toBe(true);
    seen.release?.();
    const rest = await body.until(/event: note\n.*\n.*\n\n/, 1);
    expect(rest).toMatch(/event: note\nid: 2\ndata: \{"text":"sleet\\nthen snow"\}\n\n$/);
  });

  it("aborts the handler's signal and ends its stream when the caller goes away", async () => {
    const { req, body } = await get("/feeds/quiet", "text/event-stream");
    await body.until(/event: tick/, 1);
    const wait = seen.waits.at(-1)!;
    expect(wait.signal.aborted).toBe(false);
    req.destroy();
    await expect.poll(() => wait.signal.aborted).toBe(true);
    await expect.poll(() => wait.ended).toBe(true);
  });

  it("produces no more than the socket holds for a reader that stopped reading, and stops the handler when it goes", async () => {
    seen.produced = 0;
    const { res, req } = await get("/feeds/endless", "text/event-stream");
    res.pause();
    // Wait until the handler stops producing: the socket's buffers are full and nothing asks for more.
    let last = -1;
    await expect
      .poll(
        () => {
          const settled = seen.produced === last && last > 0;
          last = seen.produced;
          return settled;
        },
        { interval: 100, timeout: 10_000 },
      )
      .toBe(true);
    // 16 KiB events: what the kernel's socket buffers and the streams' high-water marks hold, nowhere near unbounded.
    expect(seen.produced * BIG.length).toBeLessThan(32 * 1024 * 1024);
    const stalledAt = seen.produced;
    req.destroy();
    await expect.poll(() => h1Server.inFlight).toBe(0);
    expect(seen.produced - stalledAt).toBeLessThanOrEqual(1);
  });

  it("answers a POST with a JSON body to fetch, read with a streamed body reader", async () => {
    const response = await fetch(`${h1.url}/search`, {
      method: "POST",
      headers: { accept: "text/event-stream", "content-type": "application/json" },
      body: JSON.stringify({ term: "sleet", limit: 3 }),
    });
    expect([response.status, response.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
    expect(text).toBe(["sleet 1", "sleet 2", "sleet 3"].map((t, i) => `event: note\nid: ${i + 1}\ndata: {"text":"${t}"}\n\n`).join(""));
  });

  it("through the fetch handler, a stalled reader leaves the handler at most one event ahead", async () => {
    seen.produced = 0;
    const response = await fetchHandler(server())(new Request("http://feeds.example/feeds/endless", { headers: { accept: "text/event-stream" } }));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value).startsWith("event: note\nid: 1\n")).toBe(true);
    // However long the reader waits, the handler is asked for nothing more until it reads.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(seen.produced).toBeLessThanOrEqual(2);
    await reader.cancel();
    expect(seen.produced).toBeLessThanOrEqual(2);
  });
});
