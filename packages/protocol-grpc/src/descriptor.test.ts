/**
 * The descriptors reflection serves say what the emitted `.proto` says:
 * for the kitchen model (maps, sparse collections, enums with aliases,
 * oneofs inlined and not, timestamps, documents, wrappers, nested lists,
 * reserved fields, every kind of streaming), a protobufjs root made from
 * the reflected `FileDescriptorProto`s matches, type by type and field by
 * field, the root protobufjs parses from `emitProto`'s text; and protoc,
 * when installed, compiles that text to the very same descriptor.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as grpcJs from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import type { ServiceSchema } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { jsonName, mapEntryName } from "./descriptor.js";
import { emitProto, grpc, grpcHealth, grpcReflection } from "./index.js";

const require = createRequire(import.meta.url);
const descriptor = require("protobufjs/ext/descriptor") as {
  FileDescriptorProto: protobuf.Type;
  FileDescriptorSet: protobuf.Type;
};
const fromDescriptor = (protobuf.Root as unknown as { fromDescriptor(set: unknown, options?: unknown): protobuf.Root }).fromDescriptor;

const FIXTURE = fileURLToPath(new URL("../fixtures/kitchen.smithy", import.meta.url));
const REFLECTION_PROTOS = fileURLToPath(new URL("../node_modules/@grpc/reflection/build/proto/", import.meta.url));

function kitchen(): ServiceSchema {
  const { model } = loadModel({ sources: [{ file: FIXTURE, text: readFileSync(FIXTURE, "utf8") }] });
  return schemasFromModel(model).service("anvil.grpctest#Kitchen");
}

/** The files reflection answers for a symbol, over a real reflection stream, as raw `FileDescriptorProto` bytes. */
async function reflectedFiles(
  service: ServiceSchema,
  symbol: string,
  request: Record<string, unknown> = { file_containing_symbol: symbol },
): Promise<Uint8Array[]> {
  const refuse = () => {
    throw new Error("not called");
  };
  const server = createServer(service, { protocols: [grpc()] })
    .register(Object.fromEntries(Object.keys(service.operations).map((key) => [key, refuse])) as never)
    .mapService()
    .add(grpcHealth())
    .add(grpcReflection());
  const listener = await listen(server, { http2: true });
  const definition = protoLoader.loadSync("grpc/reflection/v1/reflection.proto", { keepCase: true, includeDirs: [REFLECTION_PROTOS] });
  const { ServerReflection } = (grpcJs.loadPackageDefinition(definition) as any).grpc.reflection.v1;
  const client = new ServerReflection(listener.url.replace("http://", ""), grpcJs.credentials.createInsecure());
  try {
    const call = client.ServerReflectionInfo();
    const answer = await new Promise<any>((resolve, reject) => {
      call.on("data", resolve);
      call.on("error", reject);
      call.write(request);
    });
    call.end();
    return answer.file_descriptor_response.file_descriptor_proto;
  } finally {
    client.close();
    await listener.close({ graceMs: 0 });
  }
}

/** What a root says of the types under a package: every message, field, oneof, enum and rpc, names resolved. */
function summary(root: protobuf.Namespace, pkg: string): unknown {
  const out: Record<string, unknown> = {};
  const walk = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Type) {
        out[nested.fullName] = {
          fields: nested.fieldsArray.map((field) => {
            field.resolve();
            return {
              name: field.name,
              id: field.id,
              type: field.resolvedType?.fullName ?? field.type,
              repeated: field.repeated,
              map: field.map ? (field as unknown as protobuf.MapField).keyType : undefined,
              oneof: field.partOf?.name,
            };
          }),
          oneofs: nested.oneofsArray.map((o) => [o.name, o.fieldsArray.map((f) => f.name)]),
          reserved: nested.reserved ?? [],
        };
        walk(nested);
      } else if (nested instanceof protobuf.Enum) {
        out[nested.fullName] = { values: nested.values };
      } else if (nested instanceof protobuf.Service) {
        out[nested.fullName] = nested.methodsArray.map((m) => {
          m.resolve();
          return [m.name, m.resolvedRequestType!.fullName, m.requestStream ?? false, m.resolvedResponseType!.fullName, m.responseStream ?? false];
        });
      } else if (nested instanceof protobuf.Namespace) walk(nested);
    }
  };
  walk(root.lookup(pkg) as protobuf.Namespace);
  return out;
}

function hasProtoc(): boolean {
  try {
    execFileSync("protoc", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("reflected descriptors", () => {
  const service = kitchen();
  const text = emitProto(service);
  const dir = mkdtempSync(join(tmpdir(), "anvil-reflect-"));
  const file = join(dir, "kitchen.proto");
  writeFileSync(file, text);

  it("say, field by field, what protobufjs reads in the emitted .proto", async () => {
    const files = await reflectedFiles(service, "anvil.grpctest.Kitchen");
    const decoded = files.map((bytes) => descriptor.FileDescriptorProto.decode(bytes));
    // The file, then each file it imports.
    expect(decoded.map((f) => (f as unknown as { name: string }).name)).toEqual([
      "anvil/grpctest/kitchen.proto",
      "google/protobuf/struct.proto",
      "google/protobuf/timestamp.proto",
      "google/protobuf/wrappers.proto",
    ]);
    expect([...text.matchAll(/^import "(.+)";$/gm)].map((m) => m[1])).toEqual([
      "google/protobuf/struct.proto",
      "google/protobuf/timestamp.proto",
      "google/protobuf/wrappers.proto",
    ]);
    const reflected = fromDescriptor({ file: decoded }, { keepCase: true });
    const parsed = protobuf.loadSync(file, new protobuf.Root()).resolveAll();
    const want = summary(parsed, "anvil.grpctest");
    expect(summary(reflected, "anvil.grpctest")).toEqual(want);
    // Something to compare: maps, oneofs, streams, wrappers and timestamps are all in it.
    expect(JSON.stringify(want)).toMatch(/"map":"string".*"oneof":"definition".*true.*\.google\.protobuf\.Timestamp/s);
  });

  it.skipIf(!hasProtoc() && !process.env.CI)("are what protoc compiles the emitted .proto to, the well-known files it imports included", async () => {
    const out = join(dir, "kitchen.pb");
    execFileSync("protoc", [`--proto_path=${dir}`, `--descriptor_set_out=${out}`, "--include_imports", "kitchen.proto"], { stdio: "pipe" });
    const set = descriptor.FileDescriptorSet.toObject(descriptor.FileDescriptorSet.decode(readFileSync(out))) as { file: Record<string, unknown>[] };
    // protoc's well-known files carry options (java_package, go_package, ...), which a descriptor for reflection need not.
    const theirs = set.file.map(({ options: _, ...file }) => (file.name === "kitchen.proto" ? { ...file, name: "anvil/grpctest/kitchen.proto" } : file));
    const ours = (await reflectedFiles(service, "anvil.grpctest.Kitchen")).map((bytes) =>
      descriptor.FileDescriptorProto.toObject(descriptor.FileDescriptorProto.decode(bytes)),
    );
    const byName = (files: Record<string, unknown>[]) => Object.fromEntries(files.map((f) => [f.name, f]));
    expect(byName(ours)).toEqual(byName(theirs));
  });
});

describe("the health and reflection services' own descriptors", () => {
  it.skipIf(!hasProtoc() && !process.env.CI).each([
    ["grpc/health/v1/health.proto", fileURLToPath(new URL("../node_modules/grpc-health-check/proto/health/v1/", import.meta.url)), "health.proto"],
    ["grpc/reflection/v1/reflection.proto", REFLECTION_PROTOS, "grpc/reflection/v1/reflection.proto"],
    ["grpc/reflection/v1alpha/reflection.proto", REFLECTION_PROTOS, "grpc/reflection/v1alpha/reflection.proto"],
  ])("%s is what protoc compiles the upstream file to", async (name, path, source) => {
    const out = join(mkdtempSync(join(tmpdir(), "anvil-reflect-")), "out.pb");
    execFileSync("protoc", [`--proto_path=${path}`, `--descriptor_set_out=${out}`, source], { stdio: "pipe" });
    const set = descriptor.FileDescriptorSet.toObject(descriptor.FileDescriptorSet.decode(readFileSync(out))) as { file: Record<string, unknown>[] };
    const { options: _, ...theirs } = set.file[0]!;
    const [ours] = await reflectedFiles(kitchen(), name, { file_by_filename: name });
    expect(descriptor.FileDescriptorProto.toObject(descriptor.FileDescriptorProto.decode(ours!))).toEqual({ ...theirs, name });
  });
});

describe("protoc's names", () => {
  it.each([
    ["city_id", "cityId"],
    ["cityId", "cityId"],
    ["a__b", "aB"],
    ["trailing_", "trailing"],
    ["x_1y", "x1y"],
  ])("json_name of %s is %s", (name, json) => expect(jsonName(name)).toBe(json));

  it.each([
    ["tags", "TagsEntry"],
    ["tags_by_city", "TagsByCityEntry"],
    ["byColor", "ByColorEntry"],
    ["_x", "XEntry"],
    ["a_1", "A1Entry"],
  ])("the map entry of %s is %s", (name, entry) => expect(mapEntryName(name)).toBe(entry));
});
