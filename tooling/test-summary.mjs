#!/usr/bin/env node
// Sums the vitest JSON reports of every package and app into one line:
// "tests: N passed, N failed, N skipped". Exits 1 when a test failed or none ran.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
let passed = 0,
  failed = 0,
  skipped = 0,
  reports = 0;
const failures = [];
for (const group of ["packages", "apps", "tooling"]) {
  const base = join(root, group);
  if (!existsSync(base)) continue;
  for (const name of readdirSync(base)) {
    const file = join(base, name, ".vitest", "results.json");
    if (!existsSync(file)) continue;
    const r = JSON.parse(readFileSync(file, "utf8"));
    reports++;
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    if ((r.numFailedTestSuites ?? 0) > 0 && (r.numFailedTests ?? 0) === 0) failed += r.numFailedTestSuites;
    for (const suite of r.testResults ?? [])
      for (const t of suite.assertionResults ?? []) if (t.status === "failed") failures.push(`${group}/${name}: ${t.fullName}`);
  }
}
const quiet = process.argv.includes("--quiet");
if (failures.length && !quiet) console.log(`\nfailed tests:\n  ${failures.join("\n  ")}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(reports === 0 || passed === 0 || failed > 0 ? 1 : 0);
