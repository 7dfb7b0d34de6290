import { describe, expect, it } from "vitest";
import { parseErrorfile } from "./errorfile.js";
import { countsWhenUnexpected, describeMismatch, eventIdContains, eventMatches, formatEventLine, matchEvents, type EventLike } from "./event-matching.js";

const expected = (line: string) => parseErrorfile(line)[0]!;

describe("eventIdContains", () => {
  it.each([
    ["Model", "Model", true],
    ["Model.Sub", "Model", true],
    ["Model.Sub.Deeper", "Model.Sub", true],
    ["ModelX", "Model", false],
    ["Model", "Model.Sub", false],
    ["Other", "Model", false],
  ] as const)("%s contains %s: %s", (actual, exp, want) => {
    expect(eventIdContains(actual, exp)).toBe(want);
  });
});

describe("eventMatches", () => {
  const base: EventLike = { severity: "ERROR", id: "Model", message: "Bad thing at here", shapeId: "a.b#C" };
  it.each([
    { name: "exact", line: "[ERROR] a.b#C: Bad thing at here | Model", event: base, want: true },
    { name: "message prefix", line: "[ERROR] a.b#C: Bad thing | Model", event: base, want: true },
    { name: "not a prefix", line: "[ERROR] a.b#C: thing at | Model", event: base, want: false },
    { name: "severity differs", line: "[WARNING] a.b#C: Bad | Model", event: base, want: false },
    { name: "shape differs", line: "[ERROR] a.b#D: Bad | Model", event: base, want: false },
    { name: "dash vs shape", line: "[ERROR] -: Bad | Model", event: base, want: false },
    {
      name: "dash vs no shape",
      line: "[ERROR] -: Bad | Model",
      event: { severity: "ERROR", id: "Model", message: "Bad" },
      want: true,
    },
    {
      name: "child event id",
      line: "[ERROR] a.b#C: Bad | Model",
      event: { ...base, id: "Model.Child" },
      want: true,
    },
    { name: "parent event id", line: "[ERROR] a.b#C: Bad | Model.Child", event: base, want: false },
    {
      name: "newlines escaped",
      line: "[ERROR] -: one\\ntwo\\nthree | Model",
      event: { severity: "ERROR", id: "Model", message: "one\ntwo\r\nthree and more" },
      want: true,
    },
    {
      name: "suppression reason appended",
      line: "[SUPPRESSED] a.b#C: Bad thing at here (not today) | Model",
      event: { ...base, severity: "SUPPRESSED", suppressionReason: "not today" },
      want: true,
    },
  ] as { name: string; line: string; event: EventLike; want: boolean }[])("$name", ({ line, event, want }) => {
    expect(eventMatches(expected(line), event)).toBe(want);
  });
});

describe("countsWhenUnexpected", () => {
  it.each([
    [{ severity: "ERROR", id: "Model", message: "" }, true],
    [{ severity: "NOTE", id: "Model", message: "" }, true],
    [{ severity: "SUPPRESSED", id: "Model", message: "" }, false],
    [{ severity: "WARNING", id: "ModelDeprecation", message: "" }, false],
    [{ severity: "WARNING", id: "DeprecatedTrait", message: "" }, false],
    [{ severity: "WARNING", id: "DeprecatedShape.x", message: "" }, false],
    [{ severity: "WARNING", id: "DeprecatedThing", message: "" }, true],
  ] as const)("%j -> %s", (event, want) => {
    expect(countsWhenUnexpected(event)).toBe(want);
  });
});

describe("matchEvents", () => {
  const exp = parseErrorfile("[ERROR] a#B: first | Model\n[WARNING] -: second | Other");
  it.each([
    {
      name: "all matched",
      actual: [
        { severity: "ERROR", id: "Model", message: "first problem", shapeId: "a#B" },
        { severity: "WARNING", id: "Other", message: "second" },
      ],
      unmatched: 0,
      unexpected: 0,
    },
    {
      name: "one missing",
      actual: [{ severity: "ERROR", id: "Model", message: "first", shapeId: "a#B" }],
      unmatched: 1,
      unexpected: 0,
    },
    {
      name: "one extra",
      actual: [
        { severity: "ERROR", id: "Model", message: "first", shapeId: "a#B" },
        { severity: "WARNING", id: "Other", message: "second" },
        { severity: "NOTE", id: "Extra", message: "surprise" },
      ],
      unmatched: 0,
      unexpected: 1,
    },
    {
      name: "ignored extras",
      actual: [
        { severity: "ERROR", id: "Model", message: "first", shapeId: "a#B" },
        { severity: "WARNING", id: "Other", message: "second" },
        { severity: "SUPPRESSED", id: "Extra", message: "quiet" },
        { severity: "WARNING", id: "DeprecatedTrait", message: "old" },
      ],
      unmatched: 0,
      unexpected: 0,
    },
    {
      name: "one event satisfies two expectations (not one-to-one, as upstream)",
      actual: [{ severity: "ERROR", id: "Model", message: "first", shapeId: "a#B" }],
      expectedLines: "[ERROR] a#B: fir | Model\n[ERROR] a#B: first | Model",
      unmatched: 0,
      unexpected: 0,
    },
  ] as { name: string; actual: EventLike[]; expectedLines?: string; unmatched: number; unexpected: number }[])(
    "$name",
    ({ actual, expectedLines, unmatched, unexpected }) => {
      const m = matchEvents(expectedLines ? parseErrorfile(expectedLines) : exp, actual);
      expect(m.unmatched).toHaveLength(unmatched);
      expect(m.unexpected).toHaveLength(unexpected);
    },
  );

  it("no expectations and no counted events passes", () => {
    expect(describeMismatch(matchEvents([], [{ severity: "SUPPRESSED", id: "X", message: "" }]))).toBeUndefined();
  });
});

describe("describeMismatch", () => {
  it("shows the unmatched expected lines and the unexpected events", () => {
    const m = matchEvents(parseErrorfile("[ERROR] a#B: wanted | Model"), [{ severity: "ERROR", id: "Model", message: "got\nthis", shapeId: "a#C" }]);
    expect(describeMismatch(m)).toBe(
      ["expected but not found (1):", "  [ERROR] a#B: wanted | Model", "unexpected (1):", "  [ERROR] a#C: got\\nthis | Model"].join("\n"),
    );
  });

  it("caps long lists", () => {
    const actual: EventLike[] = Array.from({ length: 4 }, (_, i) => ({ severity: "NOTE", id: "N", message: `m${i}` }));
    const text = describeMismatch(matchEvents([], actual), 2)!;
    expect(text.split("\n")).toEqual(["unexpected (4):", "  [NOTE] -: m0 | N", "  [NOTE] -: m1 | N", "  ... and 2 more"]);
  });
});

describe("formatEventLine", () => {
  it("writes suppressed events with their reason", () => {
    expect(formatEventLine({ severity: "SUPPRESSED", id: "X", message: "m", shapeId: "a#B", suppressionReason: "r" })).toBe("[SUPPRESSED] a#B: m (r) | X");
  });
});
