import { describe, expect, it } from "vitest";
import { loadModel } from "../load-model.js";

/** The ExamplesTrait events of an IDL 2.0 model, as `severity shape: message`. */
function exampleEvents(body: string): string[] {
  const { events } = loadModel({ sources: [{ file: "m.smithy", text: `$version: "2"\nnamespace ex\n${body}` }] });
  return events.filter((e) => e.id === "ExamplesTrait").map((e) => `${e.severity} ${e.shapeId}: ${e.message}`);
}

const OPERATION = `
operation Get {
  input := { @required @length(min: 3) id: String, count: Integer }
  output := { name: String, tags: Tags }
  errors: [NotFound]
}
list Tags { member: String }
@error("client") structure NotFound { @required message: String }
@error("client") structure Other { message: String }
`;

describe("@examples", () => {
  it("are checked against the operation's input, output and error shapes, as warnings", () => {
    const events = exampleEvents(`
@examples([
  { title: "fine", input: { id: "abc", count: 1 }, output: { name: "n", tags: ["a"] } },
  { title: "types", input: { id: "abc", count: "one" }, output: { name: { first: "n" }, tags: "a" } },
  { title: "constraints", input: { id: "ab" } },
  { title: "error", input: { id: "xyz" }, error: { shapeId: NotFound, content: { message: 404 } } },
  { title: "undeclared", input: { id: "xyz" }, error: { shapeId: Other, content: {} } },
])
${OPERATION}`);
    expect(events).toEqual([
      'WARNING ex#Get: Example "types": input at count: Expected number value for integer shape, `smithy.api#Integer`; found string value, `one`',
      'WARNING ex#Get: Example "types": output at name: Expected string value for string shape, `smithy.api#String`; found object value',
      'WARNING ex#Get: Example "types": output at tags: Expected array value for list shape, `ex#Tags`; found string value, `a`',
      'WARNING ex#Get: Example "constraints": input at id: String value provided for `smithy.api#String` must have at least 3 entries or characters, but found 2',
      'WARNING ex#Get: Example "error": error content at message: Expected string value for string shape, `smithy.api#String`; found number value, `404`',
      'WARNING ex#Get: Example "undeclared": error `ex#Other` is not an error of the operation or its service',
    ]);
  });

  it("may leave out required members (a fake fills them in) and list an event stream's events", () => {
    const events = exampleEvents(`
@examples([
  { title: "partial", input: {}, output: { ticks: [{ tick: { n: 1 } }, { tick: { n: 2 } }] } },
  { title: "bad event", input: {}, output: { ticks: [{ tick: { n: "x" } }] } },
])
operation Watch { input := { @required id: String } output := { @required at: Timestamp, ticks: Ticks } }
@streaming union Ticks { tick: Tick }
structure Tick { n: Integer }
`);
    expect(events).toEqual([
      'WARNING ex#Watch: Example "bad event": output at ticks.0.tick.n: Expected number value for integer shape, `smithy.api#Integer`; found string value, `x`',
    ]);
  });

  it("leave a model valid", () => {
    const { events } = loadModel({
      sources: [{ file: "m.smithy", text: `$version: "2"\nnamespace ex\n@examples([{ title: "t", input: { id: 1 } }])\n${OPERATION}` }],
    });
    expect(events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER")).toEqual([]);
  });
});
