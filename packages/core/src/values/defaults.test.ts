import { describe, expect, it } from "vitest";
import { boolean, integer, list, member, string, struct, timestamp } from "../schema/builders.js";
import { CLIENT_INPUT_DEFAULTS, correctRequired, fillDefaults, SERVER_OUTPUT_DEFAULTS } from "./defaults.js";

const Inner = struct("ex#Inner", [member("greeting", string, { default: "hi" }), member("opt", integer, { default: 1, clientOptional: true })]);
const Outer = struct("ex#Outer", [
  member("top", string, { default: "top" }),
  member("inner", Inner),
  member("items", list("ex#Items", member("member", Inner))),
]);

describe("fillDefaults", () => {
  it("servers fill every default, at every level", () => {
    expect(fillDefaults(Outer, { inner: {}, items: [{}] }, SERVER_OUTPUT_DEFAULTS)).toEqual({
      top: "top",
      inner: { greeting: "hi", opt: 1 },
      items: [{ greeting: "hi", opt: 1 }],
    });
  });

  it("clients fill nested defaults only, leaving @clientOptional members out", () => {
    expect(fillDefaults(Outer, { inner: {} }, CLIENT_INPUT_DEFAULTS)).toEqual({ inner: { greeting: "hi" } });
  });

  it("never change the value given, and return it as is when nothing is filled", () => {
    const value = { top: "x", inner: { greeting: "g", opt: 2 } };
    expect(fillDefaults(Outer, value, SERVER_OUTPUT_DEFAULTS)).toBe(value);
    const partial = { inner: {} };
    fillDefaults(Outer, partial, SERVER_OUTPUT_DEFAULTS);
    expect(partial).toEqual({ inner: {} });
  });
});

describe("correctRequired", () => {
  it("gives required members a response left out their zero value", () => {
    const Out = struct("ex#Out", [
      member("count", integer, { required: true }),
      member("flag", boolean, { required: true }),
      member("at", timestamp, { required: true }),
      member("name", string, { required: true, default: "n" }),
      member("opt", string),
    ]);
    expect(correctRequired(Out, {})).toEqual({ count: 0, flag: false, at: new Date(0) });
  });
});
