import { describe, expect, it } from "vitest";
import { acceptsMediaType, baseMediaType } from "../protocol.js";

describe("E6: baseMediaType", () => {
  it.each([
    ["application/cbor", "application/cbor"],
    ["Application/JSON; charset=utf-8", "application/json"],
    ["  text/plain ;format=flowed", "text/plain"],
  ])("%s is %s", (value, base) => {
    expect(baseMediaType(value)).toBe(base);
  });
});

describe("acceptsMediaType", () => {
  it.each([
    ["the type itself", "application/cbor", true],
    ["the type among others, in another case", "text/html, Application/CBOR", true],
    ["its major type's wildcard", "application/*;q=0.5", true],
    ["any type", "*/*", true],
    ["another type only", "application/json", false],
    ["the type with q=0", "application/cbor;q=0, application/json", false],
    ["a wildcard with q=0.0", "*/*; q=0.0", false],
    ["another major type's wildcard", "text/*", false],
  ])("%s: %s", (_label, accept, admits) => {
    expect(acceptsMediaType(accept, "application/cbor")).toBe(admits);
  });
});
