import { describe, expect, it } from "vitest";
import { collectBytes, ProtocolError, SerializationError, type ByteStream, type HttpRequest, type UnionValue } from "@anvil/core";
import { blob, integer, member, operation, service, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { compileReader } from "@anvil/codec-cbor";
import { decodeEventMessage, splitFrames } from "@anvil/eventstream";
import { rpcv2Cbor } from "./index.js";

// Our own fixture: a duplex "watch a city" operation, and an upload RPC v2 CBOR cannot carry.
const Subscribe = struct("example.watch#Subscribe", [member("topic", string, { eventHeader: true }), member("detail", string)]);
const Requests = union("example.watch#Requests", [member("subscribe", Subscribe)], { streaming: true });
const Reading = struct("example.watch#Reading", [member("celsius", integer), member("at", timestamp)]);
const Forecast = struct("example.watch#Forecast", [member("station", string, { eventHeader: true }), member("reading", Reading, { eventPayload: true })]);
const Updates = union("example.watch#Updates", [member("forecast", Forecast)], { streaming: true });
const WatchInput = struct("example.watch#WatchInput", [member("cityId", string, { required: true }), member("requests", Requests)]);
const WatchOutput = struct("example.watch#WatchOutput", [member("session", string), member("updates", Updates)]);
const Watch = operation("example.watch#Watch", { input: WatchInput, output: WatchOutput });
const Upload = operation("example.watch#Upload", {
  input: struct("example.watch#UploadInput", [member("name", string), member("body", blob, { streaming: true })]),
  output: struct("example.watch#UploadOutput", [member("size", integer)]),
});
const Watcher = service("example.watch#Watcher", { operations: { watch: Watch, upload: Upload }, protocols: ["smithy.protocols#rpcv2Cbor"] });

const { client, server } = rpcv2Cbor();
const clientContext = { endpoint: new URL("https://watch.example.com"), service: Watcher };
const serverContext = { service: Watcher, labels: {} };
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

async function* source<T>(values: readonly T[]): AsyncGenerator<T> {
  yield* values;
}

async function messages(body: unknown) {
  const out = [];
  for await (const frame of splitFrames(body as ByteStream)) out.push(decodeEventMessage(frame));
  return out;
}

async function drain<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const updates: UnionValue[] = [{ $case: "forecast", value: { station: "north", reading: { celsius: 12, at: new Date(1700000000000) } } }];

describe("rpcv2Cbor event streams", () => {
  it("the client opens a request stream with an initial-request message carrying the other members as CBOR", async () => {
    const req = await client.serializeRequest(
      Watch,
      { cityId: "paris", requests: source([{ $case: "subscribe", value: { topic: "rain", detail: "hourly" } }]) },
      clientContext,
    );
    expect(req.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
    expect(req.headers.get("accept")).toBe("application/vnd.amazon.eventstream");
    const [initial, event, ...rest] = await messages(req.body);
    expect(rest).toEqual([]);
    expect(initial!.headers[":event-type"]).toEqual({ type: "string", value: "initial-request" });
    expect(initial!.headers[":content-type"]).toEqual({ type: "string", value: "application/cbor" });
    expect(compileReader(WatchInput)(initial!.body)).toEqual({ cityId: "paris" });
    expect(event!.headers[":event-type"]).toEqual({ type: "string", value: "subscribe" });
    expect(event!.headers["topic"]).toEqual({ type: "string", value: "rain" });
    expect(compileReader(Subscribe)(event!.body)).toEqual({ detail: "hourly" });
  });

  it("round-trips both directions through the server: initial members, then events", async () => {
    const req = await client.serializeRequest(Watch, { cityId: "paris", requests: source([{ $case: "subscribe", value: { topic: "rain" } }]) }, clientContext);
    const input = (await server.deserializeRequest(Watch, { ...req, query: [] } as HttpRequest, serverContext)) as {
      cityId: string;
      requests: AsyncIterable<UnionValue>;
    };
    expect(input.cityId).toBe("paris");
    expect(await drain(input.requests)).toEqual([{ $case: "subscribe", value: { topic: "rain" } }]);

    const res = await server.serializeResponse(Watch, { session: "s-1", updates: source(updates) }, serverContext);
    expect(res.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
    const output = (await client.deserializeResponse(Watch, res, clientContext)) as { session: string; updates: AsyncIterable<UnionValue> };
    expect(output.session).toBe("s-1");
    expect(await drain(output.updates)).toEqual(updates);
  });

  it("reads a stream without an initial message as one without other members", async () => {
    // Only the events, no initial-response: the output's other members are absent.
    const onlyEvents = await server.serializeResponse(Watch, { updates: source(updates) }, serverContext);
    // Drop the initial-response frame (its first four bytes are its length).
    const bytes = await collectBytes(onlyEvents.body as ByteStream);
    const firstLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0);
    const output = (await client.deserializeResponse(Watch, { ...onlyEvents, body: bytes.subarray(firstLength) }, clientContext)) as Record<string, unknown>;
    expect(output["session"]).toBeUndefined();
    expect(await drain(output["updates"] as AsyncIterable<UnionValue>)).toEqual(updates);
  });

  it("the server refuses an event-stream request that is not application/vnd.amazon.eventstream with a 415", async () => {
    const req: HttpRequest = {
      method: "POST",
      path: "/service/Watcher/operation/Watch",
      query: [],
      headers: new Headers({ "content-type": "application/cbor" }),
      body: new Uint8Array(0),
    };
    const error = await (async () => server.deserializeRequest(Watch, req, serverContext))().catch((e: unknown) => e);
    expect(ProtocolError.is(error) && [error.status, error.code, error.message]).toEqual([
      415,
      "UnsupportedMediaTypeException",
      "decode rpcv2Cbor: Watch expects Content-Type application/vnd.amazon.eventstream, got application/cbor",
    ]);
  });
});

describe("rpcv2Cbor @streaming blobs (the protocol has no binding for them)", () => {
  it("the client throws a SerializationError before sending, naming the operation and member", async () => {
    const error = await client.serializeRequest(Upload, { name: "a", body: Uint8Array.of(1) }, clientContext).catch((e: unknown) => e);
    expect(SerializationError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/Upload has a @streaming blob \(input member body\)/);
  });

  it("the server answers 400 for the operation's request, before its handler runs", async () => {
    const req: HttpRequest = {
      method: "POST",
      path: "/service/Watcher/operation/Upload",
      query: [],
      headers: new Headers({ "content-type": "application/cbor" }),
      body: new Uint8Array(0),
    };
    const error = await (async () => server.deserializeRequest(Upload, req, serverContext))().catch((e: unknown) => e);
    expect(SerializationError.is(error)).toBe(true);
    const res = await server.serializeError(Upload, error, serverContext);
    expect(res.status).toBe(400);
    expect(text(res.body as Uint8Array)).toContain("cannot carry");
  });
});
