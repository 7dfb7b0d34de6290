import { describe, expect, it } from "vitest";
import {
  errorClass,
  type ModeledError,
  ProtocolError,
  SerializationError,
  UnmodeledError,
  ValidationError,
  type HttpRequest,
  type HttpResponse,
} from "@anvil/core";
import { parseQuery } from "@anvil/core/protocol";
import { blob, boolean, integer, list, map, member, operation, service, string, struct, timestamp, unit } from "@anvil/core/codegenv1";
import { restJson1, simpleRestJson } from "./index.js";
import { REST_JSON_1, routesOf } from "./bindings.js";
import { createHttpBindingServer } from "./server.js";
import { encodeLabel, quoteHeaderItem, scalarToText, splitHeaderList, textToScalar } from "./text-values.js";

const NoSuchCity = struct("example.weather#NoSuchCity", [member("message", string), member("cityId", string, { httpHeader: "X-City-Id" })], {
  error: "client",
  httpError: 404,
});
const Outage = struct("example.weather#Outage", [member("message", string)], { error: "server" });
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
const StringList = list("example.weather#StringList", member("member", string));
const TimeList = list("example.weather#TimeList", member("member", timestamp));
const StringMap = map("example.weather#StringMap", member("key", string), member("value", string));

const GetCityInput = struct("example.weather#GetCityInput", [
  member("cityId", string, { required: true, httpLabel: true, length: { min: 1, max: 8 } }),
  member("path", string, { required: true, httpLabel: true }),
  member("units", string, { httpQuery: "units" }),
  member("tags", StringList, { httpQuery: "tag" }),
  member("since", timestamp, { httpQuery: "since" }),
  member("extra", StringMap, { httpQueryParams: true }),
  member("names", StringList, { httpHeader: "X-Names" }),
  member("times", TimeList, { httpHeader: "X-Times" }),
  member("meta", StringMap, { httpPrefixHeaders: "X-Meta-" }),
  member("token", string, { idempotencyToken: true, httpHeader: "X-Token" }),
  member("note", string, { jsonName: "the_note" }),
]);
const GetCityOutput = struct("example.weather#GetCityOutput", [
  member("name", string),
  member("status", integer, { httpResponseCode: true }),
  member("etag", string, { httpHeader: "ETag" }),
]);
const GetCity = operation("example.weather#GetCity", {
  input: GetCityInput,
  output: GetCityOutput,
  errors: [NoSuchCity, Outage, ValidationException],
  traits: { http: { method: "GET", uri: "/cities/{cityId}/files/{path+}?mode=full", code: 200 } },
});
const PutPhoto = operation("example.weather#PutPhoto", {
  input: struct("example.weather#PutPhotoInput", [
    member("cityId", string, { required: true, httpLabel: true }),
    member("photo", blob, { httpPayload: true, mediaType: "image/png" }),
  ]),
  output: unit,
  traits: { http: { method: "PUT", uri: "/cities/{cityId}/photo", code: 204 } },
});
const ListCities = operation("example.weather#ListCities", {
  input: struct("example.weather#ListCitiesInput", [member("open", boolean, { httpQuery: "open" })]),
  output: struct("example.weather#ListCitiesOutput", [member("items", StringList)]),
  traits: { http: { method: "GET", uri: "/cities", code: 200 } },
});
const GetSpecial = operation("example.weather#GetSpecial", {
  input: unit,
  output: unit,
  traits: { http: { method: "GET", uri: "/cities/special/files/x", code: 200 } },
});
const Weather = service("example.weather#Weather", {
  operations: { getCity: GetCity, putPhoto: PutPhoto, listCities: ListCities, getSpecial: GetSpecial },
  protocols: ["aws.protocols#restJson1"],
});

const { client, server } = restJson1();
const clientContext = { endpoint: new URL("https://weather.example.com"), service: Weather };
const text = (body: unknown): string => (typeof body === "string" ? body : new TextDecoder().decode(body as Uint8Array));
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const response = (status: number, body: string, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: new Headers({ "content-type": "application/json", ...headers }),
  body: bytes(body),
});

describe("text encodings", () => {
  const date = new Date(Date.UTC(2019, 11, 16, 23, 48, 18));
  it.each([
    ["label", "a b/c", false, "a%20b%2Fc"],
    ["label", "a b/c", true, "a%20b/c"],
    ["label", "it's (*)!", false, "it%27s%20%28%2A%29%21"],
    ["label", "%:?#", false, "%25%3A%3F%23"],
  ])("%s %j (greedy %s) → %s", (_where, value, greedy, expected) => {
    expect(encodeLabel(value, greedy)).toBe(expected);
  });

  it.each([
    ["query", {}, "2019-12-16T23:48:18Z"],
    ["label", {}, "2019-12-16T23:48:18Z"],
    ["header", {}, "Mon, 16 Dec 2019 23:48:18 GMT"],
    ["header", { timestampFormat: "epoch-seconds" as const }, "1576540098"],
    ["query", { timestampFormat: "http-date" as const }, "Mon, 16 Dec 2019 23:48:18 GMT"],
  ] as const)("timestamp in %s with %j → %s", (where, traits, expected) => {
    expect(scalarToText(timestamp, traits, date, where, "/t")).toBe(expected);
    expect(textToScalar(timestamp, traits, expected, where, "/t")).toEqual(date);
  });

  it("writes booleans and numbers as text, base64 for @mediaType strings in headers", () => {
    expect(scalarToText(boolean, {}, true, "query", "/b")).toBe("true");
    expect(scalarToText(integer, {}, -3, "header", "/i")).toBe("-3");
    expect(scalarToText(string, { mediaType: "application/json" }, "true", "header", "/s")).toBe("dHJ1ZQ==");
    expect(textToScalar(string, { mediaType: "application/json" }, "dHJ1ZQ==", "header", "/s")).toBe("true");
    expect(textToScalar(integer, {}, "12", "query", "/i")).toBe(12);
    expect(() => textToScalar(integer, {}, "1.5", "query", "/i")).toThrow(SerializationError);
    expect(() => textToScalar(boolean, {}, "yes", "header", "/b")).toThrow(SerializationError);
    expect(() => textToScalar(integer, {}, "99999999999999", "query", "/i")).toThrow(
      "decode restJson: query /i is not an integer from -2147483648 to 2147483647",
    );
  });

  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say \\"hi\\""'],
  ])("header list item %j → %s", (item, quoted) => {
    expect(quoteHeaderItem(item)).toBe(quoted);
    expect(splitHeaderList(`x, ${quoted}, y`, false)).toEqual(["x", item, "y"]);
  });

  it("splits http-date lists after every second comma", () => {
    expect(splitHeaderList("Mon, 16 Dec 2019 23:48:18 GMT, Tue, 17 Dec 2019 23:48:18 GMT", true)).toEqual([
      "Mon, 16 Dec 2019 23:48:18 GMT",
      "Tue, 17 Dec 2019 23:48:18 GMT",
    ]);
    expect(splitHeaderList("", false)).toEqual([]);
  });
});

describe("client requests", () => {
  it("sends Content-MD5 for @httpChecksumRequired operations", async () => {
    const Checked = operation("example.weather#PutNote", {
      input: struct("example.weather#PutNoteInput", [member("note", string, { httpPayload: true })]),
      output: unit,
      traits: { http: { method: "PUT", uri: "/note", code: 200 }, httpChecksumRequired: true },
    });
    const fox = await client.serializeRequest(Checked, { note: "The quick brown fox jumps over the lazy dog" }, clientContext);
    expect(fox.headers.get("content-md5")).toBe("nhB9nTcrtoJr2B01QqQZ1g=="); // MD5 9e107d9d372bb6826bd81d3542a419d6
    const plain = await client.serializeRequest(PutPhoto, { cityId: "x", photo: bytes("png") }, clientContext);
    expect(plain.headers.has("content-md5")).toBe(false);
  });

  it("binds labels, query, headers and prefix headers; the rest is the JSON body", async () => {
    const req = await client.serializeRequest(
      GetCity,
      {
        cityId: "new york",
        path: "a/b c",
        units: "metric",
        tags: ["x", "y"],
        since: new Date(Date.UTC(2019, 11, 16, 23, 48, 18)),
        extra: { units: "ignored", other: "1" },
        names: ["a,b", "c"],
        times: [new Date(0), new Date(1000)],
        meta: { color: "red" },
        token: "tok",
        note: "hi",
      },
      clientContext,
    );
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/cities/new%20york/files/a/b%20c");
    expect(req.query).toEqual([
      ["mode", "full"],
      ["units", "metric"],
      ["tag", "x"],
      ["tag", "y"],
      ["since", "2019-12-16T23:48:18Z"],
      ["other", "1"],
    ]);
    expect(req.headers.get("x-names")).toBe('"a,b", c');
    expect(req.headers.get("x-times")).toBe("Thu, 01 Jan 1970 00:00:00 GMT, Thu, 01 Jan 1970 00:00:01 GMT");
    expect(req.headers.get("x-meta-color")).toBe("red");
    expect(req.headers.get("x-token")).toBe("tok");
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(text(req.body))).toEqual({ the_note: "hi" });
  });

  it("fills an idempotency token bound to a header; sends no body without body members", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea", path: "p" }, clientContext);
    expect(req.headers.get("x-token")).toMatch(/^[0-9a-f-]{36}$/);
    const put = await client.serializeRequest(PutPhoto, { cityId: "sea", photo: bytes("PNG") }, clientContext);
    expect(put.headers.get("content-type")).toBe("image/png");
    expect(text(put.body)).toBe("PNG");
    const list = await client.serializeRequest(ListCities, { open: false }, clientContext);
    expect(list.body).toBeUndefined();
    expect(list.headers.has("content-type")).toBe(false);
    expect(list.query).toEqual([["open", "false"]]);
  });

  it("takes idempotency tokens from the context's source when it has one", async () => {
    const req = await client.serializeRequest(GetCity, { cityId: "sea", path: "p" }, { ...clientContext, idempotencyToken: () => "fixed" });
    expect(req.headers.get("x-token")).toBe("fixed");
  });

  it("rejects a missing label", async () => {
    await expect(client.serializeRequest(GetCity, { path: "p" }, clientContext)).rejects.toThrow(SerializationError);
  });
});

describe("client responses and errors", () => {
  it("reads the body, headers and the status code", async () => {
    const out = await client.deserializeResponse(GetCity, response(201, '{"name":"Seattle"}', { etag: "abc" }), clientContext);
    expect(out).toEqual({ name: "Seattle", etag: "abc", status: 201 });
  });

  it.each([
    ["the header", { "x-amzn-errortype": "NoSuchCity:http://internal.amazon.com/" }, '{"message":"gone"}'],
    ["__type", {}, '{"__type":"example.weather#NoSuchCity","message":"gone"}'],
    ["code", {}, '{"code":"NoSuchCity","message":"gone"}'],
  ])("maps an error named by %s to the modeled error, with header-bound members", async (_how, headers, body) => {
    const error = await client.deserializeResponse(GetCity, response(404, body, { ...headers, "x-city-id": "sea" }), clientContext).catch((e: unknown) => e);
    expect(errorClass(NoSuchCity).is(error)).toBe(true);
    expect((error as ModeledError).members()).toEqual({ message: "gone", cityId: "sea" });
  });

  it("reports an HTML 502 from a proxy as an UnmodeledError, not a parse error", async () => {
    const html = { status: 502, headers: new Headers({ "content-type": "text/html" }), body: bytes("<html><body>Bad Gateway</body></html>") };
    const error = await client.deserializeResponse(GetCity, html, clientContext).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnmodeledError);
    expect((error as UnmodeledError).code).toBe("Http502");
    expect((error as UnmodeledError).$metadata.httpStatus).toBe(502);
  });
});

describe("server", () => {
  const serverContext = (labels: Record<string, string> = {}) => ({ service: Weather, labels });
  const request = (method: string, path: string, query: [string, string][] = [], headers: Record<string, string> = {}, body?: string): HttpRequest => ({
    method,
    path,
    query,
    headers: new Headers(headers),
    body: body === undefined ? undefined : bytes(body),
  });

  describe("media types: Content-Type (415) and Accept (406) are checked before the input is read", () => {
    const getCity = (headers: Record<string, string>, body?: string) =>
      server.deserializeRequest(GetCity, request("GET", "/cities/sea/files/x", [["mode", "full"]], headers, body), serverContext({ cityId: "sea", path: "x" }));
    const outcome = (read: () => unknown) =>
      (async () => read())().then(
        () => "read",
        (e: unknown) => (ProtocolError.is(e) ? `${e.status} ${e.code}` : String(e)),
      );

    it.each([
      ["JSON with parameters", { "content-type": "application/json; charset=utf-8" }, `{"the_note":"x"}`, "read"],
      ["JSON in another case", { "content-type": "Application/JSON" }, `{}`, "read"],
      ["no body and no Content-Type", {}, undefined, "read"],
      ["a body of another type", { "content-type": "application/hal+json" }, `{}`, "415 UnsupportedMediaTypeException"],
      ["a body without Content-Type", {}, `{}`, "415 UnsupportedMediaTypeException"],
      ["an exact Accept", { accept: "application/json" }, undefined, "read"],
      ["a wildcard Accept", { accept: "text/html, application/*;q=0.5" }, undefined, "read"],
      ["an Accept that admits nothing we write", { accept: "application/xml, application/json;q=0" }, undefined, "406 NotAcceptableException"],
    ])("body members: %s → %s", async (_label, headers, body, expected) => {
      expect(await outcome(() => getCity(headers, body))).toBe(expected);
    });

    it.each([
      ["an operation without a body takes none", ListCities, { "content-type": "application/json" }, "415 UnsupportedMediaTypeException"],
      ["an operation without a body ignores Content-Type on an empty body", ListCities, { "content-type": "application/json" }, "read"],
      ["an operation without a body ignores an untyped body", ListCities, {}, "read"],
      ["a payload takes its @mediaType", PutPhoto, { "content-type": "image/png" }, "read"],
      ["a payload refuses another type", PutPhoto, { "content-type": "application/octet-stream" }, "415 UnsupportedMediaTypeException"],
      ["an operation without output admits any Accept", PutPhoto, { "content-type": "image/png", accept: "image/webp" }, "read"],
    ])("%s", async (label, operation, headers, expected) => {
      const body = operation === PutPhoto ? "png" : label.includes("takes none") || label.includes("untyped") ? "{}" : undefined;
      const req = request(operation.traits.http!.method, "/x", [], headers, body);
      expect(await outcome(() => server.deserializeRequest(operation, req, serverContext({ cityId: "sea" })))).toBe(expected);
    });

    it("are off for HTTP-binding protocols that do not ask for them", async () => {
      const lenient = createHttpBindingServer(REST_JSON_1);
      const req = request("GET", "/cities/sea/files/x", [["mode", "full"]], { accept: "text/html" }, `{"the_note":"x"}`);
      expect(await lenient.deserializeRequest(GetCity, req, serverContext({ cityId: "sea", path: "x" }))).toMatchObject({ note: "x" });
    });

    it("answers a ProtocolError with its status and error type", async () => {
      const res = await server.serializeError(GetCity, new ProtocolError("NotAcceptableException", 406, "no"), serverContext());
      expect([res.status, res.headers.get("x-amzn-errortype"), JSON.parse(text(res.body))]).toEqual([406, "NotAcceptableException", { message: "no" }]);
    });
  });

  it("routes from @http, literal segments before labels, literal query required", () => {
    const routes = routesOf(Object.values(Weather.operations));
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(paths)).toEqual(new Set(["GET /cities", "GET /cities/special/files/x", "PUT /cities/{cityId}/photo", "GET /cities/{cityId}/files/{path+}"]));
    // The literal path is tried before the one with labels that would also match it.
    expect(paths.indexOf("GET /cities/special/files/x")).toBeLessThan(paths.indexOf("GET /cities/{cityId}/files/{path+}"));
    expect(server.routes(Weather).find((r) => r.operation === GetCity)!.query).toEqual([["mode", "full"]]);
  });

  it("reads labels, query, headers and body into the input", async () => {
    const input = await server.deserializeRequest(
      GetCity,
      request(
        "GET",
        "/cities/sea/files/a/b",
        [
          ["mode", "full"],
          ["tag", "x"],
          ["tag", "y"],
          ["units", "metric"],
          ["z", "1"],
        ],
        {
          "x-names": '"a,b", c',
          "x-meta-color": "red",
          "content-type": "application/json",
        },
        '{"the_note":"hi"}',
      ),
      serverContext({ cityId: "sea", path: "a/b" }),
    );
    expect(input).toEqual({
      cityId: "sea",
      path: "a/b",
      units: "metric",
      tags: ["x", "y"],
      extra: { mode: "full", tag: "x", units: "metric", z: "1" },
      names: ["a,b", "c"],
      meta: { color: "red" },
      note: "hi",
    });
  });

  it("reads an empty body as an empty blob or text for a required payload member, as an unset one otherwise", async () => {
    const payloadOp = (name: string, target: typeof blob | typeof string, required: boolean) =>
      operation(`example.weather#${name}`, {
        input: struct(`example.weather#${name}Input`, [
          member("cityId", string, { required: true, httpLabel: true }),
          member<unknown>("data", target, { httpPayload: true, required }),
        ]),
        output: unit,
        traits: { http: { method: "POST", uri: "/cities/{cityId}/data", code: 200 } },
      });
    const empty = { ...request("POST", "/cities/sea/data", [], { "content-type": "application/octet-stream" }), body: new Uint8Array(0) };
    const read = (op: ReturnType<typeof payloadOp>) => server.deserializeRequest(op, empty, serverContext({ cityId: "sea" }));
    expect(await read(payloadOp("PostBlob", blob, true))).toEqual({ cityId: "sea", data: new Uint8Array(0) });
    expect(await read(payloadOp("PostOptionalBlob", blob, false))).toEqual({ cityId: "sea" });
    const text = { ...empty, headers: new Headers({ "content-type": "text/plain" }) };
    expect(await server.deserializeRequest(payloadOp("PostText", string, true), text, serverContext({ cityId: "sea" }))).toEqual({ cityId: "sea", data: "" });
  });

  describe("percent-escapes that do not decode are a SerializationError naming the label or parameter", () => {
    const read = (operation: typeof GetCity, path: string, search: string) =>
      (async () =>
        server.deserializeRequest(
          operation,
          request(operation.traits.http!.method, path, parseQuery(search)),
          serverContext({ cityId: "sea", path: "x" }),
        ))().then(
        () => "read",
        (e: unknown) => (SerializationError.is(e) ? `${e.path} ${e.message}` : String(e)),
      );

    it.each([
      ["a label", "/cities/%zz/files/x", "mode=full", `/cityId decode restJson: label "cityId": "%zz" is not a percent-escape (% and two hex digits)`],
      [
        "a label with a lone %",
        "/cities/sea%/files/x",
        "mode=full",
        `/cityId decode restJson: label "cityId": "%" is not a percent-escape (% and two hex digits)`,
      ],
      ["a greedy label", "/cities/sea/files/a/%FF/b", "mode=full", `/path decode restJson: label "path": "%FF" is not UTF-8`],
      [
        "a bound query value",
        "/cities/sea/files/x",
        "mode=full&units=%C3%28",
        `/units decode restJson: query parameter "units": in its value, "%C3%28" is not UTF-8`,
      ],
      [
        "a list query value",
        "/cities/sea/files/x",
        "mode=full&tag=a&tag=%zz",
        `/tags decode restJson: query parameter "tag": in its value, "%zz" is not a percent-escape (% and two hex digits)`,
      ],
      [
        "a name in @httpQueryParams",
        "/cities/sea/files/x",
        "mode=full&%FF=1",
        `/extra decode restJson: query parameter "%FF": in its name, "%FF" is not UTF-8`,
      ],
      ["nothing: valid escapes everywhere", "/cities/new%20york/files/a%2Fb/%F0%9F%98%B9", "mode=full&units=%20%25", "read"],
    ])("%s", async (_label, path, search, expected) => {
      expect(await read(GetCity, path, search)).toBe(expected);
    });

    it("leaves query parameters the operation does not bind alone", async () => {
      expect(await read(ListCities, "/cities", "open=true&other=%zz")).toBe("read");
    });

    it("are answered as 400 SerializationException", async () => {
      const error = await (async () => server.deserializeRequest(GetCity, request("GET", "/cities/%zz/files/x"), serverContext()))().catch((e: unknown) => e);
      const res = await server.serializeError(GetCity, error, serverContext());
      expect([res.status, res.headers.get("x-amzn-errortype")]).toEqual([400, "SerializationException"]);
    });
  });

  it.each([
    [
      "a single-valued member given twice is refused, naming the parameter",
      "mode=full&units=metric&units=imperial",
      `decode restJson: query parameter "units" appears 2 times, but /units takes one value`,
    ],
    ["a list member takes every value", "mode=full&tag=a&tag=b&tag=a", { tags: ["a", "b", "a"] }],
    ["an @httpQueryParams map of strings keeps the first value", "mode=full&tag=a&z=1&z=2", { tags: ["a"], extra: { mode: "full", tag: "a", z: "1" } }],
  ])("query parameters given more than once: %s", async (_label, search, expected) => {
    const read = await (async () =>
      server.deserializeRequest(GetCity, request("GET", "/cities/sea/files/x", parseQuery(search)), serverContext({ cityId: "sea", path: "x" })))().catch(
      (e: unknown) => e,
    );
    if (typeof expected === "string")
      expect([SerializationError.is(read), (read as SerializationError).path, (read as Error).message]).toEqual([true, "/units", expected]);
    else expect(read).toMatchObject(expected);
  });

  it("leaves constraints to the server (reads input that breaks them) and answers a ValidationError as ValidationException (400)", async () => {
    const input = await server.deserializeRequest(
      GetCity,
      request("GET", "/cities/much-too-long/files/x", [["mode", "full"]]),
      serverContext({ cityId: "much-too-long", path: "x" }),
    );
    expect(input).toMatchObject({ cityId: "much-too-long" });
    const res = await server.serializeError(GetCity, new ValidationError([{ path: "/cityId", message: "too long" }]), serverContext());
    expect(res.status).toBe(400);
    expect(res.headers.get("x-amzn-errortype")).toBe("ValidationException");
    expect(JSON.parse(text(res.body)).fieldList[0].path).toBe("/cityId");
  });

  it("writes output with the @http code, the @httpResponseCode member, headers and the body", async () => {
    const res = await server.serializeResponse(GetCity, { name: "Seattle", etag: "abc" }, serverContext());
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe("abc");
    expect(JSON.parse(text(res.body))).toEqual({ name: "Seattle" });
    expect((await server.serializeResponse(GetCity, { status: 202 }, serverContext())).status).toBe(202);
    // What is no HTTP status (the 0 that AWS models default such members to) leaves the @http code.
    expect((await server.serializeResponse(GetCity, { status: 0 }, serverContext())).status).toBe(200);
    const put = await server.serializeResponse(PutPhoto, {}, serverContext());
    expect(put.status).toBe(204);
    expect(text(put.body)).toBe("");
  });

  it("writes modeled errors with X-Amzn-Errortype, status, header-bound and body members", async () => {
    const res = await server.serializeError(GetCity, new (errorClass(NoSuchCity))({ message: "gone", cityId: "sea" }), serverContext());
    expect(res.status).toBe(404);
    expect(res.headers.get("x-amzn-errortype")).toBe("NoSuchCity");
    expect(res.headers.get("x-city-id")).toBe("sea");
    expect(JSON.parse(text(res.body))).toEqual({ message: "gone" });
    // The client reads it back.
    const back = await client.deserializeResponse(GetCity, res, clientContext).catch((e: unknown) => e);
    expect((back as ModeledError).members()).toEqual({ message: "gone", cityId: "sea" });
    expect((await server.serializeError(GetCity, new (errorClass(Outage))({ message: "down" }), serverContext())).status).toBe(500);
  });

  it("answers malformed input with 400 and anything else with a 500 that leaks nothing", async () => {
    const bad = await (async () => server.deserializeRequest(ListCities, request("GET", "/cities", [["open", "maybe"]]), serverContext()))().catch(
      (e: unknown) => e,
    );
    expect(SerializationError.is(bad)).toBe(true);
    expect((await server.serializeError(ListCities, bad, serverContext())).status).toBe(400);
    const res = await server.serializeError(ListCities, new Error("db password is hunter2"), serverContext());
    expect(res.status).toBe(500);
    expect(res.headers.get("x-amzn-errortype")).toBe("InternalFailure");
    expect(text(res.body)).not.toContain("hunter2");
  });

  it.each([
    ["restJson1", server, "x-amzn-errortype"],
    ["simpleRestJson", simpleRestJson().server, "x-error-type"],
  ])("%s answers a path it routes under other methods with 405, an Allow header and its typed error body", async (_name, protocol, typeHeader) => {
    const res = await protocol.methodNotAllowed!(request("DELETE", "/cities/sea/photo"), ["GET", "PUT"]);
    expect([res.status, res.headers.get("allow"), res.headers.get(typeHeader), res.headers.get("content-type")]).toEqual([
      405,
      "GET, PUT",
      "MethodNotAllowedException",
      "application/json",
    ]);
    expect(JSON.parse(text(res.body))).toEqual({ message: "DELETE is not allowed at /cities/sea/photo; it takes GET, PUT" });
    const unknown = await protocol.notFound!(request("DELETE", "/towns"));
    expect([unknown?.status, unknown?.headers.get(typeHeader), unknown?.headers.has("allow")]).toEqual([404, "UnknownOperationException", false]);
  });
});
