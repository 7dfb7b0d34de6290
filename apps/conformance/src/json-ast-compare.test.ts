import { describe, expect, it } from "vitest";
import { diffJsonAst, jsonAstEquals, jsonEquals, stableStringify, type JsonAstDocument } from "./json-ast-compare.js";

const struct = (extra: object = {}) => ({
  type: "structure",
  members: { a: { target: "smithy.api#String" }, b: { target: "smithy.api#Integer", traits: { "smithy.api#required": {} } } },
  ...extra,
});

describe("jsonAstEquals", () => {
  it.each<{ name: string; left: JsonAstDocument; right: JsonAstDocument; equal: boolean }>([
    { name: "version string ignored", left: { smithy: "1.0", shapes: {} }, right: { smithy: "2.0", shapes: {} }, equal: true },
    { name: "missing vs empty metadata", left: { smithy: "2.0", shapes: {} }, right: { smithy: "2.0", metadata: {}, shapes: {} }, equal: true },
    {
      name: "key order",
      left: { smithy: "2.0", shapes: { "a#A": struct(), "a#B": { type: "string" } } },
      right: {
        smithy: "2.0",
        shapes: {
          "a#B": { type: "string" },
          "a#A": {
            members: { b: { traits: { "smithy.api#required": {} }, target: "smithy.api#Integer" }, a: { target: "smithy.api#String" } },
            type: "structure",
          },
        },
      },
      equal: true,
    },
    {
      name: "empty traits, members and lists vs absent",
      left: { smithy: "2.0", shapes: { "a#A": { type: "string", traits: {}, mixins: [] }, "a#S": { type: "structure", members: {} } } },
      right: { smithy: "2.0", shapes: { "a#A": { type: "string" }, "a#S": { type: "structure" } } },
      equal: true,
    },
    {
      name: "empty member traits vs absent",
      left: { shapes: { "a#A": { type: "list", member: { target: "a#B", traits: {} } } } },
      right: { shapes: { "a#A": { type: "list", member: { target: "a#B" } } } },
      equal: true,
    },
    {
      name: "set-valued properties in any order",
      left: { shapes: { "a#S": { type: "service", operations: [{ target: "a#X" }, { target: "a#Y" }], mixins: [{ target: "a#M1" }, { target: "a#M2" }] } } },
      right: { shapes: { "a#S": { type: "service", operations: [{ target: "a#Y" }, { target: "a#X" }], mixins: [{ target: "a#M2" }, { target: "a#M1" }] } } },
      equal: true,
    },
    {
      name: "errors keep their order",
      left: { shapes: { "a#O": { type: "operation", errors: [{ target: "a#E1" }, { target: "a#E2" }] } } },
      right: { shapes: { "a#O": { type: "operation", errors: [{ target: "a#E2" }, { target: "a#E1" }] } } },
      equal: false,
    },
    {
      name: "trait arrays keep their order",
      left: { shapes: { "a#A": { type: "string", traits: { "a#t": [1, 2] } } } },
      right: { shapes: { "a#A": { type: "string", traits: { "a#t": [2, 1] } } } },
      equal: false,
    },
    {
      name: "different trait value",
      left: { shapes: { "a#A": { type: "string", traits: { "smithy.api#documentation": "x" } } } },
      right: { shapes: { "a#A": { type: "string", traits: { "smithy.api#documentation": "y" } } } },
      equal: false,
    },
    {
      name: "numbers written differently are the same number",
      left: { metadata: { n: 10.0 }, shapes: {} },
      right: { metadata: { n: 10 }, shapes: {} },
      equal: true,
    },
    {
      name: "missing shape",
      left: { shapes: { "a#A": { type: "string" } } },
      right: { shapes: {} },
      equal: false,
    },
    {
      name: "metadata differs",
      left: { metadata: { k: [true, "true"] }, shapes: {} },
      right: { metadata: { k: ["true", true] }, shapes: {} },
      equal: false,
    },
    {
      name: "apply vs in place",
      left: { shapes: { "a#A": { type: "structure", members: { m: { target: "a#T", traits: { "a#t": 1 } } }, traits: { "a#u": 2 } } } },
      right: {
        shapes: {
          "a#A": { type: "structure", members: { m: { target: "a#T" } }, traits: { "a#u": 2 } },
          "a#A$m": { type: "apply", traits: { "a#t": 1 } },
        },
      },
      equal: true,
    },
    {
      name: "apply to a list member",
      left: { shapes: { "a#L": { type: "list", member: { target: "a#T", traits: { "a#t": 1 } } } } },
      right: { shapes: { "a#L": { type: "list", member: { target: "a#T" } }, "a#L$member": { type: "apply", traits: { "a#t": 1 } } } },
      equal: true,
    },
    {
      name: "apply to a prelude shape is kept",
      left: { shapes: { "smithy.api#String": { type: "apply", traits: { "a#t": 1 } } } },
      right: { shapes: {} },
      equal: false,
    },
    {
      name: "trait repeated where it is inherited",
      left: {
        shapes: {
          "a#M": { type: "structure", members: { x: { target: "a#T", traits: { "a#t": 1 } } }, traits: { "smithy.api#mixin": {}, "a#s": 2 } },
          "a#S": { type: "structure", mixins: [{ target: "a#M" }] },
        },
      },
      right: {
        shapes: {
          "a#M": { type: "structure", members: { x: { target: "a#T", traits: { "a#t": 1 } } }, traits: { "smithy.api#mixin": {}, "a#s": 2 } },
          "a#S": { type: "structure", mixins: [{ target: "a#M" }], members: { x: { target: "a#T", traits: { "a#t": 1 } } }, traits: { "a#s": 2 } },
          "a#S$x": { type: "apply", traits: { "a#t": 1 } },
        },
      },
      equal: true,
    },
    {
      name: "an overriding trait value differs",
      left: {
        shapes: {
          "a#M": { type: "structure", members: { x: { target: "a#T", traits: { "a#t": 1 } } }, traits: { "smithy.api#mixin": {} } },
          "a#S": { type: "structure", mixins: [{ target: "a#M" }], members: { x: { target: "a#T", traits: { "a#t": 2 } } } },
        },
      },
      right: {
        shapes: {
          "a#M": { type: "structure", members: { x: { target: "a#T", traits: { "a#t": 1 } } }, traits: { "smithy.api#mixin": {} } },
          "a#S": { type: "structure", mixins: [{ target: "a#M" }] },
        },
      },
      equal: false,
    },
    {
      name: "local traits of a mixin are not inherited",
      left: {
        shapes: {
          "a#M": { type: "string", traits: { "smithy.api#mixin": { localTraits: ["a#loc"] }, "a#loc": 1 } },
          "a#S": { type: "string", mixins: [{ target: "a#M" }] },
        },
      },
      right: {
        shapes: {
          "a#M": { type: "string", traits: { "smithy.api#mixin": { localTraits: ["a#loc"] }, "a#loc": 1 } },
          "a#S": { type: "string", mixins: [{ target: "a#M" }], traits: { "a#loc": 1 } },
        },
      },
      equal: false,
    },
    {
      name: "mixin cycles do not hang",
      left: { shapes: { "a#A": { type: "structure", mixins: [{ target: "a#B" }] }, "a#B": { type: "structure", mixins: [{ target: "a#A" }] } } },
      right: { shapes: { "a#A": { type: "structure", mixins: [{ target: "a#B" }] }, "a#B": { type: "structure", mixins: [{ target: "a#A" }] } } },
      equal: true,
    },
  ])("$name", ({ left, right, equal }) => {
    expect(jsonAstEquals(left, right)).toBe(equal);
    expect(diffJsonAst(left, right).length === 0).toBe(equal);
  });
});

describe("diffJsonAst", () => {
  it("names the paths that differ", () => {
    const left = { shapes: { "a#A": struct({ traits: { "smithy.api#documentation": "x" } }) } };
    const right = { shapes: { "a#A": struct({ traits: { "smithy.api#documentation": "y" } }), "a#B": { type: "blob" } } };
    expect(diffJsonAst(left, right, { leftLabel: "json", rightLabel: "idl" })).toEqual([
      'shapes["a#A"].traits["smithy.api#documentation"]: json "x", idl "y"',
      'shapes["a#B"]: only in idl ({"type":"blob"})',
    ]);
  });

  it("reports a missing member on the left side", () => {
    const left = { shapes: { "a#A": struct() } };
    const right = { shapes: { "a#A": { type: "structure", members: { a: { target: "smithy.api#String" } } } } };
    expect(diffJsonAst(left, right)).toEqual([
      'shapes["a#A"].members.b: only in expected ({"target":"smithy.api#Integer","traits":{"smithy.api#required":{}}})',
    ]);
  });

  it("caps the number of lines", () => {
    const shapes = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`a#S${i}`, { type: "string" }]));
    const lines = diffJsonAst({ shapes: shapes(5) }, { shapes: {} }, { limit: 2 });
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("... and 3 more difference(s)");
  });

  it("shortens long values", () => {
    const long = "z".repeat(200);
    const [line] = diffJsonAst({ metadata: { k: long }, shapes: {} }, { metadata: { k: "" }, shapes: {} });
    expect(line!.length).toBeLessThan(200);
    expect(line).toContain("...");
  });
});

describe("jsonEquals / stableStringify", () => {
  it.each([
    [{ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, true],
    [[1, 2], [1, 2, 3], false],
    [null, {}, false],
    [{}, [], false],
    ["1", 1, false],
  ])("%j vs %j", (a, b, want) => {
    expect(jsonEquals(a, b)).toBe(want);
    expect(stableStringify(a) === stableStringify(b)).toBe(want);
  });
});
