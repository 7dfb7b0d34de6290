/**
 * The server side: request hooks (`@anvil/server`'s `RequestHooks`) that
 * make one SERVER span per routed call, parented by the trace context the
 * caller sent, run the rest of the call inside it (so that a client call
 * made by the handler continues the trace), and record the call's
 * duration and sizes.
 */
import { context, type Histogram, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace, ValueType } from "@opentelemetry/api";
import { byteChunks, type HttpRequest, type HttpResponse, type OperationSchema, type ServiceSchema } from "@anvil/core";
import {
  ATTR,
  type CallFacts,
  callFacts,
  declaredLength,
  errorTypeOf,
  grpcStatusName,
  METRIC,
  measurementAttributes,
  SCOPE,
  SIZE_BUCKETS,
  grpcStatusOfHttp,
  serverFault,
  splitAuthority,
  wholeBodySize,
} from "./conventions.js";
import { hasTrace, isNoopMeter, type Resolved, resolveOptions, type TelemetryOptions } from "./options.js";

/**
 * A routed call as {@link ServerTelemetry} reads it: the part of
 * `@anvil/server`'s `RoutedRequest` it needs.
 */
export interface ServerTelemetryCall {
  /** The service being called. */
  readonly service: ServiceSchema;
  /** The operation the request was routed to. */
  readonly operation: OperationSchema;
  /** The protocol trait id the request came in with. */
  readonly protocol: string;
  /** The request (with its body as bytes once read). */
  readonly request: HttpRequest;
  /** The caller's address, when the transport knows it. */
  readonly remoteAddress: string | undefined;
  /** What the call failed with, once answered; undefined when it succeeded. */
  readonly error: unknown;
}

/**
 * Request hooks for a server's `interceptors`
 * (`createServer(Service, { interceptors: [serverTelemetry()] })`).
 */
export interface ServerTelemetry {
  /** Traces and measures one routed call (see `@anvil/server`'s `RequestHooks`). */
  aroundRequest(call: ServerTelemetryCall, next: () => Promise<HttpResponse>): Promise<HttpResponse>;
}

/** The server's instruments, made on first use. */
interface ServerInstruments {
  readonly duration: Histogram;
  readonly requestSize: Histogram;
  readonly responseSize: Histogram;
}

/**
 * OpenTelemetry for an Anvil server: request hooks to put in the server's
 * `interceptors`. Each routed call gets:
 *
 * - a SERVER span named `package.Service/Operation`, child of the trace
 *   context the caller sent (`traceparent`/`tracestate`, in HTTP headers or
 *   gRPC metadata; a malformed one is ignored and the call starts a new
 *   trace), with `rpc.system` (`grpc`, or `smithy` for the other
 *   protocols), `rpc.service`, `rpc.method`, `smithy.protocol`,
 *   `server.address`/`server.port` (the `Host` the caller used),
 *   `network.peer.address`, and once answered `rpc.grpc.status_code` or
 *   `http.response.status_code` and, for a failed call, `error.type` (the
 *   error's code or class, never its message). Its status is ERROR only for
 *   the server's own failures (5xx; gRPC UNKNOWN, DEADLINE_EXCEEDED,
 *   UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS). It covers the call
 *   from routing to the end of its answer (a streamed answer's last byte);
 *   the rest of the call runs with it as the active span;
 * - measurements `rpc.server.duration` (ms), `rpc.server.request.size` and
 *   `rpc.server.response.size` (bytes, where known) with the same `rpc.*`
 *   attributes, the status and `error.type`.
 *
 * Nothing of a call's input, output or headers (but `Host`) is recorded.
 */
export function serverTelemetry(options: TelemetryOptions = {}): ServerTelemetry {
  const resolved = resolveOptions(options);
  // Made at the first call (the meter provider registered by then): null for the API's no-op meter.
  let instruments: ServerInstruments | null | undefined;
  return {
    aroundRequest(call, next) {
      const measure = (instruments ??= serverInstruments(resolved));
      const facts = callFacts(call.service, call.operation, call.protocol);
      const request = call.request;
      const parent = resolved.extract(ROOT_CONTEXT, request.headers);
      const span = resolved.tracer.startSpan(facts.name, { kind: SpanKind.SERVER, attributes: facts.attributes }, parent);
      const recording = span.isRecording();
      // A span with no trace (the API's no-op tracer, and no caller's context) has nothing for the handler to continue.
      const traced = hasTrace(span);
      // Nothing records and nothing to pass on: the call goes on as if the hooks were not there.
      if (!recording && !traced && measure === null) return next();
      if (recording) addressAttributes(span, request, call.remoteAddress);
      const started = performance.now();
      const answer = traced ? context.with(trace.setSpan(parent, span), next) : next();
      return answer.then((response) => answered(call, facts, span, started, response, measure));
    },
  };
}

/**
 * The addresses of a recorded call: the one the caller used (`Host`), and
 * the caller's. Set after the span starts, so that a call nobody records
 * does not pay for them (samplers see the call's `rpc.*` attributes).
 */
function addressAttributes(span: Span, request: HttpRequest, peer: string | undefined): void {
  const authority = request.headers.get("host");
  if (authority !== null && authority !== "") {
    const { host, port } = splitAuthority(authority);
    span.setAttribute(ATTR.serverAddress, host);
    if (port !== undefined) span.setAttribute(ATTR.serverPort, port);
  }
  if (peer !== undefined) span.setAttribute(ATTR.peerAddress, peer);
}

/** Ends the span once the answer is complete: now for a whole answer, at its last byte for a streamed one. */
function answered(
  call: ServerTelemetryCall,
  facts: CallFacts,
  span: Span,
  started: number,
  response: HttpResponse,
  measure: ServerInstruments | null,
): HttpResponse {
  const body = response.body;
  const size = wholeBodySize(body);
  if (size !== undefined) {
    end(call, facts, span, started, statusOf(facts, response, response.trailers), size, measure);
    return response;
  }
  // A stream: the span and the measurements wait for its end, and for the trailers that follow it (gRPC's status).
  let bytes = 0;
  let finished = false;
  // What cut the stream short, if anything did: after the head, only gRPC's trailers can tell the caller.
  let cut: unknown;
  const finish = () => {
    if (finished) return;
    finished = true;
    const trailers = response.trailers;
    if (trailers instanceof Promise) {
      trailers.then(
        (t) => end(call, facts, span, started, statusOf(facts, response, t), bytes, measure, cut),
        () => end(call, facts, span, started, statusOf(facts, response, undefined), bytes, measure, cut),
      );
    } else end(call, facts, span, started, statusOf(facts, response, trailers), bytes, measure, cut);
  };
  async function* counted(): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      for await (const chunk of byteChunks(body as Exclude<typeof body, string | Uint8Array | undefined>)) {
        bytes += chunk.byteLength;
        yield chunk;
      }
    } catch (error) {
      cut = error;
      throw error;
    } finally {
      finish();
    }
  }
  return { ...response, body: counted() };
}

/** The call's status: the gRPC code (answer head, else trailers), else the HTTP status. */
function statusOf(facts: CallFacts, response: HttpResponse, trailers: Headers | Promise<Headers> | undefined): number {
  if (!facts.grpc) return response.status;
  const code = response.headers.get("grpc-status") ?? (trailers instanceof Promise ? null : (trailers?.get("grpc-status") ?? null));
  // No gRPC status at all (a plain HTTP refusal): what gRPC's HTTP-to-status mapping makes of it.
  if (code === null) return grpcStatusOfHttp(response.status);
  const n = Number(code);
  return Number.isInteger(n) && n >= 0 ? n : 2;
}

function end(
  call: ServerTelemetryCall,
  facts: CallFacts,
  span: Span,
  started: number,
  status: number,
  responseBytes: number | undefined,
  measure: ServerInstruments | null,
  cut?: unknown,
): void {
  const failed = facts.grpc ? status !== 0 : status >= 400;
  const error = call.error;
  // An HTTP answer cut short after its head still says 200: the stream's error is the call's.
  const httpCut = !facts.grpc && cut !== undefined;
  const errorType =
    error !== undefined ? errorTypeOf(error) : failed ? (facts.grpc ? grpcStatusName(status) : String(status)) : httpCut ? errorTypeOf(cut) : undefined;
  const duration = performance.now() - started;
  if (span.isRecording()) {
    span.setAttribute(facts.grpc ? ATTR.grpcStatus : ATTR.httpStatus, status);
    if (errorType !== undefined) span.setAttribute(ATTR.errorType, errorType);
    if (serverFault(facts.grpc, status) || httpCut) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
  if (measure === null) return;
  const attributes = measurementAttributes(facts, status, errorType);
  measure.duration.record(duration, attributes);
  const requestBytes = requestSize(call.request);
  if (requestBytes !== undefined) measure.requestSize.record(requestBytes, attributes);
  if (responseBytes !== undefined) measure.responseSize.record(responseBytes, attributes);
}

/** The request body's size: the bytes read, else its declared `Content-Length`. */
function requestSize(request: HttpRequest): number | undefined {
  const body = request.body;
  if (body instanceof Uint8Array || typeof body === "string" || body === undefined) return wholeBodySize(body);
  return declaredLength(request.headers);
}

function serverInstruments(resolved: Resolved): ServerInstruments | null {
  const meter = resolved.meterProvider().getMeter(SCOPE);
  if (isNoopMeter(meter)) return null;
  const sizes = { unit: "By", valueType: ValueType.INT, advice: { explicitBucketBoundaries: [...SIZE_BUCKETS] } };
  return {
    duration: meter.createHistogram(METRIC.serverDuration, { description: "Measures the duration of inbound RPC.", unit: "ms" }),
    requestSize: meter.createHistogram(METRIC.serverRequestSize, { description: "Measures the size of RPC request messages.", ...sizes }),
    responseSize: meter.createHistogram(METRIC.serverResponseSize, { description: "Measures the size of RPC response messages.", ...sizes }),
  };
}
