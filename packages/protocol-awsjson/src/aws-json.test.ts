import { describe, expect, it } from "vitest";
import { errorClass, ModeledError, SerializationError, UnmodeledError, ValidationError, type HttpRequest, type HttpResponse } from "@anvil/core";
import { blob, list, member, operation, service, string, struct, timestamp, unit } from "@anvil/core/codegenv1";
import { awsJson1_0, awsJson1_1 } from "./index.js";

const NoSuchCity = struct("example.weather#NoSuchCity", [member("message", string)], { error: "client", httpError: 404 });
const Outage = struct("example.weather#Outage", [member("message", string)], { error: "server" });
// Spelled as most AWS models spell it.
const RateExceeded = struct("example.weather#RateExceeded", [member("Message", string)], { error: "client" });
const ValidationException = struct(
  "smithy.framework#ValidationException",
  [
    member("message", string, { required: true }),
    member(
      "fieldList",
      list(
        "smithy.framework#ValidationExceptionFieldList",
        member("member", struct("smithy.framework#ValidationExceptionField", [member("path", string), member("message", string)])),
      ),
    ),
  ],
  { error: "client" },
);
const GetCityInput = struct("example.weather#GetCityInput", [
  member("cityId", string, { required: true, length: { min: 1, max: 8 }, jsonName: "city_id" }),
  member("token", string, { idempotencyToken: true }),
  member("since", timestamp),
]);
const GetCityOutput = struct("example.weather#GetCityOutput", [member("name", string)]);
const GetCity = operation("example.weather#GetCity", {
  input: GetCityInput,
  output: GetCityOutput,
  errors: [NoSuchCity, Outage, RateExceeded, ValidationException],
});
const Ping = operation("example.weather#Ping", { input: unit, output: unit });
const Weather = service("example.weather#Weather", { operations: { getCity: GetCity, ping: Ping }, protocols: ["aws.protocols#awsJson1_0"] });

const { client, server } = awsJson1_0();
const clientContext = { endpoint: new URL("https://weather.example.com"), service: Weather };
const serverContext = { service: Weather, labels: {} };
const text = (body: unknown): string => new TextDecoder().decode(body as Uint8Array);
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const response = (status: number, body: string, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: new Headers({ "content-type": "application/x-amz-json-1.0", ...headers }),
  body: bytes(body),
});
const request = (target: string, body: string): HttpRequest => ({
  method: "POST",
  path: "/",
  query: [],
  headers: new Headers({ "content-type": "application/x-amz-json-1.0", "x-amz-target": target }),
  body: bytes(body),
});

describe("client requests", () => {
  it("POSTs the input to / with the content type and X-Amz-Target, member names as in the model", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea", token: "t", since: new Date(1000) }, clientContext);
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/");
    expect(req.headers.get("content-type")).toBe("application/x-amz-json-1.0");
    expect(req.headers.get("x-amz-target")).toBe("Weather.GetCity");
    expect(JSON.parse(text(req.body))).toEqual({ cityId: "sea", token: "t", since: 1 });
  });

  it("fills idempotency tokens and sends {} for an operation without input", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea" }, clientContext);
    expect(JSON.parse(text(req.body)).token).toMatch(/^[0-9a-f-]{36}$/);
    expect(text((await client.serializeRequest(Ping, undefined, clientContext)).body)).toBe("{}");
  });

  it("takes idempotency tokens from the context's source when it has one", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea" }, { ...clientContext, idempotencyToken: () => "fixed" });
    expect(JSON.parse(text(req.body)).token).toBe("fixed");
  });

  it("keeps the endpoint's path", async () => {
    const req = await client.serializeRequest(Ping, {}, { ...clientContext, endpoint: new URL("https://example.com/custom") });
    expect(req.path).toBe("/custom/");
  });

  it("uses the 1.1 content type for awsJson1_1", async () => {
    const req = await awsJson1_1().client.serializeRequest(Ping, {}, clientContext);
    expect(req.headers.get("content-type")).toBe("application/x-amz-json-1.1");
  });
});

describe("client responses", () => {
  it("reads the output", async () => {
    expect(await client.deserializeResponse(GetCity, response(200, `{"name":"Seattle"}`), clientContext)).toEqual({ name: "Seattle" });
    expect(await client.deserializeResponse(Ping, response(200, ""), clientContext)).toEqual({});
  });

  it.each([
    ["__type with namespace", response(404, `{"__type":"example.weather#NoSuchCity","message":"gone"}`)],
    ["__type with a qualifier", response(404, `{"__type":"NoSuchCity:http://internal/","message":"gone"}`)],
    ["code", response(404, `{"code":"example.other#NoSuchCity","message":"gone"}`)],
    ["X-Amzn-Errortype", response(404, `{"message":"gone"}`, { "x-amzn-errortype": "NoSuchCity:http://internal/" })],
  ])("throws the modeled error named by %s", async (_label, res) => {
    const error = await client.deserializeResponse(GetCity, res, clientContext).catch((e: unknown) => e);
    expect(errorClass(NoSuchCity).is(error)).toBe(true);
    expect((error as ModeledError).message).toBe("gone");
    expect((error as ModeledError).$metadata.httpStatus).toBe(404);
  });

  it.each([
    ["Message, as modeled", `{"__type":"RateExceeded","Message":"slow down"}`, "slow down"],
    ["message, as AWS services also send it", `{"__type":"RateExceeded","message":"slow down"}`, undefined],
  ])("reads the message of an error whose member is spelled Message: %s", async (_label, body, member) => {
    const error = await client.deserializeResponse(GetCity, response(400, body), clientContext).catch((e: unknown) => e);
    expect(errorClass(RateExceeded).is(error)).toBe(true);
    expect((error as ModeledError).message).toBe("slow down");
    expect((error as ModeledError & { Message?: string }).Message).toBe(member);
  });

  it("answers an HTML 502 from a proxy with an UnmodeledError, not a parse error", async () => {
    const html = "<html><body><h1>502 Bad Gateway</h1></body></html>";
    const error = await client.deserializeResponse(GetCity, response(502, html, { "content-type": "text/html" }), clientContext).catch((e: unknown) => e);
    expect(UnmodeledError.is(error)).toBe(true);
    expect((error as UnmodeledError).code).toBe("Http502");
    expect((error as UnmodeledError).bodyExcerpt).toContain("502 Bad Gateway");
    expect((error as UnmodeledError).$metadata.httpStatus).toBe(502);
  });

  it("answers an unknown error type with an UnmodeledError carrying the type", async () => {
    const error = await client
      .deserializeResponse(GetCity, response(400, `{"__type":"ns#Throttled","message":"slow down"}`), clientContext)
      .catch((e: unknown) => e);
    expect(UnmodeledError.is(error)).toBe(true);
    expect((error as UnmodeledError).code).toBe("Throttled");
    expect((error as UnmodeledError).message).toBe("slow down");
  });
});

describe("server", () => {
  it("contributes one POST / route per operation, keyed by X-Amz-Target", () => {
    expect(server.routes(Weather).map((r) => [r.operation.id, r.method, r.path, r.headers])).toEqual([
      ["example.weather#GetCity", "POST", "/", { "x-amz-target": "Weather.GetCity" }],
      ["example.weather#Ping", "POST", "/", { "x-amz-target": "Weather.Ping" }],
    ]);
  });

  it("reads the input, leaving constraints to the server", async () => {
    expect(await server.deserializeRequest(GetCity, request("Weather.GetCity", `{"cityId":"sea","since":1}`), serverContext)).toEqual({
      cityId: "sea",
      since: new Date(1000),
    });
    expect(await server.deserializeRequest(Ping, request("Weather.Ping", ""), serverContext)).toEqual({});
    expect(await server.deserializeRequest(GetCity, request("Weather.GetCity", `{"cityId":"much-too-long"}`), serverContext)).toEqual({
      cityId: "much-too-long",
    });
    const malformed = await (async () => server.deserializeRequest(GetCity, request("Weather.GetCity", `{"cityId":`), serverContext))().catch(
      (e: unknown) => e,
    );
    expect(SerializationError.is(malformed)).toBe(true);
  });

  it("reads requests strictly: unpadded base64 is malformed", async () => {
    const Upload = operation("example.weather#Upload", { input: struct("example.weather#UploadInput", [member("data", blob)]), output: unit });
    expect(await server.deserializeRequest(Upload, request("Weather.Upload", `{"data":"YmxvYg=="}`), serverContext)).toEqual({ data: bytes("blob") });
    const malformed = await (async () => server.deserializeRequest(Upload, request("Weather.Upload", `{"data":"xyz"}`), serverContext))().catch(
      (e: unknown) => e,
    );
    expect(SerializationError.is(malformed)).toBe(true);
  });

  it("writes the output, and no body for an operation without output", async () => {
    const res = await server.serializeResponse(GetCity, { name: "Seattle" }, serverContext);
    expect([res.status, res.headers.get("content-type"), text(res.body)]).toEqual([200, "application/x-amz-json-1.0", `{"name":"Seattle"}`]);
    expect(text((await server.serializeResponse(Ping, {}, serverContext)).body)).toBe("");
  });

  it.each([
    [
      "a modeled client error with @httpError",
      new (errorClass(NoSuchCity))({ message: "gone" }),
      404,
      { __type: "example.weather#NoSuchCity", message: "gone" },
    ],
    ["a modeled server error", new (errorClass(Outage))({ message: "down" }), 500, { __type: "example.weather#Outage", message: "down" }],
    [
      "a ValidationError, as the modeled ValidationException",
      new ValidationError([{ path: "/cityId", message: "too long" }]),
      400,
      {
        __type: "smithy.framework#ValidationException",
        message: "1 validation error detected. too long",
        fieldList: [{ path: "/cityId", message: "too long" }],
      },
    ],
    ["a SerializationError", new SerializationError("decode json: bad"), 400, { __type: "SerializationException", message: "decode json: bad" }],
    ["anything else, without leaking its message", new Error("db password is hunter2"), 500, { __type: "InternalFailure", message: "Internal failure" }],
  ])("writes %s", async (_label, error, status, body) => {
    const res = await server.serializeError(GetCity, error, serverContext);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/x-amz-json-1.0");
    expect(JSON.parse(text(res.body))).toEqual(body);
  });

  it("answers a ValidationError with a generic 400 when the operation does not model ValidationException", async () => {
    const res = await server.serializeError(Ping, new ValidationError([{ path: "/x", message: "bad" }]), serverContext);
    expect(res.status).toBe(400);
    expect(JSON.parse(text(res.body)).__type).toBe("ValidationException");
  });

  it("writes __type as the shape name under awsJson1_1", async () => {
    const res = await awsJson1_1().server.serializeError(GetCity, new (errorClass(NoSuchCity))({ message: "gone" }), serverContext);
    expect(JSON.parse(text(res.body))).toEqual({ __type: "NoSuchCity", message: "gone" });
  });

  it("answers an unknown target with UnknownOperationException 404", async () => {
    const res = await server.notFound!(request("Weather.Nope", "{}"));
    expect(res!.status).toBe(404);
    expect(JSON.parse(text(res!.body)).__type).toBe("UnknownOperationException");
    expect(JSON.parse(text(res!.body)).message).toBe("unknown operation Weather.Nope");
  });

  it("tells a caller using another method or path than POST / what awsJson expects, whatever the target", async () => {
    const res = await server.notFound!({ ...request("Weather.GetCity", "{}"), method: "GET" });
    expect(res!.status).toBe(404);
    expect(JSON.parse(text(res!.body)).message).toBe("awsJson requests are POST / with an X-Amz-Target header, got GET /");
  });

  it("round-trips a modeled error from server to client", async () => {
    const res = await server.serializeError(GetCity, new (errorClass(NoSuchCity))({ message: "gone" }), serverContext);
    const error = await client.deserializeResponse(GetCity, res, clientContext).catch((e: unknown) => e);
    expect(ModeledError.isModeledError(error, NoSuchCity)).toBe(true);
  });
});
