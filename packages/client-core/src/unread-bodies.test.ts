/**
 * L5: a streamed output that its caller never reads cannot hold a pooled
 * connection for good, over HTTP/1.1 (node:http and fetch, each with a pool
 * of a fixed size) and HTTP/2 (a server allowing a fixed number of concurrent streams): the
 * client releases it after `unreadBodyTimeoutMs`, or at once when the
 * caller disposes of it.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createH2Server, type Http2Server, type ServerHttp2Stream } from "node:http2";
import type { AddressInfo } from "node:net";
import { collectBytes, TransportError } from "@anvil/core";
import { blob, member, operation, service, struct } from "@anvil/core/codegenv1";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "./client.js";
import type { ClientConfig } from "./config.js";
import { fetchTransport } from "./fetch-transport.js";
import { nodeHttpTransport } from "./node-http-transport.js";
import { http2Transport } from "./node-http2.js";
import { UNREAD_BODY_TIMEOUT } from "./retry.js";
import { testJson, Things } from "./test-fixtures.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A call whose input streams as well as its output: its output may wait for its input, so the timer leaves it alone. */
const Duplex = service("test#Duplex", {
  version: "1",
  protocols: ["test#json"],
  operations: {
    exchange: operation("test#Exchange", {
      input: () => struct<{ data: AsyncIterable<Uint8Array> }>("test#ExchangeInput", [member("data", blob, { required: true, streaming: true })]),
      output: () => struct<{ data: AsyncIterable<Uint8Array> }>("test#ExchangeOutput", [member("data", blob, { required: true, streaming: true })]),
    }),
  },
});

/** Bodies the servers keep open, by the call's `id` (or `exchange` for Duplex calls): the test ends them. */
interface OpenBodies {
  /** Resolves with the body of the call with this id once its head is sent. */
  body(id: string): Promise<{ end(): void }>;
  /** Resolves once the body of the call with this id is cut by the client (its connection or stream closed). */
  cut(id: string): Promise<void>;
  /** The most connections (HTTP/1.1) or streams (HTTP/2) the server had open at once. */
  readonly most: () => number;
}

/**
 * What both servers do: `Download` answers `first;` and leaves the body
 * open, `GetThing` echoes its id at once.
 */
function openBodies() {
  const bodies = new Map<string, { head: Deferred<{ end(): void }>; cut: Deferred<void> }>();
  const entry = (id: string) => {
    let e = bodies.get(id);
    if (e === undefined) {
      e = { head: deferred(), cut: deferred() };
      bodies.set(id, e);
    }
    return e;
  };
  return {
    opened: (id: string, end: () => void) => entry(id).head.resolve({ end }),
    closed: (id: string) => entry(id).cut.resolve(),
    body: (id: string) => entry(id).head.promise,
    cut: (id: string) => entry(id).cut.promise,
  };
}

interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

async function* oneChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

async function readJson(req: AsyncIterable<unknown>): Promise<{ id?: string }> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text.startsWith("{") ? (JSON.parse(text) as { id?: string }) : { id: "exchange" };
}

/** An HTTP/1.1 server; `most` counts connections. */
async function http1Server(): Promise<{ endpoint: string } & OpenBodies> {
  const bodies = openBodies();
  let open = 0;
  let most = 0;
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const { id = "?" } = await readJson(req);
    if (req.url === "/GetThing") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id }));
      return;
    }
    res.writeHead(200, { "content-type": "application/octet-stream" });
    res.write("first;");
    let ended = false;
    res.on("close", () => {
      if (!ended) bodies.closed(id);
    });
    bodies.opened(id, () => {
      ended = true;
      res.end("last");
    });
  });
  server.on("connection", (socket) => {
    most = Math.max(most, ++open);
    socket.on("close", () => open--);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  closers.push(async () => void server.closeAllConnections());
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, body: bodies.body, cut: bodies.cut, most: () => most };
}

/** An h2c server allowing `maxConcurrentStreams` streams per session; `most` counts streams. */
async function http2Server(maxConcurrentStreams: number): Promise<{ endpoint: string } & OpenBodies> {
  const bodies = openBodies();
  let open = 0;
  let most = 0;
  const server: Http2Server = createH2Server({ settings: { maxConcurrentStreams } });
  server.on("stream", async (stream: ServerHttp2Stream, headers) => {
    most = Math.max(most, ++open);
    stream.on("close", () => open--);
    stream.on("error", () => {}); // the client's cancel
    const { id = "?" } = await readJson(stream);
    if (headers[":path"] === "/GetThing") {
      stream.respond({ ":status": 200, "content-type": "application/json" });
      stream.end(JSON.stringify({ id }));
      return;
    }
    stream.respond({ ":status": 200, "content-type": "application/octet-stream" });
    stream.write("first;");
    let ended = false;
    stream.on("close", () => {
      if (!ended) bodies.closed(id);
    });
    bodies.opened(id, () => {
      ended = true;
      stream.end("last");
    });
  });
  const sessions = new Set<import("node:http2").ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closers.push(async () => {
    for (const s of sessions) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, body: bodies.body, cut: bodies.cut, most: () => most };
}

/**
 * A `fetch` over a pool of `connections` sockets: an `Agent` of the undici
 * that Node's `fetch` is made of (the class of its global dispatcher; the
 * `undici` package is not a dependency), passed as the `dispatcher` option.
 */
async function pooledFetch(connections: number): Promise<typeof fetch> {
  await fetch("data:,"); // makes the global dispatcher
  const global = (globalThis as Record<symbol, unknown>)[Symbol.for("undici.globalDispatcher.1")] as { constructor: new (options: object) => object };
  const dispatcher = new global.constructor({ connections }) as { close(): Promise<void> };
  closers.push(() => dispatcher.close().catch(() => {}));
  return (input, init) => fetch(input, { ...init, dispatcher } as RequestInit);
}

/** The transports, each with room for `slots` bodies at once. */
const transports = [
  {
    name: "HTTP/1.1 (node:http, a pool of N sockets)",
    server: () => http1Server(),
    transport: async (slots: number) => {
      const transport = nodeHttpTransport({ maxSockets: slots });
      closers.push(() => transport.close());
      return transport;
    },
  },
  {
    name: "HTTP/1.1 (fetch, a pool of N sockets)",
    server: () => http1Server(),
    transport: async (slots: number) => fetchTransport({ fetch: await pooledFetch(slots) }),
  },
  {
    name: "HTTP/2 (a server allowing N concurrent streams)",
    server: () => http2Server(10),
    transport: async () => {
      const transport = http2Transport();
      closers.push(() => transport.close());
      return transport;
    },
  },
] as const;

describe.each(transports)("L5: streamed bodies cannot leak pooled connections, $name", ({ server, transport }) => {
  async function setup(config: Partial<ClientConfig> = {}) {
    const s = await server();
    const client = createClient(Things, {
      endpoint: s.endpoint,
      protocols: [testJson()],
      transport: await transport(10),
      retry: { maxAttempts: 1 },
      ...config,
    });
    // Over HTTP/2, the server's SETTINGS (its stream limit) come with its first answer: streams sent before are refused.
    await client.getThing({ id: "warm-up" });
    return { ...s, client };
  }

  it("L5: with room for 10 bodies, 100 calls that never read theirs: call 101 completes once the unread bodies are released", async () => {
    const { client, most } = await setup({ unreadBodyTimeoutMs: 100 });
    const outputs = await Promise.all(Array.from({ length: 100 }, (_, i) => client.download({ id: `d${i}` })));
    expect((await client.getThing({ id: "101" })).id).toBe("101");
    expect(most()).toBeLessThanOrEqual(10);
    // A body read after its release fails, and says why.
    const error = await collectBytes(outputs[0]!.data).catch((e: unknown) => e);
    expect(TransportError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: UNREAD_BODY_TIMEOUT });
    expect((error as Error).message).toBe(
      "Download: the streamed output was released, unread after 100 ms (unreadBodyTimeoutMs); read it as soon as the call returns",
    );
  });

  it("L5: a body disposed of (await using, Symbol.asyncDispose, or its iterator returned) releases its connection at once", async () => {
    const { client, cut } = await setup({ unreadBodyTimeoutMs: Number.POSITIVE_INFINITY });
    {
      await using _body = (await client.download({ id: "using" })).data as AsyncIterable<Uint8Array> & AsyncDisposable;
    }
    await cut("using");
    const disposed = await client.download({ id: "dispose" });
    await (disposed.data as AsyncIterable<Uint8Array> & AsyncDisposable)[Symbol.asyncDispose]();
    await cut("dispose");
    const returned = await client.download({ id: "return" });
    await returned.data[Symbol.asyncIterator]().return!();
    await cut("return");
    // Nothing more to read from a body released on purpose.
    expect(await collectBytes(returned.data)).toEqual(new Uint8Array(0));
  });

  it("L5: a body being read is not released, however long it takes; nor is the output of a call whose input streams", async () => {
    const { client, body, cut, endpoint } = await setup({ unreadBodyTimeoutMs: 50 });
    const reading = await client.download({ id: "reading" });
    const iterator = reading.data[Symbol.asyncIterator]();
    expect(new TextDecoder().decode((await iterator.next()).value)).toBe("first;");
    const duplex = createClient(Duplex, { endpoint, protocols: [testJson()], transport: await transport(10), unreadBodyTimeoutMs: 50 });
    const exchanged = await duplex.exchange({ data: oneChunk(new TextEncoder().encode("in")) });
    // A body left unread is released once its 50 ms are over: the others' would have been too by then.
    const unread = await client.download({ id: "unread" });
    await cut("unread");
    (await body("reading")).end();
    expect(new TextDecoder().decode((await iterator.next()).value)).toBe("last");
    expect((await iterator.next()).done).toBe(true);
    (await body("exchange")).end();
    expect(new TextDecoder().decode(await collectBytes(exchanged.data))).toBe("first;last");
    expect(await collectBytes(unread.data).catch((e: unknown) => e)).toMatchObject({ code: UNREAD_BODY_TIMEOUT });
  });
});
