import { describe, expect, it } from "vitest";
import { parseArgs, usage } from "./args.js";

describe("parseArgs", () => {
  it.each([
    { argv: [], want: { suite: "all", maxFailures: 20, help: false } },
    { argv: ["--suite", "idl"], want: { suite: "idl", maxFailures: 20, help: false } },
    { argv: ["--suite=models", "--corpus=/c"], want: { suite: "models", corpus: "/c", maxFailures: 20, help: false } },
    {
      argv: ["--corpus", "dir", "--json", "out.json", "--suite", "all"],
      want: { suite: "all", corpus: "dir", json: "out.json", maxFailures: 20, help: false },
    },
    { argv: ["--max-failures", "5"], want: { suite: "all", maxFailures: 5, help: false } },
    { argv: ["--max-failures=all"], want: { suite: "all", maxFailures: Number.POSITIVE_INFINITY, help: false } },
    { argv: ["-h"], want: { suite: "all", maxFailures: 20, help: true } },
    { argv: ["--help", "--suite", "idl"], want: { suite: "idl", maxFailures: 20, help: true } },
  ])("$argv", ({ argv, want }) => {
    expect(parseArgs(argv)).toEqual({ ok: true, args: want });
  });

  it.each([
    { argv: ["--suite"], error: "--suite needs a value" },
    { argv: ["--suite", "--json", "x"], error: "--suite needs a value" },
    { argv: ["--suite="], error: "--suite needs a value" },
    { argv: ["--bogus"], error: "unknown argument: --bogus" },
    { argv: ["idl"], error: "unknown argument: idl" },
    { argv: ["--suite", "a", "--suite", "b"], error: "--suite given more than once" },
    { argv: ["--max-failures", "lots"], error: '--max-failures must be a number or "all", got: lots' },
  ])("rejects $argv", ({ argv, error }) => {
    expect(parseArgs(argv)).toEqual({ ok: false, error });
  });

  it("a value may start with a single dash", () => {
    expect(parseArgs(["--corpus", "-weird"])).toMatchObject({ ok: true, args: { corpus: "-weird" } });
  });
});

describe("usage", () => {
  it("lists the suites", () => {
    expect(usage(["idl", "models"])).toContain("all (default), idl, models");
  });
});
