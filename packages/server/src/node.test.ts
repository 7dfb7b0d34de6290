import * as http from "node:http";
import * as http2 from "node:http2";
import * as https from "node:https";
import * as net from "node:net";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { hasOpenssl, selfSignedCertificate } from "@anvil/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { listen, type NodeListener, nodeHandler } from "./node-entry.js";
import { createServer } from "./server.js";
import { retireAtAge } from "./session-age.js";
import { testProtocol } from "./test-protocol.js";
import { CHUNK, TestService, testServer } from "./test-service.js";

const listeners: NodeListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close({ graceMs: 0 })));
});

async function start(options: Parameters<typeof listen>[1] = {}) {
  const { server, observed } = testServer();
  const listener = await listen(server, options);
  listeners.push(listener);
  return { server, observed, listener };
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An HTTP/1.1 request with node:http, writing the body parts as given (without waiting for the answer). */
function rawRequest(url: string, options: http.RequestOptions, parts: (string | Uint8Array)[] = [], end = true): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", ...options }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    // The server may close the connection while a refused body is still being written.
    req.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
    req.flushHeaders();
    for (const part of parts) req.write(part);
    if (end) req.end();
  });
}

/** One HTTP/2 request over a session. */
function h2Request(session: http2.ClientHttp2Session, path: string, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/json" });
    let status = 0;
    let headers: http.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => {
      status = Number(h[":status"]);
      headers = h as http.IncomingHttpHeaders;
    });
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve({ status, headers, body: Buffer.concat(chunks).toString() }));
    stream.on("error", reject);
    stream.end(body);
  });
}

/** The GOAWAYs a session receives, as they come. */
function goaways(session: http2.ClientHttp2Session): { code: number; last: number; data: string }[] {
  const told: { code: number; last: number; data: string }[] = [];
  session.on("goaway", (code, last, data?: Buffer) => told.push({ code, last, data: data?.toString() ?? "" }));
  session.on("error", () => {});
  return told;
}

/** Resolves once `done()` holds (checked every 5 ms). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const post = (url: string, body?: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, ...(body !== undefined ? { body } : {}) });

describe("listen (HTTP/1.1)", () => {
  it("answers over a real socket with the handler context filled in", async () => {
    const { listener, observed } = await start();
    const response = await post(`${listener.url}/echo/ann`, `{"text":"hello"}`, { "x-trace": "t1" });
    expect([response.status, await response.json()]).toEqual([200, { message: "ann:5" }]);
    const context = observed.contexts[0]!;
    expect([context.remoteAddress, context.headers.get("x-trace"), context.protocol, context.request.host]).toEqual([
      "127.0.0.1",
      "t1",
      "test#json",
      "127.0.0.1",
    ]);
    expect(context.signal.aborted).toBe(false);
  });

  it.each([
    ["listen (Node joins repeated fields)", true],
    ["nodeHandler on a server of one's own (Node keeps only the first of some)", false],
  ])("gives the handler repeated request fields joined as Headers joins them: %s", async (_label, viaListen) => {
    let url: string;
    let observed: ReturnType<typeof testServer>["observed"];
    let own: http.Server | undefined;
    if (viaListen) {
      ({
        observed,
        listener: { url },
      } = await start());
    } else {
      const test = testServer();
      observed = test.observed;
      own = http.createServer(nodeHandler(test.server));
      await new Promise<void>((resolve) => own!.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
    }
    try {
      const body = `{"text":"hi"}`;
      const head = [
        `POST /echo/ann HTTP/1.1`,
        `host: x`,
        `content-type: application/json`,
        `content-length: ${body.length}`,
        `X-Tag: a`,
        `x-tag: b`,
        `User-Agent: u1`,
        `user-agent: u2`,
        `Cookie: k=1`,
        `cookie: j=2`,
        `connection: close`,
      ];
      const socket = net.connect(Number(new URL(url).port), "127.0.0.1");
      socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
      socket.resume();
      await expect.poll(() => observed.contexts.length).toBe(1);
      const headers = observed.contexts[0]!.headers;
      expect(["x-tag", "User-Agent", "cookie", "content-length", "accept"].map((n) => headers.get(n))).toEqual(["a, b", "u1, u2", "k=1, j=2", "13", null]);
    } finally {
      own?.close();
    }
  });

  it("sends a body of any bytes exactly (small bodies go out with the head in one write)", async () => {
    const { listener } = await start();
    const name = "é✓\u{1F600}";
    const response = await rawRequest(`${listener.url}/echo/${encodeURIComponent(name)}`, { headers: { "content-type": "application/json" } }, ["{}"]);
    const expected = JSON.stringify({ message: `${name}:0` });
    expect(response.body).toBe(expected);
    expect(Number(response.headers["content-length"])).toBe(Buffer.byteLength(expected));
  });

  it("keeps the connection open after a POST whose declared body it read whole", async () => {
    const { listener } = await start();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const call = (text: string) =>
      new Promise<{ reused: boolean; connection: string | undefined; body: string }>((resolve, reject) => {
        const req = http.request(`${listener.url}/echo/ann`, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ reused: req.reusedSocket, connection: res.headers.connection, body: Buffer.concat(chunks).toString() }));
        });
        req.on("error", reject);
        req.end(JSON.stringify({ text }));
      });
    try {
      const first = await call("é");
      const second = await call("two");
      expect([first, second]).toEqual([
        { reused: false, connection: "keep-alive", body: '{"message":"ann:1"}' },
        { reused: true, connection: "keep-alive", body: '{"message":"ann:3"}' },
      ]);
    } finally {
      agent.destroy();
    }
  });

  it("reads a body whether it comes with its headers or in parts after them, and pipelined requests each with their own", async () => {
    const { listener } = await start();
    const message = (name: string, text: string) => {
      const body = JSON.stringify({ text });
      return `POST /echo/${name} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const socket = net.connect(listener.port, "127.0.0.1");
    let received = "";
    socket.setEncoding("utf8").on("data", (d: string) => (received += d));
    const answers = (n: number) => expect.poll(() => received.match(/"message":"[^"]*"/g) ?? []).toHaveLength(n);
    // Two requests in one packet.
    socket.write(message("ann", "one") + message("bob", "two"));
    await answers(2);
    // Headers first, then the body in two parts.
    const split = message("cy", "three");
    const head = split.indexOf("\r\n\r\n") + 4;
    socket.write(split.slice(0, head));
    await new Promise((r) => setTimeout(r, 30));
    socket.write(split.slice(head, head + 5));
    await new Promise((r) => setTimeout(r, 30));
    socket.write(split.slice(head + 5));
    await answers(3);
    socket.destroy();
    expect(received.match(/"message":"[^"]*"/g)).toEqual(['"message":"ann:3"', '"message":"bob:3"', '"message":"cy:5"']);
  });

  it("sends each Set-Cookie of a response as a field of its own", async () => {
    const base = testProtocol("test#json");
    const protocol = {
      ...base,
      async serializeResponse(...args: Parameters<typeof base.serializeResponse>) {
        const response = await base.serializeResponse(...args);
        response.headers.append("set-cookie", "a=1; Path=/");
        response.headers.append("set-cookie", "b=2, c; Path=/");
        return response;
      },
    };
    const server = createServer(TestService, { protocols: [protocol] })
      .register({ echo: () => ({ message: "hi" }), fail: () => ({}), download: () => ({}), upload: () => ({}), wait: () => ({}) })
      .mapService();
    const listener = await listen(server);
    listeners.push(listener);
    const response = await rawRequest(`${listener.url}/echo/ann`, { headers: { "content-type": "application/json" } }, ["{}"]);
    expect([response.status, response.headers["set-cookie"], response.headers["content-type"]]).toEqual([
      200,
      ["a=1; Path=/", "b=2, c; Path=/"],
      "application/json",
    ]);
  });

  it("answers an unmodeled exception with a 500 that leaks nothing", async () => {
    const { listener } = await start();
    const response = await post(`${listener.url}/fail`);
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(text).not.toMatch(/secret|password|stack|at /);
  });

  it("answers an unknown route with the protocol's not-found answer", async () => {
    const { listener } = await start();
    const response = await post(`${listener.url}/nowhere`);
    expect([response.status, ((await response.json()) as { type: string }).type]).toEqual([404, "UnknownOperationException"]);
  });

  describe("body limits", () => {
    it("takes a body up to the operation's own limit", async () => {
      const { listener } = await start();
      const response = await post(`${listener.url}/echo/big`, JSON.stringify({ text: "x".repeat(1500) }));
      expect([response.status, await response.json()]).toEqual([200, { message: "big:1500" }]);
    });

    it("refuses a declared Content-Length over the limit with a 413 before the body is sent", async () => {
      const { listener } = await start();
      // Only the headers go out: the answer must come without the body.
      const response = await rawRequest(
        `${listener.url}/echo/big`,
        { headers: { "content-type": "application/json", "content-length": String(10 * 1024 * 1024) } },
        [],
        false,
      );
      expect([response.status, JSON.parse(response.body).type, response.headers.connection]).toEqual([413, "PayloadTooLargeException", "close"]);
    });

    it("refuses a chunked body as soon as it passes the limit", async () => {
      const { listener } = await start();
      // 2 KiB + 1 in small chunks, and the request never ends: the count alone triggers the answer.
      const parts = [`{"text":"`, ..."x".repeat(2048).match(/.{1,256}/g)!];
      const response = await rawRequest(
        `${listener.url}/echo/big`,
        { headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
        parts,
        false,
      );
      expect([response.status, JSON.parse(response.body).type]).toEqual([413, "PayloadTooLargeException"]);
    });

    it("applies the service-wide limit to other operations", async () => {
      const { listener } = await start();
      const response = await post(`${listener.url}/fail`, JSON.stringify({ pad: "x".repeat(1100) }));
      expect(response.status).toBe(413);
    });

    it("never buffers a streaming input, whatever its size", async () => {
      const { listener } = await start();
      const size = 3 * 1024 * 1024;
      const response = await fetch(`${listener.url}/upload`, { method: "POST", body: new Uint8Array(size) });
      expect([response.status, await response.json()]).toEqual([200, { size }]);
    });
  });

  it("accepts an absolute-form request target", async () => {
    const { listener } = await start();
    const response = await new Promise<RawResponse>((resolve, reject) => {
      // A request line as sent to a proxy: `POST http://host/echo/abs HTTP/1.1`.
      const req = http.request(
        { host: "127.0.0.1", port: listener.port, method: "POST", path: `${listener.url}/echo/abs`, headers: { "content-type": "application/json" } },
        (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        },
      );
      req.on("error", reject);
      req.end("{}");
    });
    expect([response.status, JSON.parse(response.body)]).toEqual([200, { message: "abs:0" }]);
  });

  it("sends 100 Continue only when the body is read", async () => {
    const { listener } = await start();
    const exchange = (path: string, length: number) =>
      new Promise<{ continued: boolean; status: number }>((resolve, reject) => {
        let continued = false;
        const body = `{"text":"${"x".repeat(length)}"}`;
        const req = http.request(`${listener.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "content-length": body.length, expect: "100-continue" },
        });
        req.on("continue", () => {
          continued = true;
          req.end(body);
        });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve({ continued, status: res.statusCode! }));
        });
        req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" ? undefined : reject(error)));
        req.flushHeaders();
      });
    expect(await exchange("/echo/ok", 10)).toEqual({ continued: true, status: 200 });
    expect(await exchange("/echo/big", 5000)).toEqual({ continued: false, status: 413 });
  });

  it("answers 408 to a request body that does not arrive in time", async () => {
    const { listener, server } = await start({ requestTimeoutMs: 300 });
    const started = Date.now();
    const response = await rawRequest(
      `${listener.url}/echo/slow`,
      { headers: { "content-type": "application/json", "content-length": "100" } },
      [`{"text":`],
      false,
    );
    expect(response.status).toBe(408);
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect.poll(() => server.inFlight).toBe(0);
  });

  it("S4: answers 431 to headers over the size limit", async () => {
    const { listener } = await start({ maxHeaderBytes: 4096 });
    const response = await rawRequest(`${listener.url}/echo/a`, { headers: { "x-big": "v".repeat(8192) } });
    expect(response.status).toBe(431);
  });

  it("S4: answers 431 to too many header fields", async () => {
    const { listener } = await start({ maxHeaders: 10 });
    const headers = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`x-h${i}`, "v"]));
    const response = await rawRequest(`${listener.url}/echo/a`, { headers });
    expect(response.status).toBe(431);
  });

  it("H7: streams a response body with back-pressure: the source waits for a slow reader", async () => {
    const { listener, observed } = await start();
    const count = 400; // 25 MiB
    const received = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${listener.url}/download/${count}`, { method: "POST" }, (res) => {
        res.pause();
        setTimeout(() => {
          // Socket and stream buffers hold a few MiB (about 4 here); the source must not have run ahead.
          expect(observed.produced).toBeLessThan(count / 4);
          let bytes = 0;
          res.on("data", (c: Buffer) => (bytes += c.byteLength));
          res.on("end", () => resolve(bytes));
          res.resume();
        }, 200);
      });
      req.on("error", reject);
      req.end();
    });
    expect([received, observed.produced]).toEqual([count * CHUNK, count]);
  });

  it("cuts the connection when a response body fails half-way, so the client cannot take it as complete", async () => {
    const { listener } = await start();
    const response = await fetch(`${listener.url}/download/-5`, { method: "POST" });
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it("H3: aborts the handler's signal when the client goes away", async () => {
    const { listener, observed } = await start();
    const controller = new AbortController();
    const waiting = observed.waiting();
    const call = post(`${listener.url}/wait`, undefined).catch(() => "aborted");
    void call;
    const aborted = fetch(`${listener.url}/wait`, { method: "POST", signal: controller.signal }).catch(() => "aborted");
    await waiting;
    controller.abort();
    expect(await aborted).toBe("aborted");
    await expect.poll(() => observed.aborted).toEqual(["the client went away"]);
    observed.release();
  });

  it("closes gracefully: in-flight calls finish within the grace period, the rest are aborted", async () => {
    const { listener, observed, server } = await start();
    const waiting = observed.waiting();
    const first = post(`${listener.url}/wait`);
    await waiting;
    // The first call is released during the grace period and completes.
    const closing = listener.close({ graceMs: 5_000 });
    setTimeout(() => observed.release(), 50);
    expect((await first).status).toBe(200);
    await closing;
    expect(server.inFlight).toBe(0);
    await expect(post(`${listener.url}/echo/a`)).rejects.toThrow();
  });

  it("aborts calls that outlive the grace period", async () => {
    const { listener, observed } = await start();
    const waiting = observed.waiting();
    const call = post(`${listener.url}/wait`).then(
      (r) => r.status,
      () => "reset",
    );
    await waiting;
    await listener.close({ graceMs: 20 });
    expect(observed.aborted).toEqual(["the server is shutting down"]);
    expect(["reset", 500]).toContain(await call);
  });
});

describe("T1: listen, headers dripped slowly (slowloris)", () => {
  it.each([
    ["HTTP/1.1", {}],
    ["HTTP/1.1 and h2c on one port", { http2: "both" as const }],
  ])("%s: a client sending a header byte every 200 ms gets a 408 about headersTimeoutMs in, while a normal request is served", async (_name, options) => {
    const { listener } = await start({ headersTimeoutMs: 1_000, ...options });
    const started = Date.now();
    const answer = new Promise<{ text: string; ms: number }>((resolve) => {
      const socket = net.connect(listener.port, "127.0.0.1");
      const head = `GET /echo/slow HTTP/1.1\r\nhost: x\r\nx-slow: ${"a".repeat(100)}`;
      let sent = 0;
      let text = "";
      const drip = setInterval(() => sent < head.length && socket.write(head[sent++]!), 200);
      socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
      socket.on("error", () => {});
      socket.on("close", () => {
        clearInterval(drip);
        resolve({ text, ms: Date.now() - started });
      });
    });
    expect((await post(`${listener.url}/echo/meanwhile`, `{"text":"x"}`)).status).toBe(200);
    const { text, ms } = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    // Node looks for timed-out headers every headersTimeoutMs / 4 here (connectionsCheckingInterval), so about 1.0 to 1.25 s.
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3_000);
  });
});

/** Resolves with `read()` once it has stayed the same for `quietMs`: a source that has stopped. */
async function settled(read: () => number, quietMs = 300): Promise<number> {
  let last = read();
  let since = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = read();
    if (now !== last) [last, since] = [now, Date.now()];
    else if (Date.now() - since >= quietMs) return now;
  }
}

describe("listen (HTTP/2 cleartext, prior knowledge)", () => {
  it("H3: a stream the client cancels (RST_STREAM CANCEL) aborts its handler's signal at once, and nothing is answered on it", async () => {
    const { listener, observed } = await start({ http2: true });
    const session = http2.connect(listener.url);
    try {
      const waiting = observed.waiting();
      const stream = session.request({ ":method": "POST", ":path": "/wait", "content-type": "application/json" });
      let answered = false;
      stream.on("response", () => (answered = true));
      stream.on("error", () => {});
      const closed = new Promise((resolve) => stream.once("close", resolve));
      stream.end("{}");
      await waiting;
      const cancelled = performance.now();
      stream.close(http2.constants.NGHTTP2_CANCEL);
      await expect.poll(() => observed.aborted, { interval: 5 }).toEqual(["the client went away"]);
      // Within a few milliseconds here; the bound leaves room for a loaded machine.
      expect(performance.now() - cancelled).toBeLessThan(1_000);
      await closed;
      expect(answered).toBe(false);
      // The session goes on.
      expect((await h2Request(session, "/echo/after", "{}")).status).toBe(200);
    } finally {
      session.close();
    }
  });

  it("H7: a download to a reader that stops reading waits once the flow-control window and the buffers are full (32 MiB offered)", async () => {
    const { listener, observed } = await start({ http2: true });
    const session = http2.connect(listener.url);
    try {
      const count = 512; // 32 MiB
      const stream = session.request({ ":method": "POST", ":path": `/download/${count}` });
      stream.on("error", () => {});
      stream.end();
      await new Promise((resolve) => stream.once("response", resolve));
      // Nothing read: the source must stop with a few windows' worth out (64 KiB chunks; 4 MiB is far more than enough).
      const stalled = await settled(() => observed.produced);
      expect(stalled).toBeLessThan(64);
      let bytes = 0;
      stream.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
      await new Promise((resolve) => stream.once("end", resolve));
      expect([bytes, observed.produced]).toEqual([count * CHUNK, count]);
    } finally {
      session.close();
    }
  });

  it("answers several concurrent streams over one session", async () => {
    const { listener, observed } = await start({ http2: true });
    const session = http2.connect(listener.url);
    try {
      const answers = await Promise.all(["a", "b", "c"].map((name) => h2Request(session, `/echo/${name}`, `{"text":"${name}${name}"}`)));
      expect(answers.map((a) => [a.status, JSON.parse(a.body)])).toEqual([
        [200, { message: "a:2" }],
        [200, { message: "b:2" }],
        [200, { message: "c:2" }],
      ]);
      expect(observed.contexts[0]?.remoteAddress).toBe("127.0.0.1");
      const tooLarge = await h2Request(session, "/echo/x", JSON.stringify({ text: "x".repeat(3000) }));
      expect(tooLarge.status).toBe(413);
    } finally {
      session.close();
    }
  });

  it("resets the stream when a response body fails half-way", async () => {
    const { listener } = await start({ http2: true });
    const session = http2.connect(listener.url);
    try {
      await expect(h2Request(session, "/download/-5")).rejects.toThrow();
      // The session survives for other streams.
      expect((await h2Request(session, "/echo/after", "{}")).status).toBe(200);
    } finally {
      session.close();
    }
  });

  it("answers 408 to a request body that does not arrive in time", async () => {
    const { listener, server } = await start({ http2: true, requestTimeoutMs: 100 });
    const session = http2.connect(listener.url);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": "/echo/slow", "content-type": "application/json" });
        stream.on("response", (h) => resolve(Number(h[":status"])));
        stream.on("error", reject);
        stream.write(`{"text":`); // and never more
      });
      expect(status).toBe(408);
      await expect.poll(() => server.inFlight).toBe(0);
    } finally {
      session.destroy();
    }
  });
});

describe('listen (cleartext, http2: "both"): HTTP/1.1 and h2c on one port', () => {
  /** The first bytes a raw connection is answered with, as latin1 text, or "closed" if it closes first. */
  function firstBytes(port: number, send: (socket: net.Socket) => void): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => send(socket));
      socket.once("data", (d: Buffer) => {
        resolve(d.toString("latin1"));
        socket.destroy();
      });
      socket.on("error", () => resolve("closed"));
      socket.on("close", () => resolve("closed"));
    });
  }

  it("answers HTTP/1.1 requests and HTTP/2 sessions with prior knowledge side by side", async () => {
    const { listener, observed } = await start({ http2: "both" });
    const session = http2.connect(listener.url);
    try {
      const [h1, h2a, h2b] = await Promise.all([
        post(`${listener.url}/echo/one`, `{"text":"a"}`),
        h2Request(session, "/echo/two", `{"text":"bb"}`),
        h2Request(session, "/echo/three", `{"text":"ccc"}`),
      ]);
      expect([h1.status, await h1.json()]).toEqual([200, { message: "one:1" }]);
      expect([h2a.status, JSON.parse(h2a.body), h2b.status, JSON.parse(h2b.body)]).toEqual([200, { message: "two:2" }, 200, { message: "three:3" }]);
      expect(observed.contexts.map((c) => c.remoteAddress)).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1"]);
      // Keep-alive HTTP/1.1 connections are served as before.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (const name of ["k1", "k2"])
          expect((await rawRequest(`${listener.url}/echo/${name}`, { agent, headers: { "content-type": "application/json" } }, [`{"text":"x"}`])).status).toBe(
            200,
          );
      } finally {
        agent.destroy();
      }
    } finally {
      session.close();
    }
  });

  it("tells them apart however the first bytes arrive: a preface in pieces is HTTP/2, a request starting with P is HTTP/1.1", async () => {
    const { listener } = await start({ http2: "both" });
    const preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    const settings = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]); // an empty SETTINGS frame
    const h2 = await firstBytes(listener.port, (socket) => {
      socket.write(preface.slice(0, 5));
      setTimeout(() => socket.write(Buffer.concat([Buffer.from(preface.slice(5), "latin1"), settings])), 30);
    });
    // The server's first HTTP/2 frame is its SETTINGS (type 4, stream 0), not an HTTP/1.1 status line.
    expect([h2.charCodeAt(3), h2.slice(5, 9)]).toEqual([4, "\0\0\0\0"]);
    const h1 = await firstBytes(listener.port, (socket) => {
      socket.write("P");
      setTimeout(() => socket.write(`OST /echo/p HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}`), 30);
    });
    expect(h1).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });

  it("closes a connection that says nothing within the header timeout", async () => {
    const { listener } = await start({ http2: "both", headersTimeoutMs: 100 });
    const started = Date.now();
    expect(await firstBytes(listener.port, () => {})).toBe("closed");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("serves HTTP/1.1 only by default (the preface is then a malformed request)", async () => {
    const { listener } = await start();
    expect(await firstBytes(listener.port, (socket) => socket.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"))).toMatch(/^HTTP\/1\.1 [45]\d\d|^closed$/);
    expect((await post(`${listener.url}/echo/h1`, `{"text":""}`)).status).toBe(200);
  });

  it("closes HTTP/2 sessions with the listener", async () => {
    const { listener } = await start({ http2: "both" });
    const session = http2.connect(listener.url);
    expect((await h2Request(session, "/echo/x", "{}")).status).toBe(200);
    const closed = new Promise<void>((resolve) => session.once("close", () => resolve()));
    await listener.close({ graceMs: 0 });
    listeners.splice(listeners.indexOf(listener), 1);
    await closed;
  });
});

describe("listen (HTTP/2 cleartext): the stream API", () => {
  it("L2: keeps a session open while a call is in flight, and closes it once idle for idleTimeoutMs (GOAWAY max_idle)", async () => {
    const { listener, observed } = await start({ http2: true, idleTimeoutMs: 150 });
    const session = http2.connect(listener.url);
    const told = goaways(session);
    const closed = new Promise<number>((resolve) => session.once("close", () => resolve(Date.now())));
    try {
      const waiting = observed.waiting();
      const call = h2Request(session, "/wait", "{}");
      await waiting;
      // Three idle timeouts with a call in flight: the session stays.
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(session.closed || session.destroyed).toBe(false);
      observed.release();
      expect((await call).status).toBe(200);
      const answered = Date.now();
      expect((await closed) - answered).toBeGreaterThanOrEqual(100);
      expect(told[0]).toEqual({ code: 0, last: 2 ** 31 - 1, data: "max_idle" });
    } finally {
      session.destroy();
    }
  });

  it("L2: retires a session at maxConnectionAgeMs (GOAWAY max_age) while its call in flight finishes, and new calls go to a new session", async () => {
    const { listener, observed } = await start({ http2: true, maxConnectionAgeMs: 200 });
    const session = http2.connect(listener.url);
    const told = goaways(session);
    const opened = Date.now();
    const closed = new Promise<number>((resolve) => session.once("close", () => resolve(Date.now())));
    try {
      const waiting = observed.waiting();
      const call = h2Request(session, "/wait", "{}");
      await waiting;
      // The first GOAWAY takes no stream away; the last, after a PING, names the call in flight as the last taken.
      await until(() => told.length === 2);
      expect(Date.now() - opened).toBeGreaterThanOrEqual(175);
      expect(told).toEqual([
        { code: 0, last: 2 ** 31 - 1, data: "max_age" },
        { code: 0, last: 1, data: "" },
      ]);
      observed.release();
      expect((await call).status).toBe(200);
      await closed;
      const next = http2.connect(listener.url);
      try {
        expect((await h2Request(next, "/echo/x", `{"text":""}`)).status).toBe(200);
      } finally {
        next.destroy();
      }
    } finally {
      session.destroy();
    }
  });

  it("L2: cuts the calls of a retired session still running after maxConnectionAgeGraceMs", async () => {
    const { listener, observed } = await start({ http2: true, maxConnectionAgeMs: 100, maxConnectionAgeGraceMs: 200 });
    const session = http2.connect(listener.url);
    const told = goaways(session);
    try {
      const waiting = observed.waiting();
      // Cut: the stream ends with no answer, or with an error.
      const call = h2Request(session, "/wait", "{}").then(
        ({ status }) => (status === 0 ? "cut" : `answered ${status}`),
        () => "cut",
      );
      await waiting;
      await until(() => told.length === 2);
      const retired = Date.now();
      expect(await call).toBe("cut");
      expect(Date.now() - retired).toBeGreaterThanOrEqual(150);
    } finally {
      session.destroy();
    }
  });

  it("L2: spreads sessions' ages over the limit give or take 10%", async () => {
    const ages = await Promise.all(
      [0, 1].map(async (random) => {
        const server = http2.createServer();
        server.on("session", (session) => retireAtAge(session, { maxMs: 200, graceMs: 0 }, () => random));
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
        const opened = Date.now();
        await new Promise((resolve) => session.once("goaway", resolve));
        session.destroy();
        await new Promise((resolve) => server.close(resolve));
        return Date.now() - opened;
      }),
    );
    expect(ages[0]).toBeGreaterThanOrEqual(175);
    expect(ages[1]).toBeGreaterThanOrEqual(215);
    await expect(start({ http2: true, maxConnectionAgeMs: -1 })).rejects.toThrow(/must not be negative/);
  });

  it("sends 100 Continue only when the body is read", async () => {
    const { listener } = await start({ http2: true });
    const session = http2.connect(listener.url);
    try {
      const send = (path: string) =>
        new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
          const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/json", expect: "100-continue" });
          let continued = false;
          stream.on("continue", () => {
            continued = true;
            stream.end(`{"text":"abc"}`);
          });
          stream.on("response", (h) => {
            const status = Number(h[":status"]);
            if (!continued) stream.close();
            resolve({ status, continued });
          });
          stream.on("error", reject);
        });
      expect(await send("/echo/c")).toEqual({ status: 200, continued: true });
      expect(await send("/nowhere")).toEqual({ status: 404, continued: false });
    } finally {
      session.close();
    }
  });

  it("S4: answers 431 to too many header fields", async () => {
    const { listener } = await start({ http2: true, maxHeaders: 10 });
    const session = http2.connect(listener.url);
    try {
      const headers: http2.OutgoingHttpHeaders = { ":method": "POST", ":path": "/echo/x", "content-type": "application/json" };
      for (let i = 0; i < 10; i++) headers[`x-extra-${i}`] = "1";
      const status = await new Promise<number>((resolve, reject) => {
        const stream = session.request(headers);
        stream.on("response", (h) => resolve(Number(h[":status"])));
        stream.on("error", reject);
        stream.end("{}");
      });
      expect(status).toBe(431);
    } finally {
      session.close();
    }
  });

  it("reads a body whether it comes with its headers or in parts after them", async () => {
    const { listener } = await start({ http2: true });
    const session = http2.connect(listener.url);
    const call = (path: string, send: (stream: http2.ClientHttp2Stream) => Promise<void>) =>
      new Promise<RawResponse>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/json" });
        let status = 0;
        let body = "";
        stream.on("response", (h) => (status = Number(h[":status"])));
        stream.setEncoding("utf8");
        stream.on("data", (c: string) => (body += c));
        stream.on("end", () => resolve({ status, headers: {}, body }));
        stream.on("error", reject);
        send(stream).catch(reject);
      });
    const pause = () => new Promise((r) => setTimeout(r, 30));
    try {
      // With the headers: taken whole once Node has handled the read.
      const together = await call("/echo/ann", async (stream) => void stream.end(`{"text":"one"}`));
      // Headers first, the body in parts later: read as it comes.
      const apart = await call("/echo/bob", async (stream) => {
        await pause();
        stream.write(`{"text":`);
        await pause();
        stream.end(`"three"}`);
      });
      // An empty body, ended after the headers were sent.
      const empty = await call("/echo/cy", async (stream) => {
        await pause();
        stream.end();
      });
      expect([together, apart, empty].map((a) => [a.status, JSON.parse(a.body)])).toEqual([
        [200, { message: "ann:3" }],
        [200, { message: "bob:5" }],
        [200, { message: "cy:0" }],
      ]);
    } finally {
      session.close();
    }
  });

  it("settles a call whose client resets the stream right after sending it, and serves the session on", async () => {
    const { listener, server } = await start({ http2: true });
    const session = http2.connect(listener.url);
    try {
      await new Promise<void>((resolve) => {
        const stream = session.request({ ":method": "POST", ":path": "/echo/gone", "content-type": "application/json" });
        stream.on("error", () => undefined);
        stream.on("close", resolve);
        stream.end(`{"text":"bye"}`);
        stream.close(http2.constants.NGHTTP2_CANCEL);
      });
      await expect.poll(() => server.inFlight).toBe(0);
      expect((await h2Request(session, "/echo/after", `{"text":"hi"}`)).status).toBe(200);
    } finally {
      session.close();
    }
  });

  it("leaves no listener of its own on a stream once it has closed (Node keeps closed streams until a full collection)", async () => {
    const { listener } = await start({ http2: true });
    const streams: http2.ServerHttp2Stream[] = [];
    listener.server.on("stream", (stream: http2.ServerHttp2Stream) => streams.push(stream));
    const session = http2.connect(listener.url);
    try {
      // A body taken whole, and one read in parts as it comes.
      expect((await h2Request(session, "/echo/whole", `{"text":"one"}`)).status).toBe(200);
      const apart = new Promise<number>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": "/echo/apart", "content-type": "application/json" });
        stream.on("response", (h) => resolve(Number(h[":status"])));
        stream.on("error", reject);
        stream.write(`{"text":`);
        setTimeout(() => stream.end(`"two"}`), 30);
      });
      expect(await apart).toBe(200);
      await expect.poll(() => streams.length === 2 && streams.every((s) => s.closed)).toBe(true);
      // Node's own listeners are its symbol-named methods (`[kMaybeDestroy]`).
      const ours = ["close", "data", "end", "wantTrailers"]
        .flatMap((event) => streams.flatMap((s) => s.listeners(event)))
        .filter((l) => !l.name.startsWith("["));
      expect(ours).toEqual([]);
    } finally {
      session.close();
    }
  });

  it("takes a streamed request body of many chunks whole", async () => {
    const { listener } = await start({ http2: true });
    const session = http2.connect(listener.url);
    try {
      const size = await new Promise<string>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": "/upload", "content-type": "application/octet-stream" });
        let body = "";
        stream.on("data", (c: Buffer) => (body += c.toString()));
        stream.on("end", () => resolve(body));
        stream.on("error", reject);
        for (let i = 0; i < 40; i++) stream.write(new Uint8Array(16 * 1024).fill(i));
        stream.end();
      });
      expect(JSON.parse(size)).toEqual({ size: 40 * 16 * 1024 });
    } finally {
      session.close();
    }
  });

  it("serves through nodeHandler on a server of one's own (Node's compatibility layer), trailers included", async () => {
    const { server } = testServer();
    const node = http2.createServer(nodeHandler(server));
    await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
    const session = http2.connect(`http://127.0.0.1:${(node.address() as AddressInfo).port}`);
    try {
      const answer = await h2Request(session, "/echo/own", `{"text":"abcd"}`);
      expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { message: "own:4" }]);
    } finally {
      session.close();
      await new Promise((resolve) => node.close(resolve));
    }
  });
});

describe.skipIf(!hasOpenssl)("listen (TLS, h2 and http/1.1 by ALPN on one port)", () => {
  it("serves both protocols on the same port", async () => {
    const { key, cert } = selfSignedCertificate();
    const { listener } = await start({ tls: { key, cert } });
    expect(listener.url).toMatch(/^https:/);

    const session = http2.connect(listener.url, { ca: cert });
    try {
      const answer = await h2Request(session, "/echo/h2", `{"text":"x"}`);
      expect([answer.status, JSON.parse(answer.body), session.alpnProtocol]).toEqual([200, { message: "h2:1" }, "h2"]);
    } finally {
      session.close();
    }

    const h1 = await new Promise<{ status: number; body: string; alpn: string | false | null }>((resolve, reject) => {
      const options = { method: "POST", ca: cert, ALPNProtocols: ["http/1.1"], headers: { "content-type": "application/json" } } as https.RequestOptions;
      const req = https.request(`${listener.url}/echo/h1`, options, (res) => {
        const alpn = (res.socket as TLSSocket).alpnProtocol;
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body, alpn }));
      });
      req.on("error", reject);
      req.end(`{"text":"xy"}`);
    });
    expect([h1.status, JSON.parse(h1.body), h1.alpn]).toEqual([200, { message: "h1:2" }, "http/1.1"]);
  });
});
