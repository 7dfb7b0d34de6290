/**
 * How the gRPC client reads a unary answer, whatever shape it comes in:
 * made by hand and handed over by a transport that sends nothing, so that
 * the answers no Anvil server gives (two messages, an encoding it does not
 * speak, no status) are covered too. And what it sends: the request head
 * and path.
 */
import { createClient, type Transport, type TransportRequest } from "@anvil/client-core";
import { HttpHeaders, type HttpResponse, type UnmodeledError } from "@anvil/core";
import { describe, expect, it } from "vitest";
import { frameMessage } from "./frames.js";
import { grpc } from "./index.js";
import { protobufCodec } from "./protobuf/codec.js";
import { Greeter } from "./test-service.js";

const REPLY = protobufCodec.writer(Greeter.operations.sayHello.output)({ message: "hello ada" });

/** Answers every call with what `answer` makes; keeps the requests. */
function client(answer: () => HttpResponse | Promise<HttpResponse>, options: { endpoint?: string; maxReceiveMessageBytes?: number } = {}) {
  const sent: TransportRequest[] = [];
  const transport: Transport = {
    httpVersion: "2",
    send: async (request) => {
      sent.push(request);
      return answer();
    },
  };
  const protocol = grpc(options.maxReceiveMessageBytes === undefined ? {} : { maxReceiveMessageBytes: options.maxReceiveMessageBytes });
  const made = createClient(Greeter, { endpoint: options.endpoint ?? "http://grpc.test", protocols: [protocol], transport, retry: { maxAttempts: 1 } });
  return { client: made, sent };
}

const head = (fields: Record<string, string> = {}) => new HttpHeaders({ "content-type": "application/grpc+proto", ...fields });
const ok = () => new HttpHeaders({ "grpc-status": "0" });

async function* chunks(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield part;
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
}

/** A framed message with its compressed flag set. */
function compressedFrame(bytes: Uint8Array): Uint8Array {
  const framed = frameMessage(bytes).slice();
  framed[0] = 1;
  return framed;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as UnmodeledError).code;
  }
  throw new Error("expected the call to fail");
}

describe("grpc client: unary answers", () => {
  it("reads the message once the trailers say OK: trailers at hand, or a promise of them", async () => {
    for (const trailers of [ok(), Promise.resolve(ok())]) {
      const { client: c } = client(() => ({ status: 200, headers: head(), body: chunks(frameMessage(REPLY)), trailers }));
      expect(await c.sayHello({ name: "ada" })).toEqual({ message: "hello ada" });
    }
  });

  it("reads a message however the body is cut into chunks", async () => {
    const framed = frameMessage(REPLY).slice();
    for (let cut = 0; cut <= framed.length; cut++) {
      const { client: c } = client(() => ({ status: 200, headers: head(), body: chunks(framed.subarray(0, cut), framed.subarray(cut)), trailers: ok() }));
      expect((await c.sayHello({ name: "ada" })).message).toBe("hello ada");
    }
  });

  it("gunzips a compressed message (grpc-encoding: gzip)", async () => {
    const framed = compressedFrame(await gzip(REPLY));
    const { client: c } = client(() => ({ status: 200, headers: head({ "grpc-encoding": "gzip" }), body: chunks(framed), trailers: ok() }));
    expect((await c.sayHello({ name: "ada" })).message).toBe("hello ada");
  });

  it("fails with the status of the trailers, even after a message", async () => {
    const trailers = new HttpHeaders({ "grpc-status": "14", "grpc-message": "try%20later" });
    const { client: c } = client(() => ({ status: 200, headers: head(), body: chunks(frameMessage(REPLY)), trailers }));
    const error = (await c.sayHello({ name: "ada" }).catch((e: unknown) => e)) as UnmodeledError;
    expect([error.code, error.message, error.$metadata.httpStatus]).toEqual(["UNAVAILABLE", "try later", 14]);
  });

  it("fails with the status of a trailers-only answer", async () => {
    const { client: c } = client(() => ({ status: 200, headers: head({ "grpc-status": "5", "grpc-message": "gone" }), body: undefined }));
    expect(await codeOf(c.sayHello({ name: "ada" }))).toBe("NOT_FOUND");
  });

  it("fails an answer whose trailers carry no status with INTERNAL, and one without a message with UNIMPLEMENTED", async () => {
    expect(
      await codeOf(
        client(() => ({ status: 200, headers: head(), body: chunks(frameMessage(REPLY)), trailers: new HttpHeaders() })).client.sayHello({ name: "a" }),
      ),
    ).toBe("INTERNAL");
    expect(await codeOf(client(() => ({ status: 200, headers: head(), body: chunks(), trailers: ok() })).client.sayHello({ name: "a" }))).toBe("UNIMPLEMENTED");
  });

  it("fails two messages with UNIMPLEMENTED, a cut message with INTERNAL, a message over the limit with RESOURCE_EXHAUSTED", async () => {
    const framed = frameMessage(REPLY).slice();
    const answer = (body: AsyncIterable<Uint8Array>) => () => ({ status: 200, headers: head(), body, trailers: ok() });
    expect(await codeOf(client(answer(chunks(framed, framed))).client.sayHello({ name: "a" }))).toBe("UNIMPLEMENTED");
    expect(await codeOf(client(answer(chunks(framed.subarray(0, 8)))).client.sayHello({ name: "a" }))).toBe("INTERNAL");
    expect(await codeOf(client(answer(chunks(framed)), { maxReceiveMessageBytes: 4 }).client.sayHello({ name: "a" }))).toBe("RESOURCE_EXHAUSTED");
  });

  it("refuses a message encoding it does not speak with UNIMPLEMENTED, even on an uncompressed message", async () => {
    const { client: c } = client(() => ({ status: 200, headers: head({ "grpc-encoding": "br" }), body: chunks(frameMessage(REPLY)), trailers: ok() }));
    expect(await codeOf(c.sayHello({ name: "ada" }))).toBe("UNIMPLEMENTED");
  });

  it("reads an answer that is not gRPC (a proxy's 503 page) as the status HTTP maps to", async () => {
    const html = new TextEncoder().encode("<html>busy</html>");
    const { client: c } = client(() => ({ status: 503, headers: new HttpHeaders({ "content-type": "text/html" }), body: html }));
    expect(await codeOf(c.sayHello({ name: "ada" }))).toBe("UNAVAILABLE");
  });
});

describe("grpc client: requests", () => {
  it("posts one framed message to the method's path under the endpoint's, with gRPC's headers and the deadline left", async () => {
    const { client: c, sent } = client(() => ({ status: 200, headers: head(), body: chunks(frameMessage(REPLY)), trailers: ok() }), {
      endpoint: "http://grpc.test/base/",
    });
    await c.sayHello({ name: "ada" }, { timeoutMs: 60_000 });
    await c.sayHello({ name: "ada" });
    const [first, second] = sent;
    expect(first!.url.href).toBe("http://grpc.test/base/example.grpctest.Greeter/SayHello");
    expect(first!.method).toBe("POST");
    const headers = first!.headers;
    expect([headers.get("content-type"), headers.get("te"), headers.get("grpc-accept-encoding")]).toEqual([
      "application/grpc+proto",
      "trailers",
      "identity,gzip",
    ]);
    const timeout = first!.headers.get("grpc-timeout")!;
    expect(timeout).toMatch(/^\d+m$/);
    expect(Number.parseInt(timeout, 10)).toBeGreaterThan(50_000);
    expect(second!.headers.has("grpc-timeout")).toBe(false);
    const body = first!.body as Uint8Array;
    expect(protobufCodec.reader(Greeter.operations.sayHello.input)(body.subarray(5))).toEqual({ name: "ada" });
  });
});
