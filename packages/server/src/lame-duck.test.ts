/**
 * L1, lame duck: while a listener closes with `lameDuckMs`, the connections
 * already open keep being served, so that a call a load balancer sends on a
 * kept-alive connection (or on an HTTP/2 session) as the close begins is
 * answered instead of crossing the close and being lost; new connections
 * are refused; the close ends as soon as the clients have closed their
 * connections, or when the lame duck ends.
 */
import * as http from "node:http";
import * as net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closeOnSignal, listen } from "./node-entry.js";
import type { NodeListener } from "./node.js";
import { testServer } from "./test-service.js";

const agents: http.Agent[] = [];
afterEach(() => {
  for (const agent of agents.splice(0)) agent.destroy();
});

/** An agent holding one kept-alive connection, and a POST over it. */
function keptAlive(listener: NodeListener) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  const sockets = new Set<net.Socket>();
  const post = (path: string) =>
    new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const req = http.request(`${listener.url}${path}`, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      });
      req.on("socket", (socket) => sockets.add(socket));
      req.on("error", reject);
      req.end('{"text":"hi"}');
    });
  const closed = () => [...sockets].every((socket) => socket.destroyed);
  return { agent, post, sockets, closed };
}

function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });
}

describe("L1: lame duck", () => {
  it("over HTTP/1.1, a call on a connection kept alive from before the close is served, with Connection: close; new connections are refused", async () => {
    const { server } = testServer();
    const listener = await listen(server);
    const client = keptAlive(listener);
    expect(await client.post("/echo/a")).toMatchObject({ status: 200, connection: "keep-alive" });

    const started = Date.now();
    const closing = listener.close({ graceMs: 30_000, lameDuckMs: 30_000 });
    expect(server.closing).toBe(true);
    expect(await connectOutcome(listener.port)).toBe("ECONNREFUSED");
    // The idle connection was left open, and the call written on it is answered, not refused.
    expect(client.closed()).toBe(false);
    expect(await client.post("/echo/b")).toEqual({ status: 200, connection: "close", body: '{"message":"b:2"}' });
    // The answer closed the last connection: the close ends then, not when the lame duck would.
    await closing;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(client.closed()).toBe(true);
  });

  it("over HTTP/1.1, a kept-alive connection the client leaves idle is closed when the lame duck ends", async () => {
    const { server } = testServer();
    const listener = await listen(server);
    const client = keptAlive(listener);
    expect((await client.post("/echo/a")).status).toBe(200);

    await listener.close({ graceMs: 30_000, lameDuckMs: 50 });
    await expect.poll(client.closed).toBe(true);
  });

  it("when the lame duck ends, idle connections are closed while a call in flight finishes on its own", async () => {
    const { server, observed } = testServer();
    const listener = await listen(server);
    const idle = keptAlive(listener);
    expect((await idle.post("/echo/a")).status).toBe(200);
    const waiting = observed.waiting();
    const busy = keptAlive(listener);
    const inFlight = busy.post("/wait");
    await waiting;

    const closing = listener.close({ graceMs: 30_000, lameDuckMs: 50 });
    await expect.poll(idle.closed).toBe(true);
    expect(server.inFlight).toBe(1);
    observed.release();
    expect(await inFlight).toMatchObject({ status: 200, connection: "close" });
    await closing;
    expect(busy.closed()).toBe(true);
  });

  it("over HTTP/2, a call sent on a session as the server starts closing it is served, where without the lame duck it is lost", async () => {
    const outcomes: Record<string, string> = {};
    for (const lameDuckMs of [0, 30_000]) {
      const { server } = testServer();
      const listener = await listen(server, { http2: true });
      const client = await rawHttp2(listener.port);
      client.send(frame(HEADERS, END_STREAM | END_HEADERS, 1, echoFields));
      expect(await client.outcome(1)).toBe("200");
      const started = Date.now();
      const closing = listener.close({ graceMs: 30_000, lameDuckMs });
      // The client sends its call when what the server sent as it began closing has arrived, before reading it: a
      // call crossing the server's GOAWAY (or, in a lame duck, its PING).
      await client.received();
      client.send(frame(HEADERS, END_STREAM | END_HEADERS, 3, echoFields));
      outcomes[`lameDuckMs ${lameDuckMs}`] = await client.outcome(3);
      client.close();
      await closing;
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    // Without the lame duck the server ignores the stream, as its GOAWAY said it would, and closes the connection.
    expect(outcomes).toEqual({ "lameDuckMs 0": "connection closed", "lameDuckMs 30000": "200" });
  });

  it("over HTTP/2, a session with a call open is served on, gets a PING once idle and its GOAWAY when the lame duck ends", async () => {
    const { server, observed } = testServer();
    const listener = await listen(server, { http2: true });
    const client = await rawHttp2(listener.port);
    const waiting = observed.waiting();
    client.send(frame(HEADERS, END_STREAM | END_HEADERS, 1, waitFields));
    await waiting;
    const closing = listener.close({ graceMs: 30_000, lameDuckMs: 500 });
    client.send(frame(HEADERS, END_STREAM | END_HEADERS, 3, echoFields));
    expect(await client.outcome(3)).toBe("200");
    expect(client.pings).toBe(0);
    observed.release();
    expect(await client.outcome(1)).toBe("200");
    await expect.poll(() => client.pings).toBe(1);
    // The client stays: when the lame duck ends, the GOAWAY names the last stream taken, and the session closes.
    await expect.poll(() => client.goaways[0], { timeout: 5_000 }).toBe(3);
    await closing;
  });

  it("closeOnSignal keeps serving for lameDuckMs on SIGTERM-like signals, but not on SIGINT", async () => {
    const statuses: Record<string, number> = {};
    for (const signal of ["SIGUSR2", "SIGINT"] as const) {
      const { server } = testServer();
      const listener = await listen(server);
      const client = keptAlive(listener);
      expect((await client.post("/echo/a")).status).toBe(200);
      let closed = false;
      const dispose = closeOnSignal(listener, { signals: [signal], graceMs: 30_000, lameDuckMs: 30_000, onClosed: () => (closed = true) });
      try {
        process.emit(signal, signal);
        expect(server.closing).toBe(true);
        statuses[signal] = await client.post("/echo/b").then(
          (answer) => answer.status,
          () => 0,
        );
        await expect.poll(() => closed).toBe(true);
      } finally {
        dispose();
      }
    }
    // SIGINT: the idle connection was closed at once (0), or the call crossed the close and was refused (503).
    expect(statuses.SIGUSR2).toBe(200);
    expect([0, 503]).toContain(statuses.SIGINT);
  });
});

/** HTTP/2 frames as a raw client writes them (RFC 9113 §4.1): writes go out at once, unlike a Node client's. */
const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
const [HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY] = [0x1, 0x3, 0x4, 0x6, 0x7];
const [END_STREAM, ACK, END_HEADERS] = [0x1, 0x1, 0x4];
/** HPACK (RFC 7541): `:method: POST`, `:scheme: http`, `:authority: x` and `:path`. */
const postFields = (path: string) => Buffer.concat([Buffer.from([0x83, 0x86, 0x01, 1]), Buffer.from("x"), Buffer.from([0x04, path.length]), Buffer.from(path)]);
const echoFields = postFields("/echo/x");
const waitFields = postFields("/wait");

function frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId, 5);
  return Buffer.concat([head, payload]);
}

/**
 * A raw HTTP/2 connection that acknowledges SETTINGS and PINGs (and
 * counts these), and tells each stream's outcome: its answer's status (`:status` 200
 * is HPACK's static entry 8), or `reset (code)`; and the GOAWAYs' last
 * stream ids.
 */
async function rawHttp2(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  const outcomes = new Map<number, string>();
  const goaways: number[] = [];
  let pings = 0;
  let frames = 0;
  let rest = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    rest = Buffer.concat([rest, chunk]);
    while (rest.length >= 9 && rest.length >= 9 + rest.readUIntBE(0, 3)) {
      const [type, flags, id, payload] = [rest[3]!, rest[4]!, rest.readUInt32BE(5) & 0x7fffffff, rest.subarray(9, 9 + rest.readUIntBE(0, 3))];
      frames++;
      if (type === SETTINGS && (flags & ACK) === 0) socket.write(frame(SETTINGS, ACK, 0));
      if (type === PING && (flags & ACK) === 0) {
        pings++;
        socket.write(frame(PING, ACK, 0, Buffer.from(payload)));
      }
      if (type === GOAWAY) goaways.push(payload.readUInt32BE(0) & 0x7fffffff);
      if (type === HEADERS && !outcomes.has(id)) outcomes.set(id, payload[0] === 0x88 ? "200" : `answered (${payload.toString("hex")})`);
      if (type === RST_STREAM && !outcomes.has(id)) outcomes.set(id, `reset (${payload.readUInt32BE(0)})`);
      rest = rest.subarray(9 + payload.length);
    }
  });
  socket.on("error", () => {});
  socket.write(Buffer.concat([PREFACE, frame(SETTINGS, 0, 0)]));
  await expect.poll(() => frames).toBeGreaterThan(0);
  return {
    goaways,
    get pings() {
      return pings;
    },
    send: (bytes: Buffer) => socket.write(bytes),
    /** Resolves when a frame arrives. */
    received: async () => {
      const seen = frames;
      await expect.poll(() => frames > seen || socket.destroyed).toBe(true);
    },
    outcome: async (id: number) => {
      await expect.poll(() => outcomes.has(id) || socket.destroyed).toBe(true);
      return outcomes.get(id) ?? "connection closed";
    },
    close: () => socket.destroy(),
  };
}
