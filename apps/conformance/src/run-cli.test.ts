import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fakeSuite } from "./report-fixtures.js";
import { runCli } from "./run-cli.js";
import { failed, passed, type Suite } from "./suite.js";

const corpus = mkdtempSync(join(tmpdir(), "anvil-cli-"));
mkdirSync(join(corpus, "idl"));
afterAll(() => rmSync(corpus, { recursive: true, force: true }));

const suites: Suite[] = [fakeSuite("good", { p: [passed("a")] }), fakeSuite("bad", { q: [passed("b"), failed("c", "reason c")] })];

async function cli(argv: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const status = await runCli({
    argv,
    env,
    cwd: corpus,
    suites,
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { status, stdout, stderr };
}

describe("runCli", () => {
  it.each([
    { argv: ["--suite", "good"], status: 0, last: "1 passed, 0 failed, 0 skipped" },
    { argv: ["--suite", "bad"], status: 1, last: "1 passed, 1 failed, 0 skipped" },
    { argv: ["--suite", "all"], status: 1, last: "2 passed, 1 failed, 0 skipped" },
    { argv: [], status: 1, last: "2 passed, 1 failed, 0 skipped" },
  ])("$argv -> exit $status", async ({ argv, status, last }) => {
    const r = await cli([...argv, "--corpus", corpus]);
    expect(r.status).toBe(status);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe(last);
  });

  it("lists failures with reasons", async () => {
    const r = await cli(["--corpus", corpus]);
    expect(r.stdout).toContain("bad/q: 1 failed\n  - c: reason c");
  });

  it("takes the corpus from ANVIL_CORPUS", async () => {
    const r = await cli(["--suite", "good"], { ANVIL_CORPUS: corpus });
    expect(r.status).toBe(0);
  });

  it("exits 2 with a clear message when the corpus is missing", async () => {
    const r = await cli(["--corpus", join(corpus, "nope")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(join(corpus, "nope"));
    expect(r.stderr).toContain("--corpus DIR");
    expect(r.stdout).toBe("");
  });

  it.each([
    { argv: ["--suite", "nope"], message: 'unknown suite "nope". Available: all, good, bad' },
    { argv: ["--frobnicate"], message: "unknown argument: --frobnicate" },
  ])("exits 2 for $argv", async ({ argv, message }) => {
    const r = await cli([...argv, "--corpus", corpus]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it("prints help", async () => {
    const r = await cli(["--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("usage: anvil-conformance");
  });

  it("writes the JSON report relative to the cwd", async () => {
    const r = await cli(["--corpus", corpus, "--json", "out/report.json"]);
    expect(r.status).toBe(1);
    const json = JSON.parse(readFileSync(join(corpus, "out", "report.json"), "utf8"));
    expect(json.suites.bad).toEqual({
      passed: 1,
      failed: 1,
      skipped: 0,
      parts: { q: { passed: 1, failed: 1, skipped: 0, failures: [{ case: "c", reason: "reason c" }] } },
    });
  });
});
