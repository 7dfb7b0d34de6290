import { describe, expect, it } from "vitest";
import * as root from "./index.js";
import * as protobuf from "./protobuf.js";
import * as wire from "./wire.js";

describe("@anvil/protocol-grpc", () => {
  it("names the alloy protocol trait it implements", () => {
    expect(root.GRPC_PROTOCOL_ID).toBe("alloy.proto#grpc");
  });

  it("has three entry points, each name in one: the protocol, the protobuf codec, the wire", () => {
    expect(Object.keys(root).sort()).toEqual([
      "GRPC_PROTOCOL_ID",
      "GrpcStatus",
      "HealthService",
      "emitProto",
      "grpc",
      "grpcHealth",
      "grpcReflection",
      "protoTypeNames",
      "statusName",
    ]);
    expect(Object.keys(protobuf).sort()).toEqual([
      "GoogleRpcStatusSchema",
      "ProtoAnySchema",
      "compileProtobufReader",
      "compileProtobufWriter",
      "protobufCodec",
      "typeUrlOf",
    ]);
    const names = [...Object.keys(root), ...Object.keys(protobuf), ...Object.keys(wire)];
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(wire)).toContain("frameMessage");
  });
});
