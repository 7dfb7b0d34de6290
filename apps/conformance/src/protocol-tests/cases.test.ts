import { beforeAll, describe, expect, it } from "vitest";
import type { Model } from "@anvil/model";
import {
  expandMalformedCase,
  extractProtocolTests,
  sidesOf,
  type EventStreamCase,
  type HttpRequestCase,
  type HttpResponseCase,
  type MalformedRequestCase,
  type ProtocolTestCase,
} from "./cases.js";
import { loadFixture } from "./fixture-model.js";

const RJ = "aws.protocols#restJson1";

describe("extractProtocolTests", () => {
  let model: Model;
  let cases: ProtocolTestCase[];
  const byId = (id: string) => {
    const c = cases.find((x) => x.id === id);
    if (!c) throw new Error(`no case ${id}`);
    return c;
  };

  beforeAll(() => {
    model = loadFixture();
    const extracted = extractProtocolTests(model);
    expect(extracted.problems).toEqual([]);
    cases = extracted.cases;
  });

  it("finds every case of every trait, malformed ones expanded, in model and trait order", () => {
    expect(cases.map((c) => `${c.kind} ${c.id}`)).toEqual([
      "request PutAll",
      "request PutMinimal",
      "response PutOk",
      "malformed PutBad_case0",
      "malformed PutBad_case1",
      "malformed PutBadPlain",
      "eventstream StreamCase",
      "response OopsCase",
    ]);
  });

  it.each([
    ["PutAll", "client", { type: "operation", id: "test.cases#Put" }],
    ["PutMinimal", "both", { type: "operation", id: "test.cases#Put" }],
    ["PutOk", "server", { type: "operation", id: "test.cases#Put" }],
    ["PutBad_case0", "server", { type: "operation", id: "test.cases#Put" }],
    ["StreamCase", "server", { type: "operation", id: "test.cases#Stream" }],
    ["OopsCase", "client", { type: "error", id: "test.cases#Oops" }],
  ])("%s: appliesTo %s, attached to %j, protocol resolved", (id, appliesTo, attachedTo) => {
    const c = byId(id);
    expect(c.appliesTo).toBe(appliesTo);
    expect(c.attachedTo).toEqual(attachedTo);
    expect(c.protocol).toBe(RJ);
  });

  it("reads every request field", () => {
    expect(byId("PutAll")).toEqual({
      kind: "request",
      id: "PutAll",
      protocol: RJ,
      appliesTo: "client",
      attachedTo: { type: "operation", id: "test.cases#Put" },
      documentation: "doc",
      tags: ["t"],
      method: "POST",
      uri: "/put/a",
      host: "example.com",
      resolvedHost: "x.example.com",
      queryParams: ["q=1"],
      forbidQueryParams: ["f"],
      requireQueryParams: ["r"],
      headers: { "X-A": "a" },
      forbidHeaders: ["X-F"],
      requireHeaders: ["X-R"],
      body: "{}",
      bodyMediaType: "application/json",
      params: { label: "a", blob: "hi", when: 1.5, choice: { n: 1 }, items: ["x"], doc: { any: [1] } },
      vendorParams: { region: "x" },
    } satisfies HttpRequestCase);
  });

  it("defaults absent lists and maps to empty, and leaves optional strings out", () => {
    const c = byId("PutMinimal") as HttpRequestCase;
    expect(c).toEqual({
      kind: "request",
      id: "PutMinimal",
      protocol: RJ,
      appliesTo: "both",
      attachedTo: { type: "operation", id: "test.cases#Put" },
      tags: [],
      method: "POST",
      uri: "/put/b",
      queryParams: [],
      forbidQueryParams: [],
      requireQueryParams: [],
      headers: {},
      forbidHeaders: [],
      requireHeaders: [],
      params: { label: "b" },
      vendorParams: {},
    } satisfies HttpRequestCase);
    expect("body" in c).toBe(false);
    expect("host" in c).toBe(false);
  });

  it("reads response cases on operations and on errors", () => {
    expect(byId("PutOk")).toMatchObject({ kind: "response", code: 200, params: { out: "o" }, headers: {} } satisfies Partial<HttpResponseCase>);
    expect(byId("OopsCase")).toMatchObject({ kind: "response", code: 400, params: { message: "m", payload: "p" } });
  });

  it("expands testParameters: <id>_case<i>, the formatted fields, L and S placeholders, $$", () => {
    expect(byId("PutBad_case1")).toEqual({
      kind: "malformed",
      id: "PutBad_case1",
      protocol: RJ,
      appliesTo: "server",
      attachedTo: { type: "operation", id: "test.cases#Put" },
      documentation: "doc b",
      tags: ["t-b"],
      request: {
        method: "POST",
        uri: "/put/b",
        host: "h$$", // not formatted upstream
        queryParams: ['q=x"y'],
        headers: { "X-b": '"x\\"y"' },
        body: '{ "n": x"y }',
        bodyMediaType: "application/json",
      },
      response: {
        code: 400,
        headers: { "X-Error": "b" },
        body: { mediaType: "application/json", assertion: { messageRegex: 'bad x"y$' } },
      },
      testParameters: { label: ["a", "b"], value: ["1", 'x"y'] },
      expansion: { baseId: "PutBad", index: 1, values: { label: "b", value: 'x"y' } },
    } satisfies MalformedRequestCase);
    expect((byId("PutBad_case0") as MalformedRequestCase).request.body).toBe('{ "n": 1 }');
  });

  it("keeps a case without testParameters as written, $$ included", () => {
    const c = byId("PutBadPlain") as MalformedRequestCase;
    expect(c.request.body).toBe("cost: $$5");
    expect(c.response.body).toEqual({ mediaType: "application/json", assertion: { contents: "{}" } });
    expect(c.expansion).toBeUndefined();
    expect(c.response.headers).toEqual({});
  });

  it("reads event-stream cases: events, typed headers, expectation", () => {
    expect(byId("StreamCase")).toEqual({
      kind: "eventstream",
      id: "StreamCase",
      protocol: RJ,
      appliesTo: "server",
      attachedTo: { type: "operation", id: "test.cases#Stream" },
      tags: [],
      initialRequestParams: { name: "n" },
      events: [
        {
          type: "request",
          params: { ping: { text: "hi", data: "raw" } },
          headers: { ":event-type": { type: "string", value: "ping" }, flag: { type: "boolean", value: true } },
          forbidHeaders: [],
          requireHeaders: [],
          body: "hi",
          bytes: "AAAA",
          vendorParams: {},
        },
        { type: "request", headers: {}, forbidHeaders: [], requireHeaders: [], vendorParams: {} },
      ],
      expectation: { failure: { errorId: "test.cases#Oops" } },
      vendorParams: {},
    } satisfies EventStreamCase);
  });

  it.each([
    ["both", ["client", "server"]],
    ["client", ["client"]],
    ["server", ["server"]],
  ] as const)("sidesOf(appliesTo %s) = %j", (appliesTo, sides) => {
    expect(sidesOf({ ...byId("PutMinimal"), appliesTo } as ProtocolTestCase)).toEqual(sides);
  });
});

describe("extractProtocolTests problems", () => {
  it("reports a malformed trait value and keeps the other cases", async () => {
    const { loadModel } = await import("@anvil/model");
    const { model } = loadModel({
      validate: false,
      sources: [
        {
          file: "bad.smithy",
          text: `$version: "2.0"
namespace test.bad
use smithy.test#httpRequestTests
@httpRequestTests([{ id: "Good", protocol: "p#x", method: "GET", uri: "/" }, { id: "NoUri", protocol: "p#x", method: "GET" }, { id: "BadSide", protocol: "p#x", method: "GET", uri: "/", appliesTo: "both" }])
operation Op {}
`,
        },
      ],
    });
    const { cases, problems } = extractProtocolTests(model);
    expect(cases.map((c) => c.id)).toEqual(["Good"]);
    expect(problems).toEqual([
      { shape: "test.bad#Op", trait: "smithy.test#httpRequestTests", message: expect.stringContaining("[1].uri: expected a string, got nothing") },
      {
        shape: "test.bad#Op",
        trait: "smithy.test#httpRequestTests",
        message: expect.stringContaining('[2].appliesTo: expected "client" or "server", got "both"'),
      },
    ]);
  });
});

describe("expandMalformedCase", () => {
  const base: MalformedRequestCase = {
    kind: "malformed",
    id: "Base",
    protocol: RJ,
    appliesTo: "server",
    attachedTo: { type: "operation", id: "a#Op" },
    tags: [],
    request: { method: "POST", uri: "/", queryParams: [], headers: {}, body: "$v:L" },
    response: { code: 400, headers: {} },
  };

  it.each([
    ["no testParameters", undefined, ["Base"]],
    ["empty testParameters", {}, ["Base"]],
    ["three values", { v: ["1", "2", "3"] }, ["Base_case0", "Base_case1", "Base_case2"]],
    ["an empty list", { v: [] }, []],
  ])("%s", (_label, testParameters, ids) => {
    const c = testParameters === undefined ? base : { ...base, testParameters };
    expect(expandMalformedCase(c).map((x) => x.id)).toEqual(ids);
  });

  it.each([
    ["lists of different lengths", { v: ["1", "2"], w: ["1"] }, /differ in length \(v: 2, w: 1\)/],
    ["an unknown placeholder", { w: ["1"] }, /Base_case0: at offset 0: unknown test parameter `v`/],
  ])("rejects %s", (_label, testParameters, message) => {
    expect(() => expandMalformedCase({ ...base, testParameters })).toThrow(message);
  });
});
