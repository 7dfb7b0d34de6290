/**
 * The access log: one plain object per call, shaped for pino or any JSON
 * logger, and a one-line form for people. It holds no body and no header
 * value, so no `@sensitive` member and no credential can reach it.
 */
import type { HttpRequest, HttpResponse } from "@anvil/core";
import { encodeUtf8 } from "@anvil/core/protocol";

/** What the server says of one call, once its answer's head is ready. */
export interface AccessLogEntry {
  /** When the request arrived, ISO 8601 (UTC). */
  readonly time: string;
  /** The service's shape id. */
  readonly service: string;
  /** The operation's key (the handler method, e.g. `getCity`); absent when no route matched. */
  readonly operation?: string;
  /** The protocol trait id the request came in with; absent when no route matched. */
  readonly protocol?: string;
  /** The HTTP method. */
  readonly method: string;
  /** The request path, as on the wire (no query). */
  readonly path: string;
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The gRPC status, when the answer's head carries it (a call that failed before its first message). */
  readonly grpcStatus?: number;
  /** The error type the answer names (`x-amzn-errortype`, `x-error-type`), for failed calls. */
  readonly error?: string;
  /** Milliseconds from the request's arrival to the answer's head (a streamed answer goes on after). */
  readonly durationMs: number;
  /** The call's request id, as returned to the caller. */
  readonly requestId?: string;
  /** The caller's address, when the transport knows it. */
  readonly remoteAddress?: string;
  /** The request body's declared size (`Content-Length`), when declared. */
  readonly bytesIn?: number;
  /** The answer body's size, when it is whole (a streamed answer's is not known here). */
  readonly bytesOut?: number;
  /** The `id` of the caller's identity, when it authenticated with one. */
  readonly identity?: string;
}

/** What the dispatcher knows of a call besides its request and answer. */
export interface CallFacts {
  readonly operation?: string | undefined;
  readonly protocol?: string | undefined;
  readonly requestId?: string | undefined;
  readonly remoteAddress?: string | undefined;
  readonly identity?: unknown;
}

/** The entry of one call. */
export function accessLogEntry(
  service: string,
  request: HttpRequest,
  response: HttpResponse,
  facts: CallFacts,
  startedAt: number,
  startedMs: number,
): AccessLogEntry {
  const entry: { -readonly [K in keyof AccessLogEntry]: AccessLogEntry[K] } = {
    time: new Date(startedAt).toISOString(),
    service,
    method: request.method,
    path: request.path,
    status: response.status,
    durationMs: Math.round((performance.now() - startedMs) * 1000) / 1000,
  };
  if (facts.operation !== undefined) entry.operation = facts.operation;
  if (facts.protocol !== undefined) entry.protocol = facts.protocol;
  const grpcStatus = response.headers.get("grpc-status");
  if (grpcStatus !== null) entry.grpcStatus = Number(grpcStatus);
  const error = response.headers.get("x-amzn-errortype") ?? response.headers.get("x-error-type");
  if (error !== null) entry.error = error.split(":")[0]!;
  const requestId = facts.requestId ?? response.headers.get("x-request-id") ?? response.headers.get("x-amzn-requestid") ?? undefined;
  if (requestId !== undefined) entry.requestId = requestId;
  if (facts.remoteAddress !== undefined) entry.remoteAddress = facts.remoteAddress;
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared)) entry.bytesIn = Number(declared);
  const out = response.body;
  if (out instanceof Uint8Array) entry.bytesOut = out.byteLength;
  else if (typeof out === "string") entry.bytesOut = encodeUtf8(out).byteLength;
  else if (out === undefined) entry.bytesOut = 0;
  const id = (facts.identity as { id?: unknown } | undefined)?.id;
  if (typeof id === "string") entry.identity = id;
  return entry;
}

/**
 * An entry as one line for people:
 * `2026-12-02T10:00:00.000Z 127.0.0.1 GET /cities/paris 200 1.2ms Weather.getCity aws.protocols#restJson1 id=…`.
 */
export function formatAccessLog(entry: AccessLogEntry): string {
  const parts = [entry.time, entry.remoteAddress ?? "-", entry.method, entry.path, String(entry.status)];
  if (entry.grpcStatus !== undefined) parts.push(`grpc-status=${entry.grpcStatus}`);
  parts.push(`${entry.durationMs}ms`);
  const name = entry.service.slice(entry.service.indexOf("#") + 1);
  parts.push(entry.operation === undefined ? name : `${name}.${entry.operation}`);
  if (entry.protocol !== undefined) parts.push(entry.protocol);
  if (entry.error !== undefined) parts.push(`error=${entry.error}`);
  if (entry.identity !== undefined) parts.push(`identity=${entry.identity}`);
  if (entry.requestId !== undefined) parts.push(`id=${entry.requestId}`);
  return parts.join(" ");
}
