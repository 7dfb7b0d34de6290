/**
 * The interop matrix: a grpc-js client (proto-loader on the emitted
 * `.proto`) calling the Anvil server, and the Anvil client calling a grpc-js
 * server of the same service. Every call kind, modeled errors with details,
 * deadlines, cancellation, metadata, compression, a 4 MiB message and one
 * over the limit.
 */
import { createClient } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import { UnmodeledError } from "@anvil/core";
import { createServer } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpc } from "./index.js";
import { decodeRpcStatus } from "./status-details.js";
import { greeterHandlers, type Seen } from "./test-handlers.js";
import { grpcJs, loadEmittedProto } from "./test-peers.js";
import { type ChatEvent, Greeter, NoSuchName, type TickEvent } from "./test-service.js";

const LIMIT = 4 * 1024 * 1024;
const proto = loadEmittedProto(Greeter);
const root = protobuf.parse(proto.text, { keepCase: true }).root;

type Callback = (error: grpcJs.ServiceError | null, value?: any) => void;
type JsClient = grpcJs.Client & Record<string, any>;

function unary(client: JsClient, method: string, request: object, options: { metadata?: grpcJs.Metadata; deadline?: number } = {}): Promise<any> {
  return new Promise((resolve, reject) => {
    const callOptions = options.deadline === undefined ? {} : { deadline: Date.now() + options.deadline };
    client[method]!(request, options.metadata ?? new grpcJs.Metadata(), callOptions, ((error, value) => (error ? reject(error) : resolve(value))) as Callback);
  });
}

async function failure(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("grpc-js client → Anvil server", () => {
  const seen: Seen = { aborted: [] };
  let listener: NodeListener;
  let client: JsClient;
  let gzipClient: JsClient;

  beforeAll(async () => {
    const server = createServer(Greeter, { protocols: [grpc()] }).register(greeterHandlers(seen) as never).mapService();
    listener = await listen(server, { http2: true });
    const target = `127.0.0.1:${listener.port}`;
    client = new proto.Service(target, grpcJs.credentials.createInsecure()) as JsClient;
    gzipClient = new proto.Service(target, grpcJs.credentials.createInsecure(), { "grpc.default_compression_algorithm": 2 }) as JsClient;
  });
  afterAll(async () => {
    client.close();
    gzipClient.close();
    await listener.close({ graceMs: 100 });
  });

  it("unary, with metadata in (text and -bin)", async () => {
    const metadata = new grpcJs.Metadata();
    metadata.set("x-tenant", "blue");
    metadata.set("trace-bin", Buffer.from([0, 1, 254, 255]));
    expect(await unary(client, "SayHello", { name: "ada", times: 2 }, { metadata })).toEqual({ message: "hello adahello ada" });
    expect(seen.headers?.get("x-tenant")).toBe("blue");
    expect(Buffer.from(seen.headers!.get("trace-bin")!, "base64")).toEqual(Buffer.from([0, 1, 254, 255]));
  });

  it("gzip-compressed request messages", async () => {
    expect(await unary(gzipClient, "SayHello", { name: "zip" })).toEqual({ message: "hello zip" });
  });

  it("a modeled error: NOT_FOUND with the error's members in grpc-status-details-bin", async () => {
    const error = await failure(unary(client, "SayHello", { name: "nobody" }));
    expect(error.code).toBe(grpcJs.status.NOT_FOUND);
    expect(error.details).toBe("no such name");
    const status = decodeRpcStatus(error.metadata.get("grpc-status-details-bin")[0] as Buffer);
    expect(status.code).toBe(grpcJs.status.NOT_FOUND);
    expect(status.details[0]!.typeUrl).toBe("type.googleapis.com/example.grpctest.NoSuchName");
    const members = root.lookupType("example.grpctest.NoSuchName").decode(status.details[0]!.value).toJSON();
    expect(members).toEqual({ message: "no such name", name: "nobody" });
  });

  it("invalid input: INVALID_ARGUMENT with the ValidationException fields", async () => {
    const error = await failure(unary(client, "SayHello", { name: "" }));
    expect(error.code).toBe(grpcJs.status.INVALID_ARGUMENT);
    const status = decodeRpcStatus(error.metadata.get("grpc-status-details-bin")[0] as Buffer);
    expect(status.details[0]!.typeUrl).toBe("type.googleapis.com/smithy.framework.ValidationException");
  });

  it("an unmodeled failure: INTERNAL, leaking nothing", async () => {
    const error = await failure(unary(client, "Fail", {}));
    expect(error.code).toBe(grpcJs.status.INTERNAL);
    expect(error.details).toBe("Internal failure");
  });

  it("an unknown method: UNIMPLEMENTED", async () => {
    const method = new grpcJs.Client(`127.0.0.1:${listener.port}`, grpcJs.credentials.createInsecure());
    const error = await failure(
      new Promise((resolve, reject) =>
        method.makeUnaryRequest("/example.grpctest.Greeter/Nope", (x: Buffer) => x, (x: Buffer) => x, Buffer.alloc(0), (e, v) => (e ? reject(e) : resolve(v))),
      ),
    );
    method.close();
    expect(error.code).toBe(grpcJs.status.UNIMPLEMENTED);
  });

  it("a deadline: DEADLINE_EXCEEDED, and the handler's signal aborts", async () => {
    const before = seen.aborted.length;
    const error = await failure(unary(client, "Wait", {}, { deadline: 200 }));
    expect(error.code).toBe(grpcJs.status.DEADLINE_EXCEEDED);
    await expect.poll(() => seen.aborted.length).toBeGreaterThan(before);
  });

  it("cancellation: the handler's signal aborts", async () => {
    const before = seen.aborted.length;
    const call = client.Wait({}, (_e: unknown) => undefined) as grpcJs.ClientUnaryCall;
    await new Promise((r) => setTimeout(r, 100));
    call.cancel();
    await expect.poll(() => seen.aborted.length).toBeGreaterThan(before);
  });

  it("a 4 MiB message, and RESOURCE_EXHAUSTED for one byte more", async () => {
    expect(await unary(client, "Echo", { data: Buffer.alloc(LIMIT - 5, 7) })).toMatchObject({ size: LIMIT - 5 });
    const error = await failure(unary(client, "Echo", { data: Buffer.alloc(LIMIT - 4, 7) }));
    expect(error.code).toBe(grpcJs.status.RESOURCE_EXHAUSTED);
  });

  it("server streaming", async () => {
    const call = client.Countdown({ from: 3 }) as grpcJs.ClientReadableStream<any>;
    const got: number[] = [];
    for await (const event of call) got.push(event.tick.n);
    expect(got).toEqual([3, 2, 1]);
  });

  it("server streaming ending in a modeled error", async () => {
    const call = client.Countdown({ from: -2 }) as grpcJs.ClientReadableStream<any>;
    const got: number[] = [];
    const error = await failure(
      (async () => {
        for await (const event of call) got.push(event.tick.n);
      })(),
    );
    expect(got).toEqual([2, 1]);
    expect(error.code).toBe(grpcJs.status.NOT_FOUND);
  });

  it("client streaming", async () => {
    const total = await new Promise<any>((resolve, reject) => {
      const call = client.Sum((e: grpcJs.ServiceError | null, v: any) => (e ? reject(e) : resolve(v))) as grpcJs.ClientWritableStream<any>;
      for (const n of [1, 2, 3, 4]) call.write({ tick: { n } });
      call.end();
    });
    expect(total).toEqual({ total: 10 });
  });

  it("bidirectional streaming, each reply before the next message is sent", async () => {
    const call = client.Chat() as grpcJs.ClientDuplexStream<any, any>;
    const replies: string[] = [];
    const iterator = call[Symbol.asyncIterator]();
    for (const text of ["one", "two", "three"]) {
      call.write({ say: { text } });
      const next = await iterator.next();
      replies.push(next.value.say.text);
    }
    call.end();
    expect((await iterator.next()).done).toBe(true);
    expect(replies).toEqual(["you said one", "you said two", "you said three"]);
  });
});

describe("Anvil client → grpc-js server", () => {
  const seenMetadata: grpcJs.Metadata[] = [];
  const cancelled: string[] = [];
  let server: grpcJs.Server;
  let endpoint: string;
  const transport = http2Transport();

  beforeAll(async () => {
    server = new grpcJs.Server();
    const noSuchName = root.lookupType("example.grpctest.NoSuchName");
    server.addService(proto.Service.service, {
      SayHello(call: grpcJs.ServerUnaryCall<any, any>, callback: grpcJs.sendUnaryData<any>) {
        seenMetadata.push(call.metadata);
        if (call.request.name === "nobody") {
          const metadata = new grpcJs.Metadata();
          const detail = noSuchName.encode({ message: "no such name", name: "nobody" }).finish();
          metadata.set("grpc-status-details-bin", Buffer.from(encodeStatus(5, "no such name", "type.googleapis.com/example.grpctest.NoSuchName", detail)));
          callback({ code: grpcJs.status.NOT_FOUND, details: "no such name", metadata });
          return;
        }
        callback(null, { message: `hello ${call.request.name}`.repeat(call.request.times || 1) });
      },
      Echo(call: grpcJs.ServerUnaryCall<any, any>, callback: grpcJs.sendUnaryData<any>) {
        const size = call.request.data.length;
        // Asked for more than it sent: answer with that many bytes (to go over the client's limit).
        callback(null, { size, data: Buffer.alloc(size === 1 ? LIMIT : 0, 1) });
      },
      Fail(_call: unknown, callback: grpcJs.sendUnaryData<any>) {
        callback({ code: grpcJs.status.UNAVAILABLE, details: "try later" });
      },
      Wait(call: grpcJs.ServerUnaryCall<any, any>) {
        call.on("cancelled", () => cancelled.push("cancelled"));
      },
      Countdown(call: grpcJs.ServerWritableStream<any, any>) {
        for (let n = call.request.from; n > 0; n--) call.write({ tick: { n } });
        call.end();
      },
      Sum(call: grpcJs.ServerReadableStream<any, any>, callback: grpcJs.sendUnaryData<any>) {
        let total = 0;
        call.on("data", (event: any) => (total += event.tick.n));
        call.on("end", () => callback(null, { total }));
      },
      Chat(call: grpcJs.ServerDuplexStream<any, any>) {
        call.on("data", (event: any) => call.write({ say: { text: `you said ${event.say.text}` } }));
        call.on("end", () => call.end());
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpcJs.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await transport.close();
    server.forceShutdown();
  });

  const client = () => createClient(Greeter, { endpoint, protocols: [grpc()], transport, retry: { maxAttempts: 1 } });

  it("unary, with metadata out", async () => {
    expect(await client().sayHello({ name: "ada", times: 2 }, { headers: { "x-tenant": "blue" } })).toEqual({ message: "hello adahello ada" });
    expect(seenMetadata.at(-1)!.get("x-tenant")).toEqual(["blue"]);
  });

  it("a modeled error from grpc-status-details-bin, as its generated class", async () => {
    const error = await failure(client().sayHello({ name: "nobody" }));
    expect(NoSuchName.is(error)).toBe(true);
    expect(error.name).toBe("nobody");
  });

  it("an error status without details: an UnmodeledError named by the status", async () => {
    const error = await failure(client().fail({}));
    expect(UnmodeledError.is(error)).toBe(true);
    expect(error.code).toBe("UNAVAILABLE");
    expect(error.message).toBe("try later");
  });

  it("a deadline: the server sees grpc-timeout and the call fails", async () => {
    const error = await failure(client().wait({}, { timeoutMs: 200 }));
    expect(error).toBeInstanceOf(Error);
    await expect.poll(() => cancelled.length).toBeGreaterThan(0);
  });

  it("cancellation: the grpc-js server sees the call cancelled", async () => {
    const before = cancelled.length;
    const controller = new AbortController();
    const call = client().wait({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await failure(call);
    await expect.poll(() => cancelled.length).toBeGreaterThan(before);
  });

  it("a 4 MiB message out, and RESOURCE_EXHAUSTED for an answer over the limit", async () => {
    expect((await client().echo({ data: new Uint8Array(LIMIT - 5) })).size).toBe(LIMIT - 5);
    const error = await failure(client().echo({ data: new Uint8Array(1) }));
    expect(error.code).toBe("RESOURCE_EXHAUSTED");
  });

  it("server streaming", async () => {
    const out = await client().countdown({ from: 3 });
    const got: number[] = [];
    for await (const event of out.ticks!) if (event.$case === "tick") got.push(event.value.n);
    expect(got).toEqual([3, 2, 1]);
  });

  it("client streaming", async () => {
    async function* ticks(): AsyncGenerator<TickEvent> {
      for (const n of [1, 2, 3, 4]) yield { $case: "tick", value: { n } };
    }
    expect((await client().sum({ ticks: ticks() })).total).toBe(10);
  });

  it("bidirectional streaming, each reply before the next message is sent", async () => {
    const replies: string[] = [];
    let answered!: () => void;
    async function* says(): AsyncGenerator<ChatEvent> {
      for (const text of ["one", "two", "three"]) {
        const reply = new Promise<void>((resolve) => (answered = resolve));
        yield { $case: "say", value: { text } };
        await reply;
      }
    }
    const out = await client().chat({ says: says() });
    for await (const event of out.replies!) {
      if (event.$case === "say") replies.push(event.value.text);
      answered();
    }
    expect(replies).toEqual(["you said one", "you said two", "you said three"]);
  });
});

/** A google.rpc.Status with one detail, written with protobufjs (the peer's own encoding). */
function encodeStatus(code: number, message: string, typeUrl: string, value: Uint8Array): Uint8Array {
  const statusRoot = protobuf.parse(
    `syntax = "proto3"; package google.rpc; message Any { string type_url = 1; bytes value = 2; } message Status { int32 code = 1; string message = 2; repeated Any details = 3; }`,
    { keepCase: true },
  ).root;
  const Status = statusRoot.lookupType("google.rpc.Status");
  return Status.encode(Status.fromObject({ code, message, details: [{ type_url: typeUrl, value }] })).finish();
}
