import { describe, expect, it } from "vitest";
import { formatTemplate, quoteString, TemplateError } from "./template.js";

describe("formatTemplate", () => {
  const values = { value: "256", other: 'a"b', emoji: "👍", inputLength: "3" };
  it.each([
    ["no placeholder", "plain text", "plain text"],
    ["literal", '{ "byteInBody" : $value:L }', '{ "byteInBody" : 256 }'],
    ["quoted", '{ "string" : $other:S }', '{ "string" : "a\\"b" }'],
    ["quoted, non-ASCII kept", "[$emoji:S]", '["👍"]'],
    ["braced", "x${value:L}y", "x256y"],
    ["two names", "$value:L/$inputLength:L", "256/3"],
    ["$$ is a literal $", "pattern: ^[a-m]+$$", "pattern: ^[a-m]+$"],
    ["$$ before a name", "$$$value:L", "$256"],
    ["repeated", "$value:L $value:L", "256 256"],
  ])("%s", (_label, template, expected) => {
    expect(formatTemplate(template, values)).toBe(expected);
  });

  it.each([
    ["a lone $", "ends with $", /must start/],
    ["a $ before a non-name", '^[a-m]+$"', /must start/],
    ["a positional placeholder", "$L", /must start/],
    ["an unknown name", "$missing:L", /unknown test parameter `missing`/],
    ["an unknown formatter", "$value:T", /unknown formatter `T`/],
    ["an unclosed brace", "${value:L", /missing `}`/],
  ])("rejects %s", (_label, template, message) => {
    expect(() => formatTemplate(template, values)).toThrow(TemplateError);
    expect(() => formatTemplate(template, values)).toThrow(message);
  });

  it("does not look names up on the prototype", () => {
    expect(() => formatTemplate("$toString:L", {})).toThrow(/unknown test parameter/);
  });
});

describe("quoteString", () => {
  it.each([
    ["", '""'],
    ["abc", '"abc"'],
    ['say "hi"', '"say \\"hi\\""'],
    ["back\\slash", '"back\\\\slash"'],
    ["\b\t\n\f\r", '"\\b\\t\\n\\f\\r"'],
    ["\u0000\u001f\u007f\u009f", '"\\u0000\\u001f\\u007f\\u009f"'],
    ["é👍\u00a0", '"é👍\u00a0"'],
  ])("%j -> %s", (input, expected) => {
    expect(quoteString(input)).toBe(expected);
    // The result is a JSON string of the same text.
    expect(JSON.parse(quoteString(input))).toBe(input);
  });
});
