/**
 * OpenTelemetry on every protocol, over HTTP/1.1, HTTP/2 and gRPC: a client
 * with `clientTelemetry()` calls a server with `serverTelemetry()` whose
 * handler calls on to the server again, and the OpenTelemetry SDK (spans in
 * memory, measurements collected on demand, the W3C propagator, the
 * AsyncLocalStorage context manager) sees one trace from end to end, the
 * RPC attributes, the status of modeled, unmodeled and retried failures,
 * the duration and size histograms, and no `@sensitive` value anywhere.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import type { ServiceSchema } from "@anvil/core";
import { errorClass, type StructSchema } from "@anvil/core/codegenv1";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { clientTelemetry, serverTelemetry } from "@anvil/opentelemetry";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { grpc } from "@anvil/protocol-grpc";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { rpcv2Json } from "@anvil/protocol-rpcv2json";
import { createServer } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { context, createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { type HistogramMetricData, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

const { model, events } = loadModel({
  sources: [{ file: "telemetry.smithy", text: readFileSync(join(import.meta.dirname, "..", "models", "telemetry.smithy"), "utf8") }],
});
const modelErrors = events.filter((e) => e.severity === "ERROR");
if (modelErrors.length > 0) throw new Error(`telemetry.smithy: ${modelErrors.map((e) => e.message).join("; ")}`);
const Relay = schemasFromModel(model).service("test.telemetry#Relay") as ServiceSchema;

/** A value planted in `@sensitive` members and in an error's message: no span may carry it. */
const CANARY = "canary-5e1d9";

class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const reader = new OnDemandReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const propagator = new W3CTraceContextPropagator();
const telemetry = { tracerProvider, meterProvider, propagator };
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/** Histogram points by name, with their attributes and counts (cumulative since the start). */
async function points(): Promise<{ name: string; attributes: Record<string, unknown>; count: number }[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics.flatMap((scope) =>
    scope.metrics.flatMap((metric) =>
      (metric as HistogramMetricData).dataPoints.map((p) => ({ name: metric.descriptor.name, attributes: p.attributes, count: p.value.count })),
    ),
  );
}

type ProtocolValue = Parameters<typeof createServer>[1]["protocols"][number];

const PROTOCOLS = [
  { id: "aws.protocols#restJson1", value: restJson1(), h2: false },
  { id: "alloy#simpleRestJson", value: simpleRestJson(), h2: false },
  { id: "aws.protocols#awsJson1_0", value: awsJson1_0(), h2: false },
  { id: "aws.protocols#awsJson1_1", value: awsJson1_1(), h2: false },
  { id: "smithy.protocols#rpcv2Cbor", value: rpcv2Cbor(), h2: false },
  { id: "smithy.protocols#rpcv2Json", value: rpcv2Json(), h2: false },
  { id: "aws.protocols#restJson1", value: restJson1(), h2: true },
  { id: "smithy.protocols#rpcv2Cbor", value: rpcv2Cbor(), h2: true },
  { id: "alloy.proto#grpc", value: grpc(), h2: true },
] as const;

const h2Transport = http2Transport();
afterAll(async () => {
  await h2Transport.close();
  context.disable();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});

type RelayClient = {
  forward(input: { hops: number; secret?: string }): Promise<{ trail?: string }>;
  fail(input: { mode: string; key?: string }): Promise<unknown>;
};

/** What a span shows that could hold a value: name, attributes, events, status, links. */
const shown = (spans: readonly ReadableSpan[]) =>
  JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links })));

describe.each(PROTOCOLS.map((p) => ({ ...p, http: p.h2 ? "HTTP/2" : "HTTP/1.1" })))("$id over $http", (p) => {
  const isGrpc = p.id === "alloy.proto#grpc";
  const system = isGrpc ? "grpc" : "smithy";
  const statusKey = isGrpc ? "rpc.grpc.status_code" : "http.response.status_code";
  let listener: NodeListener;
  const busy = new Map<string, number>();
  const client = (maxAttempts = 1): RelayClient =>
    createClient(Relay, {
      endpoint: listener.url,
      protocols: [p.value],
      protocol: p.id,
      interceptors: [clientTelemetry(telemetry)],
      retry: { maxAttempts, baseDelayMs: 1 },
      ...(p.h2 ? { transport: h2Transport } : {}),
    }) as unknown as RelayClient;

  beforeAll(async () => {
    const server = createServer(Relay, { protocols: [p.value as ProtocolValue], interceptors: [serverTelemetry(telemetry)], onInternalError: () => {} })
      .register({
        forward: async (input: { hops: number }) =>
          input.hops === 0 ? { trail: "end" } : { trail: `${input.hops} > ${(await client().forward({ hops: input.hops - 1, secret: CANARY })).trail}` },
        fail: (input: { mode: string; key?: string }) => {
          if (input.mode === "modeled") throw modeledError("test.telemetry#NotFound", { message: `nothing for ${CANARY}`, detail: CANARY });
          if (input.mode === "busy") {
            const n = (busy.get(input.key!) ?? 0) + 1;
            busy.set(input.key!, n);
            if (n <= 2) throw modeledError("test.telemetry#Busy", { message: "later" });
            return {};
          }
          throw new Error(`broke on ${CANARY}`);
        },
      } as never)
      .mapService(p.id);
    listener = await listen(server, { http2: p.h2 });
  });
  afterAll(() => listener.close({ graceMs: 100 }));
  beforeEach(() => exporter.reset());

  it("makes one trace of a call and the call its handler makes: client → server → client → server", async () => {
    expect(await client().forward({ hops: 1, secret: CANARY })).toMatchObject({ trail: "1 > end" });
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(4);
    const root = spans.find((s) => s.parentSpanContext === undefined)!;
    const chain = [root];
    for (let i = 0; i < 3; i++) chain.push(spans.find((s) => s.parentSpanContext?.spanId === chain[i]!.spanContext().spanId)!);
    expect(chain.map((s) => s?.kind)).toEqual([SpanKind.CLIENT, SpanKind.SERVER, SpanKind.CLIENT, SpanKind.SERVER]);
    expect(new Set(chain.map((s) => s.spanContext().traceId))).toEqual(new Set([root.spanContext().traceId]));
    for (const span of chain) {
      expect(span.name).toBe("test.telemetry.Relay/Forward");
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes).toMatchObject({
        "rpc.system": system,
        "rpc.service": "test.telemetry.Relay",
        "rpc.method": "Forward",
        "smithy.protocol": p.id,
        "server.address": "127.0.0.1",
        "server.port": listener.port,
        [statusKey]: isGrpc ? 0 : 200,
      });
    }
    expect(shown(spans)).not.toContain(CANARY);
  });

  it("records a modeled error as the caller's: the server's span keeps its status, the client's is an error", async () => {
    await expect(client().fail({ mode: "modeled" })).rejects.toMatchObject({ code: "NotFound" });
    const spans = exporter.getFinishedSpans();
    const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
    const caller = spans.find((s) => s.kind === SpanKind.CLIENT)!;
    for (const span of [server, caller]) expect(span.attributes).toMatchObject({ [statusKey]: isGrpc ? 5 : 404, "error.type": "NotFound" });
    expect([server.status.code, caller.status.code]).toEqual([SpanStatusCode.UNSET, SpanStatusCode.ERROR]);
    expect(shown(spans)).not.toContain(CANARY);
  });

  it("records an unmodeled failure as the server's error (500, INTERNAL), by its class and never its message", async () => {
    await expect(client().fail({ mode: "crash" })).rejects.toBeDefined();
    const spans = exporter.getFinishedSpans();
    const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(server.attributes).toMatchObject({ [statusKey]: isGrpc ? 13 : 500, "error.type": "Error" });
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans.find((s) => s.kind === SpanKind.CLIENT)!.status.code).toBe(SpanStatusCode.ERROR);
    expect(shown(spans)).not.toContain(CANARY);
  });

  it("gives each attempt of a retried call its own span, the server's span its child", async () => {
    await client(3).fail({ mode: "busy", key: `${p.id} ${p.http}` });
    const spans = exporter.getFinishedSpans();
    const attempts = spans.filter((s) => s.kind === SpanKind.CLIENT);
    const served = spans.filter((s) => s.kind === SpanKind.SERVER);
    expect(attempts.map((s) => s.attributes["http.request.resend_count"])).toEqual([undefined, 1, 2]);
    expect(attempts.map((s) => s.attributes["error.type"])).toEqual(["Busy", "Busy", undefined]);
    expect(attempts.map((s) => s.attributes[statusKey])).toEqual(isGrpc ? [14, 14, 0] : [503, 503, 200]);
    expect(served.map((s) => s.parentSpanContext?.spanId)).toEqual(attempts.map((s) => s.spanContext().spanId));
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(3);
  });

  it("carries the caller's tracestate through every hop", async () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId,
      spanId: "b7ad6b7169203331",
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: createTraceState("congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"),
    });
    await context.with(parent, () => client().forward({ hops: 1 }));
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.spanContext().traceId, s.spanContext().traceState?.serialize()])).toEqual(
      spans.map(() => [traceId, "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"]),
    );
  });

  it("records the duration and size histograms of both sides", async () => {
    const before = await points();
    await client().forward({ hops: 0 });
    const after = await points();
    const grown = after
      .filter((a) => a.attributes["rpc.method"] === "Forward" && a.attributes["smithy.protocol"] === p.id && a.attributes[statusKey] === (isGrpc ? 0 : 200))
      .filter((a) => a.count > (before.find((b) => b.name === a.name && JSON.stringify(b.attributes) === JSON.stringify(a.attributes))?.count ?? 0))
      .map((a) => a.name)
      .sort();
    expect(grown).toEqual(
      expect.arrayContaining(["rpc.client.duration", "rpc.client.request.size", "rpc.server.duration", "rpc.server.request.size", "rpc.server.response.size"]),
    );
  });
});

/** A modeled error of the dynamic schemas, as a handler throws it. */
function modeledError(id: string, members: Record<string, unknown>): Error {
  const schema = Object.values(Relay.operations)
    .flatMap((o) => o.errors)
    .find((e) => e.id === id)!;
  return new (errorClassOf(schema))(members);
}

const errorClassOf = (schema: unknown) => errorClass(schema as StructSchema) as unknown as new (members: object) => Error;
