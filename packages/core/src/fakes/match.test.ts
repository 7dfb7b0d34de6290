import { describe, expect, it } from "vitest";
import * as b from "../codegen.js";
import { BigDecimal } from "../values/big-decimal.js";
import { compileExampleMatcher } from "./match.js";

const Inner = b.struct("t#Inner", [b.member("a", b.string), b.member("n", b.integer)]);
const Choice = b.union("t#Choice", [b.member("s", b.string), b.member("inner", Inner)]);
const Outer = b.struct("t#Outer", [
  b.member("inner", Inner),
  b.member("list", b.list("t#List", b.member("member", Inner))),
  b.member("sparse", b.list("t#Sparse", b.member("member", b.string), { sparse: true })),
  b.member("map", b.map("t#Map", b.member("key", b.string), b.member("value", b.string))),
  b.member("choice", Choice),
  b.member("doc", b.document),
  b.member("ratio", b.double),
  b.member("big", b.long),
  b.member("dec", b.bigDecimal),
  b.member("at", b.timestamp),
  b.member("bytes", b.blob),
]);

const match = compileExampleMatcher(Outer);

describe("example matching", () => {
  it.each([
    ["an empty example matches anything", {}, { inner: { a: "x" } }, true],
    ["absent and null members match anything", { inner: null }, { inner: { a: "x" } }, true],
    ["nested subset", { inner: { a: "x" } }, { inner: { a: "x", n: 1 } }, true],
    ["nested member differs", { inner: { a: "x" } }, { inner: { a: "y" } }, false],
    ["member missing from the input", { inner: { a: "x" } }, {}, false],
    ["lists element by element, elements as subsets", { list: [{ a: "x" }] }, { list: [{ a: "x", n: 2 }] }, true],
    ["lists of another length", { list: [{ a: "x" }] }, { list: [{ a: "x" }, { a: "x" }] }, false],
    ["a null element matches only null", { sparse: [null] }, { sparse: ["a"] }, false],
    ["null elements", { sparse: [null, "b"] }, { sparse: [null, "b"] }, true],
    ["maps per key", { map: { k: "v" } }, { map: { k: "v" } }, true],
    ["maps of another size", { map: { k: "v" } }, { map: { k: "v", l: "w" } }, false],
    ["maps with another value", { map: { k: "v" } }, { map: { k: "w" } }, false],
    ["unions on the variant", { choice: { $case: "inner", value: { a: "x" } } }, { choice: { $case: "inner", value: { a: "x", n: 3 } } }, true],
    ["unions of another variant", { choice: { $case: "s", value: "x" } }, { choice: { $case: "inner", value: { a: "x" } } }, false],
    ["documents match anything", { doc: { any: 1 } }, { doc: [2] }, true],
    ["NaN equals NaN", { ratio: Number.NaN }, { ratio: Number.NaN }, true],
    ["infinities compare as values", { ratio: Number.POSITIVE_INFINITY }, { ratio: Number.NEGATIVE_INFINITY }, false],
    ["long as number and bigint", { big: 5 }, { big: 5n }, true],
    ["long values differ", { big: 5n }, { big: 6 }, false],
    ["big decimals numerically", { dec: BigDecimal.from("1.0") }, { dec: BigDecimal.from("1") }, true],
    ["timestamps by instant", { at: new Date(1000) }, { at: new Date(1000) }, true],
    ["timestamps differ", { at: new Date(1000) }, { at: new Date(2000) }, false],
    ["blobs by bytes", { bytes: new Uint8Array([1, 2]) }, { bytes: new Uint8Array([1, 2]) }, true],
    ["blobs differ", { bytes: new Uint8Array([1, 2]) }, { bytes: new Uint8Array([1]) }, false],
  ])("%s", (_name, example, input, expected) => {
    expect(match(example, input)).toBe(expected);
  });

  it("compiles once per schema, recursion included", () => {
    const Tree: ReturnType<typeof b.struct> = b.struct("t#Tree", [b.member("v", b.string), b.member("kid", () => Tree)]);
    const m = compileExampleMatcher(Tree);
    expect(compileExampleMatcher(Tree)).toBe(m);
    expect(m({ kid: { kid: { v: "x" } } }, { v: "a", kid: { kid: { v: "x" } } })).toBe(true);
    expect(m({ kid: { kid: { v: "x" } } }, { kid: { kid: { v: "y" } } })).toBe(false);
  });
});
