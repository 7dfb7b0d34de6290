import { beforeAll, describe, expect, it } from "vitest";
import { loadModel, type Model } from "@anvil/model";
import { extractProtocolTests, type HttpRequestCase, type HttpResponseCase } from "./cases.js";
import { repairCase } from "./repairs.js";
import { targetOf } from "./run-case.js";

const IDL = `
$version: "2.0"
namespace test.repairs

use aws.protocols#awsJson1_0
use aws.protocols#restJson1
use smithy.test#httpRequestTests
use smithy.test#httpResponseTests

@awsJson1_0
service Rpc { operations: [Put] }

@httpRequestTests([
    { id: "NoTarget", protocol: awsJson1_0, method: "POST", uri: "/", headers: { "Content-Type": "application/x-amz-json-1.0" }, params: {} }
    { id: "WithTarget", protocol: awsJson1_0, method: "POST", uri: "/", headers: { "x-amz-target": "Other.Name" }, params: {} }
])
@httpResponseTests([
    { id: "PutResponse", protocol: awsJson1_0, code: 200, params: {} }
])
operation Put {}

@http(method: "GET", uri: "/loose")
@httpRequestTests([
    { id: "Unbound", protocol: restJson1, method: "GET", uri: "/loose", params: {}, appliesTo: "server" }
])
operation Loose {}
`;

describe("repairCase", () => {
  let model: Model;
  let byId: (id: string) => HttpRequestCase | HttpResponseCase;

  beforeAll(() => {
    model = loadModel({ sources: [{ file: "repairs.smithy", text: IDL }] }).model;
    const { cases } = extractProtocolTests(model);
    byId = (id) => cases.find((c) => c.id === id) as HttpRequestCase | HttpResponseCase;
  });

  it("adds the X-Amz-Target an awsJson server request case lacks, derived from its operation, and says so", () => {
    const { testCase, repairs } = repairCase(model, byId("NoTarget"), "server");
    expect(testCase.headers).toEqual({ "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "Rpc.Put" });
    expect(repairs).toEqual(["the request has no X-Amz-Target: added X-Amz-Target: Rpc.Put, derived from the case's operation"]);
  });

  it.each<[string, string, "client" | "server"]>([
    ["a case that has the header (in any case)", "WithTarget", "server"],
    ["the client side, which must write the header itself", "NoTarget", "client"],
    ["a response case", "PutResponse", "server"],
  ])("leaves alone %s", (_label, id, side) => {
    const c = byId(id);
    expect(repairCase(model, c, side)).toEqual({ testCase: c, repairs: [] });
  });

  it("runs an operation no service binds in a synthetic service declaring the case's protocol", () => {
    const c = byId("Unbound");
    const target = targetOf(model, c);
    expect(target.synthetic).toBe(true);
    expect(target.service.protocols).toEqual(["aws.protocols#restJson1"]);
    expect(Object.values(target.service.operations)).toEqual([target.operation]);
    expect(targetOf(model, c).service).toBe(target.service);
    expect(repairCase(model, c, "server").repairs).toEqual([
      "test.repairs#Loose is bound to no service: ran in a synthetic service declaring aws.protocols#restJson1",
    ]);
  });
});
