import { describe, expect, it } from "vitest";
import { member, string, struct } from "../schema/builders.js";
import { gunzip, gzip, isBlank, readBody } from "./body.js";
import { findErrorSchema, sanitizeErrorType } from "./error-type.js";

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
  });
});
