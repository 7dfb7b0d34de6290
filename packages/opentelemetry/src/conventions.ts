/**
 * The names and values of OpenTelemetry's RPC semantic conventions as this
 * package uses them: v1.37.0 of the RPC spans and metrics documents (the
 * `rpc.system`/`rpc.service`/`rpc.method` generation that grpc-js's and the
 * AWS SDK's instrumentations emit), with the stable `server.*`, `network.*`,
 * `http.*` and `error.type` attributes. What each call of a protocol and
 * operation shares is worked out once and cached on the schemas.
 */
import type { Attributes } from "@opentelemetry/api";
import { AnvilError, type OperationSchema, type ServiceSchema } from "@anvil/core";

/** The instrumentation scope: the name tracers and meters are got with. */
export const SCOPE = "@anvil/opentelemetry";

/** The gRPC protocol's trait id. */
export const GRPC = "alloy.proto#grpc";

/** `rpc.system` for the Smithy protocols (restJson1, awsJson, rpcv2Cbor, ...); gRPC is `grpc`. */
export const SMITHY_RPC_SYSTEM = "smithy";

/** The attribute names used, as written in the conventions. */
export const ATTR = Object.freeze({
  rpcSystem: "rpc.system",
  rpcService: "rpc.service",
  rpcMethod: "rpc.method",
  grpcStatus: "rpc.grpc.status_code",
  httpStatus: "http.response.status_code",
  resendCount: "http.request.resend_count",
  serverAddress: "server.address",
  serverPort: "server.port",
  peerAddress: "network.peer.address",
  protocolName: "network.protocol.name",
  protocolVersion: "network.protocol.version",
  errorType: "error.type",
  /** Not in the conventions: the Smithy protocol trait id the call used (`aws.protocols#restJson1`). */
  smithyProtocol: "smithy.protocol",
} as const);

/** The metric instruments' names (v1.37.0: durations in milliseconds, sizes in bytes). */
export const METRIC = Object.freeze({
  serverDuration: "rpc.server.duration",
  serverRequestSize: "rpc.server.request.size",
  serverResponseSize: "rpc.server.response.size",
  clientDuration: "rpc.client.duration",
  clientRequestSize: "rpc.client.request.size",
  clientResponseSize: "rpc.client.response.size",
} as const);

/** Byte-size buckets of the size histograms: 0 B to 16 MiB by powers of four. */
export const SIZE_BUCKETS: readonly number[] = Object.freeze([0, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216]);

/** gRPC's status codes by number. */
const GRPC_STATUS_NAMES: readonly string[] = Object.freeze([
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
]);

/** A gRPC status code's name (`_OTHER` outside the table). */
export function grpcStatusName(code: number): string {
  return GRPC_STATUS_NAMES[code] ?? "_OTHER";
}

/**
 * The gRPC status of an answer that carries none, from its HTTP status
 * (gRPC's http-grpc-status-mapping): 400 INTERNAL, 401 UNAUTHENTICATED,
 * 403 PERMISSION_DENIED, 404 UNIMPLEMENTED, 429/502/503/504 UNAVAILABLE,
 * anything else UNKNOWN.
 */
export function grpcStatusOfHttp(status: number): number {
  switch (status) {
    case 400:
      return 13;
    case 401:
      return 16;
    case 403:
      return 7;
    case 404:
      return 12;
    case 429:
    case 502:
    case 503:
    case 504:
      return 14;
    default:
      return 2;
  }
}

/** The gRPC codes a server span counts as its own failure (gRPC conventions: the rest are the caller's). */
const SERVER_GRPC_ERRORS: ReadonlySet<number> = new Set([2, 4, 12, 13, 14, 15]);

/** Whether a server's answer is a failure of its own (span status ERROR): a 5xx, or a gRPC server-side code. */
export function serverFault(grpc: boolean, status: number): boolean {
  return grpc ? SERVER_GRPC_ERRORS.has(status) : status >= 500;
}

/**
 * `error.type` of an error: an Anvil error's `code` (a modeled error's shape
 * name, `ValidationException`, a transport's `ECONNREFUSED`), another
 * error's class name; never its message, which may carry what the caller
 * sent (a `@sensitive` value).
 */
export function errorTypeOf(error: unknown): string {
  if (AnvilError.isAnvilError(error)) return error.code;
  if (typeof error === "object" && error !== null) {
    const name = (error as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === "string" && name !== "" && name !== "Object") return name;
  }
  return "_OTHER";
}

/** What every call of one operation over one protocol shares. */
export interface CallFacts {
  /** The span name: `package.Service/Operation`, as gRPC's path names the method. */
  readonly name: string;
  /** Whether the protocol is gRPC (its status is the gRPC code). */
  readonly grpc: boolean;
  /** The attributes every span and measurement of these calls carries. */
  readonly attributes: Readonly<Attributes>;
  /** Measurement attributes by outcome, made once each (see {@link measurementAttributes}). */
  readonly outcomes: Map<string, Readonly<Attributes>>;
  /** The same, of calls that succeeded, by status. */
  readonly successes: Map<number | undefined, Readonly<Attributes>>;
  /** A client's span attributes at start, by endpoint (see the client's `endpointAttributes`). */
  readonly endpoints: Map<string, Readonly<Attributes>>;
}

const factsByOperation = new WeakMap<OperationSchema, Map<string, CallFacts>>();

/** The facts of an operation's calls over a protocol, made on first use. */
export function callFacts(service: ServiceSchema, operation: OperationSchema, protocol: string): CallFacts {
  let byProtocol = factsByOperation.get(operation);
  if (byProtocol === undefined) factsByOperation.set(operation, (byProtocol = new Map()));
  let facts = byProtocol.get(protocol);
  if (facts === undefined) {
    const hash = service.id.indexOf("#");
    const rpcService = hash < 0 ? service.id : `${service.id.slice(0, hash)}.${service.id.slice(hash + 1)}`;
    const grpc = protocol === GRPC;
    const attributes: Attributes = {
      [ATTR.rpcSystem]: grpc ? "grpc" : SMITHY_RPC_SYSTEM,
      [ATTR.rpcService]: rpcService,
      [ATTR.rpcMethod]: operation.name,
      [ATTR.smithyProtocol]: protocol,
      [ATTR.protocolName]: "http",
    };
    if (grpc) attributes[ATTR.protocolVersion] = "2";
    facts = {
      name: `${rpcService}/${operation.name}`,
      grpc,
      attributes: Object.freeze(attributes),
      outcomes: new Map(),
      successes: new Map(),
      endpoints: new Map(),
    };
    byProtocol.set(protocol, facts);
  }
  return facts;
}

/** Outcomes kept per operation at most: past that (a peer naming endless error types), each measurement makes its own. */
const MAX_OUTCOMES = 64;

/**
 * The attributes of a measurement: the call's, its status (the gRPC code,
 * else the HTTP status) and its error type. Made once per outcome and
 * reused, so that recording costs no object per call.
 */
export function measurementAttributes(facts: CallFacts, status: number | undefined, errorType: string | undefined): Readonly<Attributes> {
  if (errorType === undefined) {
    let attributes = facts.successes.get(status);
    if (attributes === undefined) {
      const made: Attributes = { ...facts.attributes };
      if (status !== undefined) made[facts.grpc ? ATTR.grpcStatus : ATTR.httpStatus] = status;
      attributes = Object.freeze(made);
      if (facts.successes.size < MAX_OUTCOMES) facts.successes.set(status, attributes);
    }
    return attributes;
  }
  const key = `${status ?? ""}|${errorType}`;
  let attributes = facts.outcomes.get(key);
  if (attributes === undefined) {
    const made: Attributes = { ...facts.attributes };
    if (status !== undefined) made[facts.grpc ? ATTR.grpcStatus : ATTR.httpStatus] = status;
    if (errorType !== undefined) made[ATTR.errorType] = errorType;
    attributes = Object.freeze(made);
    if (facts.outcomes.size < MAX_OUTCOMES) facts.outcomes.set(key, attributes);
  }
  return attributes;
}

/** Bytes of a text in UTF-8, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** A whole body's size in bytes; undefined for a stream (or an unknown value). */
export function wholeBodySize(body: unknown): number | undefined {
  if (body === undefined) return 0;
  if (body instanceof Uint8Array) return body.byteLength;
  if (typeof body === "string") return utf8Length(body);
  return undefined;
}

/** A `Content-Length` header's value, when it is a number. */
export function declaredLength(headers: Headers): number | undefined {
  const value = headers.get("content-length");
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Host and port of an authority (`Host` header, `:authority`): `[::1]:8080`, `example.com`. */
export function splitAuthority(authority: string): { host: string; port: number | undefined } {
  let host = authority;
  let port: number | undefined;
  const close = authority.startsWith("[") ? authority.indexOf("]") : -1;
  const colon = authority.lastIndexOf(":");
  if (colon > close && colon >= 0) {
    const digits = authority.slice(colon + 1);
    if (/^\d+$/.test(digits)) port = Number(digits);
    host = authority.slice(0, colon);
  }
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return { host, port };
}
