/**
 * A tiny JSON protocol for the server's own tests (the server never imports
 * a real protocol package): routes from `@http`, the body as the input,
 * errors as `{ type, message }` with the status the error kind calls for.
 * Outputs are answered with text bodies, errors with bytes.
 * A `@streaming` input member takes the request body as it is; a
 * `@streaming` output member is the response body.
 *
 * @internal
 */
import {
  type HttpRequest,
  type HttpResponse,
  ModeledError,
  type OperationSchema,
  ProtocolError,
  type Route,
  SerializationError,
  type ServerProtocol,
  type ServiceSchema,
  ValidationError,
} from "@anvil/core";

const utf8 = new TextEncoder();

const json = (status: number, value: unknown): HttpResponse => ({
  status,
  headers: new Headers({ "content-type": "application/json" }),
  body: utf8.encode(JSON.stringify(value)),
});

/** An answer with a text body, as real JSON protocols write one (errors stay bytes, so adapters are tested with both). */
const jsonText = (status: number, value: unknown): HttpResponse => ({
  status,
  headers: new Headers({ "content-type": "application/json" }),
  body: JSON.stringify(value),
});

/** A test protocol with the given id; `header` adds a required header to every route. It reads and writes synchronously (see {@link deferred}). */
export function testProtocol(id: string, header?: readonly [string, string]): ServerProtocol {
  return {
    id,
    routes(service: ServiceSchema): readonly Route[] {
      return Object.values(service.operations).flatMap((operation: OperationSchema): Route[] => {
        const http = operation.traits.http;
        if (http === undefined) return [];
        const [path = "", search] = http.uri.split("?");
        return [
          {
            operation,
            method: http.method,
            path,
            ...(search !== undefined ? { query: search.split("&").map((p): [string, string | undefined] => [p, undefined]) } : {}),
            ...(header !== undefined ? { headers: { [header[0]]: header[1] } } : {}),
          },
        ];
      });
    },
    deserializeRequest(operation, request: HttpRequest, context) {
      const streaming = operation.input.members.find((m) => m.traits.streaming === true);
      if (streaming !== undefined) return { [streaming.name]: request.body, ...context.labels };
      const text = request.body instanceof Uint8Array ? new TextDecoder().decode(request.body) : "";
      if (request.headers.has("content-type") && request.headers.get("content-type") !== "application/json") {
        throw new ProtocolError("UnsupportedMediaTypeException", 415, `unsupported content type ${request.headers.get("content-type")}`);
      }
      let body: unknown;
      try {
        body = text === "" ? {} : JSON.parse(text);
      } catch (cause) {
        throw new SerializationError("decode test: body is not JSON", { cause });
      }
      return { ...(body as object), ...context.labels };
    },
    serializeResponse(operation, output) {
      const streaming = operation.output.members.find((m) => m.traits.streaming === true);
      if (streaming !== undefined) {
        const body = (output as Record<string, unknown>)[streaming.name] as HttpResponse["body"];
        return { status: 200, headers: new Headers({ "content-type": "application/octet-stream" }), body };
      }
      if (output !== undefined && typeof output !== "object") throw new SerializationError("encode test: output is not an object");
      return jsonText(200, output ?? {});
    },
    serializeError(_operation, error) {
      if (ModeledError.isModeledError(error)) return json(error.$fault === "server" ? 500 : 400, { type: error.code, message: error.message });
      if (ValidationError.is(error)) return json(400, { type: "ValidationException", message: error.message });
      if (SerializationError.is(error)) return json(400, { type: "SerializationException", message: error.message });
      if (ProtocolError.is(error)) return json(error.status, { type: error.code, message: error.message });
      return json(500, { type: "InternalFailure", message: "internal failure" });
    },
    notFound(request) {
      return Promise.resolve(json(404, { type: "UnknownOperationException", message: `${id}: no ${request.method} ${request.path}` }));
    },
  };
}

/** The same protocol answering through promises (settled a turn later), as protocols that wait for something do. */
export function deferred(protocol: ServerProtocol): ServerProtocol {
  const later = <T>(run: () => T | Promise<T>): Promise<T> => Promise.resolve().then(run);
  return {
    ...protocol,
    deserializeRequest: (operation, request, context) => later(() => protocol.deserializeRequest(operation, request, context)),
    serializeResponse: (operation, output, context) => later(() => protocol.serializeResponse(operation, output, context)),
    serializeError: (operation, error, context) => later(() => protocol.serializeError(operation, error, context)),
  };
}
