import { describe, expect, it } from "vitest";
import { toJsonReport } from "./json-report.js";
import { partReport, runReport } from "./report-fixtures.js";
import { failed, passed, skipped, withRepairs } from "./suite.js";

describe("toJsonReport", () => {
  it("groups parts under suites with counts and every failure", () => {
    const report = runReport([
      partReport("idl", "valid", [passed("a"), failed("b", "why")]),
      partReport("idl", "invalid", [skipped("c", "n/a")]),
      partReport("models", "alloy", [{ case: "alloy", status: "failed" }]),
    ]);
    expect(toJsonReport(report)).toEqual({
      suites: {
        idl: {
          passed: 1,
          failed: 1,
          skipped: 1,
          parts: {
            valid: { passed: 1, failed: 1, skipped: 0, failures: [{ case: "b", reason: "why" }] },
            invalid: { passed: 0, failed: 0, skipped: 1, failures: [] },
          },
        },
        models: {
          passed: 0,
          failed: 1,
          skipped: 0,
          parts: { alloy: { passed: 0, failed: 1, skipped: 0, failures: [{ case: "alloy", reason: "" }] } },
        },
      },
    });
  });

  it("lists the cases the runner repaired, with their status", () => {
    const report = runReport([partReport("aws", "request/server", [withRepairs(passed("a"), ["added X"]), passed("b")])]);
    expect(toJsonReport(report).suites.aws!.parts["request/server"]).toEqual({
      passed: 2,
      failed: 0,
      skipped: 0,
      failures: [],
      repaired: [{ case: "a", status: "passed", repairs: ["added X"] }],
    });
  });
});
