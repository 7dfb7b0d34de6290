/**
 * L3: the HTTP/2 transport against a real `node:http2` server that sends
 * GOAWAY on an idle session, while a stream is in flight, with an error
 * code, and a hundred times in a row.
 */
import { once } from "node:events";
import { type ClientHttp2Session, connect, createServer, type Http2Server, type ServerHttp2Session, type ServerHttp2Stream } from "node:http2";
import type { AddressInfo } from "node:net";
import { TransportError } from "@anvil/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient } from "./client.js";
import { createHttp2Transport, openSessionCount } from "./http2-transport.js";
import { isUnsent } from "./retry.js";
import { testJson, Things } from "./test-fixtures.js";

const NGHTTP2_INTERNAL_ERROR = 2;

/** Errors nobody handled, collected while a test runs: each test expects none. */
const unhandled: unknown[] = [];
const collect = (error: unknown): void => void unhandled.push(error);
beforeEach(() => {
  unhandled.length = 0;
  process.on("uncaughtException", collect);
  process.on("unhandledRejection", collect);
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  process.off("uncaughtException", collect);
  process.off("unhandledRejection", collect);
});

/** A stream the server holds: the test answers it, or sends GOAWAY over its session first. */
interface Held {
  readonly stream: ServerHttp2Stream;
  readonly id: string;
  answer(): void;
}

/**
 * An h2c server answering the test protocol: `{ id }` echoed, except for ids
 * starting with `hold`, whose streams wait in `held` until the test answers.
 */
async function goawayServer(onSession?: (session: ServerHttp2Session) => void) {
  const server: Http2Server = createServer();
  const sessions: ServerHttp2Session[] = [];
  const held: Held[] = [];
  let onHeld: (() => void) | undefined;
  server.on("session", (session) => {
    sessions.push(session);
    session.on("error", () => {}); // a session ended with GOAWAY(error) reports it here too
    onSession?.(session);
  });
  server.on("stream", async (stream, headers) => {
    stream.on("error", () => {}); // a stream above a GOAWAY's last stream id is refused
    let body = "";
    try {
      for await (const chunk of stream) body += chunk;
    } catch {
      return;
    }
    const id = (JSON.parse(body || "{}") as { id?: string }).id ?? "?";
    const answer = () => {
      if (stream.destroyed) return;
      stream.respond({ ":status": 200, "content-type": "application/json" });
      stream.end(JSON.stringify({ id, name: String(headers[":path"]) }));
    };
    if (!id.startsWith("hold")) return answer();
    held.push({ stream, id, answer });
    onHeld?.();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closers.push(async () => {
    for (const s of sessions) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  /** Resolves once `count` streams are held. */
  const heldStreams = (count: number): Promise<Held[]> =>
    new Promise((resolve) => {
      const check = () => {
        if (held.length < count) return;
        onHeld = undefined;
        resolve(held.slice(0, count));
      };
      onHeld = check;
      check();
    });
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sessions, heldStreams };
}

/** Sends GOAWAY (NO_ERROR unless `code` says otherwise), naming the last stream the server took, or its newest. */
function sendGoaway(session: ServerHttp2Session, code = 0, lastStreamId?: number): void {
  if (lastStreamId === undefined) session.goaway(code);
  else session.goaway(code, lastStreamId);
}

/** A client over an HTTP/2 transport whose sessions the test sees (to wait until one has read a GOAWAY). */
async function setup(retry: { maxAttempts?: number } = {}, onSession?: (session: ServerHttp2Session) => void) {
  const server = await goawayServer(onSession);
  const clientSessions: ClientHttp2Session[] = [];
  const transport = createHttp2Transport(((origin: string) => {
    const session = connect(origin);
    clientSessions.push(session);
    return session;
  }) as typeof connect);
  closers.push(() => transport.close());
  const client = createClient(Things, { endpoint: server.endpoint, protocols: [testJson()], transport, retry: { baseDelayMs: 1, ...retry } });
  /** Resolves once the client's newest session has read a GOAWAY. */
  const goawayRead = () => once(clientSessions.at(-1)!, "goaway");
  return { ...server, transport, client, clientSessions, goawayRead };
}

describe("L3: the HTTP/2 transport survives GOAWAY in every state", () => {
  it("L3 (a): GOAWAY NO_ERROR on an idle session: the next call opens a new session", async () => {
    const { client, sessions, transport, goawayRead } = await setup({ maxAttempts: 1 });
    expect((await client.createThing({ id: "a" })).id).toBe("a");
    const read = goawayRead();
    sendGoaway(sessions[0]!);
    await read;
    expect((await client.createThing({ id: "b" })).id).toBe("b");
    expect(sessions).toHaveLength(2);
    await expect.poll(() => openSessionCount(transport)).toBe(1);
    expect(unhandled).toEqual([]);
  });

  it("L3 (b): GOAWAY NO_ERROR with a stream in flight: that stream completes, new calls go to a new session", async () => {
    const { client, sessions, heldStreams, transport, goawayRead } = await setup({ maxAttempts: 1 });
    const inFlight = client.createThing({ id: "hold-1" });
    const [held] = await heldStreams(1);
    const read = goawayRead();
    sendGoaway(sessions[0]!, 0, held!.stream.id);
    await read;
    expect((await client.createThing({ id: "after" })).id).toBe("after");
    expect(sessions).toHaveLength(2);
    expect(openSessionCount(transport)).toBe(2); // the draining session, and the new one
    held!.answer();
    const out = await inFlight;
    expect(out).toMatchObject({ id: "hold-1", $metadata: { attempts: 1 } });
    await expect.poll(() => openSessionCount(transport)).toBe(1);
    expect(sessions).toHaveLength(2);
    expect(unhandled).toEqual([]);
  });

  it("L3 (c): GOAWAY NO_ERROR a hundred times, with a stream in flight each time: every call succeeds, sessions do not pile up", async () => {
    const { client, sessions, heldStreams, transport, goawayRead } = await setup({ maxAttempts: 1 });
    for (let i = 0; i < 100; i++) {
      const inFlight = client.createThing({ id: `hold-${i}` });
      const held = (await heldStreams(i + 1))[i]!;
      const read = goawayRead();
      sendGoaway(sessions.at(-1)!, 0, held.stream.id);
      await read;
      expect((await client.createThing({ id: `next-${i}` })).id).toBe(`next-${i}`);
      held.answer();
      expect((await inFlight).id).toBe(`hold-${i}`);
      expect(openSessionCount(transport)).toBeLessThanOrEqual(2);
    }
    expect(sessions).toHaveLength(101);
    await expect.poll(() => openSessionCount(transport)).toBe(1);
    expect(unhandled).toEqual([]);
  });

  it("L3: a call racing GOAWAY NO_ERROR (sent before the client read the frame) is moved to a new session, even a non-idempotent one", async () => {
    const { client, sessions, transport } = await setup({ maxAttempts: 2 });
    expect((await client.createThing({ id: "a" })).id).toBe("a");
    for (let i = 0; i < 100; i++) {
      sendGoaway(sessions.at(-1)!);
      expect((await client.createThing({ id: `r${i}` })).id).toBe(`r${i}`);
    }
    await expect.poll(() => openSessionCount(transport)).toBe(1);
    expect(unhandled).toEqual([]);
  });

  it("L3: GOAWAY NO_ERROR on a session just opened, before it took a stream: the call moves to a new session", async () => {
    let first = true;
    const { client, sessions, transport } = await setup({ maxAttempts: 2 }, (session) => {
      if (first) session.goaway(0, 0);
      first = false;
    });
    expect(await client.createThing({ id: "a" })).toMatchObject({ id: "a" });
    expect(sessions).toHaveLength(2);
    await expect.poll(() => openSessionCount(transport)).toBe(1);
    expect(unhandled).toEqual([]);
  });

  it("L3: GOAWAY with an error code, a stream in flight that the server took: the call fails with a TransportError that is not unsent", async () => {
    const { client, sessions, heldStreams, transport } = await setup({ maxAttempts: 3 });
    const inFlight = client.createThing({ id: "hold-taken" }).catch((e: unknown) => e);
    const [held] = await heldStreams(1);
    sendGoaway(sessions[0]!, NGHTTP2_INTERNAL_ERROR, held!.stream.id);
    const error = await inFlight;
    expect(TransportError.is(error)).toBe(true);
    expect(isUnsent(error)).toBe(false);
    // The server may have acted on it: a non-idempotent call is not sent again.
    expect(error).toMatchObject({ code: "ERR_HTTP2_SESSION_ERROR", $metadata: { attempts: 1 } });
    expect((await client.createThing({ id: "next" })).id).toBe("next");
    await expect.poll(() => openSessionCount(transport)).toBe(1);
    expect(unhandled).toEqual([]);
  });

  it("L3: GOAWAY with an error code below a stream in flight: the stream was never processed, so even a non-idempotent call is retried", async () => {
    const { client, sessions, heldStreams, transport } = await setup({ maxAttempts: 3 });
    await client.createThing({ id: "warm-up" }); // stream 1, so that the held stream is not the first
    const inFlight = client.createThing({ id: "hold-unprocessed" });
    const [held] = await heldStreams(1);
    sendGoaway(sessions[0]!, NGHTTP2_INTERNAL_ERROR, held!.stream.id! - 2);
    // The second attempt is held on the new session: answer it (or fail now, if the call failed instead).
    const [, again] = await Promise.race([heldStreams(2), inFlight.then(() => [])]);
    again!.answer();
    expect(await inFlight).toMatchObject({ id: "hold-unprocessed", $metadata: { attempts: 2 } });
    expect(sessions).toHaveLength(2);
    await expect.poll(() => openSessionCount(transport)).toBe(1);
    expect(unhandled).toEqual([]);
  });

  it("L3: the unprocessed stream's error says so: code REFUSED_STREAM, unsent", async () => {
    const { sessions, heldStreams, transport, endpoint } = await setup();
    const url = new URL(`${endpoint}/CreateThing`);
    const send = (id: string) => transport.send({ method: "POST", url, headers: new Headers(), body: JSON.stringify({ id }) });
    await send("warm-up"); // stream 1, so that the held stream is not the first
    const pending = send("hold-x").catch((e: unknown) => e);
    const [held] = await heldStreams(1);
    sendGoaway(sessions[0]!, NGHTTP2_INTERNAL_ERROR, held!.stream.id! - 2);
    const error = await pending;
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: "REFUSED_STREAM" });
    expect((error as Error).message).toMatch(/^http2: /);
    expect(isUnsent(error)).toBe(true);
    expect(unhandled).toEqual([]);
  });
});
