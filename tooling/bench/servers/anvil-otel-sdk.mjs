// anvil.mjs with OpenTelemetry on and the SDK registered as an application would: every span sampled and
// batched to an exporter (one that drops the batches, so that no I/O is measured), the histograms aggregated
// for a periodic reader, the W3C propagator and the AsyncLocalStorage context manager.
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { serverTelemetry } from "@anvil/opentelemetry";
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { createOrder, Orders } from "./order-model.mjs";
import { ready } from "./ready.mjs";

let exported = 0;
const spanExporter = {
  export(spans, done) {
    exported += spans.length;
    done({ code: ExportResultCode.SUCCESS });
  },
  shutdown: async () => {},
};
const metricExporter = {
  export(_metrics, done) {
    done({ code: ExportResultCode.SUCCESS });
  },
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
  forceFlush: async () => {},
  shutdown: async () => {},
};
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spanExporter)] }));
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 10_000 })] }));

const server = createServer(Orders, { protocols: [restJson1()], interceptors: [serverTelemetry()] })
  .register({ createOrder: async (input) => createOrder(input) })
  .mapService();
const listener = await listen(server, { port: 0 });
ready(listener.port);
process.on("exit", () => exported);
