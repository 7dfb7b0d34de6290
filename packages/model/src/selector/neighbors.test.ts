import { describe, expect, it } from "vitest";
import { forwardNeighbors, getNeighborIndex, reverseNeighbors } from "./neighbors.js";
import { exampleModel, modelOf, shape } from "./test-model.js";

const model = exampleModel();
const get = (id: string) => {
  const s = model.get(id);
  if (!s) throw new Error(`no shape ${id}`);
  return s;
};
const ids = (shapes: readonly { id: string }[]) => shapes.map((s) => s.id).sort();
/** Forward relationships of a shape as "type -> id" strings. */
const forward = (id: string) =>
  getNeighborIndex(model)
    .forward(get(id))
    .map((r) => `${r.type} -> ${r.shape.id}`);

describe("forward relationships", () => {
  it.each([
    ["ex#Input", ["member -> ex#Input$name", "member -> ex#Input$data", "member -> ex#Input$count", "member -> ex#Input$legacy"]],
    ["ex#Input$name", ["target -> ex#Name"]],
    ["ex#Color", ["member -> ex#Color$RED", "member -> ex#Color$GREEN"]],
    ["ex#Color$RED", []],
    ["ex#Tags", ["member -> ex#Tags$key", "member -> ex#Tags$value"]],
    ["ex#WithMixin", ["mixin -> ex#Base", "member -> ex#WithMixin$id", "member -> ex#WithMixin$when"]],
    ["ex#GetThing", ["input -> ex#Input", "output -> ex#Output", "error -> ex#NotFound"]],
    ["ex#PutThing", []],
    ["ex#Service", ["operation -> ex#Ping", "resource -> ex#Thing", "error -> ex#Throttled"]],
    [
      "ex#Thing",
      [
        "identifier -> ex#Name",
        "property -> ex#Count",
        "resource -> ex#Part",
        "put -> ex#PutThing",
        "operation -> ex#PutThing",
        "instanceOperation -> ex#PutThing",
        "read -> ex#GetThing",
        "operation -> ex#GetThing",
        "instanceOperation -> ex#GetThing",
        "delete -> ex#DeleteThing",
        "operation -> ex#DeleteThing",
        "instanceOperation -> ex#DeleteThing",
        "list -> ex#ListThings",
        "operation -> ex#ListThings",
        "collectionOperation -> ex#ListThings",
        "operation -> ex#TouchThing",
        "instanceOperation -> ex#TouchThing",
        "operation -> ex#BatchThings",
        "collectionOperation -> ex#BatchThings",
      ],
    ],
    ["ex#Name", []],
  ])("%s", (id, expected) => {
    expect(forward(id)).toEqual(expected);
  });

  it("leaves out targets missing from the model", () => {
    const m = modelOf(shape("ex#S", "structure", { members: { a: "ex#Missing" }, mixins: ["ex#AlsoMissing"] }));
    expect(forwardNeighbors(m, m.get("ex#S$a")!)).toEqual([]);
    expect(forwardNeighbors(m, m.get("ex#S")!)).toEqual([m.get("ex#S$a")]);
  });
});

describe("directed and reverse neighbor helpers", () => {
  it.each([
    [
      "ex#Thing",
      undefined,
      ["ex#Count", "ex#DeleteThing", "ex#GetThing", "ex#ListThings", "ex#Name", "ex#Part", "ex#PutThing", "ex#TouchThing", "ex#BatchThings"],
    ],
    ["ex#Thing", ["collectionOperation"], ["ex#BatchThings", "ex#ListThings"]],
    ["ex#Service", ["trait"], ["ex#restish"]],
    ["ex#GetPart", ["bound"], ["ex#Part"]],
    ["ex#Thing", ["bound"], ["ex#Service"]],
    ["ex#Input$name", ["member"], []],
  ] as const)("forwardNeighbors(%s, %j)", (id, types, expected) => {
    expect(ids(forwardNeighbors(model, get(id), types))).toEqual([...expected].sort());
  });

  it.each([
    [
      "ex#Name",
      undefined,
      ["ex#Base$id", "ex#Choice$name", "ex#Input$name", "ex#Names$member", "ex#OldSet$member", "ex#Part", "ex#Tags$key", "ex#Thing", "ex#WithMixin$id"],
    ],
    ["ex#Name", ["identifier"], ["ex#Part", "ex#Thing"]],
    ["ex#Input", ["input"], ["ex#GetThing"]],
    ["ex#Input$name", undefined, ["ex#Input"]],
    ["ex#Base", ["mixin"], ["ex#WithMixin"]],
    ["smithy.api#required", ["trait"], ["ex#Input$name", "ex#NotFound$message"]],
    ["smithy.api#required", undefined, []],
    ["ex#Service", ["bound"], ["ex#Ping", "ex#Thing"]],
    ["ex#Thing", ["bound"], ["ex#BatchThings", "ex#DeleteThing", "ex#GetThing", "ex#ListThings", "ex#Part", "ex#PutThing", "ex#TouchThing"]],
  ] as const)("reverseNeighbors(%s, %j)", (id, types, expected) => {
    expect(ids(reverseNeighbors(model, get(id), types))).toEqual([...expected].sort());
  });

  it("caches one index per model", () => {
    expect(getNeighborIndex(model)).toBe(getNeighborIndex(model));
    expect(getNeighborIndex(exampleModel())).not.toBe(getNeighborIndex(model));
  });
});
