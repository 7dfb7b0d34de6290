import { describe, expect, it } from "vitest";
import { loadModel } from "../load-model.js";

/** The DefaultTrait events of an IDL 2.0 model, as `severity shape: message`. */
function defaultEvents(body: string): string[] {
  const { events } = loadModel({ sources: [{ file: "m.smithy", text: `$version: "2"\nnamespace ex\n${body}` }] });
  return events.filter((e) => e.id === "DefaultTrait").map((e) => `${e.severity} ${e.shapeId}: ${e.message}`);
}

describe("@default values", () => {
  it("must fit the member and its target: type, range, length, pattern, enum", () => {
    const events = defaultEvents(`
structure S {
  a: Port = 5
  b: Integer = "x"
  c: Code = "ab"
  d: Letters = "bbb"
  e: Color = "PURPLE"
  @range(max: 3)
  f: Integer = 4
  ok: Port = 8080
}
@range(min: 1024, max: 65535)
integer Port
@length(min: 3)
string Code
@pattern("^a+$")
string Letters
enum Color { RED, GREEN }
`);
    expect(events).toEqual([
      expect.stringMatching(/^ERROR ex#S\$a: Error validating @default trait: .*must be greater than or equal to 1024, but found 5$/),
      expect.stringMatching(/^ERROR ex#S\$b: Error validating @default trait: Expected number value/),
      expect.stringMatching(/^ERROR ex#S\$c: Error validating @default trait: .*must have at least 3/),
      expect.stringMatching(/^ERROR ex#S\$d: Error validating @default trait: .*must match regular expression: \^a\+\$$/),
      expect.stringMatching(/^ERROR ex#S\$e: Error validating @default trait: .*must be one of the following values: `RED`, `GREEN`$/),
      expect.stringMatching(/^ERROR ex#S\$f: Error validating @default trait: .*must be less than or equal to 3, but found 4$/),
    ]);
  });

  it("lets a zero out of range through as a WARNING (what a 1.0 model's primitives become)", () => {
    expect(defaultEvents(`structure S {\n  a: Port = 0\n}\n@range(min: 1)\ninteger Port`)).toEqual([
      expect.stringMatching(/^WARNING ex#S\$a: .*greater than or equal to 1, but found 0$/),
    ]);
  });

  it("keeps list and map defaults empty, and null to members", () => {
    expect(
      defaultEvents(`
structure S {
  a: Names = ["x"]
  b: Tags = {k: "v"}
  c: Names = []
  d: Tags = {}
}
list Names { member: String }
map Tags { key: String, value: String }
@default(null)
string NoDefault
`),
    ).toEqual([
      "ERROR ex#S$a: The @default value of a list must be an empty list",
      "ERROR ex#S$b: The @default value of a map must be an empty map",
      "ERROR ex#NoDefault: The @default trait can only be set to null on members",
    ]);
  });

  it("must be repeated (or set to null) by a structure member that targets a shape with one", () => {
    expect(
      defaultEvents(`
structure S {
  same: Level = 1
  missing: Level
  other: Level = 2
  @default(null)
  dropped: Level
  prelude: PrimitiveInteger = 0
}
@default(1)
integer Level
`),
    ).toEqual([
      "ERROR ex#S$missing: Member targets ex#Level, which requires that the member defines the same default of `1`",
      "ERROR ex#S$other: Member defines a default value that differs from the default value of the target shape, ex#Level. The member has a default of `2`, but the target has a default of `1`.",
    ]);
  });
});
