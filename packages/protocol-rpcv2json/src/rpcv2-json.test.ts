import { describe, expect, it } from "vitest";
import {
  BigDecimal,
  errorClass,
  type ModeledError,
  SerializationError,
  UnmodeledError,
  ValidationError,
  type HttpRequest,
  type HttpResponse,
} from "@anvil/core";
import { bigDecimal, bigInteger, blob, integer, member, operation, service, string, struct, timestamp, unit } from "@anvil/core/codegenv1";
import { rpcv2Json } from "./index.js";

const NoSuchCity = struct("example.weather#NoSuchCity", [member("message", string)], { error: "client", httpError: 404 });
const Outage = struct("example.weather#Outage", [member("message", string)], { error: "server" });
const GetCityInput = struct("example.weather#GetCityInput", [
  member("cityId", string, { required: true, length: { min: 1, max: 8 } }),
  member("token", string, { idempotencyToken: true }),
  member("since", timestamp, { timestampFormat: "date-time" }),
  member("population", bigInteger),
  member("area", bigDecimal),
]);
const GetCityOutput = struct("example.weather#GetCityOutput", [member("name", string), member("count", integer, { required: true })]);
const GetCity = operation("example.weather#GetCity", { input: GetCityInput, output: GetCityOutput, errors: [NoSuchCity, Outage] });
const Ping = operation("example.weather#Ping", { input: unit, output: unit });
const Weather = service("example.weather#Weather", { operations: { getCity: GetCity, ping: Ping }, protocols: ["smithy.protocols#rpcv2Json"] });

const { client, server } = rpcv2Json();
const clientContext = { endpoint: new URL("https://weather.example.com"), service: Weather };
const serverContext = { service: Weather, labels: {} };
const text = (body: unknown): string => new TextDecoder().decode(body as Uint8Array);
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

const response = (status: number, body: string, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: new Headers({ "smithy-protocol": "rpc-v2-json", "content-type": "application/json", ...headers }),
  body: bytes(body),
});
const request = (op: string, body: string, headers: Record<string, string> = {}): HttpRequest => ({
  method: "POST",
  path: `/service/Weather/operation/${op}`,
  query: [],
  headers: new Headers({ "smithy-protocol": "rpc-v2-json", "content-type": "application/json", ...headers }),
  body: bytes(body),
});

describe("client requests", () => {
  it("POSTs the input as a JSON object to /service/<Service>/operation/<Operation>", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea", token: "t" }, clientContext);
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/service/Weather/operation/GetCity");
    expect(req.headers.get("smithy-protocol")).toBe("rpc-v2-json");
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(req.headers.get("accept")).toBe("application/json");
    expect(req.headers.get("content-length")).toBe(String((req.body as Uint8Array).byteLength));
    expect(JSON.parse(text(req.body))).toEqual({ cityId: "sea", token: "t" });
  });

  it("writes timestamps as epoch seconds whatever their @timestampFormat, big numbers as strings", async () => {
    const area = BigDecimal.from("0.100000000000000000000001");
    const req = await client.serializeRequest(GetCity, { cityId: "sea", token: "t", since: new Date(1500), population: 2n ** 70n, area }, clientContext);
    expect(text(req.body)).toBe(`{"cityId":"sea","token":"t","since":1.5,"population":"1180591620717411303424","area":"0.100000000000000000000001"}`);
  });

  it("fills idempotency tokens", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea" }, { ...clientContext, idempotencyToken: () => "fixed" });
    expect(JSON.parse(text(req.body))).toMatchObject({ token: "fixed" });
  });

  it("sends no body and no Content-Type for an operation without input", async () => {
    const req = await client.serializeRequest(Ping, undefined, clientContext);
    expect(req.body).toBeUndefined();
    expect(req.headers.has("content-type")).toBe(false);
    expect(req.headers.get("accept")).toBe("application/json");
  });

  it("prefixes the endpoint's path", async () => {
    const req = await client.serializeRequest(Ping, {}, { ...clientContext, endpoint: new URL("https://example.com/custom/") });
    expect(req.path).toBe("/custom/service/Weather/operation/Ping");
  });
});

describe("client responses", () => {
  it("reads the output; an empty body is an empty structure (required members corrected)", async () => {
    expect(await client.deserializeResponse(GetCity, response(200, `{"name":"Seattle","count":3}`), clientContext)).toEqual({ name: "Seattle", count: 3 });
    expect(await client.deserializeResponse(GetCity, response(200, ""), clientContext)).toEqual({ count: 0 });
  });

  it("throws the modeled error `__type` names (shape id or name, with or without a :qualifier)", async () => {
    for (const type of ["example.weather#NoSuchCity", "NoSuchCity", "example.weather#NoSuchCity:http://internal"]) {
      const error = await client
        .deserializeResponse(GetCity, response(404, JSON.stringify({ __type: type, message: "no sea" })), clientContext)
        .catch((e: unknown) => e);
      expect(errorClass(NoSuchCity).is(error), type).toBe(true);
      expect((error as ModeledError).message).toBe("no sea");
      expect((error as ModeledError).$metadata.httpStatus).toBe(404);
    }
  });

  it("throws an UnmodeledError for an unknown type or a body that is not JSON", async () => {
    const unknown = await client.deserializeResponse(GetCity, response(400, `{"__type":"ns#Nope","message":"m"}`), clientContext).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UnmodeledError);
    expect((unknown as UnmodeledError).message).toBe("m");
    const html = await client.deserializeResponse(GetCity, response(502, "<html>bad gateway</html>"), clientContext).catch((e: unknown) => e);
    expect(html).toBeInstanceOf(UnmodeledError);
    expect((html as UnmodeledError).bodyExcerpt).toBe("<html>bad gateway</html>");
  });
});

describe("server", () => {
  it("routes every operation by path and smithy-protocol", () => {
    expect(server.routes(Weather).map((r) => [r.method, r.path, r.headers])).toEqual([
      ["POST", "/service/Weather/operation/GetCity", { "smithy-protocol": "rpc-v2-json" }],
      ["POST", "/service/Weather/operation/Ping", { "smithy-protocol": "rpc-v2-json" }],
    ]);
    expect(server.routes(Weather)).toBe(server.routes(Weather));
  });

  it("reads the input: epoch-seconds timestamps, big numbers from strings; an empty body is an empty input", async () => {
    const input = await server.deserializeRequest(
      GetCity,
      request("GetCity", `{"cityId":"sea","since":1.5,"population":"-9223372036854775809","area":"-0.100000000000000000000001"}`),
      serverContext,
    );
    expect(input).toEqual({ cityId: "sea", since: new Date(1500), population: -9223372036854775809n, area: BigDecimal.from("-0.100000000000000000000001") });
    expect(await server.deserializeRequest(Ping, request("Ping", ""), serverContext)).toEqual({});
  });

  it("rejects malformed bodies and bodies that are not JSON with a SerializationError", async () => {
    await expect(server.deserializeRequest(GetCity, request("GetCity", `{"cityId":`), serverContext)).rejects.toBeInstanceOf(SerializationError);
    await expect(server.deserializeRequest(GetCity, request("GetCity", `{"cityId":"a","area":"1.2.3"}`), serverContext)).rejects.toBeInstanceOf(
      SerializationError,
    );
    await expect(server.deserializeRequest(GetCity, request("GetCity", `{}`, { "content-type": "text/plain" }), serverContext)).rejects.toBeInstanceOf(
      SerializationError,
    );
  });

  it("writes the output; no body and no Content-Type for an operation without output", async () => {
    const res = await server.serializeResponse(GetCity, { name: "Seattle", count: 1 }, serverContext);
    expect(res.status).toBe(200);
    expect(res.headers.get("smithy-protocol")).toBe("rpc-v2-json");
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(text(res.body)).toBe(`{"name":"Seattle","count":1}`);
    const none = await server.serializeResponse(Ping, undefined, serverContext);
    expect((none.body as Uint8Array).byteLength).toBe(0);
    expect(none.headers.has("content-type")).toBe(false);
  });

  it("writes modeled errors with `__type` first and their status", async () => {
    const res = await server.serializeError(GetCity, new (errorClass(NoSuchCity))({ message: "no sea" }), serverContext);
    expect(res.status).toBe(404);
    expect(text(res.body)).toBe(`{"__type":"example.weather#NoSuchCity","message":"no sea"}`);
    expect((await server.serializeError(GetCity, new (errorClass(Outage))({}), serverContext)).status).toBe(500);
  });

  it("answers invalid input with smithy.framework#ValidationException, bad bodies with 400, bugs with an opaque 500", async () => {
    const invalid = await server.serializeError(GetCity, new ValidationError([{ path: "/cityId", message: "too long" }]), serverContext);
    expect(invalid.status).toBe(400);
    expect(JSON.parse(text(invalid.body))).toEqual({
      __type: "smithy.framework#ValidationException",
      message: "1 validation error detected. too long",
      fieldList: [{ path: "/cityId", message: "too long" }],
    });
    const malformed = await server.serializeError(GetCity, new SerializationError("decode json: bad"), serverContext);
    expect(malformed.status).toBe(400);
    expect(JSON.parse(text(malformed.body)).__type).toBe("SerializationException");
    const bug = await server.serializeError(GetCity, new Error("secret"), serverContext);
    expect(bug.status).toBe(500);
    expect(text(bug.body)).not.toContain("secret");
  });

  it("answers an unknown operation or a missing smithy-protocol header with a 404", async () => {
    const res = (await server.notFound!(request("Nope", "{}", { "smithy-protocol": "rpc-v2-cbor" })))!;
    expect(res.status).toBe(404);
    expect(JSON.parse(text(res.body))).toMatchObject({ __type: "UnknownOperationException" });
  });
});

describe("round trip", () => {
  it("a client request read by the server gives the input back", async () => {
    const input = { cityId: "sea", token: "t", since: new Date(946845296123), population: 42, area: BigDecimal.from("100000000000000000000001.0") };
    const req = await client.serializeRequest(GetCity, input, clientContext);
    expect(await server.deserializeRequest(GetCity, req, serverContext)).toEqual(input);
  });

  it("a server error read by the client is the modeled error", async () => {
    const res = await server.serializeError(GetCity, new (errorClass(NoSuchCity))({ message: "gone" }), serverContext);
    const error = await client.deserializeResponse(GetCity, res, clientContext).catch((e: unknown) => e);
    expect(errorClass(NoSuchCity).is(error)).toBe(true);
  });
});

describe("@streaming blobs", () => {
  const Upload = operation("example.weather#Upload", {
    input: struct("example.weather#UploadInput", [member("photo", blob, { streaming: true })]),
    output: unit,
  });

  it("are refused on both sides with an error naming the operation, the member and the protocol", async () => {
    const sent = await client.serializeRequest(Upload, { photo: bytes("png") }, clientContext).catch((e: unknown) => e);
    expect(SerializationError.is(sent) && sent.message).toMatch(/encode rpcv2Json: operation Upload has a @streaming blob \(input member photo\)/);
    const received = await (async () => server.deserializeRequest(Upload, request("Upload", "{}"), serverContext))().catch((e: unknown) => e);
    expect(SerializationError.is(received) && received.message).toMatch(/decode rpcv2Json: operation Upload/);
  });
});
