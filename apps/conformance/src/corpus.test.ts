import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, chooseCorpus, defaultCorpusPath, isCorpus, missingCorpusMessage } from "./corpus.js";

describe("REPO_ROOT", () => {
  it("is the monorepo root, found from the file location", () => {
    expect(resolve(REPO_ROOT, "apps", "conformance")).toBe(resolve(import.meta.dirname, ".."));
  });
});

describe("chooseCorpus", () => {
  const root = "/repo/main";
  it.each([
    { flag: "/abs", env: {}, want: { path: "/abs", source: "--corpus" } },
    { flag: "rel", env: { ANVIL_CORPUS: "/env" }, want: { path: "/cwd/rel", source: "--corpus" } },
    { flag: undefined, env: { ANVIL_CORPUS: "/env" }, want: { path: "/env", source: "ANVIL_CORPUS" } },
    { flag: undefined, env: { ANVIL_CORPUS: "" }, want: { path: "/repo/shared/conformance", source: "default" } },
    { flag: undefined, env: {}, want: { path: "/repo/shared/conformance", source: "default" } },
  ])("flag $flag, env $env", ({ flag, env, want }) => {
    expect(chooseCorpus(flag, env, "/cwd", root)).toEqual(want);
  });

  it("defaults next to the repository", () => {
    expect(defaultCorpusPath("/x/main")).toBe("/x/shared/conformance");
  });
});

describe("isCorpus and missingCorpusMessage", () => {
  const dir = mkdtempSync(join(tmpdir(), "anvil-corpus-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("needs idl/ or protocol-tests/", () => {
    expect(isCorpus(dir)).toBe(false);
    mkdirSync(join(dir, "idl"));
    expect(isCorpus(dir)).toBe(true);
  });

  it.each([
    { source: "default" as const, path: "/no/such/dir", says: ["/no/such/dir", "does not exist", "default location"] },
    { source: "--corpus" as const, path: "/no/such/dir", says: ["the --corpus option"] },
    { source: "ANVIL_CORPUS" as const, path: "/no/such/dir", says: ["ANVIL_CORPUS environment variable"] },
  ])("says what was tried ($source)", ({ source, path, says }) => {
    const text = missingCorpusMessage({ path, source });
    for (const s of says) expect(text).toContain(s);
    expect(text).toContain("--corpus DIR");
  });

  it("says when a folder is not a corpus", () => {
    expect(missingCorpusMessage({ path: tmpdir(), source: "--corpus" })).toContain("is not a conformance corpus");
  });
});
