/**
 * Runs every registered suite (`idl`, `models` and the protocol suites)
 * in-process against the real loader and the corpus, and holds the line:
 * pass-rate thresholds per part, and the set of failing cases must equal
 * `known-failures.json` (so both regressions and fixes show up). Skipped
 * cases (protocol sides not implemented yet) are neither failures nor passes:
 * the protocol parts have no threshold yet, and a protocol model that stops
 * loading shows up as a new failure. After a deliberate change, refresh the
 * file with `UPDATE_KNOWN_FAILURES=1 npx vitest run src/conformance.test.ts`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { chooseCorpus, isCorpus } from "./corpus.js";
import { compareKnownFailures, failuresOf, keepKnownReasons, KNOWN_FAILURES_PATH, readKnownFailures, writeKnownFailures } from "./known-failures.js";
import { summarizeReason } from "./reason-summary.js";
import { runSuites, type PartReport, type RunReport } from "./runner.js";

/** Minimum percentage of passed cases per part (`suite/part`, or `suite/*` for every part of a suite). */
const THRESHOLDS: readonly (readonly [string, number])[] = [
  ["idl/valid", 100],
  ["idl/flattened", 100],
  ["idl/invalid", 100],
  ["idl/invalid-position", 90],
  ["idl/errorfiles", 90],
  ["models/*", 100],
];

const corpus = chooseCorpus(undefined, process.env, process.cwd());
const present = isCorpus(corpus.path);
const title = present ? `conformance against ${corpus.path}` : `conformance: SKIPPED, corpus not found at ${corpus.path} (set ANVIL_CORPUS=DIR)`;

describe.skipIf(!present)(title, () => {
  let report: RunReport;

  beforeAll(async () => {
    // Imported here so that a missing corpus skips cleanly even before the loader builds.
    const { SUITES } = await import("./registry.js");
    report = await runSuites(SUITES, corpus.path);
  }, 600_000);

  const partsFor = (key: string): PartReport[] => {
    const [suite, part] = key.split("/");
    return report.parts.filter((p) => p.suite === suite && (part === "*" || p.part === part));
  };

  it.each(THRESHOLDS)("%s: at least %d percent of the cases pass", (key, min) => {
    const parts = partsFor(key);
    expect(parts.length, `no part matches ${key}`).toBeGreaterThan(0);
    for (const p of parts) {
      const total = p.counts.passed + p.counts.failed + p.counts.skipped;
      expect(total, `${p.suite}/${p.part} has no cases`).toBeGreaterThan(0);
      const failures = p.results
        .filter((r) => r.status !== "passed")
        .slice(0, 10)
        .map((r) => `  ${r.case}: ${summarizeReason(r.reason ?? "", 160)}`)
        .join("\n");
      expect((100 * p.counts.passed) / total, `${p.suite}/${p.part}: ${p.counts.passed}/${total} passed, need ${min}%\n${failures}`).toBeGreaterThanOrEqual(
        min,
      );
    }
  });

  it("S5, E1: every restJson1 httpMalformedRequestTests case (the validation models' too) runs, and passes but the known failures", () => {
    const part = report.parts.find((p) => p.suite === "restJson1" && p.part === "malformed/server");
    expect(part, "no restJson1 malformed/server part").toBeDefined();
    const { passed, failed, skipped } = part!.counts;
    expect([passed + failed > 600, skipped]).toEqual([true, 0]);
    const known = Object.keys(readKnownFailures()["restJson1/malformed/server"] ?? {});
    const failing = part!.results.filter((r) => r.status === "failed").map((r) => r.case);
    expect(failing.filter((name) => !known.includes(name))).toEqual([]);
  });

  it("failing cases equal known-failures.json", () => {
    const actual = failuresOf(report);
    if (process.env["UPDATE_KNOWN_FAILURES"] === "1") {
      writeKnownFailures(keepKnownReasons(readKnownFailures(), actual));
      return;
    }
    const diff = compareKnownFailures(readKnownFailures(), actual);
    const message = [
      `the failing cases differ from ${KNOWN_FAILURES_PATH}`,
      diff.unexpectedFailures.length > 0 ? `new failures:\n  ${diff.unexpectedFailures.join("\n  ")}` : "",
      diff.fixed.length > 0 ? `now passing (remove from the file):\n  ${diff.fixed.join("\n  ")}` : "",
      "after a deliberate change: UPDATE_KNOWN_FAILURES=1 npx vitest run src/conformance.test.ts",
    ]
      .filter((l) => l !== "")
      .join("\n");
    expect(diff, message).toEqual({ unexpectedFailures: [], fixed: [] });
  });
});
