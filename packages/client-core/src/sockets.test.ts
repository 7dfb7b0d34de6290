/**
 * The client over real sockets, against small servers built here: both
 * HTTP/1.1 transports (node:http, the default on Node, and fetch) with
 * restJson1 and with the test protocol, streaming both ways, connection
 * failures, and the HTTP/2 transport with reconnects.
 */
import { once } from "node:events";
import { createSecureServer } from "node:http2";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type ClientHttp2Stream, connect, createServer as createH2Server, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { collectBytes, TransportError } from "@anvil/core";
import { errorClass, member, operation, service, string, struct } from "@anvil/core/codegenv1";
import { restJson1 } from "@anvil/protocol-restjson";
import { hasOpenssl, selfSignedCertificate } from "@anvil/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "./client.js";
import { fetchTransport } from "./fetch-transport.js";
import { createHttp2Transport } from "./http2-transport.js";
import { nodeHttpTransport } from "./node-http-transport.js";
import { http2Transport } from "./node-http2.js";
import type { Transport } from "./transport.js";
import { testJson, Things } from "./test-fixtures.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  servers.length = 0;
});

/** The servers `listen` made, the newest last. */
const servers: Server[] = [];

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server: Server = createServer(handler);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  closers.push(async () => void server.closeAllConnections()); // runs first: closers run last in, first out
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on. */
async function closedPort(): Promise<string> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const NoSuchCitySchema = struct<{ message?: string; cityId?: string }>("test.cities#NoSuchCity", [member("message", string), member("cityId", string)], {
  error: "client",
  httpError: 404,
});
const NoSuchCity = errorClass(NoSuchCitySchema);
const City = struct<{ cityId: string; name?: string }>("test.cities#City", [member("cityId", string, { required: true }), member("name", string)]);
const GetCityInput = struct<{ cityId: string; units?: string }>("test.cities#GetCityInput", [
  member("cityId", string, { required: true, httpLabel: true }),
  member("units", string, { httpQuery: "units" }),
]);
const Cities = service("test.cities#Cities", {
  version: "1",
  protocols: ["aws.protocols#restJson1"],
  operations: {
    getCity: operation("test.cities#GetCity", {
      input: () => GetCityInput,
      output: () => City,
      errors: [() => NoSuchCitySchema],
      traits: { readonly: true, http: { method: "GET", uri: "/cities/{cityId}", code: 200 } },
    }),
  },
});

/** The HTTP/1.1 transports, and how each reports a connection the server closed under a call it sent. */
const HTTP1_TRANSPORTS: readonly { name: string; make: () => Transport; resetCode: string }[] = [
  { name: "node:http (the default on Node)", make: () => nodeHttpTransport(), resetCode: "ECONNRESET" },
  { name: "fetch", make: () => fetchTransport(), resetCode: "UND_ERR_SOCKET" },
];

describe.each(HTTP1_TRANSPORTS)("HTTP/1.1 transport: $name", ({ make, resetCode }) => {
  /** A transport of this kind, closed after the test. */
  const http1 = (): Transport => {
    const transport = make();
    closers.push(async () => transport.close?.());
    return transport;
  };

  it("calls a restJson1 service: labels, query, base path, output, request id, modeled errors", async () => {
    const seen: string[] = [];
    const endpoint = await listen((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url!.startsWith("/api/cities/paris")) {
        res.writeHead(200, { "content-type": "application/json", "x-amzn-requestid": "rid-1" });
        res.end(JSON.stringify({ cityId: "paris", name: "Paris" }));
      } else {
        res.writeHead(404, { "content-type": "application/json", "x-amzn-errortype": "NoSuchCity", "x-amzn-requestid": "rid-2" });
        res.end(JSON.stringify({ message: "no such city", cityId: "atlantis" }));
      }
    });
    const client = createClient(Cities, { endpoint: `${endpoint}/api`, protocols: [restJson1()], transport: http1() });
    const city = await client.getCity({ cityId: "paris", units: "metric & more" });
    expect(city).toEqual({ cityId: "paris", name: "Paris" });
    expect(city.$metadata).toEqual({ httpStatus: 200, httpStatusCode: 200, requestId: "rid-1", attempts: 1, totalRetryDelay: 0 });
    const error = await client.getCity({ cityId: "atlantis" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoSuchCity);
    expect(error).toMatchObject({ message: "no such city", cityId: "atlantis", $metadata: { httpStatus: 404, requestId: "rid-2", attempts: 1 } });
    expect(seen).toEqual(["GET /api/cities/paris?units=metric%20%26%20more", "GET /api/cities/atlantis"]);
  });

  it("retries a 503 from a real server", async () => {
    let calls = 0;
    const endpoint = await listen((_req, res) => {
      calls++;
      res.writeHead(calls === 1 ? 503 : 200, { "content-type": "application/json" });
      res.end(calls === 1 ? "" : JSON.stringify({ id: "a" }));
    });
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport: http1(), retry: { baseDelayMs: 1 } });
    expect((await client.getThing({ id: "a" })).$metadata.attempts).toBe(2);
  });

  it("streams a request body: the server reads the first chunk before the second is made", async () => {
    let firstArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    let transferEncoding: string | undefined;
    const endpoint = await listen(async (req, res) => {
      transferEncoding = req.headers["transfer-encoding"];
      let total = 0;
      for await (const chunk of req) {
        total += (chunk as Buffer).byteLength;
        firstArrived();
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: String(total) }));
    });
    async function* body() {
      yield new Uint8Array(1000);
      await arrived; // would deadlock if the client buffered the body
      yield new Uint8Array(24);
    }
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport: http1() });
    expect(await client.upload({ data: body() })).toEqual({ id: "1024" });
    expect(transferEncoding).toBe("chunked");
  });

  it("streams a response body: the output arrives before the body ends", async () => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const endpoint = await listen(async (_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write("first;");
      await finished;
      res.end("last");
    });
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport: http1() });
    const out = await client.download({ id: "a" });
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of out.data) {
      text += decoder.decode(chunk);
      finish();
    }
    expect(text).toBe("first;last");
  });

  it("retries a refused connection of a non-idempotent call, then reports it", async () => {
    const client = createClient(Things, { endpoint: await closedPort(), protocols: [testJson()], transport: http1(), retry: { baseDelayMs: 1 } });
    const error = await client.createThing({ id: "a" }).catch((e: unknown) => e);
    expect(TransportError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: "ECONNREFUSED", $metadata: { attempts: 3 } });
  });

  /**
   * A server that closes a connection idle for `keepAliveTimeout` (100 ms)
   * without saying so (no `Keep-Alive: timeout=` hint, which both
   * transports heed), and calls `whenIdleClosed` as it closes one: a call made then
   * goes out on a socket the server has closed, before the client could
   * see it close.
   */
  async function keepAliveServer(whenIdleClosed: () => void) {
    let connections = 0;
    const endpoint = await listen(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      res.writeHead(200, { "content-type": "application/json", connection: "keep-alive" }); // an explicit Connection header: no hint
      res.end(JSON.stringify({ id: (JSON.parse(body || "{}") as { id?: string }).id }));
    });
    const server = servers.at(-1)!;
    server.keepAliveTimeout = 100;
    server.on("connection", (socket) => {
      connections++;
      // Node's own timeout listener, registered first, has just closed the idle socket.
      socket.on("timeout", whenIdleClosed);
    });
    return { endpoint, connections: () => connections };
  }

  it("L4: a keep-alive race (the server closes the idle socket as the next call goes out) is retried once for an idempotent call", async () => {
    let next!: () => void;
    const { endpoint, connections } = await keepAliveServer(() => next());
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport: http1(), retry: { baseDelayMs: 1 } });
    expect((await client.getThing({ id: "first" })).id).toBe("first");
    const out = await new Promise<Awaited<ReturnType<typeof client.getThing>>>((resolve, reject) => {
      next = () => void client.getThing({ id: "after idle" }).then(resolve, reject);
    });
    expect(out).toMatchObject({ id: "after idle", $metadata: { attempts: 2 } });
    expect(connections()).toBe(2);
  });

  it("L4: a non-idempotent call sent on a socket the server closed is not sent again (the server may have acted on it)", async () => {
    let next!: () => void;
    const { endpoint } = await keepAliveServer(() => next());
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport: http1(), retry: { baseDelayMs: 1 } });
    expect((await client.createThing({ id: "first" })).id).toBe("first");
    const error = await new Promise<unknown>((resolve) => {
      next = () => void client.createThing({ id: "after idle" }).then(resolve, resolve);
    });
    expect(TransportError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: resetCode, $metadata: { attempts: 1 } });
  });

  it("times out against a server that never answers", async () => {
    const endpoint = await listen(() => {});
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport: http1() });
    const error = await client.getThing({ id: "a" }, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "RequestTimeout", $metadata: { attempts: 1 } });
  });
});

describe("HTTP/2 transport", () => {
  async function listenH2(onSession?: (session: ServerHttp2Session) => void) {
    const server: Http2Server = createH2Server();
    const sessions: ServerHttp2Session[] = [];
    server.on("session", (session) => {
      sessions.push(session);
      onSession?.(session);
    });
    server.on("stream", async (stream, headers) => {
      let body = "";
      try {
        for await (const chunk of stream) body += chunk;
      } catch {
        return; // the client went away
      }
      let input: { id?: string };
      try {
        input = body === "" ? {} : (JSON.parse(body) as { id?: string });
      } catch {
        return; // a body cut short by an aborted call
      }
      stream.respond({ ":status": 200, "content-type": "application/json", "x-amzn-requestid": `h2-${sessions.length}` });
      stream.end(JSON.stringify({ id: input.id ?? "?", name: String(headers[":path"]) }));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    closers.push(async () => {
      for (const s of sessions) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    });
    return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sessions };
  }

  it("is what a client whose protocol needs HTTP/2 makes for itself, given no transport (its code loaded by the first call)", async () => {
    const { endpoint, sessions } = await listenH2();
    const client = createClient(Things, { endpoint, protocols: [{ ...testJson(), requiresHttp2: true }] });
    const outs = await Promise.all([client.getThing({ id: "a" }), client.getThing({ id: "b" })]);
    expect(outs.map((o) => o.id)).toEqual(["a", "b"]);
    expect((await client.getThing({ id: "c" })).id).toBe("c");
    expect(sessions).toHaveLength(1);
  });

  it("shares one session per origin across calls", async () => {
    const { endpoint, sessions } = await listenH2();
    const transport = http2Transport();
    closers.push(() => transport.close());
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport });
    const outs = await Promise.all([client.getThing({ id: "a" }), client.getThing({ id: "b" }), client.putThing({ id: "c" })]);
    expect(outs.map((o) => o.id)).toEqual(["a", "b", "c"]);
    expect(outs[2]).toMatchObject({ name: "/PutThing", $metadata: { requestId: "h2-1", httpStatus: 200 } });
    expect(sessions).toHaveLength(1);
  });

  it("reconnects after GOAWAY and after the connection closes, without uncaught errors", async () => {
    const { endpoint, sessions } = await listenH2();
    const transport = http2Transport();
    closers.push(() => transport.close());
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport });
    await client.getThing({ id: "a" });
    sessions[0]!.goaway();
    await new Promise((r) => setTimeout(r, 20));
    expect((await client.getThing({ id: "b" })).id).toBe("b");
    expect(sessions).toHaveLength(2);
    sessions[1]!.destroy();
    await new Promise((r) => setTimeout(r, 20));
    expect((await client.getThing({ id: "c" })).id).toBe("c");
    expect(sessions).toHaveLength(3);
  });

  it("leaves no listener of its own on a stream once it has closed (Node keeps closed streams until a full collection)", async () => {
    const { endpoint } = await listenH2();
    const streams: ClientHttp2Stream[] = [];
    const transport = createHttp2Transport(((origin: string) => {
      const session = connect(origin);
      const request = session.request.bind(session);
      session.request = (...args: Parameters<typeof request>) => {
        const stream = request(...args);
        streams.push(stream);
        return stream;
      };
      return session;
    }) as typeof connect);
    closers.push(() => transport.close());
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport });
    expect((await client.getThing({ id: "a" })).id).toBe("a");
    expect((await client.putThing({ id: "b" })).id).toBe("b");
    await expect.poll(() => streams.length === 2 && streams.every((s) => s.closed)).toBe(true);
    // Node's own listeners are its symbol-named methods.
    const events = ["close", "error", "response", "trailers", "data", "end", "wantTrailers"];
    expect(events.flatMap((event) => streams.flatMap((s) => s.listeners(event))).filter((l) => !l.name.startsWith("["))).toEqual([]);
  });

  it("moves to a new session when GOAWAY races a call", async () => {
    const { endpoint, sessions } = await listenH2();
    const transport = http2Transport();
    closers.push(() => transport.close());
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport });
    await client.getThing({ id: "a" });
    for (let i = 0; i < 5; i++) {
      sessions.at(-1)!.goaway();
      expect((await client.getThing({ id: `r${i}` })).id).toBe(`r${i}`);
    }
    expect(sessions.length).toBeGreaterThan(1);
  });

  it("sends a stream the server refused again, even for a call that is not idempotent (a burst above the stream limit before its SETTINGS came)", async () => {
    const server: Http2Server = createH2Server({ settings: { maxConcurrentStreams: 2 } });
    server.on("stream", async (stream) => {
      let body = "";
      for await (const chunk of stream) body += chunk;
      stream.respond({ ":status": 200, "content-type": "application/json" });
      stream.end(body);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const transport = http2Transport();
    closers.push(() => transport.close());
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport, retry: { baseDelayMs: 1 } });
    const outs = await Promise.all(Array.from({ length: 6 }, (_, i) => client.createThing({ id: `c${i}` })));
    expect(outs.map((o) => o.id)).toEqual(["c0", "c1", "c2", "c3", "c4", "c5"]);
    expect(Math.max(...outs.map((o) => o.$metadata.attempts))).toBe(2);
  });

  it("sends request trailers", async () => {
    const server: Http2Server = createH2Server();
    server.on("stream", (stream) => {
      stream.resume();
      stream.on("trailers", (trailers) => {
        stream.respond({ ":status": 200, "content-type": "application/json" });
        stream.end(JSON.stringify({ id: String(trailers["x-checksum"]) }));
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const transport = http2Transport();
    closers.push(() => transport.close());
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
    for (const body of [new Uint8Array([1, 2]), undefined]) {
      const response = await transport.send({
        method: "POST",
        url,
        headers: new Headers(),
        body,
        trailers: Promise.resolve(new Headers({ "x-checksum": "abc" })),
        signal: new AbortController().signal,
      });
      expect(new TextDecoder().decode(await collectBytes(response.body!))).toBe('{"id":"abc"}');
    }
  });

  it("streams request bodies", async () => {
    const { endpoint } = await listenH2();
    const transport = http2Transport();
    closers.push(() => transport.close());
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport });
    async function* body() {
      yield new TextEncoder().encode('{"id":');
      yield new TextEncoder().encode('"streamed"}');
    }
    expect((await client.upload({ data: body() })).id).toBe("streamed");
  });

  it("reports a refused connection as an unsent TransportError", async () => {
    const transport = http2Transport();
    closers.push(() => transport.close());
    const client = createClient(Things, { endpoint: await closedPort(), protocols: [testJson()], transport, retry: { maxAttempts: 2, baseDelayMs: 1 } });
    const error = await client.createThing({ id: "a" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ECONNREFUSED", $metadata: { attempts: 2 } });
  });

  it("aborts a stream in flight", async () => {
    const { endpoint } = await listenH2();
    const transport = http2Transport();
    closers.push(() => transport.close());
    const client = createClient(Things, { endpoint, protocols: [testJson()], transport });
    async function* never() {
      yield new Uint8Array([1]);
      await new Promise(() => {});
    }
    const controller = new AbortController();
    const pending = client.upload({ data: never() }, { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toMatchObject({ code: "RequestAborted", $metadata: { attempts: 1 } });
  });

  it.skipIf(!hasOpenssl)("speaks TLS with ALPN h2 to an https endpoint", async () => {
    const { key, cert } = selfSignedCertificate("rsa");
    const server = createSecureServer({ key, cert });
    server.on("stream", (stream, headers) => {
      stream.resume();
      stream.respond({ ":status": 200, "content-type": "application/json" });
      stream.end(JSON.stringify({ id: `tls ${headers[":scheme"]}` }));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const transport = http2Transport({ connect: { ca: cert } });
    closers.push(() => transport.close());
    const port = (server.address() as AddressInfo).port;
    const client = createClient(Things, { endpoint: `https://localhost:${port}`, protocols: [testJson()], transport });
    expect((await client.getThing({ id: "a" })).id).toBe("tls https");
  });
});
