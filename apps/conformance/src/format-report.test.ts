import { describe, expect, it } from "vitest";
import { formatReport } from "./format-report.js";
import { partReport, runReport } from "./report-fixtures.js";
import { failed, passed, skipped, withRepairs } from "./suite.js";
import { formatTable } from "./text-table.js";

describe("formatTable", () => {
  it("pads and aligns columns, with a footer", () => {
    const text = formatTable(
      [
        { header: "name", align: "left" },
        { header: "n", align: "right" },
      ],
      [
        ["a", "1"],
        ["long name", "100"],
      ],
      ["total", "101"],
    );
    expect(text).toBe(["name         n", "---------  ---", "a            1", "long name  100", "---------  ---", "total      101"].join("\n"));
  });
});

describe("formatReport", () => {
  const report = runReport([
    partReport("idl", "valid", [passed("a"), passed("b")]),
    partReport("idl", "invalid", [failed("x.smithy", "loaded without errors"), failed("y.smithy", "line one\nline two"), skipped("z", "n/a")]),
  ]);

  it("prints the table, the failures per part and the summary line last", () => {
    expect(formatReport(report)).toBe(
      [
        "suite  part     passed  failed  skipped",
        "-----  -------  ------  ------  -------",
        "idl    valid         2       0        0",
        "idl    invalid       0       2        1",
        "-----  -------  ------  ------  -------",
        "total                2       2        1",
        "",
        "Failures",
        "",
        "idl/invalid: 2 failed",
        "  - x.smithy: loaded without errors",
        "  - y.smithy:",
        "      line one",
        "      line two",
        "",
        "2 passed, 2 failed, 1 skipped",
      ].join("\n"),
    );
  });

  it("caps the failures listed and says how many were left out", () => {
    const text = formatReport(report, { maxFailuresPerPart: 1 });
    expect(text).toContain("  - x.smithy: loaded without errors");
    expect(text).not.toContain("y.smithy");
    expect(text).toContain("... 1 more failure(s) in idl/invalid not shown");
  });

  it("caps long reasons", () => {
    const long = runReport([partReport("s", "p", [failed("c", Array.from({ length: 5 }, (_, i) => `l${i}`).join("\n"))])]);
    const text = formatReport(long, { maxReasonLines: 2 });
    expect(text).toContain("      l1\n      ... 3 more line(s)");
  });

  it("has no failures section when nothing failed", () => {
    const text = formatReport(runReport([partReport("s", "p", [passed("a")])]));
    expect(text).not.toContain("Failures");
    expect(text.split("\n").at(-1)).toBe("1 passed, 0 failed, 0 skipped");
  });

  it("lists repaired cases before the summary line", () => {
    const text = formatReport(runReport([partReport("s", "p", [withRepairs(passed("a"), ["added X", "ran Y"]), passed("b")])]));
    expect(text).toContain("\ns/p: 1 repaired\n  - a (passed): added X; ran Y\n\n2 passed");
    expect(formatReport(report)).not.toContain("Repaired");
  });
});
