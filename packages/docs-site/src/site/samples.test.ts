import { join } from "node:path";
import { loadModel } from "@anvil/model";
import { describe, expect, it } from "vitest";
import { rpcLine } from "./samples.js";

const { model } = loadModel({ paths: [join(import.meta.dirname, "..", "__fixtures__", "library.smithy")] });
const service = model.getShape("test.library#Library")!;

describe("rpcLine", () => {
  it.each([
    ["test.library#GetBook", "rpc GetBook(GetBookInput) returns (GetBookOutput);"],
    ["test.library#Ping", "rpc Ping(google.protobuf.Empty) returns (google.protobuf.Empty);"],
    ["test.library#PutCover", "rpc PutCover(PutCoverInput) returns (google.protobuf.Empty);"],
  ])("%s → %s", (id, line) => {
    expect(rpcLine(model, service, model.getShape(id)!)).toBe(line);
  });

  it("marks an event stream as a stream", () => {
    const streaming = loadModel({
      sources: [
        {
          file: "s.smithy",
          text: `$version: "2.0"\nnamespace ex\nuse aws.protocols#restJson1\n@restJson1\nservice S { operations: [Watch] }\n@http(method: "GET", uri: "/w")\noperation Watch { output := { @required @httpPayload events: Events } }\n@streaming\nunion Events { tick: Tick }\nstructure Tick {}\n`,
        },
      ],
    }).model;
    expect(rpcLine(streaming, streaming.getShape("ex#S")!, streaming.getShape("ex#Watch")!)).toBe("rpc Watch(google.protobuf.Empty) returns (stream Events);");
  });
});
