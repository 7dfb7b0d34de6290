/**
 * gRPC's standard health and reflection services on an Anvil server's
 * port, exercised by grpc-js clients that load the standard health.proto
 * (grpc-health-check) and reflection.proto (@grpc/reflection); then what
 * grpcurl does: from reflection answers alone, a protobufjs root, dynamic
 * stubs and a real call.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as grpcJs from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { createClient } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import { createServer } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GrpcHealth, grpc, grpcHealth, grpcReflection, HealthService } from "./index.js";
import { greeterHandlers } from "./test-handlers.js";
import { Greeter } from "./test-service.js";

const require = createRequire(import.meta.url);
const descriptor = require("protobufjs/ext/descriptor") as {
  FileDescriptorProto: { decode(bytes: Uint8Array): unknown };
};
const fromDescriptor = (protobuf.Root as unknown as { fromDescriptor(set: unknown, options?: unknown): protobuf.Root }).fromDescriptor;

const HEALTH_PROTO = fileURLToPath(new URL("../node_modules/grpc-health-check/proto/health/v1/health.proto", import.meta.url));
const REFLECTION_PROTOS = fileURLToPath(new URL("../node_modules/@grpc/reflection/build/proto/", import.meta.url));
const LOADER = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true } as const;

type Loaded = Record<string, any>;
const healthPackage = (grpcJs.loadPackageDefinition(protoLoader.loadSync(HEALTH_PROTO, LOADER)) as Loaded).grpc.health.v1;
const reflectionPackage = (version: "v1" | "v1alpha") =>
  (grpcJs.loadPackageDefinition(protoLoader.loadSync(`grpc/reflection/${version}/reflection.proto`, { ...LOADER, includeDirs: [REFLECTION_PROTOS] })) as Loaded)
    .grpc.reflection[version];

interface Served {
  readonly listener: NodeListener;
  readonly health: GrpcHealth;
  readonly address: string;
}

async function serve(): Promise<Served> {
  const health = grpcHealth();
  const server = createServer(Greeter, { protocols: [grpc()] })
    .register(greeterHandlers({ aborted: [] }) as never)
    .mapService()
    .add(health)
    .add(grpcReflection());
  const listener = await listen(server, { http2: true });
  return { listener, health, address: listener.url.replace("http://", "") };
}

const clients: grpcJs.Client[] = [];
function healthClient(address: string): any {
  const client = new healthPackage.Health(address, grpcJs.credentials.createInsecure());
  clients.push(client);
  return client;
}

function check(client: any, service: string): Promise<{ status: string } | { code: number; details: string }> {
  return new Promise((resolve) =>
    client.Check({ service }, (error: grpcJs.ServiceError | null, answer: { status: string }) =>
      resolve(error === null ? answer : { code: error.code, details: error.details }),
    ),
  );
}

/** A Watch call's messages as they come, and how it ended. */
function watch(client: any, service: string) {
  const statuses: string[] = [];
  const call = client.Watch({ service });
  const ended = new Promise<{ code: number }>((resolve) => {
    call.on("data", (message: { status: string }) => statuses.push(message.status));
    call.on("status", (status: grpcJs.StatusObject) => resolve({ code: status.code }));
    call.on("error", () => undefined);
  });
  return { statuses, ended, cancel: () => call.cancel() };
}

/** A reflection stream: ask, and read the answer to each question. */
function reflection(address: string, version: "v1" | "v1alpha" = "v1") {
  const Client = reflectionPackage(version).ServerReflection;
  const client = new Client(address, grpcJs.credentials.createInsecure());
  clients.push(client);
  const call = client.ServerReflectionInfo();
  const waiting: ((answer: any) => void)[] = [];
  call.on("data", (answer: any) => waiting.shift()?.(answer));
  call.on("error", () => undefined);
  return {
    ask(request: Record<string, unknown>): Promise<any> {
      return new Promise((resolve) => {
        waiting.push(resolve);
        call.write(request);
      });
    },
    end: () => call.end(),
  };
}

let main: Served;
beforeAll(async () => {
  main = await serve();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await main.listener.close({ graceMs: 100 });
});

describe("grpc health (grpc.health.v1.Health), to a grpc-js client", () => {
  it("answers Check for the whole server, each service on the port, and NOT_FOUND for an unknown one", async () => {
    const client = healthClient(main.address);
    expect(await check(client, "")).toEqual({ status: "SERVING" });
    expect(await check(client, "example.grpctest.Greeter")).toEqual({ status: "SERVING" });
    expect(await check(client, "grpc.health.v1.Health")).toEqual({ status: "SERVING" });
    expect(await check(client, "grpc.reflection.v1.ServerReflection")).toEqual({ status: "SERVING" });
    expect(await check(client, "example.grpctest.Nope")).toMatchObject({ code: grpcJs.status.NOT_FOUND, details: expect.stringContaining("Nope") });
  });

  it("reports what the application sets, and Watch streams each change", async () => {
    const client = healthClient(main.address);
    const watching = watch(client, "example.grpctest.Greeter");
    await expect.poll(() => watching.statuses).toEqual(["SERVING"]);
    main.health.setStatus("example.grpctest.Greeter", "NOT_SERVING");
    expect(await check(client, "example.grpctest.Greeter")).toEqual({ status: "NOT_SERVING" });
    expect(main.health.statusOf("example.grpctest.Greeter")).toBe("NOT_SERVING");
    await expect.poll(() => watching.statuses).toEqual(["SERVING", "NOT_SERVING"]);
    main.health.clearStatus("example.grpctest.Greeter");
    await expect.poll(() => watching.statuses).toEqual(["SERVING", "NOT_SERVING", "SERVING"]);
    watching.cancel();
    expect((await watching.ended).code).toBe(grpcJs.status.CANCELLED);
  });

  it("Watch of an unknown service says SERVICE_UNKNOWN and stays open until the service becomes known", async () => {
    const client = healthClient(main.address);
    const watching = watch(client, "later.Service");
    await expect.poll(() => watching.statuses).toEqual(["SERVICE_UNKNOWN"]);
    main.health.setStatus("later.Service", "SERVING");
    await expect.poll(() => watching.statuses).toEqual(["SERVICE_UNKNOWN", "SERVING"]);
    expect(await check(client, "later.Service")).toEqual({ status: "SERVING" });
    main.health.clearStatus("later.Service");
    await expect.poll(() => watching.statuses).toEqual(["SERVICE_UNKNOWN", "SERVING", "SERVICE_UNKNOWN"]);
    watching.cancel();
  });

  it("List answers every known service", async () => {
    const client = healthClient(main.address);
    const listed = await new Promise<any>((resolve, reject) => client.List({}, (error: unknown, answer: unknown) => (error ? reject(error) : resolve(answer))));
    expect(listed.statuses).toEqual({
      "": { status: "SERVING" },
      "example.grpctest.Greeter": { status: "SERVING" },
      "grpc.health.v1.Health": { status: "SERVING" },
      "grpc.reflection.v1.ServerReflection": { status: "SERVING" },
      "grpc.reflection.v1alpha.ServerReflection": { status: "SERVING" },
    });
  });

  it("serves one server: adding it to a second one is refused", () => {
    const health = grpcHealth();
    const make = () =>
      createServer(Greeter, { protocols: [grpc()] })
        .register(greeterHandlers({ aborted: [] }) as never)
        .mapService();
    make().add(health);
    expect(() => make().add(health)).toThrow(/added to a server already/);
  });

  it("is a schema an Anvil client calls too", async () => {
    const transport = http2Transport();
    try {
      const client = createClient(HealthService, { endpoint: main.listener.url, protocols: [grpc()], transport, retry: { maxAttempts: 1 } });
      expect(await client.check({ service: "" })).toMatchObject({ status: "SERVING" });
    } finally {
      await transport.close();
    }
  });

  it("while the server drains: NOT_SERVING to Check and every watcher, whose calls then end (OK); other calls are refused", async () => {
    const draining = await serve();
    const client = healthClient(draining.address);
    const watching = watch(client, "");
    await expect.poll(() => watching.statuses).toEqual(["SERVING"]);
    // Closing flips health before anything else (then GOAWAY, then the grace period for calls in flight).
    const closed = draining.listener.close({ graceMs: 60_000 });
    expect(draining.health.statusOf("")).toBe("NOT_SERVING");
    expect(await watching.ended).toEqual({ code: grpcJs.status.OK });
    expect(watching.statuses).toEqual(["SERVING", "NOT_SERVING"]);
    // The watch did not hold the drain up: close resolves long before the grace period.
    await closed;
  });
});

describe("grpc health while the server closes, on a connection still open", () => {
  it("answers Check with NOT_SERVING while other calls get UNAVAILABLE", async () => {
    const health = grpcHealth();
    const server = createServer(Greeter, { protocols: [grpc()] })
      .register(greeterHandlers({ aborted: [] }) as never)
      .mapService()
      .add(health);
    const listener = await listen(server, { http2: true });
    const address = listener.url.replace("http://", "");
    const client = healthClient(address);
    expect(await check(client, "")).toEqual({ status: "SERVING" });
    // The server closes (the listener still listens, as a fetch host would go on): health reports the drain.
    const closing = server.close({ graceMs: 0 });
    expect(await check(client, "")).toEqual({ status: "NOT_SERVING" });
    const greeter = new grpcJs.Client(address, grpcJs.credentials.createInsecure());
    clients.push(greeter);
    const refused = await new Promise<grpcJs.ServiceError | null>((resolve) =>
      greeter.makeUnaryRequest(
        "/example.grpctest.Greeter/SayHello",
        (value: Buffer) => value,
        (value: Buffer) => value,
        Buffer.from([0x0a, 0x02, 0x68, 0x69]),
        (error) => resolve(error),
      ),
    );
    expect(refused?.code).toBe(grpcJs.status.UNAVAILABLE);
    await closing;
    await listener.close({ graceMs: 0 });
  });
});

describe("grpc server reflection, to a grpc-js client", () => {
  it.each(["v1", "v1alpha"] as const)("%s: lists every service on the port", async (version) => {
    const stream = reflection(main.address, version);
    const answer = await stream.ask({ host: "here", list_services: "" });
    expect(answer.valid_host).toBe("here");
    expect(answer.original_request).toMatchObject({ host: "here", list_services: "", message_request: "list_services" });
    expect(answer.list_services_response.service.map((s: { name: string }) => s.name)).toEqual([
      "example.grpctest.Greeter",
      "grpc.health.v1.Health",
      "grpc.reflection.v1.ServerReflection",
      "grpc.reflection.v1alpha.ServerReflection",
    ]);
    stream.end();
  });

  it.each(["v1", "v1alpha"] as const)("%s: answers files by symbol (service, method, message) and by name, and errors for the unknown", async (version) => {
    const stream = reflection(main.address, version);
    const decode = (answer: any) => answer.file_descriptor_response.file_descriptor_proto.map((b: Uint8Array) => descriptor.FileDescriptorProto.decode(b));
    const bySymbol = decode(await stream.ask({ file_containing_symbol: "example.grpctest.Greeter" }));
    expect(bySymbol.map((f: { name: string }) => f.name)).toEqual(["example/grpctest/greeter.proto"]);
    expect(bySymbol[0]).toMatchObject({ package: "example.grpctest", syntax: "proto3", service: [{ name: "Greeter" }] });
    const byMessage = decode(await stream.ask({ file_containing_symbol: "example.grpctest.SayHelloInput" }));
    expect(byMessage.map((f: { name: string }) => f.name)).toEqual(["example/grpctest/greeter.proto"]);
    const byMethod = decode(await stream.ask({ file_containing_symbol: "example.grpctest.Greeter.SayHello" }));
    expect(byMethod.map((f: { name: string }) => f.name)).toEqual(["example/grpctest/greeter.proto"]);
    const dependency = decode(await stream.ask({ file_by_filename: "google/protobuf/timestamp.proto" }));
    expect(dependency).toMatchObject([{ name: "google/protobuf/timestamp.proto", package: "google.protobuf", messageType: [{ name: "Timestamp" }] }]);
    const health = decode(await stream.ask({ file_containing_symbol: "grpc.health.v1.Health" }));
    expect(health[0]).toMatchObject({
      name: "grpc/health/v1/health.proto",
      service: [{ name: "Health", method: [{ name: "Check" }, { name: "Watch" }, { name: "List" }] }],
    });
    for (const request of [
      { file_containing_symbol: "example.grpctest.Nope" },
      { file_by_filename: "nope.proto" },
      { file_containing_extension: { containing_type: "example.grpctest.SayHelloInput", extension_number: 100 } },
      { all_extension_numbers_of_type: "example.grpctest.SayHelloInput" },
    ]) {
      const answer = await stream.ask(request);
      expect([request, answer.message_response, answer.error_response.error_code]).toEqual([request, "error_response", grpcJs.status.NOT_FOUND]);
    }
    stream.end();
  });

  it("answers malformed messages with INVALID_ARGUMENT, to health and reflection alike", async () => {
    const client = new grpcJs.Client(main.address, grpcJs.credentials.createInsecure());
    clients.push(client);
    const raw = (value: Buffer) => value;
    // A length-delimited field whose length runs past the end of the message.
    const bad = Buffer.from([0x0a, 0x7f, 0x01]);
    const check = await new Promise<grpcJs.ServiceError | null>((resolve) =>
      client.makeUnaryRequest("/grpc.health.v1.Health/Check", raw, raw, bad, (error) => resolve(error)),
    );
    expect(check?.code).toBe(grpcJs.status.INVALID_ARGUMENT);
    const stream = client.makeBidiStreamRequest("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", raw, raw);
    const status = new Promise<number>((resolve) => stream.on("status", (s: grpcJs.StatusObject) => resolve(s.code)));
    stream.on("error", () => undefined);
    stream.on("data", () => undefined);
    stream.write(bad);
    stream.end();
    expect(await status).toBe(grpcJs.status.INVALID_ARGUMENT);
  });

  it("sends a file's imports once per stream", async () => {
    const stream = reflection(main.address);
    const names = async (request: Record<string, unknown>) =>
      (await stream.ask(request)).file_descriptor_response.file_descriptor_proto.map(
        (b: Uint8Array) => (descriptor.FileDescriptorProto.decode(b) as { name: string }).name,
      );
    expect(await names({ file_containing_symbol: "google.protobuf.Value" })).toEqual(["google/protobuf/struct.proto"]);
    expect(await names({ file_containing_symbol: "grpc.health.v1.HealthCheckResponse.ServingStatus" })).toEqual(["grpc/health/v1/health.proto"]);
    stream.end();
  });

  it("is enough for a client with no .proto: a protobufjs root from the answers, dynamic stubs, a real call (what grpcurl does)", async () => {
    const stream = reflection(main.address);
    const services = (await stream.ask({ list_services: "*" })).list_services_response.service.map((s: { name: string }) => s.name);
    const name = services.find((s: string) => !s.startsWith("grpc."))!;
    const files = (await stream.ask({ file_containing_symbol: name })).file_descriptor_response.file_descriptor_proto.map((b: Uint8Array) =>
      descriptor.FileDescriptorProto.decode(b),
    );
    stream.end();
    const root = fromDescriptor({ file: files }, { keepCase: true });
    const service = root.lookupService(name);
    const method = service.methods.SayHello!.resolve() as protobuf.Method;
    const input = method.resolvedRequestType!;
    const output = method.resolvedResponseType!;
    const client = new grpcJs.Client(main.address, grpcJs.credentials.createInsecure());
    clients.push(client);
    const answer = await new Promise<Record<string, unknown>>((resolve, reject) =>
      client.makeUnaryRequest(
        `/${name}/SayHello`,
        (value: Record<string, unknown>) => Buffer.from(input.encode(input.fromObject(value)).finish()),
        (bytes: Buffer) => output.toObject(output.decode(bytes)),
        { name: "reflection", times: 2 },
        (error, value) => (error ? reject(error) : resolve(value!)),
      ),
    );
    expect(answer).toEqual({ message: "hello reflectionhello reflection" });
  });
});
