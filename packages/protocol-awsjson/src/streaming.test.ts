import { describe, expect, it } from "vitest";
import { SerializationError, type ByteStream, type HttpRequest, type UnionValue } from "@anvil/core";
import { blob, integer, member, operation, service, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { decodeEventMessage, splitFrames } from "@anvil/eventstream";
import { awsJson1_1 } from "./index.js";

// Our own fixture: a duplex "watch a city" operation, and an upload AWS JSON cannot carry.
const Subscribe = struct("example.watch#Subscribe", [member("topic", string, { eventHeader: true }), member("detail", string)]);
const Requests = union("example.watch#Requests", [member("subscribe", Subscribe)], { streaming: true });
const Reading = struct("example.watch#Reading", [member("celsius", integer), member("at", timestamp)]);
const Forecast = struct("example.watch#Forecast", [member("station", string, { eventHeader: true }), member("reading", Reading, { eventPayload: true })]);
const Updates = union("example.watch#Updates", [member("forecast", Forecast)], { streaming: true });
const WatchInput = struct("example.watch#WatchInput", [member("cityId", string, { required: true }), member("requests", Requests)]);
const WatchOutput = struct("example.watch#WatchOutput", [member("session", string), member("updates", Updates)]);
const Watch = operation("example.watch#Watch", { input: WatchInput, output: WatchOutput });
const Download = operation("example.watch#Download", {
  input: struct("example.watch#DownloadInput", [member("name", string)]),
  output: struct("example.watch#DownloadOutput", [member("body", blob, { streaming: true })]),
});
const Watcher = service("example.watch#Watcher", { operations: { watch: Watch, download: Download }, protocols: ["aws.protocols#awsJson1_1"] });

const { client, server } = awsJson1_1();
const clientContext = { endpoint: new URL("https://watch.example.com"), service: Watcher };
const serverContext = { service: Watcher, labels: {} };
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

async function* source<T>(values: readonly T[]): AsyncGenerator<T> {
  yield* values;
}

async function drain<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const updates: UnionValue[] = [{ $case: "forecast", value: { station: "north", reading: { celsius: 12, at: new Date(1700000000000) } } }];

describe("awsJson event streams", () => {
  it("the client opens a request stream with an initial-request message carrying the other members as JSON", async () => {
    const req = await client.serializeRequest(Watch, { cityId: "paris", requests: source([{ $case: "subscribe", value: { topic: "rain" } }]) }, clientContext);
    expect(req.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
    expect(req.headers.get("x-amz-target")).toBe("Watcher.Watch");
    const frames = [];
    for await (const frame of splitFrames(req.body as ByteStream)) frames.push(decodeEventMessage(frame));
    expect(frames.map((m) => m.headers[":event-type"]?.value)).toEqual(["initial-request", "subscribe"]);
    expect(JSON.parse(text(frames[0]!.body))).toEqual({ cityId: "paris" });
  });

  it("round-trips both directions through the server: initial members, then events", async () => {
    const req = await client.serializeRequest(
      Watch,
      { cityId: "paris", requests: source([{ $case: "subscribe", value: { topic: "rain", detail: "hourly" } }]) },
      clientContext,
    );
    const input = (await server.deserializeRequest(Watch, req, serverContext)) as { cityId: string; requests: AsyncIterable<UnionValue> };
    expect(input.cityId).toBe("paris");
    expect(await drain(input.requests)).toEqual([{ $case: "subscribe", value: { topic: "rain", detail: "hourly" } }]);
    const res = await server.serializeResponse(Watch, { session: "s-1", updates: source(updates) }, serverContext);
    expect(res.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
    const output = (await client.deserializeResponse(Watch, res, clientContext)) as { session: string; updates: AsyncIterable<UnionValue> };
    expect(output.session).toBe("s-1");
    expect(await drain(output.updates)).toEqual(updates);
  });
});

describe("awsJson @streaming blobs (the protocol has no binding for them)", () => {
  it("the client throws a SerializationError before sending, naming the operation and member", async () => {
    const error = await client.serializeRequest(Download, { name: "a" }, clientContext).catch((e: unknown) => e);
    expect(SerializationError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/awsJson1_1: operation Download has a @streaming blob \(output member body\)/);
  });

  it("the server answers 400 for the operation's request, before its handler runs", async () => {
    const req: HttpRequest = {
      method: "POST",
      path: "/",
      query: [],
      headers: new Headers({ "content-type": "application/x-amz-json-1.1" }),
      body: new Uint8Array(0),
    };
    const error = await (async () => server.deserializeRequest(Download, req, serverContext))().catch((e: unknown) => e);
    const res = await server.serializeError(Download, error, serverContext);
    expect(res.status).toBe(400);
    expect(JSON.parse(text(res.body as Uint8Array))).toMatchObject({ __type: "SerializationException" });
  });
});
