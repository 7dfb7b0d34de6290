/**
 * Small hand-made suites and reports for the unit tests of the runner and
 * the report formats.
 *
 * @internal
 */
import { countResults } from "./counts.js";
import type { PartReport, RunReport } from "./runner.js";
import type { CaseResult, Suite } from "./suite.js";

/** A part report from results. */
export function partReport(suite: string, part: string, results: CaseResult[]): PartReport {
  return { suite, part, results, counts: countResults(results), millis: 1 };
}

/** A run report from part reports. */
export function runReport(parts: PartReport[]): RunReport {
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const p of parts) {
    totals.passed += p.counts.passed;
    totals.failed += p.counts.failed;
    totals.skipped += p.counts.skipped;
  }
  return { corpus: "/corpus", parts, totals };
}

/** A suite whose parts return fixed results (or throw). */
export function fakeSuite(name: string, parts: Record<string, CaseResult[] | Error>): Suite {
  return {
    name,
    description: `fake ${name}`,
    parts: Object.entries(parts).map(([partName, results]) => ({
      name: partName,
      description: partName,
      run: () => {
        if (results instanceof Error) throw results;
        return results;
      },
    })),
  };
}
