/**
 * Where gRPC puts a Smithy service: the proto package is the shape's
 * namespace, so `example.weather#Weather` is the service
 * `example.weather.Weather`, its operations are called at
 * `/example.weather.Weather/<Operation>`, and an error shape
 * `example.weather#NoSuchCity` is the message `example.weather.NoSuchCity`.
 */
import type { OperationSchema, ServiceSchema } from "@anvil/core";

/** The fully-qualified protobuf name of a shape: `ns#Name` → `ns.Name`. */
export function protoFullName(shapeId: string): string {
  return shapeId.replace("#", ".");
}

/** The HTTP/2 path of an operation: `/<package>.<Service>/<Operation>`. */
export function grpcPath(service: ServiceSchema, operation: OperationSchema): string {
  return `/${protoFullName(service.id)}/${operation.name}`;
}
