/**
 * The client side of AWS JSON 1.0/1.1: every operation is `POST` to the
 * endpoint's path with `X-Amz-Target`, the input as a JSON object, and the
 * output or a `__type`-marked error back.
 */
import {
  type ClientCallContext,
  type ClientProtocol,
  HttpHeaders,
  type HttpRequest,
  type MemberSchema,
  type HttpResponse,
  type OperationSchema,
  SerializationError,
  type StructSchema,
} from "@anvil/core";
import {
  CLIENT_INPUT_DEFAULTS,
  correctRequired,
  fillDefaults,
  fillIdempotencyTokens,
  gzip,
  isBlank,
  isQueryCompatible,
  jsonErrorBody,
  readBody,
  refuseStreamingBlob,
  responseError,
  stringField,
} from "@anvil/core/protocol";
import { compileReader, compileWriter } from "@anvil/codec-json";
import { EVENT_STREAM_MEDIA_TYPE } from "@anvil/eventstream";
import { eventStreamMember, eventStreamsOf, protocolName } from "./streaming.js";
import { JSON_SETTINGS, targetOf, UNIT, type AwsJsonVariant } from "./wire.js";

/** What the client works out once per operation (on its first call: its schemas may still be loading when the client is made). */
interface Plan {
  /** The input's writer, as UTF-8 bytes; undefined for an operation with a `@streaming` blob, which the protocol cannot carry. */
  readonly write: ((value: Record<string, unknown>) => Uint8Array) | undefined;
  /** The input's event-stream member, if it has one. */
  readonly inputStream: ReturnType<typeof eventStreamMember>;
  /** The output's event-stream member, if it has one. */
  readonly outputStream: ReturnType<typeof eventStreamMember>;
  /** Whether the body is gzipped (`@requestCompression`). */
  readonly gzip: boolean;
}

/** The client protocol of one AWS JSON variant. */
export function createAwsJsonClient(variant: AwsJsonVariant): ClientProtocol {
  const plans = new WeakMap<OperationSchema, Plan>();
  const planOf = (operation: OperationSchema): Plan => {
    let plan = plans.get(operation);
    if (plan === undefined) {
      const blob = (m: MemberSchema) => m.target.kind === "blob" && m.traits.streaming === true;
      const streamingBlob = operation.input.members.some(blob) || operation.output.members.some(blob);
      plan = Object.freeze<Plan>({
        write: streamingBlob ? undefined : compileWriter(operation.input, JSON_SETTINGS).toBytes,
        inputStream: eventStreamMember(operation.input),
        outputStream: eventStreamMember(operation.output),
        gzip: operation.traits.requestCompression?.includes("gzip") === true,
      });
      plans.set(operation, plan);
    }
    return plan;
  };
  // The endpoint's path with its trailing slash, for the last endpoint seen (a client has one).
  let lastEndpoint: URL | undefined;
  let lastPath = "/";

  return Object.freeze({
    id: variant.id,

    async serializeRequest(operation: OperationSchema, input: unknown, context: ClientCallContext): Promise<HttpRequest> {
      const plan = planOf(operation);
      const write = plan.write ?? refused(variant, operation);
      const filled = fillIdempotencyTokens(operation.input, (input ?? {}) as Record<string, unknown>, context.idempotencyToken);
      const value = fillDefaults(operation.input, filled, CLIENT_INPUT_DEFAULTS) as Record<string, unknown>;
      const stream = plan.inputStream;
      let body = write(stream === undefined ? value : { ...value, [stream.name]: undefined });
      const headers = new HttpHeaders();
      headers.append("content-type", stream === undefined ? variant.contentType : EVENT_STREAM_MEDIA_TYPE);
      headers.append("x-amz-target", targetOf(context.service, operation));
      if (isQueryCompatible(context.service)) headers.append("x-amzn-query-mode", "true");
      if (plan.outputStream !== undefined) headers.append("accept", EVENT_STREAM_MEDIA_TYPE);
      const endpoint = context.endpoint;
      if (endpoint !== lastEndpoint) {
        lastPath = endpoint.pathname.endsWith("/") ? endpoint.pathname : `${endpoint.pathname}/`;
        lastEndpoint = endpoint;
      }
      const path = lastPath;
      const prefix = operation.traits.endpointHostPrefix;
      const host = prefix === undefined ? endpoint.host : `${hostPrefix(prefix, operation.input, value)}${endpoint.host}`;
      if (stream !== undefined) {
        // The other members open the stream in its initial-request message.
        return { method: "POST", path, query: [], headers, body: eventStreamsOf(variant).body(stream, value[stream.name], "initial-request", body), host };
      }
      if (plan.gzip) {
        body = await gzip(body);
        headers.append("content-encoding", "gzip");
      }
      headers.append("content-length", String(body.byteLength));
      return { method: "POST", path, query: [], headers, body, host };
    },

    async deserializeResponse(operation: OperationSchema, response: HttpResponse, context: ClientCallContext): Promise<unknown> {
      const plan = planOf(operation);
      const stream = plan.outputStream;
      if (stream !== undefined && response.status >= 200 && response.status < 300) {
        return eventStreamsOf(variant).read(operation.output, stream, response.body, "initial-response");
      }
      const bytes = await readBody(response.body);
      if (response.status >= 200 && response.status < 300) {
        // No output: whatever the body holds (nothing, {}, "") is not read, as AWS SDKs do not.
        if (operation.output.id === UNIT) return {};
        const read = compileReader(operation.output, JSON_SETTINGS);
        return correctRequired(operation.output, (isBlank(bytes) ? read("{}") : read(bytes)) as Record<string, unknown>);
      }
      throw errorOf(operation, response, bytes, context);
    },
  });
}

/** Throws the error of an operation with a `@streaming` blob, which the protocol cannot carry. */
function refused(variant: AwsJsonVariant, operation: OperationSchema): never {
  refuseStreamingBlob(protocolName(variant), operation, "encode");
  throw new SerializationError(`encode awsJson: operation ${operation.name} cannot be sent`);
}

/** Fills the `{label}`s of an `@endpoint` host prefix from the input's `@hostLabel` members. */
function hostPrefix(prefix: string, schema: StructSchema, input: Record<string, unknown>): string {
  return prefix.replace(/\{([^}]+)\}/g, (_all, name: string) => {
    const member = schema.members.find((m) => m.name === name);
    const value = input[name];
    if (member === undefined || typeof value !== "string" || value === "") {
      throw new SerializationError(`encode awsJson: host label "${name}" has no value`, { path: `/${name}` });
    }
    return value;
  });
}

/** The error a non-2xx response stands for: the modeled error its type names, else an UnmodeledError. */
function errorOf(operation: OperationSchema, response: HttpResponse, bytes: Uint8Array, context: ClientCallContext): Error {
  const { body, message, bodyExcerpt } = jsonErrorBody(bytes);
  return responseError(operation, context.service, {
    protocol: "awsJson",
    response,
    type: response.headers.get("x-amzn-errortype") ?? stringField(body, "__type") ?? stringField(body, "code"),
    message,
    bodyExcerpt,
    members: (schema) => compileReader(schema, JSON_SETTINGS).fromValue(body ?? {}) as Record<string, unknown>,
  });
}
