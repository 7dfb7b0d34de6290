import type { SerializationError } from "@anvil/core";
import { document, integer, map, member, string, struct, timestamp, union } from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { compileReader, compileWriter } from "./index.js";

const alloy = { alloyTraits: true, useJsonName: true } as const;
const Small = struct("alloy.test#SmallStruct", [member("content", string)]);
const Other = struct("alloy.test#Other", [member("n", integer, { required: true })]);

const Discriminated = union("alloy.test#D", [member("smol", Small), member("other", Other, { jsonName: "big" })], { discriminated: "key" });
const OpenDiscriminated = union("alloy.test#OD", [member("smol", Small), member("other", document, { jsonUnknown: true })], { discriminated: "key" });
const OpenTagged = union("alloy.test#OT", [member("str", string), member("other", document, { jsonUnknown: true })]);
const Untagged = union("alloy.test#U", [member("other", Other), member("small", Small), member("text", string)], { untagged: true });
const Extras = map("alloy.test#Extras", member("key", string), member("value", document));
const WithUnknown = struct("alloy.test#WU", [member("name", string), member("extras", Extras, { jsonUnknown: true })]);
const WithNullable = struct("alloy.test#WN", [member("maybe", string, { nullable: true }), member("plain", string)]);

describe("@alloy#discriminated", () => {
  it.each([
    [`{"key":"smol","content":"some string"}`, { $case: "smol", value: { content: "some string" } }],
    [`{"key":"big","n":1}`, { $case: "other", value: { n: 1 } }],
    [`{"key":"nope","x":1}`, { $case: "$unknown", name: "nope", value: { key: "nope", x: 1 } }],
  ])("reads %s", (text, expected) => {
    expect(compileReader(Discriminated, alloy)(text)).toEqual(expected);
  });

  it.each([
    [{ $case: "smol", value: { content: "s" } }, `{"key":"smol","content":"s"}`],
    [{ $case: "smol", value: {} }, `{"key":"smol"}`],
    [{ $case: "other", value: { n: 2 } }, `{"key":"big","n":2}`],
  ])("writes %j", (value, expected) => {
    expect(compileWriter(Discriminated, alloy)(value as never)).toBe(expected);
  });

  it("rejects a missing discriminator with its pointer", () => {
    const error = (() => {
      try {
        compileReader(Discriminated, alloy)(`{"content":"x"}`);
      } catch (e) {
        return e as SerializationError;
      }
      throw new Error("no error");
    })();
    expect(error.path).toBe("/key");
  });

  it("strict reading (a server) rejects an unknown discriminator unless a @jsonUnknown member takes it", () => {
    const strict = { ...alloy, strict: true } as const;
    expect(() => compileReader(Discriminated, strict)(`{"key":"nope","x":1}`)).toThrow(/unknown union member/);
    expect(compileReader(OpenDiscriminated, strict)(`{"key":"nope"}`)).toEqual({ $case: "other", value: { key: "nope" } });
  });

  it("keeps unknown variants in the @jsonUnknown member, both ways", () => {
    const text = `{"key":"mysterious_and_important","extras":42}`;
    const value = compileReader(OpenDiscriminated, alloy)(text);
    expect(value).toEqual({ $case: "other", value: { key: "mysterious_and_important", extras: 42 } });
    expect(compileWriter(OpenDiscriminated, alloy)(value as never)).toBe(text);
    expect(compileReader(OpenDiscriminated, alloy)(`{"key":"smol","content":"c"}`)).toEqual({ $case: "smol", value: { content: "c" } });
  });

  it("is an ordinary tagged union without alloyTraits", () => {
    expect(compileReader(Discriminated)(`{"smol":{"content":"x"}}`)).toEqual({ $case: "smol", value: { content: "x" } });
  });
});

describe("open tagged unions", () => {
  it("keep unknown variants whole in the @jsonUnknown member", () => {
    const text = `{"whatisthis":{"nested":"something different"}}`;
    const value = compileReader(OpenTagged, alloy)(text);
    expect(value).toEqual({ $case: "other", value: { whatisthis: { nested: "something different" } } });
    expect(compileWriter(OpenTagged, alloy)(value as never)).toBe(text);
  });
});

describe("@alloy#untagged", () => {
  it.each([
    [`{"n":1}`, { $case: "other", value: { n: 1 } }],
    [`{"content":"c"}`, { $case: "small", value: { content: "c" } }],
    [`"plain"`, { $case: "text", value: "plain" }],
  ])("reads %s by trying variants in order", (text, expected) => {
    expect(compileReader(Untagged, alloy)(text)).toEqual(expected);
  });

  it("writes the bare variant", () => {
    expect(compileWriter(Untagged, alloy)({ $case: "small", value: { content: "c" } } as never)).toBe(`{"content":"c"}`);
    expect(compileWriter(Untagged, alloy)({ $case: "text", value: "t" } as never)).toBe(`"t"`);
  });

  it("rejects values no variant accepts", () => {
    expect(() => compileReader(Untagged, alloy)(`42`)).toThrow(/^decode json: no variant of the untagged union matches$/);
  });
});

describe("@alloy#jsonUnknown on structures", () => {
  it("collects unknown members and writes them back inline", () => {
    const text = `{"name":"n","a":1,"b":{"c":[true]}}`;
    const value = compileReader(WithUnknown, alloy)(text);
    expect(value).toEqual({ name: "n", extras: { a: 1, b: { c: [true] } } });
    expect(compileWriter(WithUnknown, alloy)(value as never)).toBe(text);
  });

  it("omits the member when nothing is unknown", () => {
    expect(compileReader(WithUnknown, alloy)(`{"name":"n"}`)).toEqual({ name: "n" });
  });

  it("ignores unknown members without alloyTraits", () => {
    expect(compileReader(WithUnknown)(`{"name":"n","a":1}`)).toEqual({ name: "n" });
  });
});

describe("@alloy#nullable", () => {
  it.each([
    [`{"maybe":null,"plain":null}`, { maybe: null }],
    [`{}`, {}],
    [`{"maybe":"x"}`, { maybe: "x" }],
  ])("reads %s", (text, expected) => {
    expect(compileReader(WithNullable, alloy)(text)).toEqual(expected);
  });

  it("writes explicit null and omits absence", () => {
    expect(compileWriter(WithNullable, alloy)({ maybe: null, plain: null } as never)).toBe(`{"maybe":null}`);
    expect(compileWriter(WithNullable, alloy)({})).toBe(`{}`);
  });

  it("treats null as absent without alloyTraits", () => {
    expect(compileReader(WithNullable)(`{"maybe":null}`)).toEqual({});
    expect(compileWriter(WithNullable)({ maybe: null } as never)).toBe(`{}`);
  });
});

describe("@alloy#untagged tries each variant on the value as parsed", () => {
  // The first variant converts `at` and then fails on `n`; the second must still see the string.
  const First = struct("alloy.test#First", [
    member("at", timestamp, { timestampFormat: "date-time", required: true }),
    member("n", integer, { required: true }),
  ]);
  const Second = struct("alloy.test#Second", [member("at", string, { required: true })]);
  const U = union("alloy.test#FirstOrSecond", [member("first", First), member("second", Second)], { untagged: true });
  it("after a variant failed half-way", () => {
    expect(compileReader(U, alloy)(`{"at":"2024-01-01T00:00:00Z","n":"x"}`)).toEqual({ $case: "second", value: { at: "2024-01-01T00:00:00Z" } });
  });
});
