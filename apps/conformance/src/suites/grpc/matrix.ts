/**
 * The gRPC interop matrix: a grpc-js client (proto-loader on the `.proto`
 * that `emitProto` writes) calling the Anvil server, and the Anvil client
 * calling a grpc-js server of the same service. Every case is one
 * behaviour; a case passes when it runs without a failed check.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import { ModeledError, type ServiceSchema, UnmodeledError } from "@anvil/core";
import { emitProto, grpc } from "@anvil/protocol-grpc";
import { GoogleRpcStatusSchema, protobufCodec } from "@anvil/protocol-grpc/protobuf";
import { decodeBinaryHeader } from "@anvil/protocol-grpc/wire";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import * as grpcJs from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { greeterHandlers, greeterService, type Seen } from "./greeter.js";

/** 4 MiB: gRPC's default receive limit. */
const LIMIT = 4 * 1024 * 1024;

/** One case of the matrix. */
export interface InteropCase {
  readonly name: string;
  run(): Promise<void>;
}

/** A side of the matrix: its cases, with the peers they need started and stopped around them. */
export interface InteropSide {
  start(): Promise<readonly InteropCase[]>;
  stop(): Promise<void>;
}

/** Throws when a check fails. */
function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function failure(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail, it succeeded");
}

async function eventually(condition: () => boolean, what: string, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The service's `.proto` in a temporary folder, loaded as grpc-js loads it. */
function loadProto(service: ServiceSchema): { Service: grpcJs.ServiceClientConstructor; dir: string; definition: protoLoader.PackageDefinition } {
  const dir = mkdtempSync(join(tmpdir(), "anvil-grpc-interop-"));
  const file = join(dir, "greeter.proto");
  writeFileSync(file, emitProto(service));
  const definition = protoLoader.loadSync(file, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
  const loaded = grpcJs.loadPackageDefinition(definition) as any;
  return { Service: loaded.example.grpcinterop.Greeter, dir, definition };
}

const readStatus = (bytes: Uint8Array) => protobufCodec.reader(GoogleRpcStatusSchema)(bytes);

/** grpc-js client → Anvil server. */
export function grpcJsClientSide(): InteropSide {
  const service = greeterService();
  const seen: Seen = { aborted: [] };
  let stop: () => Promise<void> = async () => undefined;
  return {
    async start() {
      const server = createServer(service, { protocols: [grpc()] })
        .register(greeterHandlers(service, seen) as never)
        .mapService();
      const listener = await listen(server, { http2: true });
      const { Service, dir, definition } = loadProto(service);
      /** Whether a detail's type URL names a message of the .proto the peer loaded. */
      const resolves = (typeUrl: string | undefined): boolean => typeUrl !== undefined && definition[typeUrl.slice(typeUrl.lastIndexOf("/") + 1)] !== undefined;
      const target = `127.0.0.1:${listener.port}`;
      const client = new Service(target, grpcJs.credentials.createInsecure()) as any;
      const gzipClient = new Service(target, grpcJs.credentials.createInsecure(), { "grpc.default_compression_algorithm": 2 }) as any;
      stop = async () => {
        client.close();
        gzipClient.close();
        await listener.close({ graceMs: 100 });
        rmSync(dir, { recursive: true, force: true });
      };
      const unary = (c: any, method: string, request: object, options: { metadata?: grpcJs.Metadata; deadlineMs?: number } = {}) =>
        new Promise<any>((resolve, reject) => {
          const callOptions = options.deadlineMs === undefined ? {} : { deadline: Date.now() + options.deadlineMs };
          c[method](request, options.metadata ?? new grpcJs.Metadata(), callOptions, (e: unknown, v: unknown) => (e ? reject(e) : resolve(v)));
        });
      return [
        {
          name: "unary",
          async run() {
            const out = await unary(client, "SayHello", { name: "ada", times: 2 });
            check(out.message === "hello adahello ada", `got ${JSON.stringify(out)}`);
          },
        },
        {
          name: "metadata in (text and -bin)",
          async run() {
            const metadata = new grpcJs.Metadata();
            metadata.set("x-tenant", "blue");
            metadata.set("trace-bin", Buffer.from([0, 1, 254, 255]));
            await unary(client, "SayHello", { name: "ada" }, { metadata });
            check(seen.headers?.get("x-tenant") === "blue", "x-tenant did not arrive");
            check(Buffer.from(decodeBinaryHeader(seen.headers!.get("trace-bin")!)).equals(Buffer.from([0, 1, 254, 255])), "trace-bin did not arrive intact");
          },
        },
        {
          name: "metadata out (response headers a handler adds)",
          async run() {
            const served = await new Promise<string[]>((resolve, reject) => {
              const call = client.SayHello({ name: "ada" }, (e: unknown) => e && reject(e));
              call.on("metadata", (md: grpcJs.Metadata) => resolve(md.get("x-served-by") as string[]));
            });
            check(served[0] === "anvil", `x-served-by: ${JSON.stringify(served)}`);
          },
        },
        {
          name: "gzip-compressed request",
          async run() {
            const out = await unary(gzipClient, "SayHello", { name: "zip" });
            check(out.message === "hello zip", `got ${JSON.stringify(out)}`);
          },
        },
        {
          name: "modeled error with details",
          async run() {
            const error = await failure(unary(client, "SayHello", { name: "nobody" }));
            check(error.code === grpcJs.status.NOT_FOUND, `status ${error.code}`);
            const status = readStatus(error.metadata.get("grpc-status-details-bin")[0] as Buffer);
            check(status.details[0]?.typeUrl === "type.googleapis.com/example.grpcinterop.NoSuchName", `detail ${status.details[0]?.typeUrl}`);
            check(resolves(status.details[0]?.typeUrl), "the detail's type is not in the emitted .proto");
          },
        },
        {
          name: "validation failure is INVALID_ARGUMENT",
          async run() {
            const error = await failure(unary(client, "SayHello", { name: "" }));
            check(error.code === grpcJs.status.INVALID_ARGUMENT, `status ${error.code}`);
            const status = readStatus(error.metadata.get("grpc-status-details-bin")[0] as Buffer);
            check(status.details[0]?.typeUrl === "type.googleapis.com/example.grpcinterop.ValidationException", `detail ${status.details[0]?.typeUrl}`);
            check(resolves(status.details[0]?.typeUrl), "the detail's type is not in the emitted .proto");
          },
        },
        {
          name: "unmodeled failure is INTERNAL, leaking nothing",
          async run() {
            const error = await failure(unary(client, "Fail", {}));
            check(error.code === grpcJs.status.INTERNAL && !String(error.details).includes("password"), `status ${error.code}: ${error.details}`);
          },
        },
        {
          name: "deadline",
          async run() {
            const before = seen.aborted.length;
            const error = await failure(unary(client, "Wait", {}, { deadlineMs: 200 }));
            check(error.code === grpcJs.status.DEADLINE_EXCEEDED, `status ${error.code}`);
            await eventually(() => seen.aborted.length > before, "the handler's signal aborts");
          },
        },
        {
          name: "cancellation",
          async run() {
            const before = seen.aborted.length;
            const call = client.Wait({}, () => undefined);
            await new Promise((r) => setTimeout(r, 100));
            call.cancel();
            await eventually(() => seen.aborted.length > before, "the handler's signal aborts");
          },
        },
        {
          name: "4 MiB message",
          async run() {
            const out = await unary(client, "Echo", { data: Buffer.alloc(LIMIT - 5, 7) });
            check(out.size === LIMIT - 5, `size ${out.size}`);
          },
        },
        {
          name: "over-limit message is RESOURCE_EXHAUSTED",
          async run() {
            const error = await failure(unary(client, "Echo", { data: Buffer.alloc(LIMIT - 4, 7) }));
            check(error.code === grpcJs.status.RESOURCE_EXHAUSTED, `status ${error.code}`);
          },
        },
        {
          name: "server streaming",
          async run() {
            const got: number[] = [];
            for await (const event of client.Countdown({ from: 3 })) got.push(event.tick.n);
            check(got.join() === "3,2,1", `got ${got.join()}`);
          },
        },
        {
          name: "server streaming ending in a modeled error",
          async run() {
            const got: number[] = [];
            const error = await failure(
              (async () => {
                for await (const event of client.Countdown({ from: -2 })) got.push(event.tick.n);
              })(),
            );
            check(got.join() === "2,1" && error.code === grpcJs.status.NOT_FOUND, `got ${got.join()}, status ${error.code}`);
          },
        },
        {
          name: "client streaming",
          async run() {
            const out = await new Promise<any>((resolve, reject) => {
              const call = client.Sum((e: unknown, v: unknown) => (e ? reject(e) : resolve(v)));
              for (const n of [1, 2, 3, 4]) call.write({ tick: { n } });
              call.end();
            });
            check(out.total === 10, `got ${JSON.stringify(out)}`);
          },
        },
        {
          name: "bidirectional streaming",
          async run() {
            const call = client.Chat();
            const iterator = call[Symbol.asyncIterator]();
            const replies: string[] = [];
            for (const text of ["one", "two", "three"]) {
              call.write({ say: { text } });
              replies.push((await iterator.next()).value.say.text);
            }
            call.end();
            check((await iterator.next()).done === true, "the stream did not end");
            check(replies.join("|") === "you said one|you said two|you said three", `got ${replies.join("|")}`);
          },
        },
      ];
    },
    stop: () => stop(),
  };
}

/** Anvil client → grpc-js server. */
export function anvilClientSide(): InteropSide {
  const service = greeterService();
  const metadata: grpcJs.Metadata[] = [];
  const cancelled: string[] = [];
  let stop: () => Promise<void> = async () => undefined;
  return {
    async start() {
      const { Service, dir } = loadProto(service);
      const server = new grpcJs.Server();
      const detail = protobufCodec.writer(service.operations["sayHello"]!.errors[0]!)({ message: "no such name", name: "nobody" });
      const statusBytes = protobufCodec.writer(GoogleRpcStatusSchema)({
        code: grpcJs.status.NOT_FOUND,
        message: "no such name",
        details: [{ typeUrl: "type.googleapis.com/example.grpcinterop.NoSuchName", value: detail }],
      });
      server.addService(Service.service, {
        SayHello(call: any, callback: any) {
          metadata.push(call.metadata);
          if (call.request.name === "nobody") {
            const trailers = new grpcJs.Metadata();
            trailers.set("grpc-status-details-bin", Buffer.from(statusBytes));
            callback({ code: grpcJs.status.NOT_FOUND, details: "no such name", metadata: trailers });
            return;
          }
          const md = new grpcJs.Metadata();
          md.set("x-served-by", "grpc-js");
          call.sendMetadata(md);
          callback(null, { message: `hello ${call.request.name}`.repeat(call.request.times || 1) });
        },
        // A 1-byte request asks for an answer over the client's limit.
        Echo(call: any, callback: any) {
          const size = call.request.data.length;
          callback(null, { size, data: Buffer.alloc(size === 1 ? LIMIT : 0, 1) });
        },
        Fail(_call: any, callback: any) {
          callback({ code: grpcJs.status.UNAVAILABLE, details: "try later" });
        },
        Wait(call: any) {
          call.on("cancelled", () => cancelled.push("cancelled"));
        },
        Countdown(call: any) {
          for (let n = call.request.from; n > 0; n--) call.write({ tick: { n } });
          call.end();
        },
        Sum(call: any, callback: any) {
          let total = 0;
          call.on("data", (event: any) => (total += event.tick.n));
          call.on("end", () => callback(null, { total }));
        },
        Chat(call: any) {
          call.on("data", (event: any) => call.write({ say: { text: `you said ${event.say.text}` } }));
          call.on("end", () => call.end());
        },
      });
      const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpcJs.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
      );
      const transport = http2Transport();
      const client = createClient(service, { endpoint: `http://127.0.0.1:${port}`, protocols: [grpc()], transport, retry: { maxAttempts: 1 } }) as any;
      stop = async () => {
        await transport.close();
        server.forceShutdown();
        rmSync(dir, { recursive: true, force: true });
      };
      return [
        {
          name: "unary with metadata out",
          async run() {
            const out = await client.sayHello({ name: "ada", times: 2 }, { headers: { "x-tenant": "blue" } });
            check(out.message === "hello adahello ada", `got ${JSON.stringify(out)}`);
            check(metadata.at(-1)?.get("x-tenant")[0] === "blue", "x-tenant did not arrive");
          },
        },
        {
          name: "metadata in (the server's response metadata, seen by an interceptor)",
          async run() {
            let served: string | null = null;
            const watching = createClient(service, {
              endpoint: `http://127.0.0.1:${port}`,
              protocols: [grpc()],
              transport,
              retry: { maxAttempts: 1 },
              interceptors: [{ afterAttempt: (result) => void (served = result.response?.headers.get("x-served-by") ?? null) }],
            }) as any;
            await watching.sayHello({ name: "ada" });
            check(served === "grpc-js", `x-served-by: ${served}`);
          },
        },
        {
          name: "modeled error from details, as its error class",
          async run() {
            const error = await failure(client.sayHello({ name: "nobody" }));
            check(ModeledError.isModeledError(error) && error.code === "NoSuchName" && (error as any).name === "nobody", `got ${error}`);
          },
        },
        {
          name: "status without details",
          async run() {
            const error = await failure(client.fail({}));
            check(UnmodeledError.is(error) && error.code === "UNAVAILABLE" && error.message === "try later", `got ${error}`);
          },
        },
        {
          name: "deadline",
          async run() {
            const before = cancelled.length;
            await failure(client.wait({}, { timeoutMs: 200 }));
            await eventually(() => cancelled.length > before, "the server sees the call end");
          },
        },
        {
          name: "cancellation",
          async run() {
            const before = cancelled.length;
            const controller = new AbortController();
            const call = client.wait({}, { signal: controller.signal });
            setTimeout(() => controller.abort(), 100);
            await failure(call);
            await eventually(() => cancelled.length > before, "the server sees the call cancelled");
          },
        },
        {
          name: "4 MiB message",
          async run() {
            const out = await client.echo({ data: new Uint8Array(LIMIT - 5) });
            check(out.size === LIMIT - 5, `size ${out.size}`);
          },
        },
        {
          name: "over-limit answer is RESOURCE_EXHAUSTED",
          async run() {
            const error = await failure(client.echo({ data: new Uint8Array(1) }));
            check(error.code === "RESOURCE_EXHAUSTED", `got ${error}`);
          },
        },
        {
          name: "server streaming",
          async run() {
            const out = await client.countdown({ from: 3 });
            const got: number[] = [];
            for await (const event of out.ticks) got.push(event.value.n);
            check(got.join() === "3,2,1", `got ${got.join()}`);
          },
        },
        {
          name: "client streaming",
          async run() {
            async function* ticks() {
              for (const n of [1, 2, 3, 4]) yield { $case: "tick", value: { n } };
            }
            const out = await client.sum({ ticks: ticks() });
            check(out.total === 10, `got ${JSON.stringify(out)}`);
          },
        },
        {
          name: "bidirectional streaming",
          async run() {
            let answered: () => void = () => undefined;
            async function* says() {
              for (const text of ["one", "two", "three"]) {
                const reply = new Promise<void>((resolve) => (answered = resolve));
                yield { $case: "say", value: { text } };
                await reply;
              }
            }
            const out = await client.chat({ says: says() });
            const replies: string[] = [];
            for await (const event of out.replies) {
              replies.push(event.value.text);
              answered();
            }
            check(replies.join("|") === "you said one|you said two|you said three", `got ${replies.join("|")}`);
          },
        },
      ];
    },
    stop: () => stop(),
  };
}
