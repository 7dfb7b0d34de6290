import { describe, expect, it } from "vitest";
import { errorClass, ModeledError, ProtocolError, SerializationError, UnmodeledError, ValidationError, type HttpRequest, type HttpResponse } from "@anvil/core";
import { list, member, operation, service, string, struct, timestamp, unit } from "@anvil/core/codegenv1";
import { compileReader, compileWriter } from "@anvil/codec-cbor";
import { rpcv2Cbor } from "./index.js";
import { withTypeMarker } from "./wire.js";

const NoSuchCity = struct("example.weather#NoSuchCity", [member("message", string)], { error: "client", httpError: 404 });
const Outage = struct("example.weather#Outage", [member("message", string)], { error: "server" });
const ValidationExceptionField = struct("smithy.framework#ValidationExceptionField", [member("path", string), member("message", string)]);
const FieldList = list("smithy.framework#ValidationExceptionFieldList", member("member", ValidationExceptionField));
const ValidationException = struct("smithy.framework#ValidationException", [member("message", string, { required: true }), member("fieldList", FieldList)], {
  error: "client",
});
const GetCityInput = struct("example.weather#GetCityInput", [
  member("cityId", string, { required: true, length: { min: 1, max: 8 } }),
  member("token", string, { idempotencyToken: true }),
  member("since", timestamp),
]);
const GetCityOutput = struct("example.weather#GetCityOutput", [member("name", string)]);
const GetCity = operation("example.weather#GetCity", { input: GetCityInput, output: GetCityOutput, errors: [NoSuchCity, Outage, ValidationException] });
const Ping = operation("example.weather#Ping", { input: unit, output: unit });
const Weather = service("example.weather#Weather", { operations: { getCity: GetCity, ping: Ping }, protocols: ["smithy.protocols#rpcv2Cbor"] });

/** What tests read back from error bodies: the marker and every member any error here has. */
const AnyError = struct("test#AnyError", [member("__type", string), member("message", string), member("fieldList", FieldList)]);
const readError = compileReader(AnyError);
const cborOf = <T>(schema: Parameters<typeof compileWriter<T>>[0], value: T): Uint8Array => compileWriter(schema)(value);
const errorBody = (type: string, message: string): Uint8Array => cborOf(AnyError, { __type: type, message });

const { client, server } = rpcv2Cbor();
const clientContext = { endpoint: new URL("https://weather.example.com"), service: Weather };
const serverContext = { service: Weather, labels: {} };
const response = (status: number, body: Uint8Array, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: new Headers({ "smithy-protocol": "rpc-v2-cbor", "content-type": "application/cbor", ...headers }),
  body,
});
const request = (op: string, body: Uint8Array, headers: Record<string, string> = {}): HttpRequest => ({
  method: "POST",
  path: `/service/Weather/operation/${op}`,
  query: [],
  headers: new Headers({ "smithy-protocol": "rpc-v2-cbor", "content-type": "application/cbor", accept: "application/cbor", ...headers }),
  body,
});

describe("client requests", () => {
  it("POSTs the input as a CBOR map to /service/<Service>/operation/<Operation>", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea", token: "t", since: new Date(1500) }, clientContext);
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/service/Weather/operation/GetCity");
    expect(req.headers.get("smithy-protocol")).toBe("rpc-v2-cbor");
    expect(req.headers.get("content-type")).toBe("application/cbor");
    expect(req.headers.get("accept")).toBe("application/cbor");
    expect(req.headers.get("content-length")).toBe(String((req.body as Uint8Array).byteLength));
    expect(req.headers.has("x-amz-target")).toBe(false);
    expect(compileReader(GetCityInput)(req.body as Uint8Array)).toEqual({ cityId: "sea", token: "t", since: new Date(1500) });
  });

  it("takes idempotency tokens from the context's source when it has one", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea" }, { ...clientContext, idempotencyToken: () => "fixed" });
    expect(compileReader(GetCityInput)(req.body as Uint8Array)).toMatchObject({ token: "fixed" });
  });

  it("fills idempotency tokens", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea" }, clientContext);
    expect(compileReader(GetCityInput)(req.body as Uint8Array).token).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends no body and no Content-Type for an operation without input", async () => {
    const req = await client.serializeRequest(Ping, undefined, clientContext);
    expect(req.body).toBeUndefined();
    expect(req.headers.has("content-type")).toBe(false);
    expect(req.headers.get("accept")).toBe("application/cbor");
  });

  it("prefixes the endpoint's path", async () => {
    const req = await client.serializeRequest(Ping, {}, { ...clientContext, endpoint: new URL("https://example.com/custom/") });
    expect(req.path).toBe("/custom/service/Weather/operation/Ping");
  });

  it("sends x-amzn-query-mode for @awsQueryCompatible services only", async () => {
    const Compat = service("example.weather#Compat", { operations: { ping: Ping }, traits: { "aws.protocols#awsQueryCompatible": {} } });
    const compat = await client.serializeRequest(Ping, {}, { ...clientContext, service: Compat });
    expect(compat.headers.get("x-amzn-query-mode")).toBe("true");
    expect((await client.serializeRequest(Ping, {}, clientContext)).headers.has("x-amzn-query-mode")).toBe(false);
  });
});

describe("client responses", () => {
  it("reads the output; an empty body is an empty structure", async () => {
    const body = cborOf(GetCityOutput, { name: "Seattle" });
    expect(await client.deserializeResponse(GetCity, response(200, body), clientContext)).toEqual({ name: "Seattle" });
    expect(await client.deserializeResponse(GetCity, response(200, new Uint8Array(0)), clientContext)).toEqual({});
    expect(await client.deserializeResponse(Ping, response(200, new Uint8Array(0)), clientContext)).toEqual({});
  });

  it.each([
    ["the absolute shape id", "example.weather#NoSuchCity"],
    ["the shape name", "NoSuchCity"],
    ["another namespace and a qualifier", "example.other#NoSuchCity:http://internal/"],
  ])("throws the modeled error named by __type as %s", async (_label, type) => {
    const error = await client.deserializeResponse(GetCity, response(404, errorBody(type, "gone")), clientContext).catch((e: unknown) => e);
    expect(errorClass(NoSuchCity).is(error)).toBe(true);
    expect((error as ModeledError).message).toBe("gone");
    expect((error as ModeledError).$metadata.httpStatus).toBe(404);
  });

  it("maps x-amzn-query-error to the @awsQueryError shape for query-compatible services", async () => {
    const Custom = struct("example.weather#Custom", [member("message", string)], {
      error: "client",
      custom: { "aws.protocols#awsQueryError": { code: "Customized", httpResponseCode: 402 } },
    });
    const Op = operation("example.weather#Op", { input: unit, output: unit, errors: [Custom] });
    const Compat = service("example.weather#Compat", { operations: { op: Op }, traits: { "aws.protocols#awsQueryCompatible": {} } });
    const res = response(400, errorBody("example.other#Renamed", "hi"), { "x-amzn-query-error": "Customized;Sender" });
    const error = await client.deserializeResponse(Op, res, { ...clientContext, service: Compat }).catch((e: unknown) => e);
    expect(ModeledError.isModeledError(error, Custom)).toBe(true);
  });

  it("answers an HTML 502 from a proxy with an UnmodeledError, not a parse error", async () => {
    const html = new TextEncoder().encode("<html><body><h1>502 Bad Gateway</h1></body></html>");
    const error = await client.deserializeResponse(GetCity, response(502, html, { "content-type": "text/html" }), clientContext).catch((e: unknown) => e);
    expect(UnmodeledError.is(error)).toBe(true);
    expect((error as UnmodeledError).code).toBe("Http502");
    expect((error as UnmodeledError).bodyExcerpt).toContain("502 Bad Gateway");
    expect((error as UnmodeledError).$metadata.httpStatus).toBe(502);
  });

  it("answers an unknown error type with an UnmodeledError carrying the type and message", async () => {
    const error = await client.deserializeResponse(GetCity, response(400, errorBody("ns#Throttled", "slow down")), clientContext).catch((e: unknown) => e);
    expect(UnmodeledError.is(error)).toBe(true);
    expect((error as UnmodeledError).code).toBe("Throttled");
    expect((error as UnmodeledError).message).toBe("slow down");
    expect((error as UnmodeledError).bodyExcerpt).toMatch(/^[0-9a-f]+$/);
  });
});

describe("server", () => {
  it("contributes one POST route per operation, keyed by path and smithy-protocol", () => {
    expect(server.routes(Weather).map((r) => [r.operation.id, r.method, r.path, r.headers])).toEqual([
      ["example.weather#GetCity", "POST", "/service/Weather/operation/GetCity", { "smithy-protocol": "rpc-v2-cbor" }],
      ["example.weather#Ping", "POST", "/service/Weather/operation/Ping", { "smithy-protocol": "rpc-v2-cbor" }],
    ]);
  });

  it("reads the input, leaving constraints to the server", async () => {
    const body = cborOf(GetCityInput, { cityId: "sea", since: new Date(1000) });
    expect(await server.deserializeRequest(GetCity, request("GetCity", body), serverContext)).toEqual({ cityId: "sea", since: new Date(1000) });
    expect(await server.deserializeRequest(Ping, request("Ping", new Uint8Array(0)), serverContext)).toEqual({});
    const invalid = await server.deserializeRequest(GetCity, request("GetCity", cborOf(GetCityInput, { cityId: "much-too-long" })), serverContext);
    expect(invalid).toEqual({ cityId: "much-too-long" });
    const malformed = await (async () => server.deserializeRequest(GetCity, request("GetCity", body.subarray(0, 5)), serverContext))().catch((e: unknown) => e);
    expect(SerializationError.is(malformed)).toBe(true);
  });

  describe("media types: a body must be application/cbor (else 415), an Accept must admit it (else 406)", () => {
    const cbor = cborOf(GetCityInput, { cityId: "sea" });
    const json = new TextEncoder().encode(`{"cityId":"sea"}`);
    const empty = new Uint8Array(0);
    const outcome = (operation: typeof GetCity, body: Uint8Array, headers: Record<string, string>) =>
      (async () =>
        server.deserializeRequest(
          operation,
          { ...request(operation.name, body), headers: new Headers({ "smithy-protocol": "rpc-v2-cbor", ...headers }) },
          serverContext,
        ))().then(
        () => "read",
        (e: unknown) => (ProtocolError.is(e) ? `${e.status} ${e.code}: ${e.message}` : String(e)),
      );

    it.each([
      ["CBOR with parameters, in another case", GetCity, cbor, { "content-type": "Application/CBOR; x=y" }, "read"],
      ["no Accept", GetCity, cbor, { "content-type": "application/cbor" }, "read"],
      [
        "an Accept admitting CBOR by a wildcard",
        GetCity,
        cbor,
        { "content-type": "application/cbor", accept: "application/json, application/*;q=0.5" },
        "read",
      ],
      ["an empty body without Content-Type (an operation without input)", Ping, empty, {}, "read"],
      ["an empty body typed application/cbor", Ping, empty, { "content-type": "application/cbor" }, "read"],
      [
        "a JSON body",
        GetCity,
        json,
        { "content-type": "application/json" },
        "415 UnsupportedMediaTypeException: decode rpcv2Cbor: GetCity expects Content-Type application/cbor, got application/json",
      ],
      [
        "a body without Content-Type",
        GetCity,
        cbor,
        {},
        "415 UnsupportedMediaTypeException: decode rpcv2Cbor: GetCity expects Content-Type application/cbor, got none",
      ],
      [
        "an Accept without CBOR",
        GetCity,
        cbor,
        { "content-type": "application/cbor", accept: "application/json" },
        "406 NotAcceptableException: decode rpcv2Cbor: GetCity answers application/cbor, which Accept: application/json does not admit",
      ],
      [
        "an Accept refusing CBOR with q=0",
        Ping,
        empty,
        { accept: "application/cbor;q=0" },
        "406 NotAcceptableException: decode rpcv2Cbor: Ping answers application/cbor, which Accept: application/cbor;q=0 does not admit",
      ],
    ])("%s", async (_label, operation, body, headers, expected) => {
      expect(await outcome(operation, body, headers)).toBe(expected);
    });
  });

  it("writes the output, and no body nor Content-Type for an operation without output", async () => {
    const res = await server.serializeResponse(GetCity, { name: "Seattle" }, serverContext);
    expect([res.status, res.headers.get("content-type"), res.headers.get("smithy-protocol")]).toEqual([200, "application/cbor", "rpc-v2-cbor"]);
    expect(compileReader(GetCityOutput)(res.body as Uint8Array)).toEqual({ name: "Seattle" });
    const none = await server.serializeResponse(Ping, {}, serverContext);
    expect([none.status, none.headers.has("content-type"), (none.body as Uint8Array).byteLength]).toEqual([200, false, 0]);
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
    ["a SerializationError", new SerializationError("decode cbor: bad"), 400, { __type: "SerializationException", message: "decode cbor: bad" }],
    [
      "a ProtocolError, with its status and type",
      new ProtocolError("UnsupportedMediaTypeException", 415, "no"),
      415,
      { __type: "UnsupportedMediaTypeException", message: "no" },
    ],
    ["anything else, without leaking its message", new Error("db password is hunter2"), 500, { __type: "InternalFailure", message: "Internal failure" }],
  ])("writes %s", async (_label, error, status, body) => {
    const res = await server.serializeError(GetCity, error, serverContext);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/cbor");
    expect(res.headers.get("smithy-protocol")).toBe("rpc-v2-cbor");
    expect(readError(res.body as Uint8Array)).toEqual(body);
  });

  it("answers a ValidationError as smithy.framework#ValidationException also when the operation does not model it", async () => {
    const res = await server.serializeError(Ping, new ValidationError([{ path: "/x", message: "bad" }]), serverContext);
    expect(res.status).toBe(400);
    expect(readError(res.body as Uint8Array)).toEqual({
      __type: "smithy.framework#ValidationException",
      message: "1 validation error detected. bad",
      fieldList: [{ path: "/x", message: "bad" }],
    });
  });

  it("adds x-amzn-query-error for @awsQueryError errors of query-compatible services", async () => {
    const Custom = struct("example.weather#Custom", [member("message", string)], {
      error: "client",
      custom: { "aws.protocols#awsQueryError": { code: "Customized", httpResponseCode: 402 } },
    });
    const Op = operation("example.weather#Op", { input: unit, output: unit, errors: [Custom] });
    const Compat = service("example.weather#Compat", { operations: { op: Op }, traits: { "aws.protocols#awsQueryCompatible": {} } });
    const res = await server.serializeError(Op, new (errorClass(Custom))({ message: "hi" }), { service: Compat, labels: {} });
    expect([res.status, res.headers.get("x-amzn-query-error")]).toEqual([400, "Customized;Sender"]);
  });

  it("answers an unknown operation with UnknownOperationException 404", async () => {
    const res = await server.notFound!(request("Nope", new Uint8Array(0)));
    expect(res!.status).toBe(404);
    expect(readError(res!.body as Uint8Array).__type).toBe("UnknownOperationException");
  });

  it("round-trips input, output and a modeled error between client and server", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea" }, clientContext);
    const route = server.routes(Weather).find((r) => r.path === req.path && r.headers?.["smithy-protocol"] === req.headers.get("smithy-protocol"))!;
    expect(route.operation).toBe(GetCity);
    const input = (await server.deserializeRequest(route.operation, req, serverContext)) as { cityId: string };
    expect(input.cityId).toBe("sea");
    const ok = await server.serializeResponse(GetCity, { name: "Seattle" }, serverContext);
    expect(await client.deserializeResponse(GetCity, ok, clientContext)).toEqual({ name: "Seattle" });
    const res = await server.serializeError(GetCity, new (errorClass(NoSuchCity))({ message: "gone" }), serverContext);
    const error = await client.deserializeResponse(GetCity, res, clientContext).catch((e: unknown) => e);
    expect(ModeledError.isModeledError(error, NoSuchCity)).toBe(true);
  });
});

describe("withTypeMarker", () => {
  it("puts __type first into definite maps of any size and into indefinite maps", () => {
    const Many = struct(
      "test#Many",
      Array.from({ length: 30 }, (_, i) => member(`m${i}`, string)),
    );
    const value = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`m${i}`, `v${i}`]));
    const marked = withTypeMarker(compileWriter(Many)(value), "ns#Many");
    const Read = struct("test#ReadMany", [member("__type", string), ...Many.members]);
    expect(compileReader(Read)(marked)).toEqual({ __type: "ns#Many", ...value });
    const indefinite = Uint8Array.of(0xbf, 0x61, 0x61, 0x61, 0x62, 0xff); // {_ "a": "b"}
    const R = struct("test#R", [member("__type", string), member("a", string)]);
    expect(compileReader(R)(withTypeMarker(indefinite, "x"))).toEqual({ __type: "x", a: "b" });
    expect(compileReader(R)(withTypeMarker(Uint8Array.of(0xa0), "x"))).toEqual({ __type: "x" });
  });
});
