/**
 * The OpenTelemetry SDK as the tests set it up: spans kept in memory,
 * measurements collected on demand, the W3C propagator, and the
 * AsyncLocalStorage context manager (what the Node SDK registers).
 *
 * @internal
 */
import { context, propagation, type SpanContext, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { type HistogramMetricData, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

/** A reader that only collects when asked. */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One recorded histogram point, flattened. */
export interface Point {
  readonly name: string;
  readonly unit: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly count: number;
  readonly sum: number;
}

/** An SDK for one test file. */
export interface TestSdk {
  readonly exporter: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly propagator: W3CTraceContextPropagator;
  /** The spans ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** Every histogram point recorded so far. */
  points(): Promise<Point[]>;
  /** Forgets the spans and measurements so far. */
  reset(): Promise<void>;
  /** Unregisters the context manager. */
  close(): Promise<void>;
}

/** Sets up an SDK (not registered as the global one: pass the providers in the options), and the context manager. */
export function testSdk(): TestSdk {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  const points = async (): Promise<Point[]> => {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics.flatMap((scope) =>
      scope.metrics.flatMap((metric) =>
        (metric as HistogramMetricData).dataPoints.map((p) => ({
          name: metric.descriptor.name,
          unit: metric.descriptor.unit,
          attributes: p.attributes,
          count: p.value.count,
          sum: p.value.sum ?? 0,
        })),
      ),
    );
  };
  let baseline: Point[] = [];
  return {
    exporter,
    tracerProvider,
    meterProvider,
    propagator: new W3CTraceContextPropagator(),
    spans: () => exporter.getFinishedSpans(),
    // Cumulative points, less those recorded before the last reset.
    points: async () =>
      (await points())
        .map((p) => {
          const before = baseline.find((b) => b.name === p.name && JSON.stringify(b.attributes) === JSON.stringify(p.attributes));
          return before === undefined ? p : { ...p, count: p.count - before.count, sum: p.sum - before.sum };
        })
        .filter((p) => p.count > 0),
    reset: async () => {
      exporter.reset();
      baseline = await points();
    },
    close: async () => {
      context.disable();
      propagation.disable();
      trace.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The span context of a span, for comparing parents. */
export function idsOf(span: ReadableSpan): SpanContext {
  return span.spanContext();
}
