import { describe, expect, it } from "vitest";
import { errorClass, HttpHeaders, type HttpResponse, type ServerProtocol, TransportError } from "@anvil/core";
import { readBody } from "@anvil/core/protocol";
import { member, operation, service, string, struct } from "@anvil/core/codegenv1";
import { createInMemoryTransport, createServer, type InMemoryTransportRequest } from "./index.js";
import { testProtocol } from "./test-protocol.js";
import { CHUNK, TestService, testServer } from "./test-service.js";

const utf8 = new TextEncoder();

const request = (method: string, path: string, init: Partial<InMemoryTransportRequest> = {}): InMemoryTransportRequest => ({
  method,
  url: new URL(`https://api.example.com${path}`),
  headers: new HttpHeaders(),
  body: undefined,
  ...init,
});
const post = (path: string, init: Partial<InMemoryTransportRequest> = {}) => request("POST", path, init);
const json = async (response: HttpResponse): Promise<unknown> => JSON.parse(new TextDecoder().decode(await readBody(response.body)));

/** A client stream of `count` chunks of `size` bytes, counting the chunks it was asked for and whether it was stopped. */
function counted(count: number, size: number) {
  const seen = { pulled: 0, stopped: false };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for (let i = 0; i < count; i++) {
        seen.pulled++;
        yield new Uint8Array(size);
      }
    } finally {
      seen.stopped = seen.pulled < count;
    }
  }
  return { body: chunks(), seen };
}

// A service with a modeled error and a constraint, on the JSON test protocol.
const NoSuchCity = struct<{ message?: string }>("example.cities#NoSuchCity", [member("message", string)], { error: "client", httpError: 404 });
const GetCity = operation("example.cities#GetCity", {
  input: struct<{ cityId: string }>("example.cities#GetCityInput", [member("cityId", string, { required: true, httpLabel: true, length: { max: 8 } })]),
  output: struct<{ name?: string }>("example.cities#GetCityOutput", [member("name", string)]),
  errors: [NoSuchCity],
  traits: { http: { method: "GET", uri: "/cities/{cityId}", code: 200 } },
});
const Cities = service("example.cities#Cities", { operations: { getCity: GetCity }, protocols: ["test#json"] });
const cities = () =>
  createServer(Cities, { protocols: [testProtocol("test#json")] })
    .register("getCity", ({ cityId }) => {
      if (cityId !== "sea") throw new (errorClass(NoSuchCity))({ message: `no city ${cityId}` });
      return { name: "Seattle" };
    })
    .mapService();

/** A server whose download never ends on its own, telling whether its source was stopped. */
function endlessDownload() {
  const source = { produced: 0, stopped: false };
  const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
    .register({
      echo: () => ({}),
      fail: () => ({}),
      download: () => ({
        data: (async function* () {
          try {
            for (;;) {
              source.produced++;
              yield new Uint8Array(CHUNK);
            }
          } finally {
            source.stopped = true;
          }
        })(),
      }),
      upload: () => ({}),
      wait: () => ({}),
    })
    .mapService();
  return { server, source };
}

describe("createInMemoryTransport", () => {
  it("round-trips a request through the pipeline, with the handler context filled in and no socket", async () => {
    const { server, observed } = testServer();
    const transport = createInMemoryTransport(server);
    expect(transport.httpVersion).toBe("2");
    const headers = new HttpHeaders({ "x-trace": "t", "content-type": "application/json", connection: "keep-alive", host: "elsewhere" });
    const body = utf8.encode(`{"text":"hey"}`);
    const response = await transport.send(post("/echo/ann?x=1", { headers, body }));
    expect([response.status, await json(response)]).toEqual([200, { message: "ann:3" }]);
    // The answer's text arrives as bytes, with the length the Node adapter gives it.
    expect([response.body instanceof Uint8Array, response.headers.get("content-length")]).toEqual([true, String(`{"message":"ann:3"}`.length)]);
    const context = observed.contexts[0]!;
    expect([context.remoteAddress, context.headers.get("x-trace"), context.request.host, context.request.query]).toEqual([
      undefined,
      "t",
      "api.example.com",
      [["x", "1"]],
    ]);
    // Connection-specific fields stay behind, as over HTTP/2.
    expect([context.headers.get("connection"), context.headers.get("host")]).toEqual([null, null]);
    expect(server.inFlight).toBe(0);
  });

  it("tells handlers the remote address it is given", async () => {
    const { server, observed } = testServer();
    await createInMemoryTransport(server, { remoteAddress: "198.51.100.7" }).send(post("/echo/ann"));
    expect(observed.contexts[0]!.remoteAddress).toBe("198.51.100.7");
  });

  it("hands over copies: neither side sees the other change its bytes or headers", async () => {
    const { server, observed } = testServer();
    const body = utf8.encode(`{"text":"hey"}`);
    const headers = new HttpHeaders({ "x-trace": "t" });
    await createInMemoryTransport(server).send(post("/echo/ann", { headers, body }));
    const received = observed.contexts[0]!.request;
    expect(received.body).toEqual(body);
    expect([received.body === body, received.headers === headers]).toEqual([false, false]);
  });

  it("answers a modeled error in the protocol's format", async () => {
    const response = await createInMemoryTransport(cities()).send(request("GET", "/cities/paris"));
    expect([response.status, await json(response)]).toEqual([400, { type: "NoSuchCity", message: "no city paris" }]);
  });

  it("answers input that breaks the model's constraints with a ValidationException, before the handler runs", async () => {
    const response = await createInMemoryTransport(cities()).send(request("GET", "/cities/much-too-long"));
    expect([response.status, ((await json(response)) as { type: string }).type]).toEqual([400, "ValidationException"]);
  });

  it("answers an unmodeled exception with a 500 that leaks nothing", async () => {
    const { server } = testServer();
    const response = await createInMemoryTransport(server).send(post("/fail"));
    expect(response.status).toBe(500);
    expect(JSON.stringify(await json(response))).not.toContain("password");
  });

  it("answers a body over the limit with the same 413 as over a socket", async () => {
    const { server } = testServer();
    const response = await createInMemoryTransport(server).send(post("/echo/x", { body: new Uint8Array(3000) }));
    expect([response.status, ((await json(response)) as { type: string }).type]).toEqual([413, "PayloadTooLargeException"]);
  });

  it("answers 413 for a declared length over the limit without reading the stream", async () => {
    const { server } = testServer();
    const { body, seen } = counted(1000, 512);
    const headers = new HttpHeaders({ "content-length": String(1 << 20) });
    const response = await createInMemoryTransport(server).send(post("/echo/x", { headers, body }));
    expect(response.status).toBe(413);
    expect(seen.pulled).toBe(0);
    expect(server.inFlight).toBe(0);
  });

  it("stops reading an endless stream once it passes the limit", async () => {
    const { server } = testServer();
    let pulled = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(512));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = await createInMemoryTransport(server).send(post("/echo/x", { body }));
    expect([response.status, ((await json(response)) as { type: string }).type]).toEqual([413, "PayloadTooLargeException"]);
    expect(pulled).toBeLessThan(10);
    await Promise.resolve();
    expect(cancelled).toBe(true);
  });

  it("hands a streamed request body over as a stream, pulled as the handler reads it", async () => {
    const { server } = testServer();
    // Far over the 1 KiB buffered limit: a streaming input is never buffered.
    const { body, seen } = counted(32, 64 * 1024);
    const response = await createInMemoryTransport(server).send(post("/upload", { body }));
    expect(await json(response)).toEqual({ size: 2 * 1024 * 1024 });
    expect([seen.pulled, seen.stopped]).toEqual([32, false]);
  });

  it("hands a streamed answer back as a stream, pulled on demand, and ends the exchange when it is read", async () => {
    const { server, observed } = testServer();
    const response = await createInMemoryTransport(server).send(post("/download/50"));
    expect(response.body instanceof Uint8Array).toBe(false);
    expect(response.headers.has("content-length")).toBe(false);
    const chunks = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const first = await chunks.next();
    expect(first.value?.byteLength).toBe(CHUNK);
    expect(observed.produced).toBeLessThanOrEqual(2);
    expect(server.inFlight).toBe(1);
    let bytes = first.value!.byteLength;
    for (let r = await chunks.next(); r.done !== true; r = await chunks.next()) bytes += r.value.byteLength;
    expect([bytes, observed.produced, server.inFlight]).toEqual([50 * CHUNK, 50, 0]);
  });

  it("stops the source and aborts the exchange when the caller stops reading the answer", async () => {
    const { server, source } = endlessDownload();
    const response = await createInMemoryTransport(server).send(post("/download/1"));
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      expect(chunk.byteLength).toBe(CHUNK);
      break;
    }
    await Promise.resolve();
    expect([source.produced, source.stopped, server.inFlight]).toEqual([1, true, 0]);
  });

  it("fails the read of an answer whose source fails half-way with a TransportError that tells nothing of it", async () => {
    const { server } = testServer();
    const response = await createInMemoryTransport(server).send(post("/download/-5"));
    const error = await readBody(response.body).then(
      () => expect.fail("the body should fail"),
      (e: unknown) => e,
    );
    expect(TransportError.is(error)).toBe(true);
    expect(String((error as Error).message)).not.toContain("disk");
    expect(server.inFlight).toBe(0);
  });

  it("aborts the handler's signal when the caller's signal fires, and rejects with the signal's reason", async () => {
    const { server, observed } = testServer();
    const controller = new AbortController();
    const waiting = observed.waiting();
    const answer = createInMemoryTransport(server).send(post("/wait", { signal: controller.signal }));
    await waiting;
    controller.abort(new Error("the caller gave up"));
    await expect(answer).rejects.toThrow("the caller gave up");
    expect(observed.aborted).toEqual(["the client went away"]);
    expect(server.inFlight).toBe(0);
  });

  it("sends nothing for a signal that has fired already", async () => {
    const { server, observed } = testServer();
    const reason = new Error("too late");
    await expect(createInMemoryTransport(server).send(post("/echo/x", { signal: AbortSignal.abort(reason) }))).rejects.toBe(reason);
    expect([observed.contexts.length, server.inFlight]).toEqual([0, 0]);
  });

  it("fails a read of a streamed answer once the caller's signal fires, and stops its source", async () => {
    const { server, source } = endlessDownload();
    const controller = new AbortController();
    const response = await createInMemoryTransport(server).send(post("/download/1", { signal: controller.signal }));
    const chunks = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await chunks.next();
    controller.abort(new Error("the caller gave up"));
    await expect(chunks.next()).rejects.toThrow("the caller gave up");
    expect([source.produced, source.stopped, server.inFlight]).toEqual([1, true, 0]);
  });

  it("carries trailers both ways, and resolves an answer's pending trailers with no fields once the caller goes away", async () => {
    const base = testProtocol("test#json");
    const finished = new HttpHeaders({ "grpc-status": "0" });
    const trailing: ServerProtocol = {
      ...base,
      async serializeResponse(operation, output, context) {
        const response = await base.serializeResponse(operation, output, context);
        // A streamed answer's trailers come after its last chunk: here, never.
        return {
          ...response,
          trailers: response.body instanceof Uint8Array || typeof response.body === "string" ? Promise.resolve(finished) : new Promise<Headers>(() => {}),
        };
      },
    };
    const seen: Headers[] = [];
    const server = createServer(TestService, { protocols: [trailing] })
      .register({
        echo: async (_input, context) => {
          seen.push((await context.request.trailers)!);
          return { message: "ok" };
        },
        fail: () => ({}),
        download: () => ({
          data: (async function* () {
            yield new Uint8Array(1);
            await new Promise(() => {});
          })(),
        }),
        upload: () => ({}),
        wait: () => ({}),
      })
      .mapService();
    const transport = createInMemoryTransport(server);
    const answer = await transport.send(post("/echo/x", { trailers: Promise.resolve(new HttpHeaders({ "x-checksum": "abc" })) }));
    expect(seen[0]!.get("x-checksum")).toBe("abc");
    const trailers = await answer.trailers!;
    expect([trailers.get("grpc-status"), trailers === finished]).toEqual(["0", false]);
    // An answer that ends with trailers has no Content-Length, as over HTTP/2.
    expect(answer.headers.has("content-length")).toBe(false);

    const controller = new AbortController();
    const streamed = await transport.send(post("/download/1", { signal: controller.signal }));
    controller.abort(new Error("gone"));
    let fields = 0;
    (await streamed.trailers!).forEach(() => fields++);
    expect(fields).toBe(0);
  });

  it("serves mounted handlers", async () => {
    const { server } = testServer();
    server.mount("/health", async (incoming) => new Response(`ok ${incoming.method} ${new URL(incoming.url).pathname}`));
    const response = await createInMemoryTransport(server).send(request("GET", "/health/deep"));
    expect([response.status, new TextDecoder().decode(await readBody(response.body))]).toEqual([200, "ok GET /health/deep"]);
  });

  it("answers 503 once the server is closing", async () => {
    const { server } = testServer();
    await server.close({ graceMs: 0 });
    expect((await createInMemoryTransport(server).send(post("/echo/x"))).status).toBe(503);
  });
});
