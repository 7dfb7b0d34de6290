import { loadModel } from "@anvil/model";
import { describe, expect, it } from "vitest";
import { type ExampleRef, NodeValueError, operationExamples } from "./index.js";

const text = (examples: string) => `
$version: "2"
namespace ex
@error("client")
structure Oops { message: String, at: Timestamp }
@streaming
union Events { tick: Tick }
structure Tick { at: Timestamp }
union Pick { bytes: Blob, text: String }
@examples(${examples})
operation Op {
  input := { when: Timestamp, pick: Pick }
  output := { data: Blob, events: Events }
  errors: [Oops]
}
`;

function examplesOf(examples: string) {
  const { model } = loadModel({ sources: [{ file: "ex.smithy", text: text(examples) }] });
  return operationExamples(model, model.getShape("ex#Op")!);
}

describe("operationExamples", () => {
  it("converts inputs, outputs, events and error contents to runtime values", () => {
    const [ok, failed] = examplesOf(`[
      { title: "ok", input: { when: 1, pick: { bytes: "AQI=" } }, output: { data: "aGk=", events: [{ tick: { at: 2 } }] } }
      { title: "failed", input: { pick: { text: "x" } }, error: { shapeId: Oops, content: { message: "no", at: "1970-01-01T00:00:03Z" } } }
    ]`);
    expect(ok).toEqual({
      title: "ok",
      input: { when: new Date(1000), pick: { $case: "bytes", value: new Uint8Array([1, 2]) } },
      output: { data: new TextEncoder().encode("hi"), events: [{ $case: "tick", value: { at: new Date(2000) } }] },
    });
    expect(failed).toEqual({
      title: "failed",
      input: { pick: { $case: "text", value: "x" } },
      error: { shapeId: "ex#Oops", content: { message: "no", at: new Date(3000) } },
    });
  });

  it("takes a blob that is not base64 as its text's bytes, as AWS models write examples", () => {
    const [example] = examplesOf(`[{ title: "json", input: { pick: { bytes: "{}" } }, output: { data: "200 SUCCESS" } }]`);
    expect(example).toMatchObject({ input: { pick: { value: new TextEncoder().encode("{}") } }, output: { data: new TextEncoder().encode("200 SUCCESS") } });
  });

  it("numbers untitled examples and has none without the trait", () => {
    expect(examplesOf(`[{ output: {} }]`).map((e) => e.title)).toEqual(["#1"]);
  });

  it("leaves out an example whose output or error content is of the wrong type, saying why (a fake could not write it)", () => {
    const { model } = loadModel({
      sources: [
        {
          file: "ex.smithy",
          text: text(`[
            { title: "object for a blob", output: { data: { a: 1 } } }
            { title: "number for a string", error: { shapeId: Oops, content: { message: 404 } } }
            { title: "fine", output: { data: "aGk=" } }
          ]`),
        },
      ],
    });
    const told: string[] = [];
    const which: ExampleRef[] = [];
    expect(operationExamples(model, model.getShape("ex#Op")!, (m, example) => (told.push(m), which.push(example))).map((e) => e.title)).toEqual(["fine"]);
    expect(which).toEqual([
      { operation: "ex#Op", title: "object for a blob" },
      { operation: "ex#Op", title: "number for a string" },
    ]);
    expect(told).toEqual([
      '@examples of `ex#Op` ("object for a blob") output at data: Expected string value for blob shape, `smithy.api#Blob`; found object value: the fake leaves it out',
      '@examples of `ex#Op` ("number for a string") error content at message: Expected string value for string shape, `smithy.api#String`; found number value, `404`: the fake leaves it out',
    ]);
  });

  it("reports a value that does not fit its shape, naming the example", () => {
    expect(() => examplesOf(`[{ title: "bad", input: { when: "yesterday" } }]`)).toThrow(NodeValueError);
    expect(() => examplesOf(`[{ title: "bad", input: { when: "yesterday" } }]`)).toThrow(/@examples of `ex#Op` \("bad"\) input/);
  });
});
