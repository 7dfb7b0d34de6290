/**
 * The client side: attempt hooks (`@anvil/client-core`'s `Interceptor`)
 * that make one CLIENT span per attempt, child of the context the call was
 * made in (a handler's SERVER span when a server calls on), write its trace
 * context into the attempt's request headers, and record each attempt's
 * duration and sizes.
 */
import { type Attributes, context, type Histogram, type Span, SpanKind, SpanStatusCode, trace, ValueType } from "@opentelemetry/api";
import { AnvilError, type HttpRequest, type HttpResponse, type OperationSchema, type ServiceSchema } from "@anvil/core";
import {
  ATTR,
  type CallFacts,
  callFacts,
  declaredLength,
  errorTypeOf,
  METRIC,
  measurementAttributes,
  SCOPE,
  SIZE_BUCKETS,
  wholeBodySize,
} from "./conventions.js";
import { hasTrace, isNoopMeter, type Resolved, resolveOptions, type TelemetryOptions } from "./options.js";

/** An attempt as {@link ClientTelemetry} reads it: the part of `@anvil/client-core`'s `AttemptContext` it needs. */
export interface ClientTelemetryAttempt {
  /** The service the client calls. */
  readonly service: ServiceSchema;
  /** The operation being called. */
  readonly operation: OperationSchema;
  /** The id of the protocol the client speaks. */
  readonly protocol: string;
  /** The client's endpoint. */
  readonly endpoint: URL;
  /** 1 for the first attempt. */
  readonly attempt: number;
}

/** How an attempt ended, as {@link ClientTelemetry} reads it (`@anvil/client-core`'s `AttemptResult`). */
export interface ClientTelemetryResult {
  /** The request as sent. */
  readonly request: HttpRequest;
  /** The response, when one arrived. */
  readonly response?: HttpResponse;
  /** The error, when the attempt failed. */
  readonly error?: unknown;
}

/** Attempt hooks for a client's `interceptors` (`createClient(Service, { interceptors: [clientTelemetry()] })`). */
export interface ClientTelemetry {
  /** Starts the attempt's span and writes its trace context into the request's headers. */
  beforeAttempt(request: HttpRequest, attempt: ClientTelemetryAttempt): HttpRequest;
  /** Ends the attempt's span and records its measurements. */
  afterAttempt(result: ClientTelemetryResult, attempt: ClientTelemetryAttempt): void;
}

/** The client's instruments, made on first use. */
interface ClientInstruments {
  readonly duration: Histogram;
  readonly requestSize: Histogram;
  readonly responseSize: Histogram;
}

/** An attempt in flight. */
interface Started {
  readonly span: Span;
  readonly facts: CallFacts;
  readonly started: number;
}

/**
 * OpenTelemetry for an Anvil client: attempt hooks to put in the client's
 * `interceptors`. Each attempt (retries are attempts of their own) gets:
 *
 * - a CLIENT span named `package.Service/Operation`, child of the context
 *   active where the call was made, whose trace context goes in the
 *   attempt's `traceparent`/`tracestate` headers (gRPC metadata included),
 *   with `rpc.system` (`grpc`, or `smithy`), `rpc.service`, `rpc.method`,
 *   `smithy.protocol`, `server.address`/`server.port` (the endpoint's),
 *   `http.request.resend_count` on a retry (1 for the second attempt), and
 *   once it ends `rpc.grpc.status_code` or `http.response.status_code` and,
 *   when it failed, `error.type` (a modeled error's shape name, the
 *   unmodeled error's type, a transport's code) and status ERROR;
 * - measurements `rpc.client.duration` (ms), `rpc.client.request.size` and
 *   `rpc.client.response.size` (bytes, where known).
 *
 * A streamed output's span ends when the answer's head has been read.
 * Nothing of a call's input, output or headers is recorded.
 */
export function clientTelemetry(options: TelemetryOptions = {}): ClientTelemetry {
  const resolved = resolveOptions(options);
  const attempts = new WeakMap<ClientTelemetryAttempt, Started>();
  // Made at the first attempt's end (the meter provider registered by then): null for the API's no-op meter.
  let instruments: ClientInstruments | null | undefined;
  return {
    beforeAttempt(request, attempt) {
      const measure = (instruments ??= clientInstruments(resolved));
      const facts = callFacts(attempt.service, attempt.operation, attempt.protocol);
      const parent = context.active();
      const span = resolved.tracer.startSpan(facts.name, { kind: SpanKind.CLIENT, attributes: endpointAttributes(facts, attempt.endpoint) }, parent);
      const recording = span.isRecording();
      if (recording && attempt.attempt > 1) span.setAttribute(ATTR.resendCount, attempt.attempt - 1);
      if (hasTrace(span)) resolved.inject(trace.setSpan(parent, span), request.headers);
      // Nothing records: nothing to finish after the attempt either.
      if (recording || measure !== null) attempts.set(attempt, { span, facts, started: performance.now() });
      return request;
    },
    afterAttempt(result, attempt) {
      const started = attempts.get(attempt);
      if (started === undefined) return;
      attempts.delete(attempt);
      const { span, facts } = started;
      const duration = performance.now() - started.started;
      const status = statusOf(facts, result);
      const failed = "error" in result && result.error !== undefined;
      const errorType = failed ? errorTypeOf(result.error) : undefined;
      if (span.isRecording()) {
        if (status !== undefined) span.setAttribute(facts.grpc ? ATTR.grpcStatus : ATTR.httpStatus, status);
        if (errorType !== undefined) {
          span.setAttribute(ATTR.errorType, errorType);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
      }
      span.end();
      if (instruments === null || instruments === undefined) return;
      const attributes = measurementAttributes(facts, status, errorType);
      instruments.duration.record(duration, attributes);
      const sent = wholeBodySize(result.request.body) ?? declaredLength(result.request.headers);
      if (sent !== undefined) instruments.requestSize.record(sent, attributes);
      const response = result.response;
      if (response !== undefined) {
        const received = declaredLength(response.headers) ?? wholeBodySize(response.body);
        if (received !== undefined) instruments.responseSize.record(received, attributes);
      }
    },
  };
}

/**
 * The attempt's status, when it has one: for gRPC the code (0 for an
 * output; a failed call's from its error, where gRPC errors carry it),
 * else the HTTP status of the response.
 */
function statusOf(facts: CallFacts, result: ClientTelemetryResult): number | undefined {
  if (facts.grpc) {
    if (!("error" in result) || result.error === undefined) return 0;
    const fromError = AnvilError.isAnvilError(result.error) ? result.error.$metadata.httpStatus : undefined;
    if (fromError !== undefined) return fromError;
    const fromHead = result.response?.headers.get("grpc-status");
    return fromHead === null || fromHead === undefined ? undefined : Number(fromHead);
  }
  return result.response?.status;
}

/** Endpoints whose attributes are kept per operation at most (a client has one; a gateway a few). */
const MAX_ENDPOINTS = 16;

/** The attributes an attempt's span starts with: the call's and the endpoint's address, made once per endpoint. */
function endpointAttributes(facts: CallFacts, endpoint: URL): Readonly<Attributes> {
  const key = endpoint.href;
  let attributes = facts.endpoints.get(key);
  if (attributes === undefined) {
    const made: Attributes = { ...facts.attributes, [ATTR.serverAddress]: hostOf(endpoint) };
    const port = portOf(endpoint);
    if (port !== undefined) made[ATTR.serverPort] = port;
    attributes = Object.freeze(made);
    if (facts.endpoints.size < MAX_ENDPOINTS) facts.endpoints.set(key, attributes);
  }
  return attributes;
}

function hostOf(endpoint: URL): string {
  const host = endpoint.hostname;
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

function portOf(endpoint: URL): number | undefined {
  if (endpoint.port !== "") return Number(endpoint.port);
  if (endpoint.protocol === "https:") return 443;
  if (endpoint.protocol === "http:") return 80;
  return undefined;
}

function clientInstruments(resolved: Resolved): ClientInstruments | null {
  const meter = resolved.meterProvider().getMeter(SCOPE);
  if (isNoopMeter(meter)) return null;
  const sizes = { unit: "By", valueType: ValueType.INT, advice: { explicitBucketBoundaries: [...SIZE_BUCKETS] } };
  return {
    duration: meter.createHistogram(METRIC.clientDuration, { description: "Measures the duration of outbound RPC.", unit: "ms" }),
    requestSize: meter.createHistogram(METRIC.clientRequestSize, { description: "Measures the size of RPC request messages.", ...sizes }),
    responseSize: meter.createHistogram(METRIC.clientResponseSize, { description: "Measures the size of RPC response messages.", ...sizes }),
  };
}
