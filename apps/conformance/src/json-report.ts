import type { Counts } from "./counts.js";
import type { RunReport } from "./runner.js";

/** One failed case in the JSON report. */
export interface JsonFailure {
  case: string;
  reason: string;
}

/** A part in the JSON report. */
export interface JsonPart extends Counts {
  failures: JsonFailure[];
}

/** A suite in the JSON report. */
export interface JsonSuite extends Counts {
  parts: Record<string, JsonPart>;
}

/** The `--json` file: `{"suites": {"<suite>": {passed, failed, skipped, parts: {...}}}}`. */
export interface JsonReport {
  suites: Record<string, JsonSuite>;
}

/** Builds the `--json` document. Every failure is listed (no cap). */
export function toJsonReport(report: RunReport): JsonReport {
  const suites: Record<string, JsonSuite> = {};
  for (const part of report.parts) {
    const suite = (suites[part.suite] ??= { passed: 0, failed: 0, skipped: 0, parts: {} });
    suite.passed += part.counts.passed;
    suite.failed += part.counts.failed;
    suite.skipped += part.counts.skipped;
    suite.parts[part.part] = {
      ...part.counts,
      failures: part.results
        .filter((r) => r.status === "failed")
        .map((r) => ({ case: r.case, reason: r.reason ?? "" })),
    };
  }
  return { suites };
}
