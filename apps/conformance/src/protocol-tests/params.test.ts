import { beforeAll, describe, expect, it } from "vitest";
import { BigDecimal } from "@anvil/core";
import type { Model, NodeValue } from "@anvil/model";
import { chooseCorpus, isCorpus } from "../corpus.js";
import { extractProtocolTests, type EventStreamCase, type HttpRequestCase, type HttpResponseCase } from "./cases.js";
import { loadFixture } from "./fixture-model.js";
import { caseParamsValue, eventParamsValue, eventStreamShapeOf, ParamsError, paramsShapeOf, paramsToValue } from "./params.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("params", () => {
  let model: Model;
  let byId: (id: string) => HttpRequestCase | HttpResponseCase | EventStreamCase;

  beforeAll(() => {
    model = loadFixture();
    const { cases } = extractProtocolTests(model);
    byId = (id) => cases.find((c) => c.id === id) as HttpRequestCase | HttpResponseCase | EventStreamCase;
  });

  it.each([
    ["PutAll", "test.cases#PutInput"],
    ["PutOk", "test.cases#PutOutput"],
    ["OopsCase", "test.cases#Oops"],
  ])("%s params are for %s", (id, shape) => {
    expect(paramsShapeOf(model, byId(id) as HttpRequestCase)).toBe(shape);
  });

  it("converts a request case's params: blobs from UTF-8 text, timestamps from epoch seconds, unions as $case", () => {
    expect(caseParamsValue(model, byId("PutAll") as HttpRequestCase)).toEqual({
      label: "a",
      blob: bytes("hi"),
      when: new Date(1500),
      choice: { $case: "n", value: 1 },
      items: ["x"],
      doc: { any: [1] },
    });
  });

  it("converts an error response case's params", () => {
    expect(caseParamsValue(model, byId("OopsCase") as HttpResponseCase)).toEqual({ message: "m", payload: bytes("p") });
  });

  it.each<[string, string, NodeValue, unknown]>([
    ["a blob, as its UTF-8 bytes", "test.cases#PutInput", { blob: "héllo" }, { blob: bytes("héllo") }],
    ["an empty blob", "test.cases#PutInput", { blob: "" }, { blob: new Uint8Array(0) }],
    ["text that is also base64 stays text", "test.cases#PutInput", { blob: "Zm9v" }, { blob: bytes("Zm9v") }],
    ["a streaming blob", "test.cases#PutInput", { stream: "abc" }, { stream: bytes("abc") }],
    ["a blob in a union", "test.cases#PutInput", { choice: { b: "x" } }, { choice: { $case: "b", value: bytes("x") } }],
    ["a timestamp as RFC 3339 text", "test.cases#PutInput", { when: "1970-01-01T00:00:01Z" }, { when: new Date(1000) }],
    ["a list", "test.cases#PutInput", { items: ["a", "b"] }, { items: ["a", "b"] }],
    ["a document, untouched", "test.cases#PutInput", { doc: { blob: "x", n: null } }, { doc: { blob: "x", n: null } }],
    ["a structure member written null, as no value", "test.cases#PutInput", { label: "a", items: null }, { label: "a" }],
    ["Unit", "smithy.api#Unit", {}, {}],
    ["a prelude bigDecimal", "smithy.api#BigDecimal", 1.5, BigDecimal.from(1.5)],
    ["a prelude double NaN", "smithy.api#Double", "NaN", Number.NaN],
  ])("%s", (_label, shape, params, expected) => {
    expect(paramsToValue(model, shape, params, "t")).toEqual(expected);
  });

  it.each<[string, string, NodeValue, RegExp]>([
    ["an unknown member", "test.cases#PutInput", { nope: 1 }, /PutInput has no member `nope`/],
    ["a non-text blob", "test.cases#PutInput", { blob: 1 }, /t\.blob: a blob param must be text/],
    ["a union with two members", "test.cases#PutInput", { choice: { n: 1, b: "x" } }, /exactly one member/],
    ["a list given an object", "test.cases#PutInput", { items: { a: 1 } }, /expected a list/],
    ["a bad timestamp", "test.cases#PutInput", { when: "yesterday" }, /timestamp value must be/],
    ["an unknown shape", "test.cases#Nope", {}, /unknown shape/],
  ])("rejects %s", (_label, shape, params, message) => {
    expect(() => paramsToValue(model, shape, params, "t")).toThrow(ParamsError);
    expect(() => paramsToValue(model, shape, params, "t")).toThrow(message);
  });

  it("finds an operation's event-stream union and converts event params", () => {
    expect(eventStreamShapeOf(model, "test.cases#Stream", "request")).toBe("test.cases#Events");
    expect(eventStreamShapeOf(model, "test.cases#Stream", "response")).toBeUndefined();
    const c = byId("StreamCase") as EventStreamCase;
    expect(eventParamsValue(model, c, 0)).toEqual({ $case: "ping", value: { text: "hi", data: bytes("raw") } });
    expect(eventParamsValue(model, c, 1)).toBeUndefined();
  });
});

const corpus = chooseCorpus(undefined, process.env, process.cwd());

describe.skipIf(!isCorpus(corpus.path))(`params of every corpus case convert (corpus ${corpus.path})`, () => {
  it("request and response params, and event params, fit their shapes", async () => {
    const { PROTOCOL_SUITE_CONFIGS, collectCases } = await import("../suites/protocol-suite.js");
    const errors: string[] = [];
    let converted = 0;
    for (const config of PROTOCOL_SUITE_CONFIGS) {
      const { cases, problems } = collectCases(config, corpus.path);
      expect(problems).toEqual([]);
      const seen = new Set<unknown>();
      for (const { testCase: c, model } of cases) {
        if (seen.has(c)) continue; // a case for both sides is listed twice
        seen.add(c);
        try {
          if (c.kind === "request" || c.kind === "response") {
            caseParamsValue(model, c);
            converted++;
          } else if (c.kind === "eventstream") {
            c.events.forEach((_e, i) => eventParamsValue(model, c, i));
            converted++;
          }
        } catch (error) {
          errors.push(`${config.name} ${c.kind} ${c.id}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
    expect(errors).toEqual([]);
    expect(converted).toBeGreaterThan(900);
  });
});
