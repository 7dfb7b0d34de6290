import { addCounts, countResults, emptyCounts, type Counts } from "./counts.js";
import type { CaseResult, Suite } from "./suite.js";

/** The results of one suite part. */
export interface PartReport {
  readonly suite: string;
  readonly part: string;
  readonly results: readonly CaseResult[];
  readonly counts: Counts;
  /** Wall time in milliseconds. */
  readonly millis: number;
}

/** The results of a run, parts in suite order. */
export interface RunReport {
  readonly corpus: string;
  readonly parts: readonly PartReport[];
  readonly totals: Counts;
}

/** Options for {@link runSuites}. */
export interface RunOptions {
  /** Called after each part finishes (for progress output). */
  readonly onPart?: (part: PartReport) => void;
}

/**
 * Runs every part of the given suites against the corpus. A part that throws
 * is reported as one failed case named after the part, so one broken part
 * does not hide the others.
 */
export async function runSuites(suites: readonly Suite[], corpus: string, options: RunOptions = {}): Promise<RunReport> {
  const parts: PartReport[] = [];
  const totals = emptyCounts();
  for (const suite of suites) {
    for (const part of suite.parts) {
      const start = performance.now();
      let results: CaseResult[];
      try {
        results = await part.run(corpus);
      } catch (error) {
        results = [{ case: `(${part.name})`, status: "failed", reason: `the part crashed: ${describeError(error)}` }];
      }
      const report: PartReport = {
        suite: suite.name,
        part: part.name,
        results,
        counts: countResults(results),
        millis: performance.now() - start,
      };
      addCounts(totals, report.counts);
      parts.push(report);
      options.onPart?.(report);
    }
  }
  return { corpus, parts, totals };
}

/** A one-line description of a thrown value (first stack frame included for errors). */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const frame = error.stack?.split("\n").find((l) => l.trim().startsWith("at "));
    return `${error.name}: ${error.message}${frame ? ` (${frame.trim()})` : ""}`;
  }
  return String(error);
}
