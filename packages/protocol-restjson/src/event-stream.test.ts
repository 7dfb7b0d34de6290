import { describe, expect, it } from "vitest";
import { collectBytes, errorClass, SerializationError, validateValue, type HttpRequest, type HttpResponse, type UnionValue } from "@anvil/core";
import { decodeEventMessage, splitFrames } from "@anvil/eventstream";
import { integer, member, operation, service, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { restJson1 } from "./index.js";

// Our own fixture: a duplex "watch a city" operation.
const Subscribe = struct("example.watch#Subscribe", [member("topic", string, { eventHeader: true }), member("detail", string, { jsonName: "the_detail" })]);
const Ping = struct("example.watch#Ping", [member("seq", integer, { eventHeader: true })]);
const Requests = union("example.watch#Requests", [member("subscribe", Subscribe), member("ping", Ping)], { streaming: true });

const Reading = struct("example.watch#Reading", [member("celsius", integer), member("at", timestamp)]);
const Forecast = struct("example.watch#Forecast", [member("station", string, { eventHeader: true }), member("reading", Reading, { eventPayload: true })]);
const Storm = struct("example.watch#Storm", [member("message", string), member("level", integer)], { error: "server" });
const Updates = union("example.watch#Updates", [member("forecast", Forecast), member("storm", Storm)], { streaming: true });
const Busy = struct("example.watch#Busy", [member("message", string)], { error: "server", httpError: 503 });

const Watch = operation("example.watch#Watch", {
  input: struct("example.watch#WatchInput", [
    member("cityId", string, { required: true, httpLabel: true }),
    member("units", string, { httpHeader: "X-Units", required: true }),
    member("requests", Requests, { httpPayload: true }),
  ]),
  output: struct("example.watch#WatchOutput", [
    member("session", string, { httpHeader: "X-Session", required: true }),
    member("updates", Updates, { httpPayload: true }),
  ]),
  errors: [Busy],
  traits: { http: { method: "POST", uri: "/cities/{cityId}/watch", code: 200 } },
});
const Watcher = service("example.watch#Watcher", { operations: { watch: Watch }, protocols: ["aws.protocols#restJson1"] });

const { client, server } = restJson1();
const clientContext = { endpoint: new URL("https://watch.example.com"), service: Watcher };
const serverContext = { service: Watcher, labels: { cityId: "paris" } };
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

const requests: UnionValue[] = [
  { $case: "subscribe", value: { topic: "rain", detail: "hourly" } },
  { $case: "ping", value: { seq: 1 } },
];
const updates: UnionValue[] = [
  { $case: "forecast", value: { station: "north", reading: { celsius: 12, at: new Date(1700000000000) } } },
  { $case: "forecast", value: { station: "south" } },
];

async function* source<T>(values: readonly T[], pulls: { n: number } = { n: 0 }): AsyncGenerator<T> {
  for (const v of values) {
    pulls.n++;
    yield v;
  }
}

async function collect<T>(iterable: unknown): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable as AsyncIterable<T>) out.push(x);
  return out;
}

async function messagesOf(body: HttpRequest["body"]) {
  const out = [];
  for await (const frame of splitFrames(body)) out.push(decodeEventMessage(frame));
  return out;
}

describe("restJson1 event streams", () => {
  it("client: streams the input's events as the body, bound members in the HTTP request", async () => {
    const pulls = { n: 0 };
    const request = await client.serializeRequest(Watch, { cityId: "paris", units: "C", requests: source(requests, pulls) }, clientContext);
    expect(request.path).toBe("/cities/paris/watch");
    expect(request.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
    expect(request.headers.get("x-units")).toBe("C");
    expect(request.headers.has("content-length")).toBe(false);
    expect(pulls.n).toBe(0); // nothing is read before the transport reads the body
    const messages = await messagesOf(request.body);
    expect(messages.map((m) => m.headers[":event-type"]?.value)).toEqual(["subscribe", "ping"]);
    expect(messages[0]!.headers["topic"]).toEqual({ type: "string", value: "rain" });
    expect(JSON.parse(text(messages[0]!.body))).toEqual({ the_detail: "hourly" });
    expect(messages[1]!.headers["seq"]).toEqual({ type: "integer", value: 1 });
  });

  it("server: reads the bound members, then the events as the handler iterates", async () => {
    const request = await client.serializeRequest(Watch, { cityId: "paris", units: "C", requests: source(requests) }, clientContext);
    const input = (await server.deserializeRequest(Watch, request, serverContext)) as Record<string, unknown>;
    expect(input["cityId"]).toBe("paris");
    expect(input["units"]).toBe("C");
    expect(await collect(input["requests"])).toEqual(requests);
  });

  it("server: reads the bound members without touching the stream, so the pipeline can validate them first", async () => {
    const request: HttpRequest = { method: "POST", path: "/cities/paris/watch", query: [], headers: new Headers(), body: undefined };
    const input = await server.deserializeRequest(Watch, request, serverContext);
    expect(validateValue(Watch.input, input).map((f) => f.path)).toEqual(["/units"]);
  });

  it("server: a corrupt frame in the request is a SerializationError for the handler, not a crash", async () => {
    const body = Uint8Array.of(0, 0, 0, 20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
    const request: HttpRequest = { method: "POST", path: "/cities/paris/watch", query: [], headers: new Headers({ "x-units": "C" }), body };
    const input = (await server.deserializeRequest(Watch, request, serverContext)) as Record<string, unknown>;
    await expect(collect(input["requests"])).rejects.toBeInstanceOf(SerializationError);
  });

  it("server → client: the output's events, with the initial members in headers", async () => {
    const response = await server.serializeResponse(Watch, { session: "s1", updates: source(updates) }, serverContext);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
    expect(response.headers.get("x-session")).toBe("s1");
    expect(response.headers.has("content-length")).toBe(false);
    const output = (await client.deserializeResponse(Watch, response, clientContext)) as Record<string, unknown>;
    expect(output["session"]).toBe("s1");
    expect(await collect(output["updates"])).toEqual(updates);
  });

  it("writes structure payloads as restJson1 JSON (epoch-seconds timestamps)", async () => {
    const response = await server.serializeResponse(Watch, { session: "s1", updates: source(updates.slice(0, 1)) }, serverContext);
    const [message] = await messagesOf(response.body);
    expect(message!.headers[":content-type"]).toEqual({ type: "string", value: "application/json" });
    expect(JSON.parse(text(message!.body))).toEqual({ celsius: 12, at: 1700000000 });
  });

  it("V2: a modeled error the handler's stream throws reaches the client as that error", async () => {
    const StormError = errorClass(Storm);
    async function* failing(): AsyncGenerator<UnionValue> {
      yield updates[0]!;
      throw new StormError({ message: "take cover", level: 5 });
    }
    const response = await server.serializeResponse(Watch, { session: "s1", updates: failing() }, serverContext);
    const output = (await client.deserializeResponse(Watch, response, clientContext)) as Record<string, unknown>;
    const got: unknown[] = [];
    const error = await (async () => {
      for await (const e of output["updates"] as AsyncIterable<unknown>) got.push(e);
    })().catch((e: unknown) => e);
    expect(got).toEqual([updates[0]]);
    expect(StormError.is(error)).toBe(true);
    expect(error).toMatchObject({ message: "take cover", level: 5 });
  });

  it("client: an error response of an event-stream operation is its modeled error", async () => {
    const response: HttpResponse = {
      status: 503,
      headers: new Headers({ "x-amzn-errortype": "Busy", "content-type": "application/json" }),
      body: new TextEncoder().encode('{"message":"later"}'),
    };
    await expect(client.deserializeResponse(Watch, response, clientContext)).rejects.toSatisfy((e: unknown) => errorClass(Busy).is(e));
  });

  it("client: a response without a required initial member is rejected", async () => {
    const response: HttpResponse = { status: 200, headers: new Headers({ "content-type": "application/vnd.amazon.eventstream" }), body: undefined };
    await expect(client.deserializeResponse(Watch, response, clientContext)).rejects.toThrow(/lacks the required member session/);
  });

  it("client: an input stream that is not iterable is a SerializationError", async () => {
    await expect(client.serializeRequest(Watch, { cityId: "paris", units: "C", requests: 42 }, clientContext)).rejects.toBeInstanceOf(SerializationError);
  });

  it("an absent stream is an empty body of frames", async () => {
    const request = await client.serializeRequest(Watch, { cityId: "paris", units: "C" }, clientContext);
    expect(await collectBytes(request.body as AsyncIterable<Uint8Array>)).toEqual(new Uint8Array(0));
  });
});
