import { describe, expect, it } from "vitest";
import { ErrorfileSyntaxError, parseErrorfile } from "./errorfile.js";

describe("parseErrorfile", () => {
  it.each([
    {
      name: "shape and simple id",
      line: "[ERROR] ex.ns#Thing: Something went wrong | Model",
      want: { severity: "ERROR", shapeId: "ex.ns#Thing", message: "Something went wrong", eventId: "Model" },
    },
    {
      name: "no shape",
      line: "[WARNING] -: Careful here | Model.Sub",
      want: { severity: "WARNING", shapeId: undefined, message: "Careful here", eventId: "Model.Sub" },
    },
    {
      name: "member id and colon in message",
      line: "[DANGER] ex.ns#Thing$field: Bad value: `x` | TraitValue",
      want: { severity: "DANGER", shapeId: "ex.ns#Thing$field", message: "Bad value: `x`", eventId: "TraitValue" },
    },
    {
      name: "pipe inside the message",
      line: "[NOTE] -: one | two | Some.Id",
      want: { severity: "NOTE", shapeId: undefined, message: "one | two", eventId: "Some.Id" },
    },
    {
      name: "escaped newline kept as written",
      line: "[SUPPRESSED] a.b#C: first\\nsecond (because) | X",
      want: { severity: "SUPPRESSED", shapeId: "a.b#C", message: "first\\nsecond (because)", eventId: "X" },
    },
    {
      name: "trailing whitespace and CR",
      line: "[ERROR] a.b#C: msg | Id  \r",
      want: { severity: "ERROR", shapeId: "a.b#C", message: "msg", eventId: "Id" },
    },
  ])("$name", ({ line, want }) => {
    const [event] = parseErrorfile(line);
    expect(event).toMatchObject(want);
    expect(event!.shapeId).toBe(want.shapeId);
  });

  it.each([
    { name: "empty", text: "" },
    { name: "blank lines", text: "\n  \n\r\n" },
  ])("no events for $name", ({ text }) => {
    expect(parseErrorfile(text)).toEqual([]);
  });

  it("reads several lines and skips blank ones", () => {
    const events = parseErrorfile("[ERROR] a#B: x | M\n\n[NOTE] -: y | N\n");
    expect(events.map((e) => e.eventId)).toEqual(["M", "N"]);
  });

  it.each([
    { name: "unknown severity", line: "[FATAL] a#B: x | M" },
    { name: "no event id", line: "[ERROR] a#B: x" },
    { name: "no brackets", line: "ERROR a#B: x | M" },
  ])("rejects $name", ({ line }) => {
    expect(() => parseErrorfile(`\n${line}`)).toThrow(ErrorfileSyntaxError);
    expect(() => parseErrorfile(`\n${line}`)).toThrow(/line 2/);
  });
});
