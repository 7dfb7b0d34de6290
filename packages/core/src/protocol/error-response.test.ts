import { describe, expect, it } from "vitest";
import { ModeledError, ProtocolError, SerializationError, UnmodeledError, ValidationError } from "../errors/errors.js";
import { errorClass, member, operation, service, string, struct, unit } from "../codegenv1.js";
import type { StructSchema } from "../schema/schema.js";
import { HttpHeaders } from "./headers.js";
import type { HttpResponse } from "./http.js";
import { jsonErrorBody, requestIdOf, responseError } from "./error-response.js";
import { errorResponse, type ErrorResponseWriter } from "./server-errors.js";

const NoSuchThing = struct("ex#NoSuchThing", [member("message", string), member("thingId", string, { required: true })], { error: "client", httpError: 404 });
const Throttled = struct("ex#Throttled", [member("message", string)], {
  error: "client",
  httpError: 429,
  custom: { "aws.protocols#awsQueryError": { code: "Throttling", httpResponseCode: 429 } },
});
const ValidationException = struct("smithy.framework#ValidationException", [member("message", string, { required: true })], { error: "client" });
const GetThing = operation("ex#GetThing", { input: unit, output: unit, errors: [NoSuchThing] });
const Things = service("ex#Things", {
  version: "1",
  operations: { getThing: GetThing },
  errors: [Throttled],
  traits: { "aws.protocols#awsQueryCompatible": {} },
});
const Plain = service("ex#Plain", { version: "1", operations: { getThing: GetThing } });

const response = (status: number, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: new HttpHeaders(headers),
  body: new Uint8Array(0),
});
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("responseError: a client's reading of an error response", () => {
  const received = (status: number, body: Uint8Array, headers: Record<string, string> = {}, extra: object = {}) => {
    const { body: parsed, message, bodyExcerpt } = jsonErrorBody(body);
    const type = typeof parsed?.__type === "string" ? parsed.__type : undefined;
    return responseError(GetThing, Things, {
      protocol: "test",
      response: response(status, headers),
      type,
      message,
      bodyExcerpt,
      members: (schema: StructSchema) => {
        if (schema === NoSuchThing && typeof parsed?.thingId !== "string") throw new Error("thingId missing");
        return { ...parsed };
      },
      ...extra,
    });
  };

  it("is the modeled error the type names (namespaced and with a URL suffix too), with the message and request id", () => {
    const error = received(404, json({ __type: "ex#NoSuchThing:http://internal", message: "gone", thingId: "t" }), { "x-amzn-requestid": "r-1" });
    expect(error).toBeInstanceOf(errorClass(NoSuchThing));
    expect(error).toMatchObject({ thingId: "t", message: "gone", $metadata: { httpStatus: 404, requestId: "r-1" } });
  });

  it("finds the service's errors after the operation's, and by awsQuery code when asked", () => {
    expect(received(429, json({ __type: "Throttled" }))).toBeInstanceOf(errorClass(Throttled));
    const byCode = received(400, json({}), { "x-amzn-query-error": "Throttling;Sender" }, { queryCompatible: true });
    expect(byCode).toBeInstanceOf(errorClass(Throttled));
  });

  it("picks the error sent with the status when the protocol says so and no type is named", () => {
    const error = received(404, json({ thingId: "t" }), {}, { statusOf: (s: StructSchema) => s.traits.httpError });
    expect(error).toBeInstanceOf(errorClass(NoSuchThing));
  });

  it("is an UnmodeledError when the body does not fit the shape it names, or names none", () => {
    const misfit = received(404, json({ __type: "NoSuchThing" }));
    expect(misfit).toBeInstanceOf(UnmodeledError);
    expect(misfit).toMatchObject({ code: "NoSuchThing", message: "test: error NoSuchThing body does not match its shape" });
    const html = received(502, new TextEncoder().encode("<html>bad gateway</html>"));
    expect(html).toMatchObject({ code: "Http502", message: "test: HTTP 502 error response", bodyExcerpt: "<html>bad gateway</html>" });
    expect(received(400, json({ __type: "Nope", message: "no" }))).toMatchObject({ code: "Nope", message: "no" });
  });
});

describe("errorResponse: a server's answer to what a call threw", () => {
  const calls: string[] = [];
  const writer: ErrorResponseWriter = {
    modeled: (schema, members, status, queryHeader) => {
      calls.push(`modeled ${schema.id} ${status} ${JSON.stringify(members)} ${JSON.stringify(queryHeader ?? null)}`);
      return response(status);
    },
    plain: (status, code, message) => {
      calls.push(`plain ${status} ${code} ${message}`);
      return response(status);
    },
  };
  const answer = (error: unknown, svc = Things, w = writer) => {
    calls.length = 0;
    errorResponse(GetThing, error, svc, w);
    return calls[0];
  };

  it("writes modeled errors with their @httpError status (else by fault) and the awsQuery header when the service is query-compatible", () => {
    // A modeled error's message is its shape name when none was given.
    expect(answer(new (errorClass(NoSuchThing))({ thingId: "t" }))).toBe('modeled ex#NoSuchThing 404 {"message":"NoSuchThing","thingId":"t"} null');
    expect(answer(new (errorClass(Throttled))({}))).toBe('modeled ex#Throttled 429 {"message":"Throttled"} {"x-amzn-query-error":"Throttling;Sender"}');
    const bare = struct("ex#Oops", [], { error: "server" });
    expect(answer(new (errorClass(bare))({}))).toBe("modeled ex#Oops 500 {} null");
  });

  it("answers invalid input with the modeled ValidationException, else a plain 400 (or the protocol's own)", () => {
    const invalid = new ValidationError([{ path: "/a", message: "must be set" }]);
    expect(answer(invalid)).toBe(`plain 400 ValidationException ${invalid.message}`);
    const modeled = service("ex#V", { version: "1", operations: { getThing: GetThing }, errors: [ValidationException] });
    expect(answer(invalid, modeled)).toMatch(/^modeled smithy.framework#ValidationException 400 \{"message":"1 validation error/);
    const own = { ...writer, unmodeledValidation: () => (calls.push("own"), response(400)) };
    expect(answer(invalid, Plain, own)).toBe("own");
  });

  it("answers unreadable bodies 400, refusals with their status, and anything else a bare 500", () => {
    expect(answer(new SerializationError("decode json: bad"))).toBe("plain 400 SerializationException decode json: bad");
    expect(answer(new ProtocolError("RequestTooLarge", 413, "too big"))).toBe("plain 413 RequestTooLarge too big");
    expect(answer(new TypeError("bug with secrets"))).toBe("plain 500 InternalFailure Internal failure");
    const failing = {
      ...writer,
      modeled: () => {
        throw new Error("cannot write");
      },
    };
    expect(answer(new (errorClass(NoSuchThing))({ thingId: "t" }), Things, failing)).toBe("plain 500 InternalFailure Internal failure");
    expect(ModeledError.isModeledError(new (errorClass(NoSuchThing))({ thingId: "t" }))).toBe(true);
  });
});

describe("requestIdOf", () => {
  it("reads the request id headers in order of preference", () => {
    const all = new Headers({ "x-request-id": "d", "x-amz-request-id": "c", "x-amzn-request-id": "b", "x-amzn-requestid": "a" });
    expect(requestIdOf(all)).toBe("a");
    all.delete("x-amzn-requestid");
    expect(requestIdOf(all)).toBe("b");
    all.delete("x-amzn-request-id");
    expect(requestIdOf(all)).toBe("c");
    all.delete("x-amz-request-id");
    expect(requestIdOf(all)).toBe("d");
    expect(requestIdOf(new Headers())).toBeUndefined();
  });
});
