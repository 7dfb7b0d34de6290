import { describe, expect, it } from "vitest";
import { loadModel, modelToJsonAst } from "./index.js";
import { exactNumberText, isApproximateNumber, nodeEquals, numberFromText, stringifyNode } from "./node-value.js";

describe("numberFromText", () => {
  it.each([
    ["0", 0],
    ["-12", -12],
    ["1.5", 1.5],
    ["1e3", 1000],
    ["9007199254740991", 9007199254740991],
    ["9007199254740993", 9007199254740993n],
    ["-9223372036854775808", -9223372036854775808n],
    ["18446744073709551616", 18446744073709551616n],
    ["1.7976931348623157E+309", 17976931348623157n * 10n ** 293n],
    ["2e+308", 2n * 10n ** 308n],
    ["12345678901234567.000", 12345678901234567n],
    ["0.1", 0.1],
    ["1.5e-400", 0],
  ] as const)("%s", (text, expected) => {
    expect(numberFromText(text)).toBe(expected);
  });
});

describe("stringifyNode", () => {
  it("writes bigints as exact JSON numbers", () => {
    expect(stringifyNode({ a: 2n ** 64n, b: [1, -(2n ** 63n)], c: "x" })).toBe('{"a":18446744073709551616,"b":[1,-9223372036854775808],"c":"x"}');
  });

  it("compares bigints by value", () => {
    expect(nodeEquals(2n ** 64n, 2n ** 64n)).toBe(true);
    expect(nodeEquals(2n ** 64n, 2 ** 64)).toBe(false);
  });
});

describe("large numbers in models", () => {
  const idl = `$version: "2.0"
namespace ex
@trait
bigInteger big
@trait
long longTrait
@big(123456789012345678901234567890)
@longTrait(9223372036854775807)
string S
structure T {
  @default(9223372036854775807)
  max: Long
}`;

  it("keep their exact value through IDL, JSON AST and back", () => {
    const a = loadModel({ sources: [{ file: "a.smithy", text: idl }] });
    expect(a.events.filter((e) => e.severity === "ERROR")).toEqual([]);
    const s = a.model.getShape("ex#S")!;
    expect(s.traits.get("ex#big")).toBe(123456789012345678901234567890n);
    expect(s.traits.get("ex#longTrait")).toBe(9223372036854775807n);
    expect(a.model.getMember("ex#T$max")!.traits.get("smithy.api#default")).toBe(9223372036854775807n);
    const json = stringifyNode(modelToJsonAst(a.model));
    expect(json).toContain('"ex#big":123456789012345678901234567890');
    const b = loadModel({ sources: [{ file: "b.json", text: json }] });
    expect(b.events.filter((e) => e.severity === "ERROR")).toEqual([]);
    expect(b.model.getShape("ex#S")!.traits.get("ex#big")).toBe(123456789012345678901234567890n);
    expect(stringifyNode(modelToJsonAst(b.model))).toBe(json);
  });

  it("are range-checked exactly against long", () => {
    const { events } = loadModel({
      sources: [{ file: "a.smithy", text: `$version: "2.0"\nnamespace ex\n@trait\nlong l\n@l(9223372036854775808)\nstring S` }],
    });
    expect(events.find((e) => e.id === "TraitValue")?.message).toContain("long value must be >= -9223372036854775808 and <= 9223372036854775807");
  });
});

describe("decimals a node value only approximates", () => {
  it("are told apart from numbers their value holds", () => {
    expect(isApproximateNumber("0.100000000000000000000001", 0.1)).toBe(true);
    expect(isApproximateNumber("100000000000000000000001.0", 100000000000000000000001n)).toBe(true);
    expect(isApproximateNumber("0.1", 0.1)).toBe(false);
    expect(isApproximateNumber("123456789012345678901234567890", 123456789012345678901234567890n)).toBe(false);
    expect(isApproximateNumber("1.5e3", 1500)).toBe(false);
  });

  const idl = `$version: "2.0"
namespace ex
@trait
structure cases { values: Values, nested: Nested }
list Values { member: BigDecimal }
structure Nested { d: BigDecimal, ref: String }
@cases(values: [0.100000000000000000000001, 1.5], nested: { d: 100000000000000000000001.0, ref: ex#S })
string S`;

  it("keep their source text next to the value, from IDL and from the JSON AST", () => {
    const { model, events } = loadModel({ sources: [{ file: "a.smithy", text: idl }] });
    expect(events.filter((e) => e.severity === "ERROR")).toEqual([]);
    const trait = model.getShape("ex#S")!.traits.get("ex#cases") as { values: number[]; nested: { d: bigint; ref: string } };
    expect(trait.values[0]).toBe(0.1);
    expect(exactNumberText(trait.values, 0)).toBe("0.100000000000000000000001");
    expect(exactNumberText(trait.values, 1)).toBeUndefined();
    // The nested object holds a shape id, so the assembler copied it: the text comes along.
    expect(trait.nested.ref).toBe("ex#S");
    expect(exactNumberText(trait.nested, "d")).toBe("100000000000000000000001.0");

    const json = stringifyNode(modelToJsonAst(model));
    expect(json).toContain('"values":[0.100000000000000000000001,1.5]');
    expect(json).toContain('"d":100000000000000000000001.0');
    const fromJson = loadModel({ sources: [{ file: "b.json", text: json }] }).model;
    const again = fromJson.getShape("ex#S")!.traits.get("ex#cases") as { values: number[]; nested: object };
    expect(exactNumberText(again.values, 0)).toBe("0.100000000000000000000001");
    expect(exactNumberText(again.nested, "d")).toBe("100000000000000000000001.0");
  });
});
