import { describe, expect, it } from "vitest";
import type { Model } from "../model.js";
import { exampleModel } from "./test-model.js";
import { matchesSelector, parseSelector, selectShapes } from "./selector.js";

const model: Model = exampleModel();

/** Ids selected by `text`, sorted; prelude (smithy.api) shapes are skipped unless asked for. */
function select(text: string, includePrelude = false): string[] {
  return [...selectShapes(model, parseSelector(text))]
    .map((s) => s.id)
    .filter((id) => includePrelude || !id.startsWith("smithy.api#"))
    .sort();
}

const ex = (...names: string[]): string[] => names.map((n) => `ex#${n}`).sort();

const OPERATIONS = ["GetThing", "PutThing", "DeleteThing", "ListThings", "TouchThing", "BatchThings", "GetPart", "Ping"];
const SIMPLE = ["Name", "Count", "BadRange", "Ratio", "Data", "When", "Doc", "Flag", "Color", "Level", "Legacy"];
const STRUCTURE_MEMBERS = [
  "Base$id",
  "WithMixin$id",
  "WithMixin$when",
  "Input$name",
  "Input$data",
  "Input$count",
  "Input$legacy",
  "Output$names",
  "Output$ratio",
  "NotFound$message",
  "Unused$flag",
  "Unused$doc",
];

interface Case {
  readonly selector: string;
  readonly expected: readonly string[];
  readonly prelude?: boolean;
}

const shapeTypeCases: Case[] = [
  { selector: "blob", expected: ex("Data") },
  { selector: "boolean", expected: ex("Flag") },
  { selector: "document", expected: ex("Doc") },
  { selector: "timestamp", expected: ex("When") },
  { selector: "float", expected: ex("Ratio") },
  { selector: "long", expected: ex("BadRange") },
  { selector: "string", expected: ex("Name", "Legacy", "Color") },
  { selector: "integer", expected: ex("Count", "Level") },
  { selector: "number", expected: ex("Count", "BadRange", "Ratio", "Level") },
  { selector: "enum", expected: ex("Color") },
  { selector: "intEnum", expected: ex("Level") },
  { selector: "simpleType", expected: ex(...SIMPLE) },
  {
    selector: "dataType",
    expected: ex(
      ...SIMPLE,
      "Names",
      "OldSet",
      "Tags",
      "Choice",
      "restish",
      "unusedTrait",
      "Base",
      "WithMixin",
      "Input",
      "Output",
      "NotFound",
      "Throttled",
      "Unused",
    ),
  },
  { selector: "list", expected: ex("Names", "OldSet") },
  { selector: "set", expected: ex("Names", "OldSet") },
  { selector: "collection", expected: ex("Names", "OldSet") },
  { selector: "map", expected: ex("Tags") },
  { selector: "union", expected: ex("Choice") },
  { selector: "structure", expected: ex("restish", "unusedTrait", "Base", "WithMixin", "Input", "Output", "NotFound", "Throttled", "Unused") },
  { selector: "operation", expected: ex(...OPERATIONS) },
  { selector: "resource", expected: ex("Thing", "Part") },
  { selector: "service", expected: ex("Service") },
  { selector: ":not(enum) :not(member) [id|name = Color, Level]", expected: ex("Level") },
];

const preludeSelectorCases: Case[] = [
  { selector: "structure > member", expected: ex(...STRUCTURE_MEMBERS) },
  {
    selector: ":is(simpleType, list, map, structure, union)",
    expected: ex(
      ...SIMPLE,
      "Names",
      "OldSet",
      "Tags",
      "Choice",
      "restish",
      "unusedTrait",
      "Base",
      "WithMixin",
      "Input",
      "Output",
      "NotFound",
      "Throttled",
      "Unused",
    ),
  },
  {
    selector: ":test(member > string)",
    expected: ex("Names$member", "OldSet$member", "Tags$key", "Choice$name", "Base$id", "WithMixin$id", "Input$name", "Input$legacy", "NotFound$message"),
  },
  {
    selector: "structure > :test(member > :test(blob, string, number))",
    expected: ex("Base$id", "WithMixin$id", "Input$name", "Input$data", "Input$count", "Input$legacy", "Output$ratio", "NotFound$message"),
  },
  {
    selector: "structure > member :test(> :is(blob, string))",
    expected: ex("Base$id", "WithMixin$id", "Input$name", "Input$data", "Input$legacy", "NotFound$message"),
  },
  { selector: "[trait|streaming]", expected: ex("Data") },
  { selector: ":is(operation, service) :test(-[input, output]-> structure)", expected: ex("GetThing") },
  { selector: "[trait|error = client]", expected: ex("NotFound") },
  { selector: "structure[trait|error]", expected: ex("NotFound", "Throttled") },
  { selector: ":is(list, map) > member", expected: ex("Names$member", "OldSet$member", "Tags$key", "Tags$value") },
  {
    selector: ":test(> member)",
    expected: ex("Color", "Level", "Names", "OldSet", "Tags", "Choice", "Base", "WithMixin", "Input", "Output", "NotFound", "Unused"),
  },
  { selector: "string :not([trait|enum])", expected: ex("Name", "Color") },
  { selector: ":test(operation -[input]-> structure > member)", expected: ex("GetThing") },
  {
    selector: "member :not([trait|required])",
    expected: ex(
      ...STRUCTURE_MEMBERS.filter((m) => m !== "Input$name" && m !== "NotFound$message"),
      "Color$RED",
      "Color$GREEN",
      "Level$LOW",
      "Names$member",
      "OldSet$member",
      "Tags$key",
      "Tags$value",
      "Choice$name",
      "Choice$count",
    ),
  },
  { selector: ":is(enum, intEnum) > member", expected: ex("Color$RED", "Color$GREEN", "Level$LOW") },
  { selector: "structure > member[trait|required] :test(> string)", expected: ex("Input$name", "NotFound$message") },
  {
    selector: ":test(number, member > number)",
    expected: ex("Count", "BadRange", "Ratio", "Level", "Tags$value", "Choice$count", "Input$count", "Output$ratio"),
  },
  { selector: ":test(timestamp, member > timestamp)", expected: ex("When", "WithMixin$when") },
  { selector: "list :not(> member ~> :is(float, double, document))", expected: ex("Names", "OldSet") },
  { selector: ":is(structure, union) > :test(member > collection)", expected: ex("Output$names") },
  {
    selector: "[trait|trait]",
    expected: ["smithy.api#trait", "smithy.api#required", "smithy.api#documentation", "smithy.api#protocolDefinition", "ex#restish", "ex#unusedTrait"].sort(),
    prelude: true,
  },
];

const attributeCases: Case[] = [
  { selector: "[id = ex#Name]", expected: ex("Name") },
  { selector: "[id = 'ex#Input$name']", expected: ex("Input$name") },
  { selector: "[id|namespace = 'smithy.api'] :not([trait|trait])", expected: ["smithy.api#String", "smithy.api#Unit"], prelude: true },
  { selector: "[id|name = Input]", expected: ex("Input", "Input$name", "Input$data", "Input$count", "Input$legacy") },
  { selector: "[id|member = name]", expected: ex("Input$name", "Choice$name") },
  { selector: "[id|name ^= Get]", expected: ex("GetThing", "GetPart") },
  { selector: "[id|name $= Thing] :not(member)", expected: ex("GetThing", "PutThing", "DeleteThing", "TouchThing", "Thing") },
  { selector: "[id|name *= ist]", expected: ex("ListThings") },
  { selector: "[id|name = name, input i] :not(member)", expected: ex("Name", "Input") },
  { selector: "[id|name = name, input] :not(member)", expected: [] },
  { selector: "[id|name != Input] [id|name ^= In]", expected: [] },
  { selector: "[id|member|(length) > 6]", expected: ex("NotFound$message") },
  { selector: "[id|(length) < 7]", expected: ex("Doc") },
  { selector: "[service]", expected: ex("Service") },
  { selector: "[service = ex#Service]", expected: ex("Service") },
  { selector: "[service|version ^= '2020-']", expected: ex("Service") },
  { selector: "[service|version ^= '2019-']", expected: [] },
  { selector: "[service|id|name = Service]", expected: ex("Service") },
  { selector: "[shape|id = ex#Name]", expected: ex("Name") },
  { selector: "[trait|range|min = 1]", expected: ex("Count") },
  { selector: "[trait|range|min > 1]", expected: ex("BadRange") },
  { selector: "[trait|range|min >= 1]", expected: ex("Count", "BadRange") },
  { selector: "[trait|range|max <= 1]", expected: ex("BadRange") },
  { selector: "[trait|range|max < 10.5]", expected: ex("Count", "BadRange") },
  { selector: "[trait|httpError >= 500]", expected: ex("Throttled") },
  { selector: '[trait|httpError >= "not a number!"]', expected: [] },
  { selector: "[trait|httpError = 404, 503]", expected: ex("NotFound", "Throttled") },
  { selector: "[trait|error != client]", expected: ex("Throttled") },
  { selector: "[trait|smithy.api#error = server]", expected: ex("Throttled") },
  { selector: "[trait|documentation *= ping i]", expected: ex("Ping") },
  { selector: "[trait|documentation *= ping]", expected: [] },
  { selector: "[trait|documentation $= '!']", expected: ex("Ping") },
  { selector: "[trait|documentation|(length) < 6]", expected: ex("Ping") },
  { selector: "[trait|enum|(values)|tags|(values) = internal]", expected: ex("Legacy") },
  { selector: "[trait|enum|(values)|tags|(values)]", expected: ex("Legacy") },
  { selector: "[trait|enum|(values)|(first)|value = a]", expected: ex("Legacy") },
  { selector: "[trait|enum|(first)]", expected: [] },
  { selector: "[trait|enum|(values)|value = b]", expected: ex("Legacy") },
  { selector: "[trait|enum|(length) = 2]", expected: ex("Legacy") },
  { selector: "[trait|tags|(values) = alpha i]", expected: ex("Legacy") },
  { selector: "[trait|tags|(values) = alpha]", expected: [] },
  { selector: "[trait|(keys) = smithy.api#streaming]", expected: ex("Data") },
  { selector: "[trait|(keys)|namespace = ex]", expected: ex("Service", "Thing", "Part", "GetPart") },
  { selector: "[trait|(values)|selector = service]", expected: ex("restish") },
  { selector: "[trait|(length) > 2]", expected: ex("Throttled") },
  { selector: "[trait|required ?= true]", expected: ex("Input$name", "NotFound$message") },
  { selector: "member [trait|required ?= false] [id|name = Input]", expected: ex("Input$data", "Input$count", "Input$legacy") },
  { selector: "[trait|documentation|invalid|child = Hi]", expected: [] },
  { selector: "[trait|length|(keys) = max]", expected: ex("Name") },
  { selector: "[trait|length|'min' = 1]", expected: ex("Name") },
  { selector: "[trait = foo]", expected: [] },
  { selector: "[trait | range\n   | min = 1 ]", expected: ex("Count") },
];

const scopedCases: Case[] = [
  { selector: "[@trait|range: @{min} > @{max}]", expected: ex("BadRange") },
  { selector: "[@trait|range: @{min} = 1, 10 && @{max} = 10]", expected: ex("Count") },
  { selector: "[trait|trait][@: @{trait|(keys)} = @{id}]", expected: ["smithy.api#trait"], prelude: true },
  { selector: '[@trait|enum|(values): @{deprecated} = true && @{tags|(values)} = "deprecated"]', expected: ex("Legacy") },
  { selector: "[@trait|enum|(values): @{value} = A i && @{deprecated} ?= false]", expected: ex("Legacy") },
  { selector: "[@trait|enum|(values): @{value} = A && @{deprecated} ?= false]", expected: [] },
  { selector: "[@trait|enum|(values): @{value} = b && @{deprecated} ?= false]", expected: [] },
  { selector: "[@trait|enum: @{(values)|tags|(values)} {=} @{(values)|tags|(values)}]", expected: ex("Legacy") },
  { selector: "[@trait|enum: @{(values)|tags|(values)} {<} @{(values)|tags|(values)}]", expected: ex("Legacy") },
  { selector: "[@trait|enum: @{(values)|tags|(values)} {<<} @{(values)|tags|(values)}]", expected: [] },
  { selector: "[@trait|enum: @{(values)|(first)|tags|(values)} {<<} @{(values)|tags|(values)}]", expected: ex("Legacy") },
  { selector: "[@trait|enum: @{(values)|(first)|tags|(values)} {=} @{(values)|tags|(values)}]", expected: [] },
  { selector: "[@trait|enum: @{(values)|(first)|tags|(values)} {!=} @{(values)|tags|(values)}]", expected: ex("Legacy") },
  { selector: "[@: @{id} {=} @{id}]", expected: [] },
  { selector: "simpleType [@: @{id} {!=} @{id}]", expected: ex(...SIMPLE) },
  { selector: "[@trait|tags: @{(values)} = ALPHA i && @{(length)} = 2]", expected: ex("Legacy") },
  { selector: "[@trait|missing: @{x} ?= false]", expected: [] },
];

const neighborCases: Case[] = [
  { selector: "operation > *", expected: ex("Input", "Output", "NotFound") },
  { selector: "operation -[input, output]-> structure", expected: ex("Input", "Output") },
  { selector: "operation -[error]->", expected: ex("NotFound") },
  { selector: "service -[operation]->", expected: ex("Ping") },
  { selector: "service -[resource]->", expected: ex("Thing") },
  { selector: "service -[error]->", expected: ex("Throttled") },
  { selector: "service > *", expected: ex("Ping", "Thing", "Throttled") },
  { selector: "resource -[operation]->", expected: ex("PutThing", "GetThing", "DeleteThing", "ListThings", "TouchThing", "BatchThings", "GetPart") },
  { selector: "resource -[instanceOperation]->", expected: ex("PutThing", "GetThing", "DeleteThing", "TouchThing", "GetPart") },
  { selector: "resource -[collectionOperation]->", expected: ex("ListThings", "BatchThings") },
  { selector: "resource -[read]->", expected: ex("GetThing", "GetPart") },
  { selector: "resource -[put]->", expected: ex("PutThing") },
  { selector: "resource -[delete]->", expected: ex("DeleteThing") },
  { selector: "resource -[list]->", expected: ex("ListThings") },
  { selector: "resource -[create, update]->", expected: [] },
  { selector: "resource -[identifier]->", expected: ex("Name") },
  { selector: "resource -[property]->", expected: ex("Count") },
  { selector: "resource -[resource]->", expected: ex("Part") },
  { selector: "resource -[nonsense]->", expected: [] },
  { selector: ":test(-[bound]-> service)", expected: ex("Ping", "Thing") },
  { selector: "operation -[bound]->", expected: ex("Service", "Thing", "Part") },
  { selector: "service <-[bound]-", expected: ex("Ping", "Thing") },
  { selector: "[id = ex#Part] <-[bound]-", expected: ex("GetPart") },
  { selector: "-[mixin]->", expected: ex("Base") },
  { selector: "structure :test(-[mixin]->)", expected: ex("WithMixin") },
  { selector: "[trait|mixin] <-[mixin]-", expected: ex("WithMixin") },
  { selector: "service -[trait]->", expected: ex("restish") },
  { selector: "service > [trait|trait]", expected: [] },
  { selector: "service :test(-[trait]-> [trait|protocolDefinition])", expected: ex("Service") },
  { selector: "service :not(-[trait]-> [trait|protocolDefinition])", expected: [] },
  { selector: "[trait|trait] :not(<-[trait]-)", expected: ex("unusedTrait") },
  { selector: "[id = ex#restish] <-[trait]-", expected: ex("Service") },
  { selector: "member -[member]->", expected: [] },
  { selector: "enum > member", expected: ex("Color$RED", "Color$GREEN") },
  { selector: "intEnum > member > *", expected: [] },
  { selector: "list > member > string", expected: ex("Name") },
  { selector: "string :test(< member < list)", expected: ex("Name") },
  { selector: "map > member", expected: ex("Tags$key", "Tags$value") },
  { selector: "[id = 'ex#Tags$value'] <", expected: ex("Tags") },
  { selector: "[id = ex#Data] < member < structure <-[input, output]- operation", expected: ex("GetThing") },
  { selector: "[trait|streaming] :test(<) :not(< member < structure <-[input, output]- operation)", expected: [] },
  { selector: "service ~> operation", expected: ex(...OPERATIONS) },
  { selector: "[id = ex#Part] ~> *", expected: ex("GetPart", "Name") },
  { selector: "[id = ex#Input] ~> *", expected: ex("Input$name", "Input$data", "Input$count", "Input$legacy", "Name", "Data", "Count", "Legacy") },
  {
    selector: ":not([trait|trait]) :not(< *)",
    expected: ex("Service", "Unused", "BadRange", "Color", "Level", "Tags", "Choice", "WithMixin", "OldSet"),
  },
  { selector: "service[trait|ex#restish] ~> operation :not([trait|readonly]) -[input]->", expected: [] },
];

const functionCases: Case[] = [
  { selector: ":is(string, number)", expected: ex("Name", "Legacy", "Color", "Count", "BadRange", "Ratio", "Level") },
  { selector: ":each(blob, boolean)", expected: ex("Data", "Flag") },
  { selector: "member > :is(blob, boolean)", expected: ex("Data", "Flag") },
  { selector: ":is(list > member > *, map > member > *)", expected: ex("Name", "Count") },
  {
    selector: ":not(string) :not(simpleType) :not(member) :not(:is(structure, operation, resource))",
    expected: ex("Names", "OldSet", "Tags", "Choice", "Service"),
  },
  { selector: "list :not(> member > string)", expected: [] },
  { selector: "structure > member :not([trait|required]) :test(> string :not([trait|length]))", expected: ex("Input$legacy") },
  { selector: "list:test(> member > string)", expected: ex("Names", "OldSet") },
  { selector: ":test(string, number) [trait|range]", expected: ex("Count", "BadRange") },
  { selector: ":nosuchfunction(*)", expected: [] },
  { selector: "string :nosuchfunction(*, member)", expected: [] },
  {
    selector: "structure :in(:is(structure, list))",
    expected: ex("restish", "unusedTrait", "Base", "WithMixin", "Input", "Output", "NotFound", "Throttled", "Unused"),
  },
  { selector: "member :in(structure > member)", expected: [] },
  {
    selector: "number :in(:root(service ~> operation -[input]-> ~> number)) :not(:in(:root(service ~> operation -[output]-> ~> number)))",
    expected: ex("Count"),
  },
  { selector: ":root(enum)", expected: ex("Color") },
  {
    selector: ":topdown([trait|ex#dataPlane])",
    expected: ex("Thing", "PutThing", "GetThing", "DeleteThing", "ListThings", "TouchThing", "BatchThings", "Part", "GetPart"),
  },
  {
    selector: ":topdown([trait|ex#dataPlane], [trait|ex#controlPlane])",
    expected: ex("Thing", "PutThing", "GetThing", "DeleteThing", "ListThings", "TouchThing", "BatchThings", "GetPart"),
  },
  { selector: "operation :topdown([trait|ex#dataPlane])", expected: ex("GetPart") },
  { selector: ":topdown([trait|documentation])", expected: ex("Ping") },
  { selector: "string :topdown(*)", expected: [] },
  { selector: "service :recursive(-[resource]->)", expected: ex("Thing", "Part") },
  { selector: "[id = ex#WithMixin] :recursive(-[mixin]->) [id = ex#Base]", expected: ex("Base") },
];

const variableCases: Case[] = [
  { selector: "service $service(*) ~> operation [@: @{var|service|id|name} = Service]", expected: ex(...OPERATIONS) },
  { selector: "service $service(*) ~> operation [var|service|id|name = Other]", expected: [] },
  {
    selector: "$structs(structure) ${structs}",
    expected: ex("restish", "unusedTrait", "Base", "WithMixin", "Input", "Output", "NotFound", "Throttled", "Unused"),
  },
  { selector: "${missing}", expected: [] },
  {
    selector: "service $outputs(~> operation -[output]-> ~> number) ~> operation -[input]-> ~> number :not(:in(${outputs}))",
    expected: ex("Count"),
  },
  {
    selector: "service $auth(-[trait]-> [trait|protocolDefinition]) ~> operation [@: @{var|auth|id} {<} @{var|auth|id}]",
    expected: ex(...OPERATIONS),
  },
  { selector: "service $x(-[operation]->) :in(${x})", expected: [] },
];

const allCases: [string, Case[]][] = [
  ["shape types", shapeTypeCases],
  ["selectors used by prelude trait definitions", preludeSelectorCases],
  ["attribute selectors", attributeCases],
  ["scoped attribute selectors", scopedCases],
  ["neighbor selectors", neighborCases],
  ["functions", functionCases],
  ["variables", variableCases],
];

describe("selectShapes", () => {
  for (const [name, cases] of allCases) {
    describe(name, () => {
      it.each(cases)("$selector", ({ selector, expected, prelude }) => {
        expect(select(selector, prelude)).toEqual([...expected].sort());
      });
    });
  }

  it("matches every shape and member with *", () => {
    const all = [...model.allShapes()];
    expect(selectShapes(model, parseSelector("*")).size).toBe(all.length);
  });

  it(":not(member) yields every top-level shape and no member", () => {
    const result = selectShapes(model, parseSelector(":not(member)"));
    expect(result.size).toBe(model.shapes.size);
    for (const s of result) expect(s.type).not.toBe("member");
  });

  it(":not(:test(< structure)) excludes structure members and mixins, keeps others", () => {
    const ids = select(":not(:test(< structure))");
    expect(ids).toContain("ex#Name");
    expect(ids).toContain("ex#Names$member");
    expect(ids).toContain("ex#Input");
    expect(ids).not.toContain("ex#Input$name");
    expect(ids).not.toContain("ex#Base");
  });

  it("yields the shape objects of the model", () => {
    const [member] = selectShapes(model, parseSelector("[id = 'ex#Input$name']"));
    expect(member).toBe(model.getMember("ex#Input$name"));
  });
});

describe("matchesSelector agrees with selectShapes for every shape", () => {
  const everySelector = allCases.flatMap(([, cases]) => cases.map((c) => c.selector));
  it.each(everySelector)("%s", (text) => {
    const selector = parseSelector(text);
    const selected = selectShapes(model, selector);
    for (const shape of model.allShapes()) {
      expect([shape.id, matchesSelector(model, selector, shape)]).toEqual([shape.id, selected.has(shape)]);
    }
  });
});
