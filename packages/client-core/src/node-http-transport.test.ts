/**
 * What `nodeHttpTransport` adds to the transport contract
 * (`transport-contract.test.ts`): its pool (bounded, kept alive, idle
 * sockets closed before the server closes them, complete bodies giving
 * their socket back unread), its connect timeout, its `close()`, and that
 * it is the default on Node.
 */
import { getEventListeners, once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";
import { collectBytes, type HttpResponse, TransportError } from "@anvil/core";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "./client.js";
import { resolveConfig } from "./config.js";
import { defaultTransport } from "./default-transport-node.js";
import { nodeHttpTransport } from "./node-http-transport.js";
import { CONNECT_TIMEOUT } from "./retry.js";
import { testJson, Things } from "./test-fixtures.js";
import type { Transport, TransportRequest } from "./transport.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Listening {
  readonly url: string;
  readonly server: Server;
  /** The server side of every connection accepted, in order. */
  readonly sockets: Socket[];
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listening> {
  const server = createServer(handler);
  const sockets: Socket[] = [];
  server.on("connection", (socket: Socket) => sockets.push(socket));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, sockets };
}

function transport(options: Parameters<typeof nodeHttpTransport>[0] = {}): Transport & { close(): Promise<void> } {
  const t = nodeHttpTransport(options);
  closers.push(() => t.close());
  return t;
}

function get(url: string, init: Partial<TransportRequest> = {}): TransportRequest {
  return { method: "GET", url: new URL(url), headers: new Headers(), body: undefined, ...init };
}

async function text(response: HttpResponse): Promise<string> {
  return response.body === undefined ? "" : new TextDecoder().decode(await collectBytes(response.body));
}

/** Whether the client closed a server-side socket (its FIN came in) rather than the server. */
function closedByClient(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    let ended = false;
    socket.once("end", () => (ended = true));
    socket.once("close", () => resolve(ended));
  });
}

describe("nodeHttpTransport", () => {
  it("opens at most maxSockets connections to an origin; calls beyond wait for one", async () => {
    const { url, sockets } = await listen((req, res) => res.end(req.url));
    const t = transport({ maxSockets: 2 });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => t.send(get(`${url}/${i}`)).then(text)));
    expect(answers).toEqual(Array.from({ length: 8 }, (_, i) => `/${i}`));
    expect(sockets).toHaveLength(2);
  });

  it("fails a call waiting for a socket of a full pool as soon as it is aborted, and sends it never", async () => {
    const seen: string[] = [];
    let release!: () => void;
    const { url } = await listen((req, res) => {
      seen.push(req.url!);
      if (req.url === "/held") release = () => res.end("held");
      else res.end(req.url);
    });
    const t = transport({ maxSockets: 1 });
    const held = t.send(get(`${url}/held`));
    await expect.poll(() => seen).toEqual(["/held"]);
    const controller = new AbortController();
    const waiting = t.send(get(`${url}/waiting`, { signal: controller.signal }));
    const reason = new Error("no longer wanted");
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    release();
    expect(await text(await held)).toBe("held");
    expect(await text(await t.send(get(`${url}/next`)))).toBe("/next");
    expect(seen).toEqual(["/held", "/next"]);
  });

  it("gives the socket of a body that has arrived whole back to the pool, read or not", async () => {
    const { url, sockets } = await listen((req, res) => res.end(`body of ${req.url}`));
    const t = transport({ maxSockets: 1 });
    const unread = await t.send(get(`${url}/unread`));
    // With one socket, this call could not go out if the unread body held it.
    expect(await text(await t.send(get(`${url}/next`)))).toBe("body of /next");
    expect(await text(unread)).toBe("body of /unread");
    expect(sockets).toHaveLength(1);
  });

  it("keeps the socket when a reader stops early on a body that has arrived whole, and closes it when the body is still coming", async () => {
    let finishStreaming!: () => void;
    const { url, sockets } = await listen((req, res) => {
      res.write(`start of ${req.url};`);
      if (req.url === "/streaming") finishStreaming = () => res.end("end");
      else res.end("end");
    });
    const t = transport();
    const whole = await t.send(get(`${url}/whole`));
    for await (const _ of whole.body as AsyncIterable<Uint8Array>) break;
    expect(await text(await t.send(get(`${url}/after-whole`)))).toBe("start of /after-whole;end");
    expect(sockets).toHaveLength(1);
    const streaming = await t.send(get(`${url}/streaming`));
    for await (const _ of streaming.body as AsyncIterable<Uint8Array>) break;
    expect(await closedByClient(sockets[0]!)).toBe(true);
    finishStreaming();
  });

  it("ends a read left waiting when the reader stops, and closes the socket of the body still coming", async () => {
    const { url, sockets } = await listen((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write("first;");
    });
    const response = await transport().send(get(url));
    const body = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    expect(new TextDecoder().decode((await body.next()).value)).toBe("first;");
    const waiting = body.next();
    await body.return!();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(await body.next()).toEqual({ done: true, value: undefined });
    await expect.poll(() => sockets[0]!.destroyed).toBe(true);
  });

  it("closes an idle socket after idleSocketTimeoutMs, and one a Keep-Alive hint says the server closes sooner a second before that", async () => {
    const { url, server, sockets } = await listen((_req, res) => res.end("ok"));
    server.keepAliveTimeout = 60_000; // no hint below the client's own timeout
    const t = transport({ idleSocketTimeoutMs: 100 });
    await text(await t.send(get(url)));
    const start = performance.now();
    expect(await closedByClient(sockets[0]!)).toBe(true);
    expect(performance.now() - start).toBeLessThan(5_000);

    const hinting = await listen((_req, res) => res.end("ok"));
    hinting.server.keepAliveTimeout = 2_000; // `Keep-Alive: timeout=2`: the client closes after 1 s, the server would after 2 s
    const t2 = transport({ idleSocketTimeoutMs: 60_000 });
    const response = await t2.send(get(hinting.url));
    expect(response.headers.get("keep-alive")).toBe("timeout=2");
    await text(response);
    expect(await closedByClient(hinting.sockets[0]!)).toBe(true);
  });

  it("does not cut an answer that takes longer than idleSocketTimeoutMs", async () => {
    const { url, sockets } = await listen((req, res) => {
      if (req.url === "/slow") setTimeout(() => res.end("slow"), 300);
      else res.end("fast");
    });
    const t = transport({ idleSocketTimeoutMs: 50 });
    expect(await text(await t.send(get(`${url}/fast`)))).toBe("fast");
    expect(await text(await t.send(get(`${url}/slow`)))).toBe("slow");
    expect(sockets.length).toBeGreaterThanOrEqual(1);
  });

  it("close() closes idle sockets at once and busy ones as their calls end, then resolves; the transport connects again after it", async () => {
    let held: ServerResponse | undefined;
    const { url, sockets } = await listen((req, res) => {
      if (req.url === "/held") held = res;
      else res.end("ok");
    });
    const t = transport();
    await Promise.all([t.send(get(url)).then(text), t.send(get(url)).then(text)]);
    expect(sockets).toHaveLength(2);
    const busy = t.send(get(`${url}/held`));
    await expect.poll(() => held !== undefined).toBe(true);
    const idle = sockets.find((s) => s !== held!.socket)!;
    let closed = false;
    const closing = t.close().then(() => (closed = true));
    expect(await closedByClient(idle)).toBe(true);
    expect(closed).toBe(false);
    held!.end("held");
    expect(await text(await busy)).toBe("held");
    await closing;
    await expect.poll(() => sockets.every((s) => s.closed)).toBe(true);
    expect(await text(await t.send(get(url)))).toBe("ok");
    expect(sockets).toHaveLength(3);
  });

  it("fails a connection that takes longer than connectTimeoutMs with ConnectTimeout, an unsent error the client sends again", async () => {
    // Accepts connections and never answers a TLS handshake.
    const silent = createTcpServer((socket) => socket.on("error", () => {}));
    const accepted: Socket[] = [];
    silent.on("connection", (socket) => accepted.push(socket));
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    closers.push(async () => {
      for (const s of accepted) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const endpoint = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const t = transport({ connectTimeoutMs: 50 });
    const error = await t.send(get(endpoint)).catch((e: unknown) => e);
    expect(TransportError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: CONNECT_TIMEOUT });
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport: t, retry: { baseDelayMs: 1 } });
    expect(await client.createThing({ id: "a" }).catch((e: unknown) => e)).toMatchObject({ code: CONNECT_TIMEOUT, $metadata: { attempts: 3 } });
  });

  it("leaves no listener on a signal once the exchange is over (a long-lived signal does not collect them)", async () => {
    const { url } = await listen((req, res) => {
      if (req.url === "/no-content") res.writeHead(204).end();
      else res.end("body");
    });
    const t = transport();
    const signal = new AbortController().signal;
    for (const path of ["/a", "/no-content", "/b"]) await text(await t.send(get(`${url}${path}`, { signal })));
    const failed = await t.send(get(url.replace(/:\d+$/, ":1"), { signal })).catch((e: unknown) => e);
    expect(TransportError.is(failed)).toBe(true);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("sends to an IPv6 literal address", async (context) => {
    const server = createServer((_req, res) => res.end("v6"));
    const listening = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(0, "::1", () => resolve(true));
    });
    if (!listening) return context.skip("no IPv6 loopback here");
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const t = transport();
    expect(await text(await t.send(get(`http://[::1]:${(server.address() as AddressInfo).port}/`)))).toBe("v6");
  });

  it.each([
    [{ maxSockets: 0 }, "maxSockets must be a positive integer, got 0"],
    [{ maxSockets: 1.5 }, "maxSockets must be a positive integer, got 1.5"],
    [{ idleSocketTimeoutMs: 0 }, "idleSocketTimeoutMs must be between 1 and 2147483647, got 0"],
    [{ connectTimeoutMs: Number.NaN }, "connectTimeoutMs must be positive (Infinity for none), got NaN"],
  ])("refuses settings that cannot work: %o", (options, message) => {
    expect(() => nodeHttpTransport(options)).toThrow(new RangeError(`nodeHttpTransport: ${message}`));
  });
});

describe("the default transport on Node", () => {
  it("is one nodeHttpTransport shared by every client made without a transport", () => {
    const config = { endpoint: "http://127.0.0.1:1", protocols: [testJson()] };
    const shared = defaultTransport();
    expect(resolveConfig(Things, config).transport).toBe(shared);
    expect(resolveConfig(Things, { ...config, endpoint: "http://127.0.0.1:2" }).transport).toBe(shared);
    expect(shared.httpVersion).toBe("1.1");
  });

  it("holds at most 50 connections to an origin: call 51 goes out on one of them once it is free", async () => {
    const held: ServerResponse[] = [];
    const { url, sockets } = await listen((req, res) => {
      if (req.url === "/GetThing") held.push(res);
      else res.end("{}");
    });
    const client = createClient(Things, { endpoint: url, protocols: [testJson()] });
    const calls = Array.from({ length: 51 }, (_, i) => client.getThing({ id: String(i) }));
    await expect.poll(() => held.length).toBe(50);
    for (const res of held.splice(0)) res.end('{"id":"done"}');
    await expect.poll(() => held.length).toBe(1);
    held[0]!.end('{"id":"done"}');
    expect((await Promise.all(calls)).every((out) => out.id === "done")).toBe(true);
    expect(sockets).toHaveLength(50);
  });
});
