import { describe, expect, it } from "vitest";
import { GRPC_PROTOCOL_ID } from "./index.js";

describe("@anvil/protocol-grpc", () => {
  it("names the alloy protocol trait it implements", () => {
    expect(GRPC_PROTOCOL_ID).toBe("alloy.proto#grpc");
  });
});
