/**
 * Streaming over a real socket: a restJson1 duplex event stream through the
 * Node adapter, over HTTP/2 and HTTP/1.1. The client sends its next event
 * only after the server's answer to the previous one arrived, so the round
 * trip can only complete if neither side buffers the whole stream. A
 * corrupt or oversized frame ends its own stream only (V1); a caller that
 * goes away ends the handler's iteration, and a failing source ends the
 * caller's with a typed error that says nothing of it (V2).
 */
import * as http from "node:http";
import * as http2 from "node:http2";
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byteChunks, type ByteStream, type HttpRequest, type HttpResponse, type UnionValue } from "@anvil/core";
import { binaryBody, readBody } from "@anvil/core/protocol";
import { integer, member, operation, service, string, struct, union } from "@anvil/core/codegenv1";
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";

const Say = struct("example.chat#Say", [member("text", string)]);
const Heard = struct("example.chat#Heard", [member("text", string), member("seq", integer, { eventHeader: true })]);
const Lines = union("example.chat#Lines", [member("say", Say)], { streaming: true });
const Echoes = union("example.chat#Echoes", [member("heard", Heard)], { streaming: true });

const Talk = operation("example.chat#Talk", {
  input: struct<{ room: string; lines?: AsyncIterable<UnionValue> }>("example.chat#TalkInput", [
    member("room", string, { required: true, httpLabel: true }),
    member("lines", Lines, { httpPayload: true }),
  ]),
  output: struct<{ room?: string; echoes?: AsyncIterable<UnionValue> }>("example.chat#TalkOutput", [
    member("room", string, { httpHeader: "x-room" }),
    member("echoes", Echoes, { httpPayload: true }),
  ]),
  traits: { http: { method: "POST", uri: "/rooms/{room}/talk", code: 200 } },
});
const Chat = service("example.chat#Chat", { operations: { talk: Talk }, protocols: ["aws.protocols#restJson1"] });

type Transport = (request: HttpRequest) => Promise<HttpResponse>;

/** Writes a body stream chunk by chunk, waiting for `drain`, then ends. */
async function pump(body: ByteStream | Uint8Array | undefined, out: NodeJS.WritableStream & { write(chunk: Uint8Array): boolean }): Promise<void> {
  if (body instanceof Uint8Array) out.write(body);
  else if (body !== undefined) {
    for await (const chunk of byteChunks(body)) {
      if (!out.write(chunk)) await new Promise((resolve) => out.once("drain", resolve));
    }
  }
  out.end();
}

/** HTTP/2: the request body streams out while the response streams in. `opened` is told of each stream. */
function h2Streaming(session: http2.ClientHttp2Session, opened: (stream: http2.ClientHttp2Stream) => void = () => {}): Transport {
  return (request) =>
    new Promise((resolve, reject) => {
      const outgoing: http2.OutgoingHttpHeaders = { ":method": request.method, ":path": request.path };
      request.headers.forEach((value, name) => (outgoing[name] = value));
      const stream = session.request(outgoing);
      opened(stream);
      stream.on("error", reject);
      stream.on("response", (incoming) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming)) if (!name.startsWith(":") && value !== undefined) headers.set(name, String(value));
        resolve({ status: Number(incoming[":status"]), headers, body: stream as AsyncIterable<Uint8Array> });
      });
      void pump(binaryBody(request.body), stream);
    });
}

/** HTTP/1.1 (chunked): the same, over one connection. */
function h1Streaming(baseUrl: string): Transport {
  return (request) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      const req = http.request(`${baseUrl}${request.path}`, { method: request.method, headers }, (res) => {
        const h = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) h.set(name, String(value));
        resolve({ status: res.statusCode!, headers: h, body: res as AsyncIterable<Uint8Array> });
      });
      req.on("error", reject);
      req.flushHeaders();
      void pump(binaryBody(request.body), req);
    });
}

describe("restJson1 duplex event stream over a loopback socket", () => {
  const { client, server: serverProtocol } = restJson1();
  let h1: NodeListener;
  let h2: NodeListener;

  beforeAll(async () => {
    const server = () =>
      createServer(Chat, { protocols: [serverProtocol] })
        .register("talk", (input) => {
          async function* echoes(): AsyncGenerator<UnionValue> {
            let seq = 0;
            for await (const line of input.lines ?? []) {
              if (line.$case === "say") yield { $case: "heard", value: { text: (line.value as { text: string }).text.toUpperCase(), seq: ++seq } };
            }
          }
          return { room: input.room, echoes: echoes() };
        })
        .mapService();
    h1 = await listen(server());
    h2 = await listen(server(), { http2: true });
  });
  afterAll(async () => {
    await h1.close({ graceMs: 100 });
    await h2.close({ graceMs: 100 });
  });

  /** Says each word only after the echo of the previous one came back. */
  async function conversation(transport: Transport, endpoint: string): Promise<unknown[]> {
    const words = ["one", "two", "three"];
    let heard: () => void = () => {};
    async function* lines(): AsyncGenerator<UnionValue> {
      for (const text of words) {
        const echoed = new Promise<void>((resolve) => (heard = resolve));
        yield { $case: "say", value: { text } };
        await echoed;
      }
    }
    const context = { endpoint: new URL(endpoint), service: Chat };
    const request = await client.serializeRequest(Talk, { room: "lobby", lines: lines() }, context);
    const output = (await client.deserializeResponse(Talk, await transport(request), context)) as { room: string; echoes: AsyncIterable<UnionValue> };
    expect(output.room).toBe("lobby");
    const received: unknown[] = [];
    for await (const echo of output.echoes) {
      received.push(echo);
      heard();
    }
    return received;
  }

  const expected = [
    { $case: "heard", value: { text: "ONE", seq: 1 } },
    { $case: "heard", value: { text: "TWO", seq: 2 } },
    { $case: "heard", value: { text: "THREE", seq: 3 } },
  ];

  it("over HTTP/2", async () => {
    const session = http2.connect(h2.url);
    try {
      expect(await conversation(h2Streaming(session), h2.url)).toEqual(expected);
    } finally {
      session.close();
    }
  });

  it("over HTTP/1.1", async () => {
    expect(await conversation(h1Streaming(h1.url), h1.url)).toEqual(expected);
  });

  it("V1: a frame with a bad prelude checksum, one announcing 17 MiB and one with a 200-byte header name each end their own stream with a SerializationException, while a conversation on the same HTTP/2 session goes on", async () => {
    const context = { endpoint: new URL(h2.url), service: Chat };
    async function* one(): AsyncGenerator<UnionValue> {
      yield { $case: "say", value: { text: "fine" } };
    }
    const good = await readBody((await client.serializeRequest(Talk, { room: "lobby", lines: one() }, context)).body);
    const badChecksum = good.slice();
    badChecksum[9]! ^= 0xff;
    const huge = Uint8Array.of(0x01, 0x10, 0x00, 0x00, ...new Uint8Array(12)); // a prelude announcing 17 MiB
    // A "say" event but for its one header too many, whose name is 200 bytes long.
    const longName = eventFrame(
      [
        [":message-type", "event"],
        [":event-type", "say"],
        [":content-type", "application/json"],
        ["n".repeat(200), "v"],
      ],
      new TextEncoder().encode('{"text":"too long"}'),
    );
    const session = http2.connect(h2.url);
    try {
      const send = h2Streaming(session);
      const refused = async (bad: Uint8Array) => {
        const request = await client.serializeRequest(Talk, { room: "lobby", lines: one() }, context);
        const output = (await client.deserializeResponse(Talk, await send({ ...request, body: Uint8Array.from([...good, ...bad]) }), context)) as {
          echoes: AsyncIterable<UnionValue>;
        };
        const received: unknown[] = [];
        const failure = await (async () => {
          for await (const echo of output.echoes) received.push(echo);
        })().catch((e: unknown) => e);
        return { received, code: (failure as { code?: string } | undefined)?.code };
      };
      const [checksum, length, name, talk] = await Promise.all([refused(badChecksum), refused(huge), refused(longName), conversation(send, h2.url)]);
      const first = [{ $case: "heard", value: { text: "FINE", seq: 1 } }];
      for (const outcome of [checksum, length, name]) expect(outcome).toEqual({ received: first, code: "SerializationException" });
      expect(talk).toEqual(expected);
    } finally {
      session.close();
    }
  });
});

/** An event-stream frame with string headers, made by hand (the codecs refuse to write what AWS's bounds forbid). */
function eventFrame(headers: readonly [name: string, value: string][], body: Uint8Array): Uint8Array {
  const utf8 = new TextEncoder();
  const head: number[] = [];
  for (const [name, value] of headers) {
    const n = utf8.encode(name);
    const v = utf8.encode(value);
    head.push(n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v); // type 7: a string
  }
  const frame = new Uint8Array(16 + head.length + body.length);
  const view = new DataView(frame.buffer);
  view.setUint32(0, frame.length);
  view.setUint32(4, head.length);
  view.setUint32(8, crc32(frame.subarray(0, 8)));
  frame.set(head, 12);
  frame.set(body, 12 + head.length);
  view.setUint32(frame.length - 4, crc32(frame.subarray(0, frame.length - 4)));
  return frame;
}

describe("V2: a caller that goes away mid-stream", () => {
  const { client, server: serverProtocol } = restJson1();
  /** When each handler's iteration of its input ended, and the handler's signal. */
  const ended: { at: number; signal: AbortSignal }[] = [];
  let listener: NodeListener;

  beforeAll(async () => {
    const server = createServer(Chat, { protocols: [serverProtocol] })
      .register("talk", (input, context) => {
        async function* echoes(): AsyncGenerator<UnionValue> {
          try {
            for await (const line of input.lines ?? []) yield { $case: "heard", value: { text: (line.value as { text: string }).text, seq: 1 } };
          } finally {
            ended.push({ at: performance.now(), signal: context.signal });
          }
        }
        return { room: input.room, echoes: echoes() };
      })
      .mapService();
    listener = await listen(server, { http2: true });
  });
  afterAll(() => listener.close({ graceMs: 100 }));

  it("ends the handler's iteration as soon as the caller resets the stream, and aborts its signal", async () => {
    const context = { endpoint: new URL(listener.url), service: Chat };
    let more: () => void = () => {};
    async function* lines(): AsyncGenerator<UnionValue> {
      yield { $case: "say", value: { text: "one" } };
      await new Promise<void>((resolve) => (more = resolve)); // and never more, until the end of the test
    }
    const session = http2.connect(listener.url);
    try {
      let stream: http2.ClientHttp2Stream | undefined;
      const request = await client.serializeRequest(Talk, { room: "lobby", lines: lines() }, context);
      const response = await h2Streaming(session, (s) => (stream = s))(request);
      const output = (await client.deserializeResponse(Talk, response, context)) as { echoes: AsyncIterable<UnionValue> };
      const echoes = output.echoes[Symbol.asyncIterator]();
      expect((await echoes.next()).value).toEqual({ $case: "heard", value: { text: "one", seq: 1 } });
      const cancelled = performance.now();
      stream!.close(http2.constants.NGHTTP2_CANCEL);
      await expect.poll(() => ended.length, { interval: 5 }).toBe(1);
      // Within a few milliseconds here; the bound leaves room for a loaded machine.
      expect(ended[0]!.at - cancelled).toBeLessThan(1_000);
      await expect.poll(() => ended[0]!.signal.aborted, { interval: 5 }).toBe(true);
    } finally {
      more();
      session.destroy();
    }
  });
});

describe("V2: an event stream whose source fails after the answer began", () => {
  const { client, server: serverProtocol } = restJson1();
  const logged: unknown[] = [];
  let listener: NodeListener;

  beforeAll(async () => {
    const server = createServer(Chat, { protocols: [serverProtocol], onInternalError: (error) => logged.push(error) })
      .register("talk", (input) => {
        async function* echoes(): AsyncGenerator<UnionValue> {
          yield { $case: "heard", value: { text: "first", seq: 1 } };
          throw new Error("the disk is on fire");
        }
        return { room: input.room, echoes: echoes() };
      })
      .mapService();
    listener = await listen(server);
  });
  afterAll(() => listener.close({ graceMs: 100 }));

  it("ends the stream with an internal failure for the caller, and hands the error to onInternalError", async () => {
    const context = { endpoint: new URL(listener.url), service: Chat };
    async function* none(): AsyncGenerator<UnionValue> {}
    const request = await client.serializeRequest(Talk, { room: "lobby", lines: none() }, context);
    const output = (await client.deserializeResponse(Talk, await h1Streaming(listener.url)(request), context)) as { echoes: AsyncIterable<UnionValue> };
    const received: unknown[] = [];
    const failure = await (async () => {
      for await (const echo of output.echoes) received.push(echo);
    })().catch((e: unknown) => e);
    expect(received).toEqual([{ $case: "heard", value: { text: "first", seq: 1 } }]);
    expect(failure).toMatchObject({ code: "InternalFailure", message: "Internal failure" });
    expect(JSON.stringify(failure)).not.toContain("on fire");
    expect(logged).toEqual([new Error("the disk is on fire")]);
  });
});
