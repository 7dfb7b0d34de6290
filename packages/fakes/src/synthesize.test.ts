import { BigDecimal, validateValue, type Schema, type Traits } from "@anvil/core";
import * as b from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { completeStructure, synthesize, SYNTHESIZED_INSTANT, UnterminatedRecursionError } from "./index.js";

describe("synthesize", () => {
  it.each<[string, Schema<any>, Traits, unknown]>([
    ["a string echoes the name", b.string, {}, "name"],
    ["padded to @length min", b.string, { length: { min: 10 } }, "namenamena"],
    ["cut to @length max", b.string, { length: { max: 2 } }, "na"],
    ["following @pattern", b.string, { pattern: "^[0-9]{3}$" }, "000"],
    ["a pattern the generator cannot follow", b.string, { pattern: "^\\p{Lu}+$" }, "NAME"],
    ["a UUID", b.string, { uuidFormat: true }, "00000000-0000-4000-8000-000000000000"],
    ["0 clamped into @range", b.integer, { range: { min: 3, max: 9 } }, 3],
    ["0 clamped below", b.integer, { range: { max: -2 } }, -2],
    ["a fractional minimum rounds up for integers", b.integer, { range: { min: 1.5 } }, 2],
    ["booleans true", b.boolean, {}, true],
    ["one fixed instant", b.timestamp, {}, new Date(SYNTHESIZED_INSTANT)],
    ["a document holds the name", b.document, {}, "name"],
    ["a big decimal 0", b.bigDecimal, {}, BigDecimal.from("0")],
  ])("%s", (_title, schema, traits, expected) => {
    expect(synthesize(schema, "name", traits)).toEqual(expected);
  });

  it.each([
    // CloudWatch's TemplateName: `\_` is an escape a `u`-flag regex refuses.
    ["^[0-9A-Za-z][\\-\\.\\_0-9A-Za-z]{0,126}[0-9A-Za-z]$", "TemplateName"],
    // SageMaker's InferenceId: Java anchors and a POSIX class.
    ["^\\A\\S[\\p{Print}]*\\z$", "InferenceId"],
  ])("a string follows a @pattern in Java syntax as validation reads it: %s", (pattern, name) => {
    const value = synthesize(b.string, name, { pattern });
    expect(validateValue(b.scalar<string, "string">("string", "t#S", { pattern }), value)).toEqual([]);
  });

  it.each<[string, Traits, string]>([
    ["application/json", { mediaType: "application/json" }, "{}"],
    ["a +json type, with parameters", { mediaType: "application/vnd.api+JSON; charset=utf-8" }, "{}"],
    ["padded to @length min with whitespace", { mediaType: "application/json", length: { min: 6 } }, "{    }"],
    ["within a @length max under 2", { mediaType: "application/json", length: { max: 1 } }, "0"],
  ])("a string whose @mediaType is JSON holds JSON text: %s", (_title, traits, expected) => {
    const value = synthesize(b.string, "PriceList", traits) as string;
    expect(value).toBe(expected);
    expect(() => JSON.parse(value)).not.toThrow();
  });

  it("keeps other media types echoing the name, and JSON list entries distinct", () => {
    expect(synthesize(b.string, "body", { mediaType: "text/plain" })).toBe("body");
    expect(synthesize(b.string, "body", { mediaType: "application/jsonl" })).toBe("body");
    const Json = b.scalar<string, "string">("string", "t#Json", { mediaType: "application/json" });
    const list = b.list("t#L", b.member("member", Json), { length: { min: 2 }, uniqueItems: true });
    const value = synthesize(list, "PriceList") as string[];
    expect(value).toEqual(["{}", '{"PriceList":1}']);
    for (const v of value) expect(() => JSON.parse(v)).not.toThrow();
    expect(validateValue(list, value as never)).toEqual([]);
  });

  it("makes distinct entries where @uniqueItems needs them", () => {
    const list = b.list("t#L", b.member("member", b.string), { length: { min: 3 }, uniqueItems: true });
    const value = synthesize(list, "tag");
    expect(value).toEqual(["tag", "tag1", "tag2"]);
    expect(validateValue(list, value as never)).toEqual([]);
  });

  it("throws for required recursion no value can end, naming the cycle", () => {
    const A: ReturnType<typeof b.struct> = b.struct("t#A", [b.member("b", () => B, { required: true })]);
    const B: ReturnType<typeof b.struct> = b.struct("t#B", [b.member("a", () => A, { required: true })]);
    expect(() => synthesize(A, "a")).toThrow(UnterminatedRecursionError);
    expect(() => synthesize(A, "a")).toThrow("t#A -> t#B -> t#A");
  });

  it("completes only the required members an example leaves out", () => {
    const S = b.struct("t#S", [b.member("req", b.string, { required: true }), b.member("opt", b.string), b.member("given", b.integer, { required: true })]);
    expect(completeStructure(S, { given: 7 })).toEqual({ req: "req", given: 7 });
  });
});
