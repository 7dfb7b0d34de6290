// The gRPC bench service: one unary operation, `/bench.grpc.Greeter/SayHello`,
// with a small input and output, as `anvil generate` would write it.
import { integer, member, operation, service, string, struct } from "@anvil/core/codegenv1";

const SayHelloInput = struct("bench.grpc#SayHelloInput", [
  member("name", string, { required: true, protoIndex: 1, length: { min: 1, max: 64 } }),
  member("times", integer, { protoIndex: 2, range: { min: 0, max: 10 } }),
]);
const SayHelloOutput = struct("bench.grpc#SayHelloOutput", [member("message", string, { required: true, protoIndex: 1 })]);

/** The service schema. */
export const Greeter = service("bench.grpc#Greeter", {
  version: "1",
  protocols: ["alloy.proto#grpc"],
  operations: { sayHello: operation("bench.grpc#SayHello", { input: () => SayHelloInput, output: () => SayHelloOutput }) },
});

/** The operation's work, the same in every server. */
export function sayHello(input) {
  return { message: `Hello, ${input.name}!` };
}

/** The request message every server gets: `{ name: "bench client", times: 1 }` in protobuf. */
export const REQUEST = Uint8Array.of(0x0a, 12, ...new TextEncoder().encode("bench client"), 0x10, 1);
/** The reply message: `{ message: "Hello, bench client!" }`. */
export const REPLY = Uint8Array.of(0x0a, 20, ...new TextEncoder().encode("Hello, bench client!"));
/** The gRPC path of the operation. */
export const PATH = "/bench.grpc.Greeter/SayHello";
