/**
 * Helpers for the generator's tests: generate into a scratch folder inside
 * this package (so `@anvil/core` resolves from the generated files) and
 * type-check the result with the TypeScript compiler.
 *
 * @internal
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { loadModel, type Model } from "@anvil/model";
import { generate, type GenerateOptions, type GenerateResult } from "./generate.js";

/** The package root. */
export const PACKAGE_ROOT = join(import.meta.dirname, "..", "..");
/** The example service's model (apps/example: it grows with the product). */
export const EXAMPLE_MODEL = join(PACKAGE_ROOT, "..", "..", "apps", "example", "model");
/** A small, stable weather model (the example's first version) for tests and the README's snippets. */
export const WEATHER_MODEL = join(PACKAGE_ROOT, "src", "__fixtures__", "weather");
/** The generator's own rich fixture model. */
export const RICH_MODEL = join(PACKAGE_ROOT, "src", "__fixtures__", "rich");

/** Loads a model, failing loudly on errors. */
export function loadOrThrow(paths: string[]): Model {
  const { model, events } = loadModel({ paths });
  const errors = events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER");
  if (errors.length) throw new Error(`model errors: ${errors.map((e) => e.message).join("; ")}`);
  return model;
}

/** A fresh scratch folder under `.test-out/`. */
export function scratchDir(name: string): string {
  const dir = join(PACKAGE_ROOT, ".test-out", `${name}-${process.pid}-${Date.now()}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Generates a model into a folder; returns the result. */
export function generateInto(dir: string, model: Model, options: Partial<GenerateOptions> = {}): GenerateResult {
  const result = generate(model, options);
  for (const f of result.files) writeFileSync(join(dir, f.path), f.text);
  return result;
}

/**
 * Type-checks TypeScript files the way the repository compiles (strict,
 * exactOptionalPropertyTypes, unused names and implicit returns refused,
 * declarations on), plus `isolatedDeclarations` (every export has an
 * explicit type).
 */
export function typeCheck(files: readonly string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    strict: true,
    exactOptionalPropertyTypes: true,
    noImplicitOverride: true,
    noFallthroughCasesInSwitch: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noImplicitReturns: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    skipLibCheck: true,
    declaration: true,
    isolatedDeclarations: true,
    emitDeclarationOnly: true,
    types: [],
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.getDeclarationDiagnostics()];
  return diagnostics.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file || d.start === undefined) return text;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName}:${line + 1}:${character + 1}: ${text}`;
  });
}
