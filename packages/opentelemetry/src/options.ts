/**
 * What both sides are configured with, and how the defaults fill it in: the
 * providers and the propagator registered with `@opentelemetry/api`, looked
 * up so that an SDK registered after the hooks were made is still used.
 */
import {
  type Context,
  createNoopMeter,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  type Meter,
  type Span,
  type MeterProvider,
  metrics,
  propagation,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { SCOPE } from "./conventions.js";

/** Settings of {@link serverTelemetry} and {@link clientTelemetry}; every one is optional. */
export interface TelemetryOptions {
  /**
   * Where spans go. Default: the provider registered with
   * `@opentelemetry/api` (the API's proxy follows an SDK registered later).
   */
  readonly tracerProvider?: TracerProvider;
  /**
   * Where measurements go. Default: the provider registered with
   * `@opentelemetry/api` when the first call is made (register the SDK
   * before serving or calling, or pass it here).
   */
  readonly meterProvider?: MeterProvider;
  /**
   * How trace context travels in headers (`traceparent`/`tracestate` with
   * OpenTelemetry's W3C propagator). Default: the propagator registered with
   * `@opentelemetry/api` (the SDKs register the W3C ones).
   */
  readonly propagator?: TextMapPropagator;
}

/** The settings resolved, with the meter's instruments made on first use. */
export interface Resolved {
  readonly tracer: Tracer;
  readonly meterProvider: () => MeterProvider;
  /** Extracts a remote context from headers into `base`. */
  extract(base: Context, headers: Headers): Context;
  /** Writes a context into headers. */
  inject(context: Context, headers: Headers): void;
}

/** Reads trace context out of `Headers` (gRPC metadata are HTTP/2 headers too). */
const getter: TextMapGetter<Headers> = {
  keys: (headers) => {
    const names: string[] = [];
    headers.forEach((_value, name) => names.push(name));
    return names;
  },
  get: (headers, key) => headers.get(key) ?? undefined,
};

/** Writes trace context into `Headers`. */
const setter: TextMapSetter<Headers> = {
  set: (headers, key, value) => headers.set(key, value),
};

/** Fills in the defaults. */
export function resolveOptions(options: TelemetryOptions): Resolved {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const given = options.meterProvider;
  const propagator = options.propagator;
  return {
    tracer,
    meterProvider: () => given ?? metrics.getMeterProvider(),
    extract:
      propagator === undefined ? (base, headers) => propagation.extract(base, headers, getter) : (base, headers) => propagator.extract(base, headers, getter),
    inject:
      propagator === undefined
        ? (context, headers) => propagation.inject(context, headers, setter)
        : (context, headers) => propagator.inject(context, headers, setter),
  };
}

/** The class of the API's no-op meter (what the meter provider gives with no SDK registered). */
const NoopMeter = createNoopMeter().constructor;

/** Whether a meter is the API's no-op one: measuring for it would be work for nothing. */
export function isNoopMeter(meter: Meter): boolean {
  return meter.constructor === NoopMeter;
}

/** Whether a span belongs to a trace (a valid context), which calls it makes can continue. */
export function hasTrace(span: Span): boolean {
  const ids = span.spanContext();
  return ids !== INVALID_SPAN_CONTEXT && isSpanContextValid(ids);
}
