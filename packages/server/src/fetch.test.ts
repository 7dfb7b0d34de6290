import { describe, expect, it, vi } from "vitest";
import { fetchHandler } from "./index.js";
import { CHUNK, testServer } from "./test-service.js";

const post = (path: string, body?: BodyInit, init: RequestInit = {}) =>
  new Request(`https://api.example.com${path}`, { method: "POST", ...(body !== undefined ? { body, duplex: "half" } : {}), ...init } as RequestInit);

describe("fetchHandler", () => {
  it("answers a Request with a Response, with the handler context filled in", async () => {
    const { server, observed } = testServer();
    const handle = fetchHandler(server);
    const response = await handle(post("/echo/ann?x=1", `{"text":"hey"}`, { headers: { "x-trace": "t", "content-type": "application/json" } }), {
      remoteAddress: "198.51.100.7",
    });
    expect([response.status, await response.json()]).toEqual([200, { message: "ann:3" }]);
    const context = observed.contexts[0]!;
    expect([context.remoteAddress, context.headers.get("x-trace"), context.request.host, context.request.query]).toEqual([
      "198.51.100.7",
      "t",
      "api.example.com",
      [["x", "1"]],
    ]);
    expect(server.inFlight).toBe(0);
  });

  it("answers 413 for a declared length over the limit, without reading the body", async () => {
    const { server } = testServer();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const response = await fetchHandler(server)(post("/echo/x", body, { headers: { "content-length": String(1 << 20) } }));
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("stops reading an endless body once it passes the limit", async () => {
    const { server } = testServer();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(512));
      },
    });
    const response = await fetchHandler(server)(post("/echo/x", body));
    expect([response.status, ((await response.json()) as { type: string }).type]).toEqual([413, "PayloadTooLargeException"]);
    expect(pulled).toBeLessThan(10);
  });

  it("streams a response body on demand and ends the exchange when it is read", async () => {
    const { server, observed } = testServer();
    const response = await fetchHandler(server)(post("/download/50"));
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.value?.byteLength).toBe(CHUNK);
    expect(observed.produced).toBeLessThanOrEqual(2);
    expect(server.inFlight).toBe(1);
    let bytes = first.value!.byteLength;
    for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
    expect([bytes, observed.produced, server.inFlight]).toEqual([50 * CHUNK, 50, 0]);
  });

  it("stops the source and aborts the exchange when the host cancels the body", async () => {
    const { server, observed } = testServer();
    const response = await fetchHandler(server)(post("/download/50"));
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel(new Error("client went away"));
    expect(observed.produced).toBeLessThanOrEqual(2);
    expect(server.inFlight).toBe(0);
  });

  it("errors the body stream when the source fails half-way", async () => {
    const { server } = testServer();
    const response = await fetchHandler(server)(post("/download/-5"));
    await expect(response.arrayBuffer()).rejects.toThrow("the disk went away");
    expect(server.inFlight).toBe(0);
  });

  it("aborts the handler's signal when the request's signal fires", async () => {
    const { server, observed } = testServer();
    const controller = new AbortController();
    const waiting = observed.waiting();
    const answer = fetchHandler(server)(post("/wait", undefined, { signal: controller.signal }));
    await waiting;
    controller.abort(new Error("host saw a disconnect"));
    expect((await answer).status).toBe(500);
    expect(observed.aborted).toEqual(["host saw a disconnect"]);
  });

  it.each([
    ["told not to", { requestSignal: false }, () => {}],
    // Deno aborts request.signal after successful answers too and warns when it is read, unless run with --unstable-no-legacy-abort.
    ["on Deno, by default", {}, () => vi.stubGlobal("Deno", { version: { deno: "2.9.6" } })],
  ])("never reads the request's signal %s, and still aborts a streamed answer the host cancels", async (_label, options, setUp) => {
    setUp();
    try {
      const { server, observed } = testServer();
      const request = post("/download/50");
      const read = vi.fn();
      Object.defineProperty(request, "signal", { get: read });
      const response = await fetchHandler(server, options)(request);
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel(new Error("client went away"));
      expect([read.mock.calls.length, observed.produced <= 2, server.inFlight]).toEqual([0, true, 0]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("follows the request's signal on Deno when told to (--unstable-no-legacy-abort)", async () => {
    vi.stubGlobal("Deno", { version: { deno: "2.9.6" } });
    try {
      const { server, observed } = testServer();
      const controller = new AbortController();
      const waiting = observed.waiting();
      const answer = fetchHandler(server, { requestSignal: true })(post("/wait", undefined, { signal: controller.signal }));
      await waiting;
      controller.abort(new Error("host saw a disconnect"));
      expect((await answer).status).toBe(500);
      expect(observed.aborted).toEqual(["host saw a disconnect"]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("passes a streaming request body through without buffering", async () => {
    const { server } = testServer();
    const size = 2 * 1024 * 1024;
    const response = await fetchHandler(server)(post("/upload", new Blob([new Uint8Array(size)]).stream()));
    expect(await response.json()).toEqual({ size });
  });

  it("answers 503 once the server is closing", async () => {
    const { server } = testServer();
    await server.close({ graceMs: 0 });
    expect((await fetchHandler(server)(post("/echo/x"))).status).toBe(503);
  });
});
