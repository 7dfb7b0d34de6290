/**
 * Streaming over a real socket: a restJson1 duplex event stream through the
 * Node adapter, over HTTP/2 and HTTP/1.1. The client sends its next event
 * only after the server's answer to the previous one arrived, so the round
 * trip can only complete if neither side buffers the whole stream.
 */
import * as http from "node:http";
import * as http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byteChunks, type ByteStream, type HttpRequest, type HttpResponse, type UnionValue } from "@anvil/core";
import { binaryBody } from "@anvil/core/protocol";
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

/** HTTP/2: the request body streams out while the response streams in. */
function h2Streaming(session: http2.ClientHttp2Session): Transport {
  return (request) =>
    new Promise((resolve, reject) => {
      const outgoing: http2.OutgoingHttpHeaders = { ":method": request.method, ":path": request.path };
      request.headers.forEach((value, name) => (outgoing[name] = value));
      const stream = session.request(outgoing);
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
});

describe("an event stream whose source fails after the answer began", () => {
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
    expect(logged).toEqual([new Error("the disk is on fire")]);
  });
});
