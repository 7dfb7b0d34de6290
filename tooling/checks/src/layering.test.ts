import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anvilImports, checkLayering, workspacePackages } from "./layering.js";

const root = join(import.meta.dirname, "..", "..", "..");

describe("layering", () => {
  it("finds the workspace packages", () => {
    const names = workspacePackages(root).map((p) => p.name);
    expect(names).toContain("@anvil/model");
    expect(names).toContain("@anvil/codegen");
  });

  it("no package imports one it may not", () => {
    const violations = checkLayering(root).map((v) => `${v.where}: ${v.pkg} imports ${v.imported}`);
    expect(violations).toEqual([]);
  });

  it.each([
    [`import { a } from "@anvil/core";`, ["@anvil/core"]],
    [`import type { A } from "@anvil/core/codegen";`, ["@anvil/core"]],
    [`export { x } from '@anvil/model';`, ["@anvil/model"]],
    [`const m = await import("@anvil/server");`, ["@anvil/server"]],
    [`import "@anvil/fakes";`, ["@anvil/fakes"]],
    [`import { readFileSync } from "node:fs";`, []],
  ])("reads imports from %s", (text, expected) => {
    expect(anvilImports(text)).toEqual(expected);
  });
});
