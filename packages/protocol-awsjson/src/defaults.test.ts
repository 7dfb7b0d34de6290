import { gunzip } from "@anvil/core/protocol";
import { describe, expect, it } from "vitest";
import { boolean, integer, member, operation, service, string, struct } from "@anvil/core/codegenv1";
import { awsJson1_0 } from "./index.js";

const Inner = struct("ex#Inner", [member("greeting", string, { default: "hi" }), member("opt", integer, { default: 1, clientOptional: true })]);
const Input = struct("ex#Input", [member("top", string, { default: "top" }), member("inner", Inner)]);
const Output = struct("ex#Output", [member("count", integer, { required: true }), member("flag", boolean, { default: true })]);
const Op = operation("ex#Op", { input: Input, output: Output });
const Zip = operation("ex#Zip", { input: Input, output: Output, traits: { requestCompression: ["gzip"] } });
const Svc = service("ex#Svc", { operations: { op: Op, zip: Zip }, traits: { "aws.protocols#awsQueryCompatible": {} } });

const { client, server } = awsJson1_0();
const ctx = { endpoint: new URL("https://example.com"), service: Svc };
const text = (b: unknown): string => new TextDecoder().decode(b as Uint8Array);

describe("defaults and error correction", () => {
  it("client fills nested defaults, not top-level ones nor @clientOptional members", async () => {
    const req = await client.serializeRequest(Op, { inner: {} }, ctx);
    expect(JSON.parse(text(req.body))).toEqual({ inner: { greeting: "hi" } });
    expect(req.headers.get("content-length")).toBe(String((req.body as Uint8Array).byteLength));
    expect(req.headers.get("x-amzn-query-mode")).toBe("true");
  });

  it("server fills defaults in its output", async () => {
    const res = await server.serializeResponse(Op, { count: 2 }, { service: Svc, labels: {} });
    expect(JSON.parse(text(res.body))).toEqual({ count: 2, flag: true });
  });

  it("client gives a missing required member its zero value", async () => {
    const out = await client.deserializeResponse(Op, { status: 200, headers: new Headers(), body: new TextEncoder().encode("{}") }, ctx);
    expect(out).toEqual({ count: 0, flag: true });
  });
});

describe("request compression", () => {
  it("client gzips bodies of @requestCompression operations; the server reads them", async () => {
    const req = await client.serializeRequest(Zip, { top: "x" }, ctx);
    expect(req.headers.get("content-encoding")).toBe("gzip");
    expect(text(await gunzip(req.body as Uint8Array))).toBe(`{"top":"x"}`);
    expect(await server.deserializeRequest(Zip, req, { service: Svc, labels: {} })).toEqual({ top: "x" });
  });
});
