import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..", "..");

/** Every `code span` of a Markdown text that names a path in this repository (it starts with one of its top-level folders; globs and placeholders left out). */
function repositoryPaths(markdown: string): string[] {
  const paths = new Set<string>();
  for (const [, span] of markdown.matchAll(/`([^`\s]+)`/g)) {
    if (/[*<>{}]/.test(span!)) continue;
    if (/^(packages|apps|tooling|\.ci|\.changeset)\//.test(span!) || /^[A-Z]+\.md$/.test(span!)) paths.add(span!.replace(/[.,:;]$/, ""));
  }
  return [...paths].sort();
}

describe("the contributor documents point at real files", () => {
  it("finds the paths a document names", () => {
    expect(repositoryPaths("see `packages/core/src/index.ts`, `BENCHMARKS.md`, `apps/*` and `npm test` (`--flag`)")).toEqual([
      "BENCHMARKS.md",
      "packages/core/src/index.ts",
    ]);
  });

  it.each(["ARCHITECTURE.md", "CONTRIBUTING.md", "RELIABILITY.md"])("every path %s names exists", (doc) => {
    const paths = repositoryPaths(readFileSync(join(root, doc), "utf8"));
    expect(paths.length).toBeGreaterThan(doc === "ARCHITECTURE.md" ? 30 : 3);
    expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });
});
