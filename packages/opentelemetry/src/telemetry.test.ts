/**
 * Server and client telemetry with the OpenTelemetry SDK, over loopback:
 * restJson1 on HTTP/1.1 and gRPC on h2c (every other protocol is covered by
 * tooling/server-contract's opentelemetry.test.ts). A relay service calls
 * itself from its handler, so one trace crosses several servers.
 */
import { createClient } from "@anvil/client-core";
import type { EventStream, UnionValue } from "@anvil/core";
import { blob, errorClass, integer, member, operation, service, string, struct, union } from "@anvil/core/codegenv1";
import { grpc } from "@anvil/protocol-grpc";
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer, type HandlerContext } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { context, createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clientTelemetry, serverTelemetry } from "./index.js";
import { testSdk } from "./test-sdk.js";

const CANARY = "canary-7f3a";

const NotFoundSchema = struct<{ message?: string; detail?: string }>(
  "example.relay#NotFound",
  [member("message", string, { protoIndex: 1 }), member("detail", string, { protoIndex: 2, sensitive: true })],
  { error: "client", httpError: 404 },
);
const NotFound = errorClass(NotFoundSchema);
const BusySchema = struct<{ message?: string }>("example.relay#Busy", [member("message", string, { protoIndex: 1 })], {
  error: "server",
  httpError: 503,
  retryable: { throttling: false },
});
const Busy = errorClass(BusySchema);

const Relay = service("example.relay#Relay", {
  version: "1",
  protocols: ["aws.protocols#restJson1", "alloy.proto#grpc"],
  operations: {
    relay: operation("example.relay#Relay", {
      input: struct<{ hops: number; secret?: string }>("example.relay#RelayInput", [
        member("hops", integer, { required: true, protoIndex: 1 }),
        member("secret", string, { protoIndex: 2, sensitive: true }),
      ]),
      output: struct<{ trail?: string }>("example.relay#RelayOutput", [member("trail", string, { protoIndex: 1 })]),
      traits: { http: { method: "POST", uri: "/relay", code: 200 } },
    }),
    fail: operation("example.relay#Fail", {
      input: struct<{ mode: string; key?: string }>("example.relay#FailInput", [
        member("mode", string, { required: true, protoIndex: 1 }),
        member("key", string, { protoIndex: 2 }),
      ]),
      output: struct("example.relay#FailOutput", []),
      errors: [() => NotFoundSchema, () => BusySchema],
      traits: { http: { method: "POST", uri: "/fail", code: 200 }, idempotent: true },
    }),
  },
});

const sdk = testSdk();
const telemetry = { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, propagator: sdk.propagator };

type RelayClient = {
  relay(input: { hops: number; secret?: string }, options?: { headers?: Record<string, string> }): Promise<{ trail?: string }>;
  fail(input: { mode: string; key?: string }): Promise<unknown>;
};

const PROTOCOLS = [
  { id: "aws.protocols#restJson1", value: restJson1(), http2: false, system: "smithy" },
  { id: "alloy.proto#grpc", value: grpc(), http2: true, system: "grpc" },
] as const;

describe.each(PROTOCOLS)("$id", (p) => {
  const isGrpc = p.id === "alloy.proto#grpc";
  let listener: NodeListener;
  const attempts = new Map<string, number>();
  const client = (retry = 1): RelayClient =>
    createClient(Relay, {
      endpoint: listener.url,
      protocols: [p.value],
      protocol: p.id,
      interceptors: [clientTelemetry(telemetry)],
      retry: { maxAttempts: retry, baseDelayMs: 1 },
    }) as unknown as RelayClient;

  beforeAll(async () => {
    const server = createServer(Relay, { protocols: [p.value], interceptors: [serverTelemetry(telemetry)], onInternalError: () => {} })
      .register({
        relay: async (input: { hops: number }, _context: HandlerContext) =>
          input.hops === 0 ? { trail: "end" } : { trail: `hop ${input.hops} > ${(await client().relay({ hops: input.hops - 1 })).trail}` },
        fail: (input: { mode: string; key?: string }) => {
          if (input.mode === "modeled") throw new NotFound({ message: `no ${CANARY}`, detail: CANARY });
          if (input.mode === "busy") {
            const n = (attempts.get(input.key ?? "") ?? 0) + 1;
            attempts.set(input.key ?? "", n);
            if (n < 3) throw new Busy({ message: "try again" });
            return {};
          }
          throw new Error(`crash with ${CANARY}`);
        },
      })
      .mapService(p.id);
    listener = await listen(server, { http2: p.http2 });
  });
  afterAll(() => listener.close({ graceMs: 100 }));
  beforeEach(() => sdk.reset());

  const byKind = (kind: SpanKind) => sdk.spans().filter((s) => s.kind === kind);

  it("makes one trace of a call and the calls its handler makes: client → server → client → server", async () => {
    expect(await client().relay({ hops: 1, secret: CANARY })).toMatchObject({ trail: "hop 1 > end" });
    const spans = sdk.spans();
    expect(spans).toHaveLength(4);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    const [outerClient] = byKind(SpanKind.CLIENT).filter((s) => s.parentSpanContext === undefined);
    const outerServer = spans.find((s) => s.parentSpanContext?.spanId === outerClient!.spanContext().spanId)!;
    const innerClient = spans.find((s) => s.parentSpanContext?.spanId === outerServer.spanContext().spanId)!;
    const innerServer = spans.find((s) => s.parentSpanContext?.spanId === innerClient.spanContext().spanId)!;
    expect([outerServer.kind, innerClient.kind, innerServer.kind]).toEqual([SpanKind.SERVER, SpanKind.CLIENT, SpanKind.SERVER]);
    expect(outerServer.parentSpanContext?.isRemote).toBe(true);
    for (const span of spans) {
      expect(span.name).toBe("example.relay.Relay/Relay");
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes).toMatchObject({
        "rpc.system": p.system,
        "rpc.service": "example.relay.Relay",
        "rpc.method": "Relay",
        "smithy.protocol": p.id,
        "server.address": "127.0.0.1",
        "server.port": listener.port,
        ...(isGrpc ? { "rpc.grpc.status_code": 0, "network.protocol.version": "2" } : { "http.response.status_code": 200 }),
      });
      expect(span.attributes["error.type"]).toBeUndefined();
    }
    expect(outerServer.attributes["network.peer.address"]).toBe("127.0.0.1");
    expect(JSON.stringify(spans.map(view))).not.toContain(CANARY);
  });

  it("records a modeled error: its type, the status, no span error on the server (the caller's), an error on the client", async () => {
    await expect(client().fail({ mode: "modeled" })).rejects.toMatchObject({ code: "NotFound" });
    const [server] = byKind(SpanKind.SERVER);
    const [caller] = byKind(SpanKind.CLIENT);
    const status = isGrpc ? { "rpc.grpc.status_code": 5 } : { "http.response.status_code": 404 };
    expect(server!.attributes).toMatchObject({ ...status, "error.type": "NotFound" });
    expect(server!.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(caller!.attributes).toMatchObject({ ...status, "error.type": "NotFound" });
    expect(caller!.status.code).toBe(SpanStatusCode.ERROR);
    expect(JSON.stringify(sdk.spans().map(view))).not.toContain(CANARY);
  });

  it("records an unmodeled failure as the server's error (500, INTERNAL) with the error's class, never its message", async () => {
    await expect(client().fail({ mode: "crash" })).rejects.toBeDefined();
    const [server] = byKind(SpanKind.SERVER);
    const [caller] = byKind(SpanKind.CLIENT);
    expect(server!.attributes).toMatchObject({
      ...(isGrpc ? { "rpc.grpc.status_code": 13 } : { "http.response.status_code": 500 }),
      "error.type": "Error",
    });
    expect(server!.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(caller!.status.code).toBe(SpanStatusCode.ERROR);
    expect(caller!.attributes["error.type"]).toBe(isGrpc ? "INTERNAL" : "InternalFailure");
    expect(JSON.stringify(sdk.spans().map(view))).not.toContain(CANARY);
  });

  it("gives every attempt of a retried call a span of its own, with its resend count", async () => {
    await client(3).fail({ mode: "busy", key: p.id });
    const clients = byKind(SpanKind.CLIENT);
    const servers = byKind(SpanKind.SERVER);
    expect(clients.map((s) => s.attributes["http.request.resend_count"])).toEqual([undefined, 1, 2]);
    expect(clients.map((s) => s.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.ERROR, SpanStatusCode.UNSET]);
    expect(clients.map((s) => s.attributes["error.type"])).toEqual(["Busy", "Busy", undefined]);
    // Each server span is the child of its attempt's span.
    expect(servers.map((s) => s.parentSpanContext?.spanId)).toEqual(clients.map((s) => s.spanContext().spanId));
    expect(servers.map((s) => s.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.ERROR, SpanStatusCode.UNSET]);
  });

  it("records the duration and size histograms of both sides", async () => {
    await client().relay({ hops: 0 });
    const points = await sdk.points();
    const names = points.map((point) => `${point.name} ${point.unit} ${point.count}`).sort();
    expect(names).toEqual([
      "rpc.client.duration ms 1",
      "rpc.client.request.size By 1",
      // A gRPC answer streams in without a length: the client does not see its size.
      ...(isGrpc ? [] : ["rpc.client.response.size By 1"]),
      "rpc.server.duration ms 1",
      "rpc.server.request.size By 1",
      "rpc.server.response.size By 1",
    ]);
    for (const point of points) {
      expect(point.attributes).toMatchObject({ "rpc.system": p.system, "rpc.service": "example.relay.Relay", "rpc.method": "Relay" });
      expect(point.attributes[isGrpc ? "rpc.grpc.status_code" : "http.response.status_code"]).toBe(isGrpc ? 0 : 200);
    }
    const request = points.filter((point) => point.name.endsWith("request.size")).map((point) => point.sum);
    expect(request[0]).toBeGreaterThan(0);
    expect(request[0]).toBe(request[1]);
  });

  it("continues a trace the caller is in, and carries its tracestate on", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId,
      spanId: "00f067aa0ba902b7",
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: createTraceState("vendor=abc,other=1"),
    });
    await context.with(parent, () => client().relay({ hops: 1 }));
    const spans = sdk.spans();
    expect(spans).toHaveLength(4);
    expect(spans.map((s) => s.spanContext().traceId)).toEqual([traceId, traceId, traceId, traceId]);
    const first = spans.find((s) => s.parentSpanContext?.spanId === "00f067aa0ba902b7")!;
    expect(first.kind).toBe(SpanKind.CLIENT);
    for (const span of spans) expect(span.spanContext().traceState?.serialize()).toBe("vendor=abc,other=1");
  });

  it("ignores a malformed traceparent: the server starts a new trace, and answers", async () => {
    // A client without telemetry, sending headers of its own.
    const bare = createClient(Relay, { endpoint: listener.url, protocols: [p.value], protocol: p.id, retry: { maxAttempts: 1 } }) as unknown as RelayClient;
    for (const traceparent of [
      "00-not-a-trace-id-01",
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "zz-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "x".repeat(600),
    ]) {
      await sdk.reset();
      expect(await bare.relay({ hops: 0 }, { headers: { traceparent, tracestate: "vendor=abc" } })).toMatchObject({ trail: "end" });
      const [server] = sdk.spans();
      expect([traceparent, server?.kind, server?.parentSpanContext]).toEqual([traceparent, SpanKind.SERVER, undefined]);
      expect(server!.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(server!.spanContext().traceState).toBeUndefined();
    }
  });
});

describe("with no SDK registered (the API's no-op tracer and meter)", () => {
  it("serves and calls as without telemetry: no span, no trace context sent", async () => {
    const seen: (string | null)[] = [];
    const server = createServer(Relay, { protocols: [restJson1()], interceptors: [serverTelemetry()] })
      .register({
        relay: (_input: { hops: number }, ctx: HandlerContext) => {
          seen.push(ctx.headers.get("traceparent"));
          return { trail: String(trace.getActiveSpan()?.isRecording() ?? "none") };
        },
        fail: () => ({}),
      })
      .mapService("aws.protocols#restJson1");
    const listener = await listen(server);
    try {
      await sdk.reset();
      const client = createClient(Relay, { endpoint: listener.url, protocols: [restJson1()], interceptors: [clientTelemetry()] }) as unknown as RelayClient;
      // A span with no trace is not even made active: there is nothing to continue.
      expect(await client.relay({ hops: 0 })).toMatchObject({ trail: "none" });
      expect(seen).toEqual([null]);
      expect(sdk.spans()).toEqual([]);
    } finally {
      await listener.close({ graceMs: 100 });
    }
  });
});

type TickEvent = UnionValue<{ tick: { n: number } }>;
const Ticks = union<TickEvent>(
  "example.ticks#Ticks",
  [member("tick", struct("example.ticks#Tick", [member("n", integer, { required: true, protoIndex: 1 })]), { protoIndex: 1 })],
  { streaming: true },
);
const Countdown = service("example.ticks#Countdown", {
  version: "1",
  protocols: ["alloy.proto#grpc"],
  operations: {
    count: operation("example.ticks#Count", {
      input: struct<{ from: number }>("example.ticks#CountInput", [member("from", integer, { required: true, protoIndex: 1 })]),
      output: struct<{ ticks?: EventStream<TickEvent> }>("example.ticks#CountOutput", [member("ticks", Ticks, { streaming: true })]),
    }),
  },
});

describe("a streamed answer (gRPC server streaming)", () => {
  let listener: NodeListener;
  let release!: () => void;
  beforeAll(async () => {
    const server = createServer(Countdown, { protocols: [grpc()], interceptors: [serverTelemetry(telemetry)], onInternalError: () => {} })
      .register({
        count: (input: { from: number }) => ({
          ticks: (async function* (): AsyncGenerator<TickEvent> {
            for (let n = Math.abs(input.from); n > 0; n--) {
              yield { $case: "tick", value: { n } };
              // The last event waits for the test: the span must still be open then.
              if (n === 1) await new Promise<void>((resolve) => (release = resolve));
            }
            if (input.from < 0) throw new Error(`stream broke ${CANARY}`);
          })(),
        }),
      })
      .mapService();
    listener = await listen(server, { http2: true });
  });
  afterAll(() => listener.close({ graceMs: 100 }));
  beforeEach(() => sdk.reset());

  const count = (from: number) =>
    (
      createClient(Countdown, { endpoint: listener.url, protocols: [grpc()], retry: { maxAttempts: 1 } }) as unknown as {
        count(input: { from: number }): Promise<{ ticks: AsyncIterable<TickEvent> }>;
      }
    ).count({ from });

  it("ends its span with the stream, with the status of its trailers and the bytes it sent", async () => {
    const { ticks } = await count(3);
    const seen: number[] = [];
    const iterator = ticks[Symbol.asyncIterator]();
    for (let i = 0; i < 3; i++) seen.push(((await iterator.next()).value as TickEvent & { value: { n: number } }).value.n);
    expect(seen).toEqual([3, 2, 1]);
    expect(sdk.spans()).toEqual([]);
    release();
    expect((await iterator.next()).done).toBe(true);
    await expect.poll(() => sdk.spans().length).toBe(1);
    const [span] = sdk.spans();
    expect(span!.attributes["rpc.grpc.status_code"]).toBe(0);
    const sizes = (await sdk.points()).filter((p) => p.name === "rpc.server.response.size" && p.attributes["rpc.method"] === "Count");
    // Three messages (the union's 4 bytes of protobuf: the tick's 2 inside its field), each in a 5-byte frame.
    expect(sizes.map((p) => p.sum)).toEqual([27]);
  });

  it("takes a stream that fails after its head as the server's error (INTERNAL from the trailers)", async () => {
    const { ticks } = await count(-1);
    const iterator = ticks[Symbol.asyncIterator]();
    await iterator.next();
    release();
    await expect(iterator.next()).rejects.toMatchObject({ code: "INTERNAL" });
    await expect.poll(() => sdk.spans().length).toBe(1);
    const [span] = sdk.spans();
    expect(span!.attributes["rpc.grpc.status_code"]).toBe(13);
    expect(span!.attributes["error.type"]).toBe("INTERNAL");
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(JSON.stringify(view(span!))).not.toContain(CANARY);
  });
});

const Files = service("example.files#Files", {
  version: "1",
  protocols: ["aws.protocols#restJson1"],
  operations: {
    download: operation("example.files#Download", {
      input: struct<{ chunks: number; fail?: string }>("example.files#DownloadInput", [
        member("chunks", integer, { required: true, httpQuery: "chunks" }),
        member("fail", string, { httpQuery: "fail" }),
      ]),
      output: struct<{ data?: AsyncIterable<Uint8Array> }>("example.files#DownloadOutput", [member("data", blob, { streaming: true, httpPayload: true })]),
      traits: { http: { method: "GET", uri: "/download", code: 200 }, readonly: true },
    }),
  },
});

describe("a streamed answer (restJson1 blob)", () => {
  let listener: NodeListener;
  beforeAll(async () => {
    const server = createServer(Files, { protocols: [restJson1()], interceptors: [serverTelemetry(telemetry)], onInternalError: () => {} })
      .register({
        download: (input: { chunks: number; fail?: string }) => ({
          data: (async function* () {
            for (let i = 0; i < input.chunks; i++) yield new Uint8Array(1000);
            if (input.fail !== undefined) throw new TypeError(`disk gone ${CANARY}`);
          })(),
        }),
      })
      .mapService();
    listener = await listen(server);
  });
  afterAll(() => listener.close({ graceMs: 100 }));
  beforeEach(() => sdk.reset());

  const download = async (chunks: number, fail?: string) => {
    const client = createClient(Files, { endpoint: listener.url, protocols: [restJson1()], retry: { maxAttempts: 1 } }) as unknown as {
      download(input: { chunks: number; fail?: string }): Promise<{ data: AsyncIterable<Uint8Array> }>;
    };
    const { data } = await client.download({ chunks, ...(fail === undefined ? {} : { fail }) });
    let bytes = 0;
    for await (const chunk of data) bytes += chunk.byteLength;
    return bytes;
  };

  it("counts the bytes it sent, and ends its span after the last", async () => {
    expect(await download(3)).toBe(3000);
    await expect.poll(() => sdk.spans().length).toBe(1);
    expect(sdk.spans()[0]!.attributes).toMatchObject({ "http.response.status_code": 200 });
    const sizes = (await sdk.points()).filter((p) => p.name === "rpc.server.response.size" && p.attributes["rpc.method"] === "Download");
    expect(sizes.map((p) => p.sum)).toEqual([3000]);
  });

  it("takes a stream cut short after its head (still a 200) as the server's failure, by the error's class", async () => {
    await expect(download(2, "yes")).rejects.toBeDefined();
    await expect.poll(() => sdk.spans().length).toBe(1);
    const [span] = sdk.spans();
    expect(span!.attributes).toMatchObject({ "http.response.status_code": 200, "error.type": "TypeError" });
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(JSON.stringify(view(span!))).not.toContain(CANARY);
  });
});

/** What a span exposes that could carry a value: attributes, events, status, links. */
function view(span: ReadableSpan) {
  return { name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links };
}

afterAll(() => sdk.close());
