import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { astCommand, validateCommand } from "./commands.js";

const example = join(import.meta.dirname, "..", "..", "..", "apps", "example", "model");

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe("parseArgs", () => {
  it.each([
    [["validate", "--model", "a", "b", "--summary"], { command: "validate", models: ["a", "b"], flags: ["--summary"] }],
    [["ast", "-m", "x.smithy", "--out", "o.json"], { command: "ast", models: ["x.smithy"], flags: ["--out"] }],
    [["validate", "--model", "a", "--model", "b"], { command: "validate", models: ["a", "b"], flags: [] }],
  ])("parses %j", (argv, expected) => {
    const parsed = parseArgs(argv);
    expect(parsed.command).toBe(expected.command);
    expect(parsed.models).toEqual(expected.models);
    expect([...parsed.flags.keys()]).toEqual(expected.flags);
  });

  it("reports a flag missing its value", () => {
    expect(parseArgs(["ast", "--out"]).errors).toEqual(["--out needs a value"]);
  });
});

describe("anvil validate", () => {
  it("accepts the example model and summarizes it", () => {
    const { io, out } = capture();
    expect(validateCommand(parseArgs(["validate", "--model", example, "--summary"]), io)).toBe(0);
    const text = out.join("\n");
    expect(text).toContain("example.weather#Weather (version 2024-06-01)");
    expect(text).toContain("aws.protocols#restJson1");
    expect(text).toContain("GetForecast");
    expect(text).toMatch(/✓ valid: 0 errors/);
  });

  it("prints errors as path:line:col and exits 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "anvil-cli-"));
    const file = join(dir, "bad.smithy");
    writeFileSync(file, `$version: "2.0"\nnamespace ex\n\nstructure S {\n    a: Missing\n}\n`);
    const { io, out } = capture();
    const prev = process.cwd();
    process.chdir(dir);
    try {
      expect(validateCommand(parseArgs(["validate", "--model", file]), io)).toBe(1);
    } finally {
      process.chdir(prev);
    }
    expect(out[1]).toMatch(/^bad\.smithy:5:5: error: .*ex#Missing.* \[Target\]$/);
    expect(out[2]).toBe("    5 |     a: Missing\n      |     ^");
    expect(out.at(-1)).toMatch(/✗ invalid: 1 error/);
  });

  it("says what is wrong when no model is given", () => {
    const { io, err } = capture();
    expect(validateCommand(parseArgs(["validate"]), io)).toBe(2);
    expect(err.join("\n")).toContain("--model");
  });
});

describe("anvil ast", () => {
  it("writes the JSON AST of the user's shapes only", () => {
    const dir = mkdtempSync(join(tmpdir(), "anvil-ast-"));
    const outFile = join(dir, "model.json");
    const { io } = capture();
    expect(astCommand(parseArgs(["ast", "--model", example, "--out", outFile]), io)).toBe(0);
    const ast = JSON.parse(readFileSync(outFile, "utf8")) as { smithy: string; shapes: Record<string, unknown> };
    expect(ast.smithy).toBe("2.0");
    expect(Object.keys(ast.shapes)).toContain("example.weather#Weather");
    expect(Object.keys(ast.shapes).every((id) => id.startsWith("example.weather#"))).toBe(true);
  });
});
