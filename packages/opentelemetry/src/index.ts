/**
 * `@anvil/opentelemetry`: OpenTelemetry traces and metrics for Anvil
 * servers and clients, over `@opentelemetry/api` (a peer dependency: bring
 * your SDK). {@link serverTelemetry} gives request hooks for a server's
 * `interceptors`, {@link clientTelemetry} attempt hooks for a client's:
 * one span per call on the server and per attempt on the client, following
 * the RPC semantic conventions (v1.37.0), the matching duration and size
 * histograms, and W3C trace context (`traceparent`/`tracestate`) both ways
 * on every protocol, gRPC metadata included.
 *
 * @packageDocumentation
 */
export { serverTelemetry } from "./server.js";
export type { ServerTelemetry, ServerTelemetryCall } from "./server.js";
export { clientTelemetry } from "./client.js";
export type { ClientTelemetry, ClientTelemetryAttempt, ClientTelemetryResult } from "./client.js";
export type { TelemetryOptions } from "./options.js";
export { ATTR as ATTRIBUTES, METRIC as METRICS, SMITHY_RPC_SYSTEM } from "./conventions.js";
