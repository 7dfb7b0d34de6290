/**
 * The bounds on one HTTP/2 session (RELIABILITY.md H1, H2, H4), over real
 * sockets with Node's HTTP/2 client: calls in flight are bounded, counting
 * those whose streams were reset while their handlers run on; a session
 * that keeps resetting is told to calm down; PINGs beyond gRPC's policy end
 * the session, PINGs within it never do.
 */
import * as http2 from "node:http2";
import { afterEach, describe, expect, it } from "vitest";
import { listen, type NodeListener } from "./node-entry.js";
import type { ListenOptions } from "./node.js";
import { createServer } from "./server.js";
import { testProtocol } from "./test-protocol.js";
import { TestService } from "./test-service.js";

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
});
