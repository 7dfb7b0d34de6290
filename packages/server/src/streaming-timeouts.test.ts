/**
 * T2: timeouts that fit streaming, over HTTP/1.1 and HTTP/2 (gRPC's transport): a
 * buffered body must arrive within `requestTimeoutMs`; a streamed one may
 * take as long as it likes, as long as it keeps its reader fed
 * (`bodyIdleTimeoutMs`).
 */
import * as http from "node:http";
import * as http2 from "node:http2";
import { afterEach, describe, expect, it } from "vitest";
import { listen, type NodeListener } from "./node-entry.js";
import { testServer } from "./test-service.js";

const listeners: NodeListener[] = [];
const sessions: http2.ClientHttp2Session[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) session.destroy();
  await Promise.all(listeners.splice(0).map((l) => l.close({ graceMs: 0 })));
});

async function start() {
  const { server } = testServer();
  const listener = await listen(server, { http2: true, requestTimeoutMs: 200, bodyIdleTimeoutMs: 200 });
  listeners.push(listener);
  const session = http2.connect(listener.url);
  session.on("error", () => {});
  sessions.push(session);
  return session;
}

/** Sends a body chunk by chunk, `gapMs` apart; resolves with the answer's status (undefined for a reset) and body. */
function send(
  session: http2.ClientHttp2Session,
  path: string,
  chunks: readonly string[],
  gapMs: number,
  end = true,
): Promise<{ status?: number; body: string }> {
  return new Promise((resolve) => {
    const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/json" }, { endStream: false });
    let status: number | undefined;
    let body = "";
    stream.setEncoding("utf8");
    stream.on("response", (headers) => (status = headers[":status"]));
    stream.on("data", (chunk: string) => (body += chunk));
    stream.on("error", () => {});
    stream.on("close", () => resolve({ ...(status !== undefined ? { status } : {}), body }));
    let i = 0;
    const next = (): void => {
      if (stream.closed || stream.destroyed) return;
      if (i < chunks.length) {
        stream.write(chunks[i++]);
        setTimeout(next, gapMs);
      } else if (end) stream.end();
    };
    next();
  });
}

describe("timeouts that fit streaming", () => {
  it("T2: a streamed upload lasting several times requestTimeoutMs succeeds while it keeps sending", async () => {
    const session = await start();
    const chunks = Array.from({ length: 12 }, () => "x".repeat(100)); // about 12 × 60 ms: three times the 200 ms
    const answer = await send(session, "/upload", chunks, 60);
    expect(answer).toEqual({ status: 200, body: JSON.stringify({ size: 1200 }) });
  });

  it("T2: a streamed upload that stops sending is cut after bodyIdleTimeoutMs", async () => {
    const session = await start();
    const started = Date.now();
    const answer = await send(session, "/upload", ["x"], 0, false);
    expect(answer.status).toBe(408);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("T2: a buffered body still arriving after requestTimeoutMs gets a 408, however busy the client is", async () => {
    const session = await start();
    const chunks = Array.from({ length: 20 }, () => " "); // 20 × 60 ms of whitespace: valid JSON, never done in time
    const answer = await send(session, "/echo/a", ['{"text":"', ...chunks], 60);
    expect(answer.status).toBe(408);
  });
});

/** The same over HTTP/1.1: a chunked body, chunk by chunk, `gapMs` apart. */
function send1(url: string, path: string, chunks: readonly string[], gapMs: number, end = true): Promise<{ status?: number; body: string }> {
  return new Promise((resolve) => {
    let status: number | undefined;
    let body = "";
    const req = http.request(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
      status = res.statusCode;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ ...(status !== undefined ? { status } : {}), body }));
      res.on("error", () => resolve({ body }));
    });
    req.on("error", () => resolve({ ...(status !== undefined ? { status } : {}), body }));
    let i = 0;
    const next = (): void => {
      if (req.destroyed) return;
      if (i < chunks.length) {
        req.write(chunks[i++]);
        setTimeout(next, gapMs);
      } else if (end) req.end();
    };
    next();
  });
}

describe("timeouts that fit streaming, over HTTP/1.1", () => {
  async function start1() {
    const { server } = testServer();
    const listener = await listen(server, { requestTimeoutMs: 200, bodyIdleTimeoutMs: 200 });
    listeners.push(listener);
    return listener.url;
  }

  it("T2: a streamed upload lasting several times requestTimeoutMs succeeds while it keeps sending", async () => {
    const url = await start1();
    const chunks = Array.from({ length: 12 }, () => "x".repeat(100));
    expect(await send1(url, "/upload", chunks, 60)).toEqual({ status: 200, body: JSON.stringify({ size: 1200 }) });
  });

  it("T2: a streamed upload that stops sending is cut after bodyIdleTimeoutMs", async () => {
    const url = await start1();
    const started = Date.now();
    expect((await send1(url, "/upload", ["x"], 0, false)).status).toBe(408);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("T2: a buffered body still arriving after requestTimeoutMs gets a 408, however busy the client is", async () => {
    const url = await start1();
    const chunks = Array.from({ length: 20 }, () => " ");
    expect((await send1(url, "/echo/a", ['{"text":"', ...chunks], 60)).status).toBe(408);
  });
});
