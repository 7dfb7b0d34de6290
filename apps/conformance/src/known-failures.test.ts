import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareKnownFailures, failuresOf, keepKnownReasons, readKnownFailures, restrictToParts, writeKnownFailures } from "./known-failures.js";
import { partReport, runReport } from "./report-fixtures.js";
import { failed, passed } from "./suite.js";

describe("failuresOf", () => {
  it("keys failures by suite/part with one-line reasons", () => {
    const report = runReport([partReport("idl", "valid", [passed("a"), failed("b", "first\n  second")]), partReport("idl", "flattened", [passed("c")])]);
    expect(failuresOf(report)).toEqual({ "idl/valid": { b: "first second" } });
  });
});

describe("compareKnownFailures", () => {
  it.each([
    { known: {}, actual: {}, unexpectedFailures: [], fixed: [] },
    { known: { "s/p": { a: "x" } }, actual: { "s/p": { a: "different reason" } }, unexpectedFailures: [], fixed: [] },
    { known: {}, actual: { "s/p": { a: "" } }, unexpectedFailures: ["s/p: a"], fixed: [] },
    { known: { "s/p": { a: "", b: "" } }, actual: { "s/p": { b: "" } }, unexpectedFailures: [], fixed: ["s/p: a"] },
    { known: { "s/p": { a: "" } }, actual: { "s/q": { a: "" } }, unexpectedFailures: ["s/q: a"], fixed: ["s/p: a"] },
  ])("$known vs $actual", ({ known, actual, unexpectedFailures, fixed }) => {
    expect(compareKnownFailures(known, actual)).toEqual({ unexpectedFailures, fixed });
  });
});

describe("restrictToParts", () => {
  it("keeps only the named parts", () => {
    expect(restrictToParts({ "a/x": { c: "" }, "b/y": { d: "" } }, ["b/y"])).toEqual({ "b/y": { d: "" } });
  });
});

describe("read and write", () => {
  const dir = mkdtempSync(join(tmpdir(), "anvil-known-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("round-trips with sorted keys", () => {
    const file = join(dir, "k.json");
    writeKnownFailures({ "z/p": { b: "2", a: "1" }, "a/p": { c: "3" } }, file);
    expect(readFileSync(file, "utf8")).toBe('{\n  "a/p": {\n    "c": "3"\n  },\n  "z/p": {\n    "a": "1",\n    "b": "2"\n  }\n}\n');
    expect(readKnownFailures(file)).toEqual({ "a/p": { c: "3" }, "z/p": { a: "1", b: "2" } });
  });

  it("treats a missing file as empty", () => {
    expect(readKnownFailures(join(dir, "missing.json"))).toEqual({});
  });

  it("the checked-in file parses", () => {
    expect(typeof readKnownFailures()).toBe("object");
  });
});

describe("keepKnownReasons", () => {
  it("keeps the written reason of a case still failing and takes the run's for a new one; fixed cases drop out", () => {
    const known = { "s/p": { A: "upstream bug, see #1", Fixed: "was broken" } };
    const actual = { "s/p": { A: "Error: at /abs/path.ts:1:1", B: "new failure" }, "s/q": { C: "other" } };
    expect(keepKnownReasons(known, actual)).toEqual({ "s/p": { A: "upstream bug, see #1", B: "new failure" }, "s/q": { C: "other" } });
  });
});
