/**
 * The client side of the HTTP binding engine: input → method, URI (labels,
 * literal and bound query), headers and payload or JSON body; response →
 * output, the modeled error its type names, or an UnmodeledError.
 */
import {
  type ByteStream,
  type ClientCallContext,
  type ClientProtocol,
  collectBytes,
  type HttpBody,
  HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  type MemberSchema,
  type OperationSchema,
  SerializationError,
  type StructSchema,
} from "@anvil/core";
import {
  bodyBytes,
  CLIENT_INPUT_DEFAULTS,
  correctRequired,
  fillDefaults,
  fillIdempotencyTokens,
  gzip,
  jsonErrorBody,
  readBody,
  responseError,
  stringField,
} from "@anvil/core/protocol";
import { encodeBase64 } from "@anvil/codec-json";
import { bindingsOf, errorStatusOf, type HttpBindingSettings, isJsonPayload, JSON_MEDIA_TYPE, parseUri } from "./bindings.js";
import { bodyStream, readMessage, streamingBlobPayload, writeBody, writeHeaders, writeQuery } from "./message.js";
import { codingsOf } from "./compression.js";
import { contentMd5 } from "./content-md5.js";
import { EVENT_STREAM_MEDIA_TYPE, eventStreamPayload, eventStreams, SSE_MEDIA_TYPE } from "./event-stream-support.js";
import { encodeLabel, scalarToText } from "./text-values.js";

type Obj = Record<string, unknown>;

/** Client behaviour beyond the wire settings. */
export interface HttpBindingClientOptions {
  /**
   * Ask for output event streams as Server-Sent Events (`Accept:
   * text/event-stream`) rather than `application/vnd.amazon.eventstream`.
   * Either way, a response is read in the framing its `Content-Type` names.
   */
  readonly serverSentEvents?: boolean;
}

/** The client protocol for one set of HTTP binding settings. */
export function createHttpBindingClient(settings: HttpBindingSettings, options: HttpBindingClientOptions = {}): ClientProtocol {
  const askForSse = options.serverSentEvents === true;
  return Object.freeze({
    id: settings.id,

    async serializeRequest(operation: OperationSchema, input: unknown, context: ClientCallContext): Promise<HttpRequest> {
      const http = operation.traits.http;
      if (http === undefined) throw new SerializationError(`encode ${settings.name}: operation ${operation.id} has no @http trait`);
      const schema = operation.input;
      let value = fillIdempotencyTokens(schema, (input ?? {}) as Obj, context.idempotencyToken);
      // A streamed blob payload goes to the transport as it comes, unless the request must be whole first (to state
      // its length, compress it or hash it).
      const blob = streamingBlobPayload(settings, schema, "request");
      const streamed = blob === undefined ? undefined : passThrough(operation, blob, value[blob.name]);
      if (streamed !== undefined) value = { ...value, [blob!.name]: undefined };
      else value = (await bufferStreamingPayload(schema, value)) as Obj;
      value = fillDefaults(schema, value, CLIENT_INPUT_DEFAULTS) as Obj;

      const uri = parseUri(http.uri);
      const plan = bindingsOf(schema, "request");
      let path = "";
      for (const segment of uri.segments) {
        if (segment.kind === "literal") {
          path += `/${segment.text}`;
          continue;
        }
        const member = plan.labels.find((m) => m.name === segment.name) ?? schema.members.find((m) => m.name === segment.name);
        const v = member === undefined ? undefined : value[member.name];
        if (member === undefined || v === undefined || v === null) {
          throw new SerializationError(`encode ${settings.name}: label "${segment.name}" has no value`, { path: `/${segment.name}` });
        }
        const text = scalarToText(member.target, member.traits, v, "label", `/${member.name}`);
        if (text === "") throw new SerializationError(`encode ${settings.name}: label "${segment.name}" is empty`, { path: `/${segment.name}` });
        path += `/${encodeLabel(text, segment.greedy)}`;
      }
      if (path === "") path = "/";
      const base = context.endpoint.pathname.replace(/\/+$/, "");
      path = base + path;

      const query: [string, string][] = uri.query.map(([n, v]) => [n, v ?? ""]);
      writeQuery(schema, value, query);

      const headers = new HttpHeaders();
      writeHeaders(schema, "request", value, headers);
      const body = writeBody(settings, schema, "request", value);
      if (body.contentType !== undefined && !headers.has("content-type")) headers.set("content-type", body.contentType);
      let bytes = body.data === undefined ? undefined : bodyBytes(body.data);
      if (bytes !== undefined && operation.traits.requestCompression?.includes("gzip")) {
        bytes = await gzip(bytes);
        headers.set("content-encoding", [...codingsOf(headers.get("content-encoding")), "gzip"].join(", "));
      }
      if (bytes !== undefined) {
        headers.set("content-length", String(bytes.byteLength));
        if (operation.traits.httpChecksumRequired) headers.set("content-md5", encodeBase64(await contentMd5(bytes)));
      }
      // An event stream is written as the transport reads it (writeBody leaves it out).
      const stream = eventStreamPayload(schema, "request");
      let httpBody: HttpBody = bytes;
      if (streamed !== undefined) {
        if (!headers.has("content-type")) headers.set("content-type", blob!.traits.mediaType ?? "application/octet-stream");
        httpBody = streamed;
      }
      if (stream !== undefined) {
        headers.set("content-type", EVENT_STREAM_MEDIA_TYPE);
        const streams = eventStreams.current ?? (await eventStreams.load());
        httpBody = streams.eventStreamBody(settings, stream, value[stream.name]);
      }
      const accept = askForSse && eventStreamPayload(operation.output, "response") !== undefined ? SSE_MEDIA_TYPE : acceptOf(settings, operation.output);
      if (accept !== undefined && !headers.has("accept")) headers.set("accept", accept);

      const prefix = operation.traits.endpointHostPrefix;
      const host = prefix === undefined ? context.endpoint.host : `${hostPrefix(settings, prefix, schema, value)}${context.endpoint.host}`;
      return { method: http.method.toUpperCase(), path, query, headers, body: httpBody, host };
    },

    async deserializeResponse(operation: OperationSchema, response: HttpResponse, context: ClientCallContext): Promise<unknown> {
      const stream = eventStreamPayload(operation.output, "response");
      if (stream !== undefined && response.status >= 200 && response.status < 300) {
        return (eventStreams.current ?? (await eventStreams.load())).eventStreamOutput(settings, operation.output, stream, response);
      }
      const blob = streamingBlobPayload(settings, operation.output, "response");
      if (blob !== undefined && response.status >= 200 && response.status < 300) {
        // The bytes are the caller's to read as they arrive.
        const output = readMessage(settings, operation.output, "response", { headers: response.headers, status: response.status }, new Uint8Array(0));
        output[blob.name] = bodyStream(response.body);
        return correctRequired(operation.output, output);
      }
      const bytes = await readBody(response.body);
      if (isOutputStatus(operation.output, response.status)) {
        const output = readMessage(settings, operation.output, "response", { headers: response.headers, status: response.status }, bytes);
        return correctRequired(operation.output, output);
      }
      throw errorOf(settings, operation, response, bytes, context);
    },
  });
}

/**
 * Whether a response carries the output: any 2xx, and any 1xx-3xx when the
 * output binds the status code (`@httpResponseCode`), which then is data.
 */
function isOutputStatus(output: StructSchema, status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 100 && status < 400 && bindingsOf(output, "response").responseCode !== undefined;
}

/** `Accept` for a JSON response; none when the output's payload is raw text or bytes. */
function acceptOf(settings: HttpBindingSettings, output: StructSchema): string | undefined {
  const payload = bindingsOf(output, "response").payload;
  if (settings.rawPayloads && payload !== undefined && !isJsonPayload(payload.target)) return payload.traits.mediaType;
  return JSON_MEDIA_TYPE;
}

/**
 * The stream to send as the body of a streaming blob payload, or undefined
 * when the payload is whole already (bytes, text, nothing) or must be made
 * whole: `@requiresLength`, request compression and `@httpChecksumRequired`
 * need every byte before the request goes.
 */
function passThrough(operation: OperationSchema, blob: MemberSchema, v: unknown): ByteStream | undefined {
  if (v === undefined || v === null || v instanceof Uint8Array || typeof v === "string") return undefined;
  const { requestCompression, httpChecksumRequired } = operation.traits;
  if (blob.traits.requiresLength || requestCompression?.includes("gzip") || httpChecksumRequired) return undefined;
  return v as ByteStream;
}

/** Buffers a streaming blob payload that must be whole (see passThrough). */
async function bufferStreamingPayload(schema: StructSchema, value: Obj): Promise<Obj> {
  const payload = bindingsOf(schema, "request").payload;
  if (payload === undefined || payload.target.kind !== "blob") return value;
  const v = value[payload.name];
  if (v === undefined || v === null || v instanceof Uint8Array || typeof v === "string") return value;
  return { ...value, [payload.name]: await collectBytes(v as Parameters<typeof collectBytes>[0]) };
}

/** Fills the `{label}`s of an `@endpoint` host prefix from the input's `@hostLabel` members. */
function hostPrefix(settings: HttpBindingSettings, prefix: string, schema: StructSchema, input: Obj): string {
  return prefix.replace(/\{([^}]+)\}/g, (_all, name: string) => {
    const member = schema.members.find((m) => m.name === name);
    const value = input[name];
    if (member === undefined || typeof value !== "string" || value === "") {
      throw new SerializationError(`encode ${settings.name}: host label "${name}" has no value`, { path: `/${name}` });
    }
    return value;
  });
}

/** The error a non-2xx response stands for: the modeled error its type (or, for simpleRestJson, its status) names, else an UnmodeledError. */
function errorOf(settings: HttpBindingSettings, operation: OperationSchema, response: HttpResponse, bytes: Uint8Array, context: ClientCallContext): Error {
  const { body, message, bodyExcerpt } = jsonErrorBody(bytes);
  return responseError(operation, context.service, {
    protocol: settings.name,
    response,
    type: errorTypeOf(settings, response.headers) ?? stringField(body, "__type") ?? stringField(body, "code"),
    message,
    bodyExcerpt,
    members: (schema) =>
      readMessage(settings, schema, "response", { headers: response.headers, status: response.status }, body === undefined ? new Uint8Array(0) : bytes),
    ...(settings.errorsByStatus ? { statusOf: errorStatusOf } : {}),
  });
}

/** The error type the settings' headers name, if any. */
function errorTypeOf(settings: HttpBindingSettings, headers: Headers): string | undefined {
  const main = headers.get(settings.errorTypeHeader);
  if (main !== null) return main;
  for (const alias of settings.errorTypeAliases) {
    const value = headers.get(alias);
    if (value !== null) return value;
  }
  return undefined;
}
