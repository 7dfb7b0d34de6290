import type { Counts } from "./counts.js";
import type { RunReport } from "./runner.js";

/** One failed case in the JSON report. */
export interface JsonFailure {
  case: string;
  reason: string;
}

/** One case the runner repaired before running it (see `protocol-tests/repairs.ts`). */
export interface JsonRepair {
  case: string;
  status: string;
  repairs: readonly string[];
}

/** A part in the JSON report. */
export interface JsonPart extends Counts {
  failures: JsonFailure[];
  /** Present when the runner repaired some of the part's cases. */
  repaired?: JsonRepair[];
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
    const repaired = part.results.filter((r) => r.repairs !== undefined);
    suite.parts[part.part] = {
      ...part.counts,
      failures: part.results.filter((r) => r.status === "failed").map((r) => ({ case: r.case, reason: r.reason ?? "" })),
      ...(repaired.length === 0 ? {} : { repaired: repaired.map((r) => ({ case: r.case, status: r.status, repairs: r.repairs ?? [] })) }),
    };
  }
  return { suites };
}
