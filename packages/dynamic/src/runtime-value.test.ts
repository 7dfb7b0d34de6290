import { BigDecimal } from "@anvil/core";
import { loadModel } from "@anvil/model";
import { describe, expect, it } from "vitest";
import { runtimeValue } from "./index.js";

const { model } = loadModel({
  sources: [
    {
      file: "v.smithy",
      text: `
$version: "2"
namespace v
union U { a: Timestamp, b: String }
map M { key: String, value: Blob }
list L { member: BigDecimal }
structure S { when: Timestamp, u: U, extra: Document }
`,
    },
  ],
});

describe("runtimeValue", () => {
  it.each([
    ["smithy.api#Timestamp", 1.5, new Date(1500)],
    ["smithy.api#Timestamp", "1970-01-01T00:00:02+00:00", new Date(2000)],
    ["smithy.api#Double", "NaN", Number.NaN],
    ["smithy.api#Float", "-Infinity", Number.NEGATIVE_INFINITY],
    ["smithy.api#Long", 2n ** 70n, 2n ** 70n],
    ["smithy.api#Blob", "AAEC", new Uint8Array([0, 1, 2])],
    ["v#U", { a: 3 }, { $case: "a", value: new Date(3000) }],
    ["v#M", { __proto__x: "AA==" }, { __proto__x: new Uint8Array([0]) }],
    ["v#S", { when: 0, u: { b: "x" }, extra: { k: [1n] } }, { when: new Date(0), u: { $case: "b", value: "x" }, extra: { k: [1n] } }],
  ])("converts %s %s", (id, node, expected) => {
    expect(runtimeValue(model, id, node as never, "test")).toEqual(expected);
  });

  it("gives a bigDecimal the exact text of a number a double only approximates", () => {
    const { model: exact } = loadModel({
      sources: [
        {
          file: "d.smithy",
          text: `$version: "2"\nnamespace d\n@trait\nstructure t { v: L }\nlist L { member: BigDecimal }\n@t(v: [0.100000000000000000000001, 100000000000000000000001.0])\nstring S`,
        },
      ],
    });
    const node = (exact.getShape("d#S")!.traits.get("d#t") as { v: number[] }).v;
    const out = runtimeValue(exact, "d#L", node, "test") as BigDecimal[];
    expect(out.map(String)).toEqual(["0.100000000000000000000001", "100000000000000000000001.0"]);
  });

  it("keeps __proto__ map keys as data", () => {
    const out = runtimeValue(model, "v#M", JSON.parse('{"__proto__":"AA=="}'), "test") as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(["__proto__"]);
  });

  it("makes exact BigDecimals from numbers and bigints", () => {
    const out = runtimeValue(model, "v#L", [1.25, 10n ** 30n], "test") as BigDecimal[];
    expect(out.map(String)).toEqual(["1.25", "1000000000000000000000000000000"]);
    expect(out.every((d) => BigDecimal.is(d))).toBe(true);
  });

  it.each([
    ["smithy.api#Timestamp", "yesterday"],
    ["smithy.api#Blob", "!!"],
    ["smithy.api#Blob", 3],
    ["smithy.api#BigDecimal", "lots"],
    ["smithy.api#BigDecimal", true],
  ])("rejects %s %s with context", (id, node) => {
    expect(() => runtimeValue(model, id, node, "here")).toThrow(/^schemasFromModel: here: /);
    expect(() => runtimeValue(model, id, node, "here")).toThrow(expect.objectContaining({ name: "NodeValueError", reason: expect.stringMatching(/^here: /) }));
  });
});
