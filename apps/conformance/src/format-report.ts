import { formatCounts } from "./counts.js";
import type { RunReport } from "./runner.js";
import { formatTable } from "./text-table.js";

/** Options for {@link formatReport}. */
export interface FormatOptions {
  /** Failures listed per part; the rest are counted. `Infinity` lists all. Default 20. */
  readonly maxFailuresPerPart?: number;
  /** Lines shown of each failure reason. Default 12. */
  readonly maxReasonLines?: number;
}

/** The default number of failures listed per part. */
export const DEFAULT_MAX_FAILURES = 20;

/**
 * The human-readable report: a table of suites and parts, the failures
 * grouped per part (capped, with a count of those left out), and a last line
 * `N passed, N failed, N skipped`.
 */
export function formatReport(report: RunReport, options: FormatOptions = {}): string {
  const maxFailures = options.maxFailuresPerPart ?? DEFAULT_MAX_FAILURES;
  const maxReasonLines = options.maxReasonLines ?? 12;
  const out: string[] = [];

  const columns = [
    { header: "suite", align: "left" },
    { header: "part", align: "left" },
    { header: "passed", align: "right" },
    { header: "failed", align: "right" },
    { header: "skipped", align: "right" },
  ] as const;
  const rows = report.parts.map((p) => [p.suite, p.part, String(p.counts.passed), String(p.counts.failed), String(p.counts.skipped)]);
  const t = report.totals;
  out.push(formatTable(columns, rows, ["total", "", String(t.passed), String(t.failed), String(t.skipped)]));

  const failing = report.parts.filter((p) => p.counts.failed > 0);
  if (failing.length > 0) {
    out.push("", "Failures");
    for (const part of failing) {
      out.push("", `${part.suite}/${part.part}: ${part.counts.failed} failed`);
      const failures = part.results.filter((r) => r.status === "failed");
      for (const f of failures.slice(0, maxFailures)) {
        const lines = (f.reason ?? "(no reason given)").split("\n");
        const shown = lines.slice(0, maxReasonLines);
        if (lines.length > shown.length) shown.push(`... ${lines.length - shown.length} more line(s)`);
        if (shown.length === 1) out.push(`  - ${f.case}: ${shown[0]}`);
        else out.push(`  - ${f.case}:`, ...shown.map((l) => `      ${l}`));
      }
      const hidden = failures.length - Math.min(failures.length, maxFailures);
      if (hidden > 0) {
        out.push(`  ... ${hidden} more failure(s) in ${part.suite}/${part.part} not shown (--max-failures N, or --json FILE for all)`);
      }
    }
  }

  const repaired = report.parts.filter((p) => p.results.some((r) => r.repairs !== undefined));
  if (repaired.length > 0) {
    out.push("", "Repaired cases (incomplete upstream; the runner completed them before running)");
    for (const part of repaired) {
      const cases = part.results.filter((r) => r.repairs !== undefined);
      out.push("", `${part.suite}/${part.part}: ${cases.length} repaired`);
      for (const r of cases) out.push(`  - ${r.case} (${r.status}): ${(r.repairs ?? []).join("; ")}`);
    }
  }

  out.push("", formatCounts(report.totals));
  return out.join("\n");
}
