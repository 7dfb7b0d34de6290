import { describe, expect, it } from "vitest";
import { SELECTOR_COMPARATORS, type SelectorExpression, type SelectorPathSegment } from "./ast.js";
import { SelectorSyntaxError } from "./selector-syntax-error.js";
import { parseSelector } from "./selector.js";

const prop = (name: string): SelectorPathSegment => ({ kind: "property", name, traitId: name.includes("#") ? name : `smithy.api#${name}` });

describe("parseSelector builds the expression tree", () => {
  const cases: [string, SelectorExpression[]][] = [
    ["*", [{ kind: "shapeType", shapeType: "*" }]],
    [
      "structure > member",
      [
        { kind: "shapeType", shapeType: "structure" },
        { kind: "neighbor", direction: "forward" },
        { kind: "shapeType", shapeType: "member" },
      ],
    ],
    [
      "string < member",
      [
        { kind: "shapeType", shapeType: "string" },
        { kind: "neighbor", direction: "reverse" },
        { kind: "shapeType", shapeType: "member" },
      ],
    ],
    ["-[input, output]->", [{ kind: "neighbor", direction: "forward", relationships: ["input", "output"] }]],
    ["<-[bound]-", [{ kind: "neighbor", direction: "reverse", relationships: ["bound"] }]],
    ["~>", [{ kind: "recursiveNeighbor" }]],
    ["[trait|streaming]", [{ kind: "attribute", path: [prop("trait"), prop("streaming")] }]],
    [
      "[trait|error = client, 'server' i]",
      [{ kind: "attribute", path: [prop("trait"), prop("error")], comparison: { comparator: "=", values: ["client", "server"], caseInsensitive: true } }],
    ],
    ["[trait|enum|(values)|tags]", [{ kind: "attribute", path: [prop("trait"), prop("enum"), { kind: "function", name: "values" }, prop("tags")] }]],
    [
      "[id = foo.baz#Structure]",
      [{ kind: "attribute", path: [prop("id")], comparison: { comparator: "=", values: ["foo.baz#Structure"], caseInsensitive: false } }],
    ],
    [
      "[@trait|range: @{min} > @{max} && @{min} = 1 i]",
      [
        {
          kind: "scopedAttribute",
          scope: [prop("trait"), prop("range")],
          assertions: [
            { left: { kind: "context", path: [prop("min")] }, comparator: ">", right: [{ kind: "context", path: [prop("max")] }], caseInsensitive: false },
            { left: { kind: "context", path: [prop("min")] }, comparator: "=", right: [{ kind: "literal", value: "1" }], caseInsensitive: true },
          ],
        },
      ],
    ],
    [":not(string)", [{ kind: "function", name: "not", args: [[{ kind: "shapeType", shapeType: "string" }]] }]],
    [
      ":topdown(*, [trait|x])",
      [{ kind: "function", name: "topdown", args: [[{ kind: "shapeType", shapeType: "*" }], [{ kind: "attribute", path: [prop("trait"), prop("x")] }]] }],
    ],
    [
      "$s(*) ${s}",
      [
        { kind: "variableSet", name: "s", selector: [{ kind: "shapeType", shapeType: "*" }] },
        { kind: "variableGet", name: "s" },
      ],
    ],
    [
      "structure[trait|error]:test(> member)",
      [
        { kind: "shapeType", shapeType: "structure" },
        { kind: "attribute", path: [prop("trait"), prop("error")] },
        {
          kind: "function",
          name: "test",
          args: [
            [
              { kind: "neighbor", direction: "forward" },
              { kind: "shapeType", shapeType: "member" },
            ],
          ],
        },
      ],
    ],
    [":whatever(string)", [{ kind: "function", name: "whatever", args: [[{ kind: "shapeType", shapeType: "string" }]] }]],
    ["-[madeUp]->", [{ kind: "neighbor", direction: "forward", relationships: ["madeUp"] }]],
  ];
  it.each(cases)("%s", (text, expected) => {
    expect(parseSelector(text).expressions).toEqual(expected);
  });

  it.each(SELECTOR_COMPARATORS)("accepts the %s comparator", (comparator) => {
    const [expr] = parseSelector(`[trait|x ${comparator} 1]`).expressions;
    expect(expr).toMatchObject({ comparison: { comparator } });
  });

  it("ignores whitespace, newlines and // comments between tokens", () => {
    const spaced = parseSelector("[trait | range\n   | min = 1 ]  // minimum\n  > \tmember").expressions;
    expect(spaced).toEqual(parseSelector("[trait|range|min=1]>member").expressions);
  });

  it("caches selectors by text", () => {
    expect(parseSelector("structure > member")).toBe(parseSelector("structure > member"));
    expect(String(parseSelector("structure > member"))).toBe("structure > member");
  });

  it.each([
    "structure > member",
    ":is(simpleType, list, map, structure, union)",
    ":test(member > string)",
    "structure > :test(member > :test(blob, string, number))",
    "structure > :test(member > :test(boolean, number, string, timestamp, list > member > :test(boolean, number, string, timestamp)))",
    "structure > member[trait|required] :test(> :test(string, number, boolean, timestamp))",
    "structure > :test(member > :test(string, blob, structure, union, document, list, map))",
    ":test(collection, map, string, blob, member > :is(collection, map, string, blob))",
    "list :not(> member ~> :is(float, double, document))",
    ":is(simpleType, list, map, structure > member :test(> :is(simpleType, list, map)))",
    ":not(:is(service, resource, operation))",
    ":is(structure, union) > :test(member > collection)",
    "[trait|trait]",
    ":is(enum, intEnum) > member",
    "structure > member :test(> map > member[id|member=value] > :test(string, list > member > string))",
  ])("parses prelude-style selector %s", (text) => {
    expect(() => parseSelector(text)).not.toThrow();
  });
});

describe("parseSelector rejects bad syntax with a position", () => {
  const cases: [string, number, RegExp][] = [
    ["", 0, /expected a selector/],
    ["   ", 3, /expected a selector/],
    ["foo", 0, /unknown shape type 'foo'/],
    ["structure > strucutre", 12, /unknown shape type 'strucutre'/],
    ["[id", 3, /expected a comparator/],
    ["[id = ]", 6, /expected a value but found '\]'/],
    ["[id = a b]", 8, /expected ',' or '\]'/],
    ["[nope|x]", 1, /unknown attribute 'nope'/],
    ["[trait|x ~ 1]", 9, /expected a comparator or '\]'/],
    ["[trait|enum = 'abc]", 14, /unterminated quoted string/],
    [":not(string, integer)", 0, /:not takes exactly 1 selector argument, got 2/],
    [":topdown(string, string, string)", 0, /:topdown takes 1 or 2 selector arguments, got 3/],
    [":in()", 4, /expected a selector/],
    [":is(string", 10, /expected ',' or '\)' but found end of selector/],
    [":(string)", 1, /expected a function name/],
    ["-[input->", 7, /expected '\]->'/],
    ["-[]->", 2, /expected a relationship name/],
    ["<-[input]", 8, /expected '\]-'/],
    ["- structure", 0, /expected '-\['/],
    ["~", 0, /expected '~>'/],
    ["string )", 7, /unexpected '\)'/],
    ["${x", 3, /expected '\}'/],
    ["$x(string, integer)", 9, /takes exactly one selector/],
    ["[@trait|range @{min} > 1]", 14, /expected ':' after the scoped attribute/],
    ["[@: @{min} > 1 & @{max}]", 15, /expected '&&' or '\]'/],
    ["[@: @{min > 1]", 10, /expected '\}'/],
    ["string, integer", 6, /unexpected ','/],
  ];
  it.each(cases)("%j", (text, position, message) => {
    let error: unknown;
    try {
      parseSelector(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SelectorSyntaxError);
    const syntaxError = error as SelectorSyntaxError;
    expect(syntaxError.reason).toMatch(message);
    expect(syntaxError.position).toBe(position);
    expect(syntaxError.selector).toBe(text);
    expect(syntaxError.message).toContain(`position ${position}`);
  });
});
