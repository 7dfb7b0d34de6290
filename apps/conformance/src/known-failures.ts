import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compareStrings } from "./files.js";
import { summarizeReason } from "./reason-summary.js";
import type { RunReport } from "./runner.js";

/**
 * The checked-in list of cases expected to fail:
 * `{"<suite>/<part>": {"<case>": "<reason>"}}`. Reasons are for people;
 * only the set of cases is compared.
 */
export type KnownFailures = Record<string, Record<string, string>>;

/** `apps/conformance/known-failures.json`, found from this file's location. */
export const KNOWN_FAILURES_PATH: string = fileURLToPath(new URL("../known-failures.json", import.meta.url));

/** The failed cases of a run, in the known-failures shape (reasons on one line). */
export function failuresOf(report: RunReport): KnownFailures {
  const out: KnownFailures = {};
  for (const part of report.parts) {
    const failedCases = part.results.filter((r) => r.status === "failed");
    if (failedCases.length === 0) continue;
    const entries: Record<string, string> = {};
    for (const r of failedCases) entries[r.case] = summarizeReason(r.reason ?? "");
    out[`${part.suite}/${part.part}`] = entries;
  }
  return out;
}

/** How a run's failures differ from the known ones, as sorted `suite/part: case` strings. */
export interface KnownFailuresDiff {
  /** Failing now, not listed: regressions (or new cases). */
  readonly unexpectedFailures: string[];
  /** Listed, not failing now: fixed (remove them from the file). */
  readonly fixed: string[];
}

/** Compares the cases (not the reasons) of two known-failures documents. */
export function compareKnownFailures(known: KnownFailures, actual: KnownFailures): KnownFailuresDiff {
  const flatten = (k: KnownFailures): Set<string> => new Set(Object.entries(k).flatMap(([part, cases]) => Object.keys(cases).map((c) => `${part}: ${c}`)));
  const knownSet = flatten(known);
  const actualSet = flatten(actual);
  return {
    unexpectedFailures: [...actualSet].filter((x) => !knownSet.has(x)).sort(compareStrings),
    fixed: [...knownSet].filter((x) => !actualSet.has(x)).sort(compareStrings),
  };
}

/** Only the given `suite/part` keys of a known-failures document. */
export function restrictToParts(known: KnownFailures, parts: readonly string[]): KnownFailures {
  return Object.fromEntries(Object.entries(known).filter(([part]) => parts.includes(part)));
}

/** Reads the known-failures file; a missing file means no known failures. */
export function readKnownFailures(path: string = KNOWN_FAILURES_PATH): KnownFailures {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${path}: expected an object {"<suite>/<part>": {"<case>": "<reason>"}}`);
  }
  return parsed as KnownFailures;
}

/**
 * The actual failures with the reasons people wrote kept: a case already
 * listed keeps its reason, a new one gets the run's.
 */
export function keepKnownReasons(known: KnownFailures, actual: KnownFailures): KnownFailures {
  const out: KnownFailures = {};
  for (const [part, cases] of Object.entries(actual)) {
    out[part] = Object.fromEntries(Object.entries(cases).map(([c, reason]) => [c, known[part]?.[c] ?? reason]));
  }
  return out;
}

/** Writes a known-failures file with sorted keys, so that diffs stay small. */
export function writeKnownFailures(known: KnownFailures, path: string = KNOWN_FAILURES_PATH): void {
  const sorted: KnownFailures = {};
  for (const part of Object.keys(known).sort(compareStrings)) {
    const cases = known[part]!;
    sorted[part] = Object.fromEntries(
      Object.keys(cases)
        .sort(compareStrings)
        .map((c) => [c, cases[c]!]),
    );
  }
  writeFileSync(path, `${JSON.stringify(sorted, null, 2)}\n`);
}
