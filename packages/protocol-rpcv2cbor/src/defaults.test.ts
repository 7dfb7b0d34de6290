import { describe, expect, it } from "vitest";
import { boolean, integer, member, operation, service, string, struct } from "@anvil/core/codegenv1";
import { compileReader, compileWriter } from "@anvil/codec-cbor";
import { rpcv2Cbor } from "./index.js";

const Inner = struct("ex#Inner", [member("greeting", string, { default: "hi" }), member("opt", integer, { default: 1, clientOptional: true })]);
const Input = struct("ex#Input", [member("top", string, { default: "top" }), member("inner", Inner)]);
const Output = struct("ex#Output", [member("count", integer, { required: true }), member("flag", boolean, { default: true })]);
const Op = operation("ex#Op", { input: Input, output: Output });
const Svc = service("ex#Svc", { operations: { op: Op } });

/** Reads a body without the reader's own default filling, to see what was on the wire. */
const Raw = struct("ex#Raw", [member("top", string), member("inner", struct("ex#RawInner", [member("greeting", string), member("opt", integer)]))]);
const RawOutput = struct("ex#RawOutput", [member("count", integer), member("flag", boolean)]);

const { client, server } = rpcv2Cbor();
const ctx = { endpoint: new URL("https://example.com"), service: Svc };

describe("defaults and error correction", () => {
  it("client fills nested defaults, not top-level ones nor @clientOptional members", async () => {
    const req = await client.serializeRequest(Op, { inner: {} }, ctx);
    expect(compileReader(Raw)(req.body as Uint8Array)).toEqual({ inner: { greeting: "hi" } });
  });

  it("server fills defaults in its output", async () => {
    const res = await server.serializeResponse(Op, { count: 2 }, { service: Svc, labels: {} });
    expect(compileReader(RawOutput)(res.body as Uint8Array)).toEqual({ count: 2, flag: true });
  });

  it("server fills defaults missing from the request body", async () => {
    const req = await client.serializeRequest(Op, {}, ctx);
    expect(await server.deserializeRequest(Op, req, { service: Svc, labels: {} })).toEqual({ top: "top" });
  });

  it("client gives a missing required member its zero value", async () => {
    const body = compileWriter(RawOutput)({});
    const out = await client.deserializeResponse(Op, { status: 200, headers: new Headers(), body }, ctx);
    expect(out).toEqual({ count: 0, flag: true });
  });
});
