import { describe, expect, it } from "vitest";
import { member, string, struct } from "../schema/builders.js";
import { ProtocolError, SerializationError } from "../errors/errors.js";
import { gunzip, gunzipRequest, gzip, isBlank, isGzipEncoded, readBody } from "./body.js";
import { findErrorSchema, sanitizeErrorType, VALIDATION_EXCEPTION_ID, validationExceptionSchema } from "./error-type.js";
import { operation, service, unit } from "../schema/builders.js";
import { postRoutes, rpcV2Path } from "./rpc-routes.js";
import { findErrorByQueryCode, isQueryCompatible, queryErrorCode, queryErrorHeader, responseQueryCode } from "./query-compat.js";

describe("error types on the wire", () => {
  it.each([
    ["FooError", "FooError"],
    ["aws.protocoltests.restjson#FooError", "FooError"],
    ["FooError:http://internal.amazon.com/coral/com.amazon.coral.validate/", "FooError"],
    ["aws.protocoltests.restjson#FooError:http://internal.amazon.com/coral/", "FooError"],
    ["  FooError ", "FooError"],
  ])("%s names %s", (raw, name) => {
    expect(sanitizeErrorType(raw)).toBe(name);
  });

  it("finds the error schema by shape name", () => {
    const Foo = struct("ex#FooError", [member("message", string)], { error: "client" });
    const Bar = struct("ex#BarError", [], { error: "server" });
    expect(findErrorSchema([Foo, Bar], "BarError")).toBe(Bar);
    expect(findErrorSchema([Foo, Bar], "Nope")).toBeUndefined();
  });
});

describe("readBody", () => {
  it("reads nothing, bytes and streams", async () => {
    expect(await readBody(undefined)).toEqual(new Uint8Array(0));
    expect(await readBody(new Uint8Array([1]))).toEqual(new Uint8Array([1]));
    async function* chunks() {
      yield new Uint8Array([1]);
      yield new Uint8Array([2]);
    }
    expect(await readBody(chunks())).toEqual(new Uint8Array([1, 2]));
  });
});

describe("body helpers", () => {
  it("tell blank bodies", () => {
    expect(isBlank(new TextEncoder().encode(" \n\t"))).toBe(true);
    expect(isBlank(new TextEncoder().encode(" {}"))).toBe(false);
  });

  it("gzip and gunzip round trip, and gunzip rejects other bytes", async () => {
    const text = new TextEncoder().encode("hello hello hello");
    expect(await gunzip(await gzip(text))).toEqual(text);
    await expect(gunzip(text)).rejects.toThrow();
    expect(await gunzip(await gzip(text), { maxBytes: text.length })).toEqual(text);
    await expect(gunzip(text, { maxBytes: 100 })).rejects.toThrow();
  });

  it("S2: stop inflating a body at its limit: a zip bomb is a 413, never held whole", async () => {
    const bomb = await gzip(new Uint8Array(64 * 1024 * 1024)); // 64 MiB of zeros in about 64 KB
    expect(bomb.length).toBeLessThan(100_000);
    const error = await gunzipRequest(bomb, { bodyLimit: 1024 * 1024 }, "test").catch((e: unknown) => e);
    expect(ProtocolError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 413, code: "PayloadTooLargeException", message: "request body is larger than 1048576 bytes once decompressed" });
    await expect(gunzip(bomb, { maxBytes: 10, tooLarge: (n) => new RangeError(`over ${n}`) })).rejects.toThrow("over 10");
    // Without a body limit from the server, 1 MiB.
    await expect(gunzipRequest(bomb, {}, "test")).rejects.toMatchObject({ status: 413 });
    // Bytes that are not gzip are the caller's malformed request.
    const notGzip = await gunzipRequest(new TextEncoder().encode("plain"), {}, "test").catch((e: unknown) => e);
    expect(SerializationError.is(notGzip) && notGzip.message).toBe("decode test: request body is not valid gzip");
  });
});

describe("validationExceptionSchema", () => {
  it("prefers the operation's ValidationException, then the service's, else none", () => {
    const V = struct(VALIDATION_EXCEPTION_ID, [member("message", string)], { error: "client" });
    const V2 = struct(VALIDATION_EXCEPTION_ID, [member("message", string)], { error: "client" });
    const withIt = operation("ex#A", { input: unit, output: unit, errors: [V] });
    const without = operation("ex#B", { input: unit, output: unit });
    const svc = service("ex#S", { operations: { a: withIt, b: without }, errors: [V2] });
    expect(validationExceptionSchema(withIt, svc)).toBe(V);
    expect(validationExceptionSchema(without, svc)).toBe(V2);
    expect(validationExceptionSchema(undefined, service("ex#T", { operations: {} }))).toBeUndefined();
  });
});

describe("awsQuery compatibility", () => {
  const Throttled = struct("example#Throttled", [], {
    error: "client",
    custom: { "aws.protocols#awsQueryError": { code: "Throttling", httpResponseCode: 400 } },
  });
  const Plain = struct("example#Plain", [], { error: "client" });
  const compatible = service("example#S", { operations: {}, traits: { "aws.protocols#awsQueryCompatible": {} } });
  const plain = service("example#T", { operations: {} });

  it("servers name the error's code and fault only for compatible services", () => {
    expect(queryErrorHeader(Throttled, "client", compatible)).toEqual({ "x-amzn-query-error": "Throttling;Sender" });
    expect(queryErrorHeader(Throttled, "server", compatible)).toEqual({ "x-amzn-query-error": "Throttling;Receiver" });
    expect(queryErrorHeader(Plain, "client", compatible)).toBeUndefined();
    expect(queryErrorHeader(Throttled, "client", plain)).toBeUndefined();
  });

  it("clients read the code back and find the error", () => {
    const headers = new Headers({ "x-amzn-query-error": "Throttling;Sender" });
    expect(responseQueryCode(headers, compatible)).toBe("Throttling");
    expect(responseQueryCode(headers, plain)).toBeUndefined();
    expect(responseQueryCode(new Headers({ "x-amzn-query-error": ";Sender" }), compatible)).toBeUndefined();
    expect(findErrorByQueryCode([Plain, Throttled], "Throttling")).toBe(Throttled);
    expect(isQueryCompatible(compatible)).toBe(true);
    expect(queryErrorCode(Plain)).toBeUndefined();
  });
});

describe("isGzipEncoded", () => {
  it("finds gzip among the listed codings, in any case", () => {
    expect(isGzipEncoded(new Headers({ "content-encoding": "br, GZIP" }))).toBe(true);
    expect(isGzipEncoded(new Headers({ "content-encoding": "br" }))).toBe(false);
    expect(isGzipEncoded(new Headers())).toBe(false);
  });
});

describe("postRoutes", () => {
  const A = operation("example#GetA", { input: unit, output: unit });
  const B = operation("example#PutB", { input: unit, output: unit });
  const S = service("example#Svc", { operations: { a: A, b: B } });

  it("gives one POST route per operation, placed by the protocol, built once per service", () => {
    const routes = postRoutes((service, op) => ({ path: rpcV2Path(service, op), headers: { "smithy-protocol": "rpc-v2-cbor" } }));
    const first = routes(S);
    expect(first.map((r) => [r.operation, r.method, r.path, r.headers])).toEqual([
      [A, "POST", "/service/Svc/operation/GetA", { "smithy-protocol": "rpc-v2-cbor" }],
      [B, "POST", "/service/Svc/operation/PutB", { "smithy-protocol": "rpc-v2-cbor" }],
    ]);
    expect(routes(S)).toBe(first);
    expect(Object.isFrozen(first[0]!.headers)).toBe(true);
  });
});
