import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { errorClass, type HttpRequest, type HttpResponse } from "@anvil/core";
import { bodyBytes } from "@anvil/core/protocol";
import { integer, member, operation, service, string, struct } from "@anvil/core/codegenv1";
import { createDispatcher, type HandlerContext } from "./index.js";
import { deferred, testProtocol } from "./test-protocol.js";

const NoSuchCity = struct("example.weather#NoSuchCity", [member("message", string)], { error: "client" });
const Undeclared = struct("example.weather#Undeclared", [member("message", string)], { error: "client" });
const GetCity = operation("example.weather#GetCity", {
  input: struct("example.weather#GetCityInput", [
    member("cityId", string, { required: true, httpLabel: true, length: { min: 1, max: 8 } }),
    member("days", integer, { range: { min: 1, max: 7 } }),
  ]),
  output: struct("example.weather#GetCityOutput", [member("name", string)]),
  errors: [NoSuchCity],
  traits: { http: { method: "POST", uri: "/cities/{cityId}", code: 200 } },
});
const Weather = service("example.weather#Weather", { operations: { getCity: GetCity }, protocols: ["test#json"] });

const utf8 = new TextEncoder();
const request = (path: string, body?: string, headers: Record<string, string> = {}): HttpRequest => ({
  method: "POST",
  path,
  query: [],
  headers: new Headers(headers),
  body: body === undefined ? undefined : utf8.encode(body),
});
const read = (response: HttpResponse): unknown => JSON.parse(new TextDecoder().decode(bodyBytes(response.body as Uint8Array | string)));

describe.each([
  ["a synchronous", (id: string) => testProtocol(id)],
  ["a promise-returning", (id: string) => deferred(testProtocol(id))],
])("createDispatcher with %s protocol", (_kind, protocolOf) => {
  const handled: unknown[] = [];
  const dispatch = createDispatcher({
    service: Weather,
    protocols: [protocolOf("test#json")],
    handlers: {
      getCity: async (raw, context: HandlerContext) => {
        const input = raw as { cityId: string; days?: number };
        handled.push([input, context.operation.id, context.protocol]);
        if (input.cityId === "nowhere") throw new (errorClass(NoSuchCity))({ message: "no such city" });
        if (input.cityId === "boom") throw new Error("secret stack detail");
        if (input.cityId === "other") throw new (errorClass(Undeclared))({ message: "not declared" });
        if (input.cityId === "bad") return 42 as never;
        return { name: `city ${input.cityId}` };
      },
    },
  });

  it("routes, deserializes, calls the handler with its context and serializes the output", async () => {
    const response = await dispatch(request("/cities/paris", `{"days":3}`));
    expect([response.status, read(response)]).toEqual([200, { name: "city paris" }]);
    expect(handled.at(-1)).toEqual([{ cityId: "paris", days: 3 }, "example.weather#GetCity", "test#json"]);
  });

  it.each([
    ["an unknown route: the protocol's not-found answer", request("/towns/paris"), 404, "UnknownOperationException"],
    ["a malformed body: the caller's mistake (400)", request("/cities/paris", "{"), 400, "SerializationException"],
    [
      "a refused content type: the protocol error's status",
      request("/cities/paris", "{}", { "content-type": "text/xml" }),
      415,
      "UnsupportedMediaTypeException",
    ],
    ["input breaking a constraint: ValidationException", request("/cities/far-too-long", `{"days":9}`), 400, "ValidationException"],
    ["a declared modeled error: serialized as such", request("/cities/nowhere"), 400, "NoSuchCity"],
  ])("answers %s", async (_label, req, status, type) => {
    const before = handled.length;
    const response = await dispatch(req);
    expect(response.status).toBe(status);
    expect((read(response) as { type: string }).type).toBe(type);
    if (status !== 400 || type !== "NoSuchCity") expect(handled.length).toBe(before); // the handler never ran
  });

  it("reports every violation, not only the first", async () => {
    const response = await dispatch(request("/cities/far-too-long", `{"days":9}`));
    expect((read(response) as { message: string }).message).toMatch(/^2 validation errors detected\./);
  });

  it.each([
    ["an unmodeled throw", "boom"],
    ["a modeled error the operation does not declare", "other"],
    ["an output the protocol cannot write", "bad"],
  ])("answers %s as a 500 that leaks nothing", async (_label, cityId) => {
    const onInternalError = vi.fn();
    const d = createDispatcher({
      service: Weather,
      protocols: [protocolOf("test#json")],
      handlers: { getCity: dispatchHandlerOf(cityId) },
      onInternalError,
    });
    const response = await d(request(`/cities/${cityId}`));
    expect([response.status, read(response)]).toEqual([500, { type: "InternalFailure", message: "internal failure" }]);
    expect(onInternalError).toHaveBeenCalledOnce();
  });

  it("tells onRejected about requests refused before their handler, and only those", async () => {
    const onRejected = vi.fn();
    const d = createDispatcher({
      service: Weather,
      protocols: [protocolOf("test#json")],
      handlers: { getCity: () => Promise.reject(new (errorClass(NoSuchCity))({ message: "no such city" })) },
      onRejected,
    });
    await d(request("/cities/paris", "{"));
    await d(request("/cities/far-too-long", `{"days":9}`));
    await d(request("/cities/nowhere")); // a modeled error from the handler is not a rejection
    expect(onRejected.mock.calls.map(([error, context]) => [(error as Error).name, (context as HandlerContext).operation.id])).toEqual([
      ["SerializationError", "example.weather#GetCity"],
      ["ValidationError", "example.weather#GetCity"],
    ]);
  });

  it("answers a bare 500 when the protocol cannot even write the error", async () => {
    const broken = { ...protocolOf("test#json"), serializeError: () => Promise.reject(new Error("broken")) };
    const d = createDispatcher({ service: Weather, protocols: [broken], handlers: { getCity: () => Promise.reject(new Error("x")) } });
    const response = await d(request("/cities/paris"));
    expect([response.status, response.body]).toEqual([500, undefined]);
  });

  it("refuses a service with an operation that has no handler", () => {
    expect(() => createDispatcher({ service: Weather, protocols: [protocolOf("test#json")], handlers: {} as never })).toThrow(
      "createDispatcher: no handler for operation getCity (example.weather#GetCity)",
    );
  });
});

describe("several protocols", () => {
  const dispatch = createDispatcher({
    service: Weather,
    protocols: [testProtocol("test#plain"), testProtocol("test#tagged", ["x-protocol", "tagged"])],
    handlers: { getCity: (_input, context) => ({ name: context.protocol }) },
  });

  it("routes to the protocol whose route matches most specifically", async () => {
    expect(read(await dispatch(request("/cities/paris")))).toEqual({ name: "test#plain" });
    expect(read(await dispatch(request("/cities/paris", undefined, { "x-protocol": "tagged" })))).toEqual({ name: "test#tagged" });
  });

  it("answers unknown routes with the first protocol's not-found answer", async () => {
    const response = await dispatch(request("/nowhere"));
    expect([response.status, read(response)]).toEqual([404, { type: "UnknownOperationException", message: "test#plain: no POST /nowhere" }]);
  });

  it("answers an unknown route in the terms of the protocol whose marks the request bears, whichever comes first", async () => {
    const marked = { ...testProtocol("test#marked", ["x-protocol", "marked"]), recognizes: (r: HttpRequest) => r.headers.get("x-protocol") === "marked" };
    const d = createDispatcher({ service: Weather, protocols: [testProtocol("test#plain"), marked], handlers: { getCity: () => ({}) } });
    expect(read(await d(request("/nowhere", undefined, { "x-protocol": "marked" })))).toMatchObject({ message: "test#marked: no POST /nowhere" });
    expect(read(await d(request("/nowhere")))).toMatchObject({ message: "test#plain: no POST /nowhere" });
  });
});

function dispatchHandlerOf(cityId: string) {
  return async (): Promise<{ name?: string }> => {
    if (cityId === "boom") throw new Error("secret stack detail");
    if (cityId === "other") throw new (errorClass(Undeclared))({ message: "not declared" });
    return 42 as never;
  };
}

describe("any request", () => {
  const dispatch = createDispatcher({
    service: Weather,
    protocols: [testProtocol("test#json")],
    handlers: { getCity: (input) => ({ name: String((input as { cityId: unknown }).cityId) }) },
  });

  it("gets an answer, never a rejection, and never a 500 while the handler behaves", async () => {
    const method = fc.constantFrom("GET", "POST", "PUT", "post");
    const path = fc.array(fc.oneof(fc.constantFrom("cities", "", "%", "%E0%A4%A"), fc.string()), { maxLength: 4 }).map((s) => `/${s.join("/")}`);
    const body = fc.option(fc.oneof(fc.string(), fc.json()), { nil: undefined });
    const headers = fc.dictionary(fc.constantFrom("content-type", "accept", "x-protocol"), fc.constantFrom("application/json", "text/xml", "*/*"));
    await fc.assert(
      fc.asyncProperty(method, path, body, headers, async (m, p, b, h) => {
        const response = await dispatch({ ...request(p, b, h), method: m });
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the call context a protocol serializes with", () => {
  it("carries the request and the server's sseKeepAliveMs; a negative interval is refused", async () => {
    const seen: { request: HttpRequest | undefined; sseKeepAliveMs: number | undefined }[] = [];
    const protocol = testProtocol("test#json");
    const watching = {
      ...protocol,
      serializeResponse: (...args: Parameters<typeof protocol.serializeResponse>) => {
        seen.push({ request: args[2].request, sseKeepAliveMs: args[2].sseKeepAliveMs });
        return protocol.serializeResponse(...args);
      },
    };
    const handlers = { getCity: async () => ({ name: "x" }) };
    for (const sseKeepAliveMs of [undefined, 250, 0]) {
      const dispatch = createDispatcher({ service: Weather, protocols: [watching], handlers, ...(sseKeepAliveMs !== undefined ? { sseKeepAliveMs } : {}) });
      expect((await dispatch(request("/cities/paris", "{}", { accept: "text/event-stream" }))).status).toBe(200);
    }
    expect(seen.map((s) => [s.request?.headers.get("accept"), s.sseKeepAliveMs])).toEqual([
      ["text/event-stream", undefined],
      ["text/event-stream", 250],
      ["text/event-stream", 0],
    ]);
    expect(() => createDispatcher({ service: Weather, protocols: [watching], handlers, sseKeepAliveMs: -1 })).toThrow(RangeError);
  });
});
