import { describe, expect, it } from "vitest";
import { checkInvalidExpectation, normalizeErrorText, parseInvalidExpectation, searchableEventText } from "./invalid-expectation.js";

describe("normalizeErrorText", () => {
  it.each([
    ["plain", "plain"],
    ["a\nb", "a\\nb"],
    ["a\r\nb", "a\\nb"],
    ["a\rb", "a\\nb"],
    ["found [EOF]", "found "],
    ["x[EOF]\n", "x\\n"],
  ])("%j -> %j", (input, want) => {
    expect(normalizeErrorText(input)).toBe(want);
  });
});

describe("parseInvalidExpectation", () => {
  it.each([
    {
      name: "with position",
      source: '// Parse problem at line 4, column 12: bad token | Model\n$version: "2"\n',
      text: "Parse problem at line 4, column 12: bad token | Model",
      position: { line: 4, column: 12 },
    },
    { name: "no space after //", source: "//Something odd\nx", text: "Something odd", position: undefined },
    { name: "CRLF file", source: "// Thing\r\nrest", text: "Thing", position: undefined },
    { name: "no comment", source: "namespace a\n", text: "", position: undefined },
    { name: "empty file", source: "", text: "", position: undefined },
  ])("$name", ({ source, text, position }) => {
    expect(parseInvalidExpectation(source)).toEqual({ text, position });
  });
});

describe("checkInvalidExpectation", () => {
  const exp = parseInvalidExpectation("// Parse problem at line 3, column 7: wanted X | Model");
  const err = (message: string, extra: object = {}) => ({ severity: "ERROR" as const, id: "Model", message, ...extra });
  it.each([
    { name: "exact message", events: [err("Parse problem at line 3, column 7: wanted X")], message: true, position: true },
    {
      name: "same position, other text",
      events: [err("Parse problem at line 3, column 7: wanted Y")],
      message: false,
      position: true,
    },
    {
      name: "position from location",
      events: [err("wanted something", { location: { file: "f", line: 3, column: 7 } })],
      message: false,
      position: true,
    },
    { name: "other position", events: [err("Parse problem at line 3, column 8: wanted X")], message: false, position: false },
    {
      name: "warnings do not count",
      events: [{ severity: "WARNING" as const, id: "Model", message: "Parse problem at line 3, column 7: wanted X" }],
      message: false,
      position: false,
    },
    {
      name: "DANGER counts",
      events: [{ severity: "DANGER" as const, id: "Model", message: "Parse problem at line 3, column 7: wanted X" }],
      message: true,
      position: true,
    },
    { name: "no events", events: [], message: false, position: false },
  ])("$name", ({ events, message, position }) => {
    expect(checkInvalidExpectation(exp, events)).toEqual({ messageMatched: message, positionMatched: position });
  });

  it("matches the shape id prefix Smithy prints", () => {
    const withShape = parseInvalidExpectation("// a.b#C$d: members must be shiny");
    const events = [{ severity: "ERROR" as const, id: "Shiny", message: "members must be shiny, found dull", shapeId: "a.b#C$d" }];
    expect(checkInvalidExpectation(withShape, events).messageMatched).toBe(true);
  });

  it("normalizes the actual message", () => {
    const e = parseInvalidExpectation("// found COMMENT('// hi\\n') here");
    const events = [{ severity: "ERROR" as const, id: "Model", message: "found COMMENT('// hi\n') here[EOF]" }];
    expect(checkInvalidExpectation(e, events).messageMatched).toBe(true);
  });

  it("an empty expectation never matches", () => {
    expect(checkInvalidExpectation(parseInvalidExpectation("x"), [err("anything")]).messageMatched).toBe(false);
  });
});

describe("searchableEventText", () => {
  it("writes the event like Smithy", () => {
    expect(searchableEventText({ severity: "ERROR", id: "Model", message: "m\nn" })).toBe("[ERROR] -: m\\nn | Model");
  });
});
