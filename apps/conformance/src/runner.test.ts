import { describe, expect, it } from "vitest";
import { fakeSuite } from "./report-fixtures.js";
import { runSuites } from "./runner.js";
import { failed, passed, skipped } from "./suite.js";

describe("runSuites", () => {
  it("runs every part in order and counts results", async () => {
    const seen: string[] = [];
    const report = await runSuites([fakeSuite("one", { a: [passed("x"), failed("y", "r")] }), fakeSuite("two", { b: [skipped("z", "s")] })], "/corpus", {
      onPart: (p) => seen.push(`${p.suite}/${p.part}`),
    });
    expect(seen).toEqual(["one/a", "two/b"]);
    expect(report.totals).toEqual({ passed: 1, failed: 1, skipped: 1 });
    expect(report.parts.map((p) => p.counts)).toEqual([
      { passed: 1, failed: 1, skipped: 0 },
      { passed: 0, failed: 0, skipped: 1 },
    ]);
  });

  it("turns a crashing part into one failed case and goes on", async () => {
    const report = await runSuites([fakeSuite("s", { bad: new Error("boom"), good: [passed("ok")] })], "/corpus");
    expect(report.parts[0]!.results).toEqual([{ case: "(bad)", status: "failed", reason: expect.stringContaining("the part crashed: Error: boom") }]);
    expect(report.parts[1]!.counts.passed).toBe(1);
  });

  it("passes the corpus to each part and awaits async parts", async () => {
    const report = await runSuites([{ name: "s", description: "", parts: [{ name: "p", description: "", run: async (c) => [passed(c)] }] }], "/the/corpus");
    expect(report.parts[0]!.results).toEqual([passed("/the/corpus")]);
  });
});
