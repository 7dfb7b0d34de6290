/**
 * Where gRPC puts a Smithy service: the proto package is the service's
 * namespace, so `example.weather#Weather` is the service
 * `example.weather.Weather`, its operations are called at
 * `/example.weather.Weather/<Operation>`, and every message of its closure
 * is in that package under the name `emitProto` gives it (an error shape
 * `example.weather#NoSuchCity` is `example.weather.NoSuchCity`; Smithy's
 * `ValidationException` is `example.weather.ValidationException`).
 */
import type { OperationSchema, Schema, ServiceSchema } from "@anvil/core";
import { shapeName } from "@anvil/core/protocol";
import { protoTypeNames } from "./emit-proto.js";

/** The fully-qualified protobuf name of a shape: `ns#Name` → `ns.Name`. */
export function protoFullName(shapeId: string): string {
  return shapeId.replace("#", ".");
}

/** The HTTP/2 path of an operation: `/<package>.<Service>/<Operation>`. */
export function grpcPath(service: ServiceSchema, operation: OperationSchema): string {
  return `/${protoFullName(service.id)}/${operation.name}`;
}

const typeNames = new WeakMap<ServiceSchema, ReadonlyMap<Schema, string>>();

/**
 * The full protobuf name of a message of a service's closure, as the
 * emitted `.proto` has it (for `google.protobuf.Any` type URLs); a schema
 * outside the closure is named in the service's package by its shape name.
 */
export function protoTypeName(service: ServiceSchema, schema: Schema): string {
  let names = typeNames.get(service);
  if (names === undefined) {
    try {
      names = protoTypeNames(service);
    } catch {
      names = new Map(); // a service the emitter refuses: shape names in the service's package
    }
    typeNames.set(service, names);
  }
  return names.get(schema) ?? `${service.id.slice(0, service.id.indexOf("#"))}.${shapeName(schema.id)}`;
}
