/**
 * What each protocol a service declares looks like on the wire, as far as
 * documentation needs it: the route of an operation (method, path, the
 * headers that select it), the content type and how JSON values are spelled
 * (`@jsonName`, the default timestamp format).
 */
import { getHttp, isStreaming, nameOf, type Model, type Shape } from "@anvil/model";

/** How a protocol carries an operation. */
export type ProtocolKind = "http" | "awsJson" | "rpcv2" | "grpc";

/** A protocol Anvil documents. */
export interface ProtocolInfo {
  /** The protocol trait's shape id, e.g. `aws.protocols#restJson1`. */
  readonly id: string;
  /** A short name for headings and tags, e.g. `restJson1`. */
  readonly name: string;
  readonly kind: ProtocolKind;
  /** The body's media type. */
  readonly contentType: string;
  /** Whether `@jsonName` renames members on the wire. */
  readonly jsonName: boolean;
  /** The timestamp format of body members without `@timestampFormat`. */
  readonly bodyTimestamp: "epoch-seconds" | "date-time";
  /** The response header naming an error's shape, if the protocol has one. */
  readonly errorHeader?: string;
}

const PROTOCOLS: readonly ProtocolInfo[] = [
  {
    id: "aws.protocols#restJson1",
    name: "restJson1",
    kind: "http",
    contentType: "application/json",
    jsonName: true,
    bodyTimestamp: "epoch-seconds",
    errorHeader: "X-Amzn-Errortype",
  },
  {
    id: "alloy#simpleRestJson",
    name: "simpleRestJson",
    kind: "http",
    contentType: "application/json",
    jsonName: true,
    bodyTimestamp: "date-time",
    errorHeader: "X-Error-Type",
  },
  {
    id: "aws.protocols#awsJson1_0",
    name: "awsJson1_0",
    kind: "awsJson",
    contentType: "application/x-amz-json-1.0",
    jsonName: false,
    bodyTimestamp: "epoch-seconds",
  },
  {
    id: "aws.protocols#awsJson1_1",
    name: "awsJson1_1",
    kind: "awsJson",
    contentType: "application/x-amz-json-1.1",
    jsonName: false,
    bodyTimestamp: "epoch-seconds",
  },
  { id: "smithy.protocols#rpcv2Cbor", name: "rpcv2Cbor", kind: "rpcv2", contentType: "application/cbor", jsonName: false, bodyTimestamp: "epoch-seconds" },
  { id: "smithy.protocols#rpcv2Json", name: "rpcv2Json", kind: "rpcv2", contentType: "application/json", jsonName: false, bodyTimestamp: "epoch-seconds" },
  { id: "alloy.proto#grpc", name: "gRPC", kind: "grpc", contentType: "application/grpc", jsonName: false, bodyTimestamp: "epoch-seconds" },
];

const BY_ID = new Map(PROTOCOLS.map((p) => [p.id, p]));

/** The protocols of a service that Anvil documents, in the order the service declares them. */
export function documentedProtocols(service: Shape): ProtocolInfo[] {
  const out: ProtocolInfo[] = [];
  for (const trait of service.traits.keys()) {
    const info = BY_ID.get(trait);
    if (info !== undefined) out.push(info);
  }
  return out;
}

/** One way to call an operation: the request line and the headers that route it. */
export interface Route {
  readonly protocol: ProtocolInfo;
  readonly method: string;
  /** The path template (`/cities/{cityId}`; a greedy label keeps its `+`), without any literal query. */
  readonly path: string;
  /** Literal query parameters of the URI pattern (`?list-type=2`). */
  readonly query: readonly (readonly [string, string])[];
  /** Fixed request headers that select the operation (`X-Amz-Target`, `smithy-protocol`). */
  readonly headers: readonly (readonly [string, string])[];
}

/** The name a service's protocols use for it: the shape name, as rpcv2 and awsJson targets spell it. */
export function serviceName(service: Shape): string {
  return nameOf(service.id);
}

/** The operation's name inside its service, honouring the service's `rename` map. */
export function operationName(service: Shape, operation: Shape): string {
  return service.rename?.[operation.id] ?? nameOf(operation.id);
}

/**
 * Why a protocol cannot carry an operation, or `undefined` when it can: REST
 * protocols need `@http`; only they have a binding for `@streaming` blobs.
 */
export function unavailableReason(model: Model, operation: Shape, protocol: ProtocolInfo): string | undefined {
  if (protocol.kind === "http") return getHttp(operation) === undefined ? "the operation has no @http binding" : undefined;
  for (const id of [operation.input, operation.output]) {
    for (const member of (id === undefined ? undefined : model.getShape(id))?.members.values() ?? []) {
      const target = model.getShape(member.target);
      if (target?.type === "blob" && isStreaming(target)) return `${protocol.name} has no binding for the @streaming blob ${member.name}`;
    }
  }
  return undefined;
}

/** The route of an operation under a protocol, or `undefined` when the protocol cannot carry it (see {@link unavailableReason}). */
export function routeOf(model: Model, service: Shape, operation: Shape, protocol: ProtocolInfo): Route | undefined {
  if (unavailableReason(model, operation, protocol) !== undefined) return undefined;
  const op = operationName(service, operation);
  switch (protocol.kind) {
    case "http": {
      const http = getHttp(operation)!;
      const q = http.uri.indexOf("?");
      const path = q < 0 ? http.uri : http.uri.slice(0, q);
      const query =
        q < 0
          ? []
          : http.uri
              .slice(q + 1)
              .split("&")
              .filter((p) => p !== "")
              .map((p): [string, string] => {
                const eq = p.indexOf("=");
                return eq < 0 ? [p, ""] : [p.slice(0, eq), p.slice(eq + 1)];
              });
      return { protocol, method: http.method, path, query, headers: [] };
    }
    case "awsJson":
      return { protocol, method: "POST", path: "/", query: [], headers: [["X-Amz-Target", `${serviceName(service)}.${op}`]] };
    case "rpcv2":
      return {
        protocol,
        method: "POST",
        path: `/service/${serviceName(service)}/operation/${op}`,
        query: [],
        headers: [["smithy-protocol", protocol.name === "rpcv2Cbor" ? "rpc-v2-cbor" : "rpc-v2-json"]],
      };
    case "grpc": {
      const ns = service.id.slice(0, service.id.indexOf("#"));
      return { protocol, method: "POST", path: `/${ns}.${serviceName(service)}/${op}`, query: [], headers: [["content-type", "application/grpc"]] };
    }
  }
}
