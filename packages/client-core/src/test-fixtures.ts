/**
 * A small service, a JSON test protocol and a scripted transport for the
 * client's tests. The protocol is deliberately trivial: these tests are about
 * the client, and the real protocols have their own suites.
 */
import {
  collectBytes,
  type ClientCallContext,
  type ClientProtocol,
  type HttpRequest,
  type HttpResponse,
  type OperationSchema,
  UnmodeledError,
} from "@anvil/core";
import { createModeledError, findErrorSchema, readBody } from "@anvil/core/protocol";
import { blob, errorClass, member, operation, service, string, struct } from "@anvil/core/codegenv1";
import type { Transport, TransportRequest } from "./transport.js";

export type Thing = {
  id: string;
  name?: string;
};

const ThingSchema = struct<Thing>("test#Thing", [member("id", string, { required: true }), member("name", string)]);
const IdInput = struct<{ id: string }>("test#IdInput", [member("id", string, { required: true })]);
const TokenInput = struct<{ name: string; token?: string }>("test#TokenInput", [
  member("name", string, { required: true }),
  member("token", string, { idempotencyToken: true }),
]);
const DownloadOutput = struct<{ data: AsyncIterable<Uint8Array> }>("test#DownloadOutput", [member("data", blob, { required: true, streaming: true })]);
const UploadInput = struct<{ data: AsyncIterable<Uint8Array> | Uint8Array }>("test#UploadInput", [member("data", blob, { required: true, streaming: true })]);

export const ThrottledSchema = struct<{ message?: string }>("test#Throttled", [member("message", string)], {
  error: "client",
  httpError: 429,
  retryable: { throttling: true },
});
export const BusySchema = struct<{ message?: string }>("test#Busy", [member("message", string)], {
  error: "server",
  httpError: 503,
  retryable: { throttling: false },
});
export const NotFoundSchema = struct<{ message?: string }>("test#NotFound", [member("message", string)], { error: "client", httpError: 404 });
export const Throttled = errorClass(ThrottledSchema);
export const Busy = errorClass(BusySchema);
export const NotFound = errorClass(NotFoundSchema);

const errors = [() => ThrottledSchema, () => BusySchema, () => NotFoundSchema];

export const Things = service("test#Things", {
  version: "2024-01-01",
  protocols: ["test#json"],
  operations: {
    getThing: operation("test#GetThing", { input: () => IdInput, output: () => ThingSchema, errors, traits: { readonly: true } }),
    putThing: operation("test#PutThing", { input: () => ThingSchema, output: () => ThingSchema, errors, traits: { idempotent: true } }),
    createThing: operation("test#CreateThing", { input: () => ThingSchema, output: () => ThingSchema, errors }),
    createWithToken: operation("test#CreateWithToken", { input: () => TokenInput, output: () => TokenInput, errors }),
    download: operation("test#Download", { input: () => IdInput, output: () => DownloadOutput, errors, traits: { readonly: true } }),
    upload: operation("test#Upload", { input: () => UploadInput, output: () => IdInput, errors, traits: { idempotent: true } }),
  },
});

const json = new TextEncoder();
const text = new TextDecoder();

/**
 * `test#json`: `POST /<Operation>` with the input as JSON (a streaming
 * member is the raw body, either way); errors name their shape in `x-error`.
 */
export function testJson(id = "test#json"): ClientProtocol {
  return {
    id,
    async serializeRequest(op: OperationSchema, input: unknown, context: ClientCallContext): Promise<HttpRequest> {
      const value = { ...(input as Record<string, unknown>) };
      for (const m of op.input.members) {
        if (m.traits.idempotencyToken && value[m.name] === undefined) value[m.name] = (context.idempotencyToken ?? (() => "token"))();
      }
      const headers = new Headers({ "content-type": "application/json" });
      const streaming = op.input.members.find((m) => m.traits.streaming);
      const body = streaming === undefined ? json.encode(JSON.stringify(value)) : (value[streaming.name] as HttpRequest["body"]);
      const base = context.endpoint.pathname.replace(/\/+$/, "");
      return { method: "POST", path: `${base}/${op.name}`, query: [], headers, body };
    },
    async deserializeResponse(op: OperationSchema, response: HttpResponse): Promise<unknown> {
      const streaming = op.output.members.find((m) => m.traits.streaming);
      if (streaming !== undefined && response.status < 300) return { [streaming.name]: response.body };
      const bytes = await readBody(response.body);
      const $metadata = { httpStatus: response.status };
      if (response.status < 300) return JSON.parse(text.decode(bytes) || "{}");
      const name = response.headers.get("x-error") ?? "";
      const schema = findErrorSchema(op.errors, name);
      const members = bytes.byteLength === 0 ? {} : JSON.parse(text.decode(bytes));
      if (schema !== undefined) throw createModeledError(schema, members, { $metadata });
      throw new UnmodeledError(name || `Http${response.status}`, `test: status ${response.status}`, { $metadata });
    },
  };
}

/** One scripted answer: a response (JSON body), an error thrown by the transport, or a function of the request. */
export type Answer =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { throws: unknown }
  | ((request: TransportRequest) => Promise<HttpResponse>);

/** A request as the fake transport saw it, with its body read. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: Uint8Array | undefined;
  readonly streamed: boolean;
}

/** A transport that answers from a script, in order, and records what it was sent. */
export function scriptedTransport(answers: Answer[]): Transport & { readonly seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  return {
    seen,
    async send(request: TransportRequest): Promise<HttpResponse> {
      const streamed = request.body !== undefined && !(request.body instanceof Uint8Array);
      const body = request.body === undefined ? undefined : await collectBytes(request.body);
      seen.push({ method: request.method, url: request.url.href, headers: new Headers(request.headers), body, streamed });
      const answer = answers.shift();
      if (answer === undefined) throw new Error("scriptedTransport: no answer left");
      if (typeof answer === "function") return answer(request);
      if ("throws" in answer) throw answer.throws;
      const headers = new Headers(answer.headers);
      return { status: answer.status, headers, body: answer.body === undefined ? undefined : json.encode(JSON.stringify(answer.body)) };
    },
  };
}
