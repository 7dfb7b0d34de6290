import type { CaseResult } from "./suite.js";

/** How many cases passed, failed and were skipped. */
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Zero counts. */
export function emptyCounts(): Counts {
  return { passed: 0, failed: 0, skipped: 0 };
}

/** Counts results by status. */
export function countResults(results: readonly CaseResult[]): Counts {
  const counts = emptyCounts();
  for (const r of results) counts[r.status]++;
  return counts;
}

/** Adds `more` into `into` and returns `into`. */
export function addCounts(into: Counts, more: Counts): Counts {
  into.passed += more.passed;
  into.failed += more.failed;
  into.skipped += more.skipped;
  return into;
}

/** The summary line: `N passed, N failed, N skipped`. */
export function formatCounts(counts: Counts): string {
  return `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
}
