import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isModelFile, modelFilesOf, parseManifest } from "./manifest.js";

describe("parseManifest", () => {
  it.each([
    ["a.smithy\nsub/b.smithy\n", ["a.smithy", "sub/b.smithy"]],
    ["a.smithy\r\n\r\n  c.json  \n", ["a.smithy", "c.json"]],
    ["", []],
  ])("%j", (text, want) => {
    expect(parseManifest(text)).toEqual(want);
  });
});

describe("isModelFile", () => {
  it.each([
    ["x.smithy", true],
    ["x.json", true],
    ["manifest", false],
    ["x.errors", false],
  ])("%s", (name, want) => expect(isModelFile(name)).toBe(want));
});

describe("modelFilesOf", () => {
  const dir = mkdtempSync(join(tmpdir(), "anvil-manifest-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "with", "sub"), { recursive: true });
  mkdirSync(join(dir, "without", "sub"), { recursive: true });
  for (const f of ["with/a.smithy", "with/sub/b.smithy", "with/extra.smithy", "without/b.smithy", "without/sub/a.json", "without/notes.txt"]) {
    writeFileSync(join(dir, f), "");
  }
  writeFileSync(join(dir, "with", "manifest"), "sub/b.smithy\na.smithy\n");

  it("uses the manifest when there is one", () => {
    expect(modelFilesOf(join(dir, "with"))).toEqual([join(dir, "with", "sub", "b.smithy"), join(dir, "with", "a.smithy")]);
  });

  it("lists model files recursively, sorted, otherwise", () => {
    expect(modelFilesOf(join(dir, "without"))).toEqual([join(dir, "without", "b.smithy"), join(dir, "without", "sub", "a.json")]);
  });
});
