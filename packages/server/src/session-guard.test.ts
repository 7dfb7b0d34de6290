/**
 * The bounds on one HTTP/2 session (RELIABILITY.md H1, H2, H4, H5, H6),
 * over real sockets with Node's HTTP/2 client and raw frames: calls in
 * flight are bounded, counting those whose streams were reset while their
 * handlers run on; a session that keeps resetting is told to calm down;
 * PINGs beyond gRPC's policy end the session, PINGs within it never do;
 * floods of frames no client should send end it too (Node's own limits); a
 * client that stops reading holds a bounded part of its answers, and past
 * its memory a session refuses new streams.
 */
import * as http2 from "node:http2";
import * as net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listen, type NodeListener } from "./node-entry.js";
import type { ListenOptions } from "./node.js";
import { createServer } from "./server.js";
import { testProtocol } from "./test-protocol.js";
import { CHUNK, TestService } from "./test-service.js";

const { NGHTTP2_CANCEL, NGHTTP2_REFUSED_STREAM, NGHTTP2_ENHANCE_YOUR_CALM } = http2.constants;

const listeners: NodeListener[] = [];
const sessions: http2.ClientHttp2Session[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) session.destroy();
  await Promise.all(listeners.splice(0).map((l) => l.close({ graceMs: 0 })));
});

/** A server whose `wait` handlers never settle on their own, deaf to their signal (the worst handler there is). */
async function start(options: ListenOptions) {
  const running = { count: 0 };
  const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
    .register({
      echo: (input) => ({ message: input.name }),
      fail: () => ({}),
      // Waits until its call is abandoned, as a handler awaiting I/O with its signal does.
      download: (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason);
          else signal.addEventListener("abort", () => reject(signal.reason));
        }),
      upload: () => ({}),
      wait: () => {
        running.count++;
        return new Promise(() => undefined);
      },
    })
    .mapService();
  const listener = await listen(server, { http2: true, ...options });
  listeners.push(listener);
  const session = http2.connect(listener.url);
  session.on("error", () => {});
  sessions.push(session);
  await new Promise((resolve) => session.once("remoteSettings", resolve));
  return { listener, session, running };
}

/** Opens a whole request on the session; resolves with how its stream closed (the reset code) and the status if any. */
function call(session: http2.ClientHttp2Session, path: string, resetAtOnce = false): Promise<{ rstCode: number | undefined; status?: number }> {
  return new Promise((resolve) => {
    const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/json" }, { endStream: false });
    let status: number | undefined;
    stream.on("response", (headers) => (status = headers[":status"]));
    stream.on("error", () => {});
    stream.on("close", () => resolve({ rstCode: stream.rstCode, ...(status !== undefined ? { status } : {}) }));
    stream.end("{}");
    stream.resume();
    if (resetAtOnce) stream.close(NGHTTP2_CANCEL);
  });
}

/** Resolves with the GOAWAY the server sends (code and debug data). */
const goaway = (session: http2.ClientHttp2Session) =>
  new Promise<{ code: number; data: string }>((resolve) =>
    session.once("goaway", (code, _last, data?: Buffer) => resolve({ code, data: data?.toString() ?? "" })),
  );

describe("HTTP/2 session bounds", () => {
  it("H1: advertises 100 concurrent streams by default, and the number given", async () => {
    const { session } = await start({});
    expect(session.remoteSettings.maxConcurrentStreams).toBe(100);
    const small = await start({ maxConcurrentStreams: 7 });
    expect(small.session.remoteSettings.maxConcurrentStreams).toBe(7);
    await expect(start({ maxConcurrentStreams: 0 })).rejects.toThrow(/maxConcurrentStreams must be a positive integer/);
  });

  it("H1/H2: never runs more handlers per session than advertised: streams reset while their handlers run on still count, and the excess is refused", async () => {
    const { session, running } = await start({ maxConcurrentStreams: 5 });
    // Five calls whose streams the client resets at once (a rapid reset): their deaf handlers run on.
    const reset = await Promise.all(Array.from({ length: 5 }, () => call(session, "/wait", true)));
    expect(reset.every((r) => r.rstCode === NGHTTP2_CANCEL)).toBe(true);
    await expect.poll(() => running.count).toBe(5);
    // No stream is open now, but five handlers are: the next calls are refused.
    const refused = await Promise.all(Array.from({ length: 3 }, () => call(session, "/echo/a")));
    expect(refused.map((r) => r.rstCode)).toEqual([NGHTTP2_REFUSED_STREAM, NGHTTP2_REFUSED_STREAM, NGHTTP2_REFUSED_STREAM]);
    expect(running.count).toBe(5);
    // Another session has its own bound.
    const other = http2.connect(listeners[0]!.url);
    sessions.push(other);
    expect((await call(other, "/echo/b")).status).toBe(200);
  });

  it("H2: a session that keeps opening and resetting streams gets GOAWAY ENHANCE_YOUR_CALM", async () => {
    const { session } = await start({ maxConcurrentStreams: 5 });
    const told = goaway(session);
    // Each handler ends when its call is reset, so none is refused: the resets alone, more than ten times the bound
    // in a second, are the abuse.
    let calls = 0;
    while (!session.destroyed && !session.closed && calls < 200) {
      await call(session, "/download/8", true);
      calls++;
    }
    expect(await told).toEqual({ code: NGHTTP2_ENHANCE_YOUR_CALM, data: "too_many_resets" });
    expect(calls).toBeGreaterThan(50);
  });

  it("H4: PINGs every 10 ms on an idle session end it with GOAWAY ENHANCE_YOUR_CALM, too_many_pings", async () => {
    const { session } = await start({});
    const told = goaway(session);
    const pinger = setInterval(() => {
      if (!session.destroyed && !session.closed) session.ping(() => {});
    }, 10);
    try {
      expect(await told).toEqual({ code: NGHTTP2_ENHANCE_YOUR_CALM, data: "too_many_pings" });
    } finally {
      clearInterval(pinger);
    }
  });

  it("H4: a client pinging within the policy while calls are in flight is never disconnected", async () => {
    const { session, running } = await start({ keepalive: { minIntervalMs: 40 } });
    let away = false;
    session.on("goaway", () => (away = true));
    void call(session, "/wait");
    await expect.poll(() => running.count).toBe(1);
    let acks = 0;
    for (let i = 0; i < 8; i++) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      await new Promise<void>((resolve) => session.ping((error) => (error === null && acks++, resolve())));
    }
    expect([acks, away, session.destroyed]).toEqual([8, false, false]);
    expect((await call(session, "/echo/still")).status).toBe(200);
  });

  it.each([
    ["2 000 HEADERS with a field name in capitals", (id: number) => [frame(HEADERS, END_STREAM | END_HEADERS, id, invalidFields)]],
    ["2 000 streams each sent a WINDOW_UPDATE of 0", (id: number) => [frame(HEADERS, END_HEADERS, id, postRoot), frame(WINDOW_UPDATE, 0, id, Buffer.alloc(4))]],
    ["2 000 SETTINGS never waiting for their ACK", () => [frame(SETTINGS, 0, 0, Buffer.alloc(0))]],
    // A connection error: after its GOAWAY, Node stops reading the session but leaves its socket open, like an idle
    // one, until the idle time closes it.
    ["DATA on streams never opened", (id: number) => [frame(DATA, 0, id, Buffer.from("x"))]],
  ])("H5: a flood of %s ends the session with GOAWAY and a close, with no exception, and other sessions are served", async (_name, flood) => {
    const { listener } = await start({ idleTimeoutMs: 400 });
    let uncaught = 0;
    const count = (): void => void uncaught++;
    process.on("uncaughtException", count);
    try {
      const socket = net.connect(listener.port, "127.0.0.1");
      socket.on("error", () => {});
      const frames: Buffer[] = [PREFACE, frame(SETTINGS, 0, 0, Buffer.alloc(0))];
      for (let i = 0; i < 2_000; i++) frames.push(...flood(2 * i + 1));
      socket.end(Buffer.concat(frames));
      const goawayCodes: number[] = [];
      let rest = Buffer.alloc(0);
      socket.on("data", (chunk: Buffer) => {
        rest = Buffer.concat([rest, chunk]);
        while (rest.length >= 9 && rest.length >= 9 + rest.readUIntBE(0, 3)) {
          if (rest[3] === GOAWAY) goawayCodes.push(rest.readUInt32BE(13));
          rest = rest.subarray(9 + rest.readUIntBE(0, 3));
        }
      });
      await new Promise((resolve) => socket.once("close", resolve));
      expect(goawayCodes.length).toBeGreaterThan(0);
      expect(goawayCodes.every((code) => code !== 0)).toBe(true);
      expect(uncaught).toBe(0);
      const other = http2.connect(listener.url);
      sessions.push(other);
      expect((await call(other, "/echo/after")).status).toBe(200);
    } finally {
      process.off("uncaughtException", count);
    }
  });

  it("H6: a client that stops reading its 100 downloads holds a bounded part of them, and gets them all once it reads", async () => {
    const server = await downloads({});
    const { whileStalled, ended, resets } = await stalledDownloads(server, 100, 16);
    // 100 MiB asked for; what the handlers make is what the session's and the socket's buffers take, a few MiB.
    expect(whileStalled * CHUNK).toBeLessThan(24 * 2 ** 20);
    expect([ended.size, resets.size, server.produced()]).toEqual([100, 0, 100 * 16]);
  });

  it("H6: past maxSessionMemoryMb, a session's new streams are refused with ENHANCE_YOUR_CALM while its open ones go on", async () => {
    const server = await downloads({ maxSessionMemoryMb: 1 });
    const { ended, resets } = await stalledDownloads(server, 100, 16);
    expect(ended.size).toBeGreaterThan(0);
    expect(resets.size).toBeGreaterThan(0);
    expect(ended.size + resets.size).toBe(100);
    expect(new Set(resets.values())).toEqual(new Set([NGHTTP2_ENHANCE_YOUR_CALM]));
    expect(server.produced()).toBe(ended.size * 16);
  });
});

/** A server whose downloads count the chunks they make. */
async function downloads(options: ListenOptions) {
  let produced = 0;
  const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
    .register({
      echo: (input) => ({ message: input.name }),
      fail: () => ({}),
      upload: () => ({}),
      wait: () => new Promise(() => undefined),
      download: (input) => ({
        data: (async function* () {
          for (let i = 0; i < Number(input.count); i++, produced++) yield new Uint8Array(CHUNK);
        })(),
      }),
    })
    .mapService();
  const listener = await listen(server, { http2: true, ...options });
  listeners.push(listener);
  return { listener, produced: () => produced };
}

/**
 * Asks for `streams` downloads of `chunks` chunks each on one raw session with windows as large as they go, so that
 * only its unread socket holds the answers back; waits until the handlers stop making chunks, then reads everything.
 * Returns the chunks made while the socket was unread, and how each stream ended (END_STREAM, or RST_STREAM's code).
 */
async function stalledDownloads({ listener, produced }: Awaited<ReturnType<typeof downloads>>, streams: number, chunks: number) {
  const socket = net.connect(listener.port, "127.0.0.1");
  socket.on("error", () => {});
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.pause();
  const settings = Buffer.alloc(6);
  settings.writeUInt16BE(SETTINGS_INITIAL_WINDOW_SIZE, 0);
  settings.writeUInt32BE(2 ** 31 - 1, 2);
  const increment = Buffer.alloc(4);
  increment.writeUInt32BE(2 ** 31 - 1 - 65_535);
  const requests = Array.from({ length: streams }, (_, i) => frame(HEADERS, END_STREAM | END_HEADERS, 2 * i + 1, downloadFields(chunks)));
  socket.write(Buffer.concat([PREFACE, frame(SETTINGS, 0, 0, settings), frame(WINDOW_UPDATE, 0, 0, increment), ...requests]));
  let whileStalled = -1;
  for (let made = produced(); made !== whileStalled; made = produced()) {
    whileStalled = made;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // How each stream ended first: END_STREAM, or RST_STREAM with its code.
  const resets = new Map<number, number>();
  const ended = new Set<number>();
  let rest: Buffer = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    rest = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    while (rest.length >= 9 && rest.length >= 9 + rest.readUIntBE(0, 3)) {
      const id = rest.readUInt32BE(5) & 0x7fffffff;
      if (id !== 0 && !ended.has(id) && !resets.has(id)) {
        if (rest[3] === RST_STREAM) resets.set(id, rest.readUInt32BE(9));
        else if ((rest[3] === DATA || rest[3] === HEADERS) && (rest[4]! & END_STREAM) !== 0) ended.add(id);
      }
      rest = rest.subarray(9 + rest.readUIntBE(0, 3));
    }
  });
  socket.resume();
  await expect.poll(() => ended.size + resets.size, { timeout: 20_000 }).toBe(streams);
  socket.destroy();
  return { whileStalled, ended, resets };
}

/** HTTP/2 frames as a raw client writes them (RFC 9113 §4.1), for the floods a well-behaved client never sends. */
const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
const [DATA, HEADERS, RST_STREAM, SETTINGS, GOAWAY, WINDOW_UPDATE] = [0x0, 0x1, 0x3, 0x4, 0x7, 0x8];
const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
const [END_STREAM, END_HEADERS] = [0x1, 0x4];

function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId, 5);
  return Buffer.concat([head, payload]);
}

/** HPACK (RFC 7541): `:method: POST`, `:scheme: http`, `:path: /` from the static table. */
const postRoot = Buffer.from([0x83, 0x86, 0x84]);
/** `POST /download/{count}` with an `:authority`. */
const downloadFields = (count: number) => {
  const path = Buffer.from(`/download/${count}`);
  return Buffer.concat([Buffer.from([0x83, 0x86, 0x01, 1]), Buffer.from("x"), Buffer.from([0x04, path.length]), path]);
};
/** The same as postRoot, and a literal field whose name has capitals, which HTTP/2 forbids. */
const invalidFields = Buffer.concat([postRoot, Buffer.from([0x00, 5]), Buffer.from("X-Bad"), Buffer.from([1]), Buffer.from("v")]);
