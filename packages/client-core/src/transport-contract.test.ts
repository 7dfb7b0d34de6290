/**
 * The transport contract, run against every transport over real loopback
 * servers: `fetchTransport()` and `nodeHttpTransport()` (HTTP/1.1) and
 * `http2Transport()` (h2c, or TLS with ALPN). One request handler serves
 * both HTTP versions (Node's HTTP/2 compatibility API takes the same
 * `(req, res)`). What only one HTTP version or one transport can do is
 * skipped for the others, with the reason.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import {
  createSecureServer,
  createServer as createH2Server,
  type Http2SecureServer,
  type Http2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
} from "node:http2";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { collectBytes, type HttpResponse, TransportError } from "@anvil/core";
import { hasOpenssl, selfSignedCertificate } from "@anvil/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { fetchTransport } from "./fetch-transport.js";
import { http2Transport } from "./node-http2.js";
import { nodeHttpTransport } from "./node-http-transport.js";
import type { Transport, TransportRequest } from "./transport.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

// Node's HTTP/2 compatibility API gives handlers the same members these use.
type Req = IncomingMessage;
type Res = ServerResponse;
type Handler = (req: Req, res: Res) => void | Promise<void>;

interface TestServer {
  readonly url: string;
  /** Connections (HTTP/1.1) or sessions (HTTP/2) the server has accepted. */
  readonly connections: () => number;
}

/** A loopback server of the given HTTP version (TLS with `tls`), closed after the test. */
async function serve(version: "1.1" | "2", handler: Handler, tls?: { key: Buffer; cert: Buffer }): Promise<TestServer> {
  let connections = 0;
  const sockets = new Set<{ destroy(): void }>();
  let server: Server | Http2Server | Http2SecureServer;
  if (version === "2") {
    const h2Handler = handler as unknown as (req: Http2ServerRequest, res: Http2ServerResponse) => void;
    server = tls === undefined ? createH2Server(h2Handler) : createSecureServer({ ...tls }, h2Handler);
    server.on("session", (session) => {
      connections++;
      sockets.add(session);
      session.on("close", () => sockets.delete(session));
    });
  } else {
    server = tls === undefined ? createServer(handler) : createHttpsServer({ ...tls }, handler);
    server.on(tls === undefined ? "connection" : "secureConnection", (socket: Socket) => {
      connections++;
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
  }
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const scheme = tls === undefined ? "http" : "https";
  // TLS certificates name `localhost`; loopback by address otherwise.
  const host = tls === undefined ? "127.0.0.1" : "localhost";
  return { url: `${scheme}://${host}:${(server.address() as AddressInfo).port}`, connections: () => connections };
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

interface Implementation {
  readonly name: string;
  readonly version: "1.1" | "2";
  /** A transport, trusting `ca` for TLS where it can be told to. */
  readonly make: (ca?: Buffer) => Transport;
  /** Why TLS with a private CA is not tested, if it is not. */
  readonly noCa?: string;
}

const IMPLEMENTATIONS: readonly Implementation[] = [
  {
    name: "fetchTransport (HTTP/1.1)",
    version: "1.1",
    make: () => fetchTransport(),
    noCa: "fetch takes no CA of its own (NODE_EXTRA_CA_CERTS, or a dispatcher)",
  },
  { name: "nodeHttpTransport (HTTP/1.1)", version: "1.1", make: (ca) => nodeHttpTransport(ca === undefined ? {} : { tls: { ca } }) },
  { name: "http2Transport (HTTP/2)", version: "2", make: (ca) => http2Transport(ca === undefined ? {} : { connect: { ca } }) },
];

function transportOf(implementation: Implementation, ca?: Buffer): Transport {
  const transport = implementation.make(ca);
  closers.push(async () => transport.close?.());
  return transport;
}

function request(url: string, init: Partial<TransportRequest> = {}): TransportRequest {
  return { method: "GET", url: new URL(url), headers: new Headers(), body: undefined, ...init };
}

async function text(response: HttpResponse): Promise<string> {
  return response.body === undefined ? "" : new TextDecoder().decode(await collectBytes(response.body));
}

async function readAll(req: Req): Promise<string> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return body;
}

const encoder = new TextEncoder();

interface Deferred<T = void> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe.each(IMPLEMENTATIONS)("transport contract: $name", (implementation) => {
  const { version } = implementation;
  const http1Only = version === "2" ? "HTTP/2 frames bodies itself (DATA frames and END_STREAM), without Content-Length or chunked coding" : false;

  it("sends the method, path, query, headers and body; answers the status, headers (a repeated field joined) and body", async () => {
    const seen: { method: string | undefined; url: string | undefined; custom: unknown; body: string }[] = [];
    const { url } = await serve(version, async (req, res) => {
      seen.push({ method: req.method, url: req.url, custom: req.headers["x-custom"], body: await readAll(req) });
      res.setHeader("x-multi", ["a", "b"]);
      res.writeHead(201, { "content-type": "application/json", "x-amzn-requestid": "rid-1" });
      res.end('{"ok":true}');
    });
    const transport = transportOf(implementation);
    const response = await transport.send(
      request(`${url}/things/a%20b?x=1&y=%2F`, {
        method: "POST",
        headers: new Headers({ "x-custom": "v", "content-type": "application/json" }),
        body: encoder.encode('{"id":"a"}'),
      }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("x-multi")).toBe("a, b");
    expect(response.headers.get("x-amzn-requestid")).toBe("rid-1");
    expect(await text(response)).toBe('{"ok":true}');
    expect(seen).toEqual([{ method: "POST", url: "/things/a%20b?x=1&y=%2F", custom: "v", body: '{"id":"a"}' }]);
  });

  it.skipIf(http1Only)("frames bodies: bytes and text with their Content-Length, none for a GET, 0 for an empty POST, a stream chunked", async () => {
    const seen: Record<string, string | undefined>[] = [];
    const { url } = await serve(version, async (req, res) => {
      const body = await readAll(req);
      seen.push({ length: req.headers["content-length"], chunked: req.headers["transfer-encoding"], body });
      res.end();
    });
    const transport = transportOf(implementation);
    async function* stream() {
      yield encoder.encode("str");
      yield encoder.encode("eam");
    }
    const sends: Partial<TransportRequest>[] = [
      { method: "PUT", body: encoder.encode("bytes") },
      { method: "PUT", body: "héllo" },
      { method: "GET" },
      { method: "POST" },
      { method: "POST", body: stream() },
      { method: "POST", body: stream(), headers: new Headers({ "content-length": "6" }) },
    ];
    for (const send of sends) await text(await transport.send(request(url, send)));
    expect(seen).toEqual([
      { length: "5", chunked: undefined, body: "bytes" },
      { length: "6", chunked: undefined, body: "héllo" },
      { length: undefined, chunked: undefined, body: "" },
      { length: "0", chunked: undefined, body: "" },
      { length: undefined, chunked: "chunked", body: "stream" },
      { length: "6", chunked: undefined, body: "stream" },
    ]);
  });

  it("streams a request body as it is read: a chunk is made only once the server has read the one before", async () => {
    let read: Deferred | undefined;
    const { url } = await serve(version, async (req, res) => {
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Uint8Array).byteLength;
        read?.resolve();
      }
      res.end(String(size));
    });
    const transport = transportOf(implementation);
    async function* lockstep() {
      for (let i = 0; i < 4; i++) {
        read = deferred();
        yield new Uint8Array(16 * 1024).fill(i);
        await read.promise; // never resolves if the transport holds the body back
      }
    }
    expect(await text(await transport.send(request(url, { method: "PUT", body: lockstep() })))).toBe(String(64 * 1024));
  });

  it("streams a response body: the head and the first bytes arrive before the body ends", async () => {
    const firstRead = deferred();
    const { url } = await serve(version, async (_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write("first;");
      await firstRead.promise;
      res.end("last");
    });
    const transport = transportOf(implementation);
    const response = await transport.send(request(url));
    const chunks: string[] = [];
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      chunks.push(new TextDecoder().decode(chunk));
      firstRead.resolve();
    }
    expect(chunks.join("")).toBe("first;last");
  });

  it("answers reads of a response body asked for at once in order, each with its own bytes, then the end", async () => {
    const secondWrite = deferred();
    const { url } = await serve(version, async (_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write("one;");
      await secondWrite.promise;
      res.end("two");
    });
    const response = await transportOf(implementation).send(request(url));
    const body = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const reads = [body.next(), body.next(), body.next()];
    await reads[0];
    secondWrite.resolve();
    const decoded = (await Promise.all(reads)).map((r) => (r.done ? "(done)" : new TextDecoder().decode(r.value)));
    expect(decoded).toEqual(["one;", "two", "(done)"]);
  });

  it("answers HEAD, 204 and 304 without body bytes", async () => {
    const { url } = await serve(version, (req, res) => {
      const status = req.url === "/204" ? 204 : req.url === "/304" ? 304 : 200;
      res.writeHead(status, { "content-type": "text/plain", "content-length": status === 200 ? "5" : "0" });
      if (status === 200 && req.method !== "HEAD") res.end("hello");
      else res.end();
    });
    const transport = transportOf(implementation);
    for (const [path, method] of [
      ["/head", "HEAD"],
      ["/204", "DELETE"],
      ["/304", "GET"],
    ] as const) {
      const response = await transport.send(request(`${url}${path}`, { method }));
      // No body at all from the HTTP/1.1 transports, an empty one from HTTP/2's.
      expect([response.status, await text(response)]).toEqual([path === "/head" ? 200 : Number(path.slice(1)), ""]);
    }
    // The connection is fine after them.
    expect(await text(await transport.send(request(`${url}/after`)))).toBe("hello");
  });

  describe("aborts", () => {
    /** A server that holds every exchange open and says when the client's side of one closed. */
    async function holdingServer(onRequest?: (res: Res) => void) {
      const arrived: string[] = [];
      const closed = deferred<string>();
      const server = await serve(version, (req, res) => {
        arrived.push(req.url ?? "");
        res.on("close", () => {
          if (!res.writableEnded) closed.resolve(req.url ?? "");
        });
        req.on("data", () => {});
        req.on("error", () => {});
        onRequest?.(res);
      });
      return { ...server, arrived, closed: closed.promise };
    }

    it("with a signal aborted before the call: rejects with its reason, and nothing is sent", async () => {
      const { url, arrived, connections } = await holdingServer();
      const controller = new AbortController();
      const reason = new Error("not wanted");
      controller.abort(reason);
      await expect(transportOf(implementation).send(request(url, { signal: controller.signal }))).rejects.toBe(reason);
      expect([arrived, connections()]).toEqual([[], 0]);
    });

    it("while waiting for the answer: rejects with the reason, and the server sees the exchange closed", async () => {
      const { url, arrived, closed } = await holdingServer();
      const controller = new AbortController();
      const pending = transportOf(implementation).send(request(`${url}/wait`, { signal: controller.signal }));
      await expect.poll(() => arrived).toEqual(["/wait"]);
      const reason = new Error("enough");
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      expect(await closed).toBe("/wait");
    });

    it("during a streamed upload: rejects with the reason, and the server sees the exchange closed", async () => {
      const { url, arrived, closed } = await holdingServer();
      const controller = new AbortController();
      async function* never() {
        yield new Uint8Array([1]);
        await new Promise(() => {});
      }
      const pending = transportOf(implementation).send(request(`${url}/upload`, { method: "PUT", body: never(), signal: controller.signal }));
      await expect.poll(() => arrived).toEqual(["/upload"]);
      const reason = new Error("enough");
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      expect(await closed).toBe("/upload");
    });

    it("during the response body: the next read fails, and the server sees the exchange closed", async () => {
      const { url, closed } = await holdingServer((res) => {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.write("first;");
      });
      const controller = new AbortController();
      const response = await transportOf(implementation).send(request(`${url}/download`, { signal: controller.signal }));
      const iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
      expect(new TextDecoder().decode((await iterator.next()).value)).toBe("first;");
      controller.abort(new Error("enough"));
      await expect(iterator.next()).rejects.toBeDefined();
      expect(await closed).toBe("/download");
    });
  });

  it("fails a response body the server cuts short with a TransportError, rather than end it quietly", async () => {
    const { url } = await serve(version, (_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": "100" });
      res.write("only ten b", () => res.destroy());
    });
    const response = await transportOf(implementation).send(request(url));
    const error = await collectBytes(response.body as AsyncIterable<Uint8Array>).catch((e: unknown) => e);
    expect(TransportError.is(error)).toBe(true);
  });

  it("reports a refused connection as a TransportError ECONNREFUSED (a request that never left)", async () => {
    const error = await transportOf(implementation)
      .send(request(await closedPort()))
      .catch((e: unknown) => e);
    expect(TransportError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: "ECONNREFUSED" });
  });

  it("sends a URL given again where it points now, if it was changed in between", async () => {
    const { url } = await serve(version, (req, res) => void res.end(req.url));
    const transport = transportOf(implementation);
    const target = new URL(`${url}/first?n=1`);
    expect(await text(await transport.send(request(url, { url: target })))).toBe("/first?n=1");
    target.pathname = "/second";
    target.search = "";
    expect(await text(await transport.send(request(url, { url: target })))).toBe("/second");
  });

  it("keeps its connections for the next calls", async () => {
    const { url, connections } = await serve(version, (req, res) => void res.end(req.url));
    const transport = transportOf(implementation);
    const paths = ["/a", "/b", "/c", "/d", "/e"];
    for (const path of paths) expect(await text(await transport.send(request(`${url}${path}`)))).toBe(path);
    // fetch may open a second one for a call made as the last one's body ends, before it has the socket back.
    expect(connections()).toBeLessThan(paths.length);
  });

  it.skipIf(!hasOpenssl || implementation.noCa !== undefined)(
    `speaks TLS to an https: endpoint, trusting a private CA${implementation.noCa ? ` (skipped: ${implementation.noCa})` : ""}`,
    async () => {
      const tls = selfSignedCertificate("ec");
      const { url } = await serve(version, (req, res) => void res.end(`tls ${req.url}`), tls);
      const transport = transportOf(implementation, tls.cert);
      expect(await text(await transport.send(request(`${url}/secure`)))).toBe("tls /secure");
    },
  );
});
