import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { loadModel, modelToJsonAst, stringifyNode } from "./index.js";

const valid = join(import.meta.dirname, "../../../../shared/conformance/idl/valid");

function smithyFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...smithyFiles(path));
    else if (name.endsWith(".smithy")) out.push(path);
  }
  return out;
}

const shared = join(valid, "__shared.json");
const cases = existsSync(valid) ? smithyFiles(valid).map((f) => [relative(valid, f), f] as const) : [];

describe.skipIf(cases.length === 0)("JSON AST writer round trip over the corpus's valid models", () => {
  it.each(cases)("%s: IDL → AST → load → AST is stable", (_name, file) => {
    const first = loadModel({ paths: [file, shared], bundledTraits: false });
    expect(first.events.filter((e) => e.severity === "ERROR")).toEqual([]);
    const ast = modelToJsonAst(first.model);
    const second = loadModel({ sources: [{ file: "roundtrip.json", text: stringifyNode(ast) }], bundledTraits: false });
    expect(second.events.filter((e) => e.severity === "ERROR")).toEqual([]);
    expect(modelToJsonAst(second.model)).toEqual(ast);
  });
});
