/**
 * The HTTP/2 transport's response body as an async iterator, on a real
 * `node:http2` server: reads asked for while another waits, a reader that
 * stops while one waits or before the body ends, and trailers.
 */
import { once } from "node:events";
import { connect, createServer, type Http2Server, type ServerHttp2Stream } from "node:http2";
import type { AddressInfo } from "node:net";
import { HttpHeaders } from "@anvil/core";
import { afterEach, describe, expect, it } from "vitest";
import { createHttp2Transport } from "./http2-transport.js";
import type { TransportRequest } from "./transport.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An h2c server whose streams the test answers; resolves with its URL and the streams as they come. */
async function server() {
  const h2: Http2Server = createServer();
  const streams: ServerHttp2Stream[] = [];
  const closed: string[] = [];
  h2.on("stream", (stream, headers) => {
    stream.on("error", () => {});
    stream.on("close", () => closed.push(String(headers[":path"])));
    streams.push(stream);
  });
  h2.listen(0, "127.0.0.1");
  await once(h2, "listening");
  const sessions = new Set<{ destroy(): void }>();
  h2.on("session", (s) => sessions.add(s));
  closers.push(async () => {
    for (const s of sessions) s.destroy();
    await new Promise((resolve) => h2.close(resolve));
  });
  return { url: `http://127.0.0.1:${(h2.address() as AddressInfo).port}`, streams, closed };
}

function transport() {
  const t = createHttp2Transport(connect);
  closers.push(() => t.close());
  return t;
}

const request = (url: string): TransportRequest => ({ method: "GET", url: new URL(url), headers: new HttpHeaders(), body: undefined });
const text = (chunk: IteratorResult<Uint8Array>) => (chunk.done ? "(done)" : new TextDecoder().decode(chunk.value));

describe("http2Transport: the response body", () => {
  it("answers reads asked for at once in order, each with its own chunk, then the end", async () => {
    const { url, streams } = await server();
    const pending = transport().send(request(`${url}/two`));
    await expect.poll(() => streams.length).toBe(1);
    streams[0]!.respond({ ":status": 200 });
    const response = await pending;
    const body = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const reads = [body.next(), body.next(), body.next()];
    streams[0]!.write("one;");
    await reads[0];
    streams[0]!.end("two");
    expect((await Promise.all(reads)).map(text)).toEqual(["one;", "two", "(done)"]);
  });

  it("ends a read still waiting when the reader stops, and cancels the stream", async () => {
    const { url, streams, closed } = await server();
    const pending = transport().send(request(`${url}/stop`));
    await expect.poll(() => streams.length).toBe(1);
    streams[0]!.respond({ ":status": 200 });
    const body = ((await pending).body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const waiting = body.next();
    await body.return!();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(await body.next()).toEqual({ done: true, value: undefined });
    await expect.poll(() => closed).toEqual(["/stop"]);
  });

  it("gives the trailers as a promise, settled once they came; a copy of the response (a spread) keeps them", async () => {
    const { url, streams } = await server();
    const pending = transport().send(request(`${url}/trailers`));
    await expect.poll(() => streams.length).toBe(1);
    const stream = streams[0]!;
    stream.respond({ ":status": 200 }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    const response = { ...(await pending) };
    expect(Object.keys(response).sort()).toEqual(["body", "headers", "status", "trailers"]);
    stream.end("body");
    const chunks: string[] = [];
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) chunks.push(new TextDecoder().decode(chunk));
    expect(chunks.join("")).toBe("body");
    expect((await response.trailers)!.get("grpc-status")).toBe("0");
  });
});
