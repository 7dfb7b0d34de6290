/**
 * Request and response samples of an `@examples` entry under each protocol:
 * curl commands for HTTP and JSON RPC protocols, bytes plus diagnostic
 * notation for CBOR, the `rpc` line of the `.proto` file for gRPC.
 */
import { getErrorKind, getHttp, getHttpError, isNodeObject, nameOf, type Model, type NodeValue, type OperationExample, type Shape } from "@anvil/model";
import { bindingsOf, structureOf, type Binding } from "../bindings.js";
import { diagnostic, encodeCbor, hexDump } from "../cbor.js";
import { operationName, routeOf, type ProtocolInfo } from "../protocols.js";
import { isEventStreamMember, offersServerSentEvents, SSE_MEDIA_TYPE, sseText } from "../server-sent-events.js";
import { toHttpString, toWireCbor, toWireJson } from "../wire.js";

/** One rendered sample: a label and preformatted text. */
export interface Sample {
  readonly label: string;
  readonly text: string;
}

/** The samples of one example under one protocol. */
export interface ProtocolSamples {
  readonly protocol: ProtocolInfo;
  readonly samples: readonly Sample[];
}

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

const encodeLabel = (value: string, greedy: boolean): string => (greedy ? value.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(value));

function objectOf(value: NodeValue | undefined): Record<string, NodeValue> {
  return isNodeObject(value ?? null) ? (value as Record<string, NodeValue>) : {};
}

/** The pieces of an HTTP message built from a value and the bindings of its structure. */
interface HttpParts {
  readonly headers: [string, string][];
  readonly query: [string, string][];
  readonly labels: Map<string, string>;
  /** The body as text, or a note for binary bodies. */
  readonly body?: string;
  readonly binary?: boolean;
  readonly status?: number;
}

function httpParts(
  model: Model,
  bindings: readonly Binding[],
  value: Record<string, NodeValue>,
  structureId: string | undefined,
  protocol: ProtocolInfo,
): HttpParts {
  const headers: [string, string][] = [];
  const query: [string, string][] = [];
  const labels = new Map<string, string>();
  const body: Record<string, NodeValue> = {};
  let payload: string | undefined;
  let binary = false;
  let status: number | undefined;
  for (const b of bindings) {
    const v = value[b.member.name];
    if (v === undefined) continue;
    switch (b.location) {
      case "label":
        labels.set(b.name, toHttpString(model, b.member, v, "date-time"));
        break;
      case "query":
        if (Array.isArray(v))
          for (const item of v)
            query.push([b.name, toHttpString(model, model.getShape(b.member.target)?.members.get("member") ?? b.member, item, "date-time")]);
        else query.push([b.name, toHttpString(model, b.member, v, "date-time")]);
        break;
      case "queryParams":
        for (const [k, item] of Object.entries(objectOf(v))) query.push([k, Array.isArray(item) ? item.map(String).join(",") : String(item)]);
        break;
      case "header":
        headers.push([b.name, toHttpString(model, b.member, v, "http-date")]);
        break;
      case "prefixHeaders":
        for (const [k, item] of Object.entries(objectOf(v))) headers.push([`${b.name}${k}`, String(item)]);
        break;
      case "responseCode":
        status = typeof v === "number" ? v : undefined;
        break;
      case "payload": {
        const target = model.getShape(b.member.target);
        if (target?.type === "blob") {
          binary = true;
          payload = typeof v === "string" ? v : "";
        } else if (target?.type === "string" || target?.type === "enum") payload = String(v);
        else payload = JSON.stringify(toWireJson(model, b.member.target, v, protocol, b.member), null, 2);
        break;
      }
      default:
        body[b.member.name] = v;
    }
  }
  const hasBody = bindings.some((b) => b.location === "body");
  const text = payload ?? (hasBody && structureId !== undefined ? JSON.stringify(toWireJson(model, structureId, body, protocol), null, 2) : undefined);
  return { headers, query, labels, ...(text !== undefined ? { body: text } : {}), binary, ...(status !== undefined ? { status } : {}) };
}

/** A curl command against `$URL` (the service's base URL, a shell variable). */
function curl(method: string, path: string, headers: readonly (readonly [string, string])[], body: string | undefined, binary: boolean): string {
  // Double quotes so that the shell expands $URL; the path is percent-encoded, so nothing in it is special there.
  const lines = [`curl -X ${method} "$URL${path.replace(/["$`\\]/g, (c) => `\\${c}`)}"`];
  for (const [k, v] of headers) lines.push(`  -H ${shellQuote(`${k}: ${v}`)}`);
  if (body !== undefined)
    lines.push(
      binary ? `  --data-binary @file   # ${body.length > 40 ? `${body.slice(0, 40)}…` : body} (base64 of the bytes)` : `  --data ${shellQuote(body)}`,
    );
  return lines.join(" \\\n");
}

function httpResponse(status: number, headers: readonly (readonly [string, string])[], body: string | undefined): string {
  const lines = [`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ""}`.trimEnd(), ...headers.map(([k, v]) => `${k}: ${v}`)];
  return body !== undefined ? `${lines.join("\n")}\n\n${body}` : lines.join("\n");
}

/** The gRPC `rpc` line of an operation, as the `.proto` file declares it. */
export function rpcLine(model: Model, service: Shape, operation: Shape): string {
  const input = structureOf(operation.input);
  const output = structureOf(operation.output);
  const streamed = (id: string | undefined): string | undefined => {
    const shape = id === undefined ? undefined : model.getShape(id);
    for (const m of shape?.members.values() ?? []) {
      const target = model.getShape(m.target);
      if (target?.type === "union" && target.traits.has("smithy.api#streaming")) return nameOf(target.id);
    }
    return undefined;
  };
  const message = (id: string | undefined): string => (id === undefined ? "google.protobuf.Empty" : nameOf(id));
  const inStream = streamed(input);
  const outStream = streamed(output);
  const request = inStream !== undefined ? `stream ${inStream}` : message(input);
  const response = outStream !== undefined ? `stream ${outStream}` : message(output);
  return `rpc ${operationName(service, operation)}(${request}) returns (${response});`;
}

/** The samples of an example under every protocol given. */
export function exampleSamples(
  model: Model,
  service: Shape,
  operation: Shape,
  example: OperationExample,
  protocols: readonly ProtocolInfo[],
): ProtocolSamples[] {
  const out: ProtocolSamples[] = [];
  const inputId = structureOf(operation.input);
  const outputId = structureOf(operation.output);
  const input = objectOf(example.input);
  const error = example.error !== undefined ? model.getShape(example.error.shapeId) : undefined;
  for (const protocol of protocols) {
    const route = routeOf(model, service, operation, protocol);
    if (route === undefined) continue;
    const samples: Sample[] = [];
    switch (protocol.kind) {
      case "http": {
        const parts = httpParts(model, bindingsOf(model, inputId), input, inputId, protocol);
        let path = route.path.replace(/\{([^}+]+)(\+?)\}/g, (_, name: string, plus: string) =>
          encodeLabel(parts.labels.get(name) ?? `{${name}}`, plus === "+"),
        );
        const query = [...route.query, ...parts.query].map(([k, v]) =>
          v === "" ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`,
        );
        if (query.length > 0) path += `?${query.join("&")}`;
        const headers: [string, string][] = [...parts.headers];
        if (parts.body !== undefined && !parts.headers.some(([k]) => k.toLowerCase() === "content-type"))
          headers.unshift(["Content-Type", parts.binary ? "application/octet-stream" : protocol.contentType]);
        samples.push({ label: "Request", text: curl(route.method, path, headers, parts.body, parts.binary === true) });
        if (error !== undefined) {
          const content = objectOf(example.error!.content);
          const e = httpParts(model, bindingsOf(model, error.id), content, error.id, protocol);
          const status = getHttpError(error) ?? (getErrorKind(error) === "server" ? 500 : 400);
          const errorHeaders: [string, string][] = [
            ["Content-Type", protocol.contentType],
            ...(protocol.errorHeader !== undefined ? [[protocol.errorHeader, nameOf(error.id)] as [string, string]] : []),
            ...e.headers,
          ];
          samples.push({ label: "Response", text: httpResponse(status, errorHeaders, e.body) });
        } else if (example.output !== undefined || outputId === undefined) {
          const o = httpParts(model, bindingsOf(model, outputId), objectOf(example.output), outputId, protocol);
          const status = o.status ?? getHttp(operation)?.code ?? 200;
          const headers2: [string, string][] = [...o.headers];
          if (o.body !== undefined && !o.headers.some(([k]) => k.toLowerCase() === "content-type")) headers2.unshift(["Content-Type", protocol.contentType]);
          samples.push({ label: "Response", text: httpResponse(status, headers2, o.binary ? `(the bytes of ${o.body})` : o.body) });
          const stream = offersServerSentEvents(protocol)
            ? bindingsOf(model, outputId).find((b) => b.location === "payload" && isEventStreamMember(model, b.member))
            : undefined;
          const events = stream === undefined ? undefined : sseText(model, stream.member, objectOf(example.output)[stream.member.name], protocol);
          if (events !== undefined) {
            // The same call read as Server-Sent Events, as a browser or `curl -N` reads it.
            const sseRequest = curl(route.method, path, [...headers, ["Accept", SSE_MEDIA_TYPE]], parts.body, parts.binary === true).replace(
              /^curl /,
              "curl -N ",
            );
            samples.push({ label: "Request (Server-Sent Events)", text: sseRequest });
            const sseHeaders: [string, string][] = [["Content-Type", SSE_MEDIA_TYPE], ["Cache-Control", "no-cache"], ...o.headers];
            samples.push({ label: "Response (Server-Sent Events)", text: httpResponse(status, sseHeaders, events.trimEnd()) });
          }
        }
        break;
      }
      case "awsJson":
      case "rpcv2": {
        const cbor = protocol.contentType === "application/cbor";
        const headers: [string, string][] = [["Content-Type", protocol.contentType], ...route.headers.map(([k, v]) => [k, v] as [string, string])];
        if (protocol.kind === "rpcv2") headers.push(["Accept", protocol.contentType]);
        const responseValue = error !== undefined ? example.error!.content : example.output;
        const responseShape = error !== undefined ? error.id : outputId;
        const status = error !== undefined ? (getErrorKind(error) === "server" ? 500 : 400) : 200;
        const withType = (wire: unknown): unknown =>
          error !== undefined && typeof wire === "object" && wire !== null
            ? { __type: protocol.kind === "rpcv2" ? error.id : nameOf(error.id), ...(wire as object) }
            : wire;
        if (cbor) {
          const request = inputId !== undefined ? toWireCbor(model, inputId, input, protocol) : {};
          const bytes = encodeCbor(request);
          samples.push({ label: "Request", text: `POST ${route.path}\n${headers.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${hexDump(bytes)}` });
          samples.push({ label: "Request body (CBOR diagnostic notation)", text: diagnostic(request) });
          if (responseShape !== undefined && responseValue !== undefined) {
            const response = withType(toWireCbor(model, responseShape, responseValue, protocol));
            samples.push({
              label: "Response",
              text: `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\nsmithy-protocol: rpc-v2-cbor\nContent-Type: application/cbor\n\n${hexDump(encodeCbor(response))}`,
            });
            samples.push({ label: "Response body (CBOR diagnostic notation)", text: diagnostic(response) });
          }
        } else {
          const body = JSON.stringify(inputId !== undefined ? toWireJson(model, inputId, input, protocol) : {}, null, 2);
          samples.push({ label: "Request", text: curl("POST", route.path, headers, body, false) });
          if (responseShape !== undefined && responseValue !== undefined) {
            const response = withType(toWireJson(model, responseShape, responseValue, protocol));
            samples.push({ label: "Response", text: httpResponse(status, [["Content-Type", protocol.contentType]], JSON.stringify(response, null, 2)) });
          }
        }
        break;
      }
      case "grpc":
        samples.push({ label: ".proto", text: rpcLine(model, service, operation) });
        break;
    }
    out.push({ protocol, samples });
  }
  return out;
}
