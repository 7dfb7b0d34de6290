/**
 * The conventional peers of the interop tests: grpc-js with proto-loader
 * on the `.proto` that `emitProto` writes for the test service. Shared by
 * the interop tests here and the conformance runner's `grpc` suite.
 * (Test support: grpc-js and proto-loader are devDependencies.)
 *
 * @internal
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpcJs from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { emitProto } from "./emit-proto.js";
import type { ServiceSchema } from "@anvil/core";

/** The loaded package definition of a service, and the `.proto` text it came from. */
export interface LoadedProto {
  readonly text: string;
  readonly file: string;
  /** The grpc-js service constructor (client class with `.service`). */
  readonly Service: grpcJs.ServiceClientConstructor;
}

/** Emits a service's `.proto`, writes it to a temporary file and loads it as grpc-js does. */
export function loadEmittedProto(service: ServiceSchema): LoadedProto {
  const text = emitProto(service);
  const file = join(mkdtempSync(join(tmpdir(), "anvil-grpc-")), "service.proto");
  writeFileSync(file, text);
  const definition = protoLoader.loadSync(file, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
  const loaded = grpcJs.loadPackageDefinition(definition) as unknown as Record<string, unknown>;
  let node: unknown = loaded;
  for (const part of service.id.replace("#", ".").split(".")) node = (node as Record<string, unknown>)[part];
  return { text, file, Service: node as grpcJs.ServiceClientConstructor };
}

export { grpcJs };
