import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { astCommand, generateCommand, validateCommand } from "./commands.js";

const weatherModel = join(import.meta.dirname, "__fixtures__", "weather");

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
  it("accepts a weather model and summarizes it", () => {
    const { io, out } = capture();
    expect(validateCommand(parseArgs(["validate", "--model", weatherModel, "--summary"]), io)).toBe(0);
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
    expect(astCommand(parseArgs(["ast", "--model", weatherModel, "--out", outFile]), io)).toBe(0);
    const ast = JSON.parse(readFileSync(outFile, "utf8")) as { smithy: string; shapes: Record<string, unknown> };
    expect(ast.smithy).toBe("2.0");
    expect(Object.keys(ast.shapes)).toContain("example.weather#Weather");
    expect(Object.keys(ast.shapes).every((id) => id.startsWith("example.weather#"))).toBe(true);
  });
});

describe("anvil generate", () => {
  it("writes each service's files, then leaves unchanged files alone, and --check reports drift", () => {
    const out = join(mkdtempSync(join(tmpdir(), "anvil-gen-")), "gen");
    const run = (...extra: string[]) => {
      const c = capture();
      const code = generateCommand(parseArgs(["generate", "--model", weatherModel, "--out", out, "--client", ...extra]), c.io);
      return { code, ...c };
    };
    const first = run();
    expect(first.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      "example.weather.shapes.ts",
      "smithy.framework.shapes.ts",
      "weather.client.ts",
      "weather.server.ts",
      "weather.ts",
    ]);
    expect(first.out.at(-1)).toMatch(/^✓ generated 5 files for 1 service \(example\.weather#Weather\) in .*gen: 5 written, 0 unchanged/);
    expect(run().out.at(-1)).toMatch(/0 written, 5 unchanged/);
    expect(run("--check").code).toBe(0);
    writeFileSync(join(out, "weather.ts"), "// edited\n");
    const check = run("--check");
    expect(check.code).toBe(1);
    expect(check.err.join("\n")).toMatch(/weather\.ts is out of date/);
    expect(readFileSync(join(out, "weather.ts"), "utf8")).toBe("// edited\n");
  });

  it("builds from a smithy-build.json whose Maven dependencies are the bundled trait packages", () => {
    const dir = mkdtempSync(join(tmpdir(), "anvil-sb-"));
    mkdirSync(join(dir, "model"));
    writeFileSync(
      join(dir, "model", "svc.smithy"),
      `$version: "2.0"\nnamespace ex\nuse alloy#simpleRestJson\n@simpleRestJson\nservice Svc { operations: [Ping] }\n@http(method: "GET", uri: "/ping")\noperation Ping {}\n`,
    );
    writeFileSync(
      join(dir, "smithy-build.json"),
      JSON.stringify({
        version: "1.0",
        sources: ["model"],
        maven: { dependencies: ["com.disneystreaming.alloy:alloy-core:0.3.38"] },
        plugins: { anvil: { out: "generated", client: true } },
      }),
    );
    const { io, err } = capture();
    expect(generateCommand(parseArgs(["generate", "--config", join(dir, "smithy-build.json")]), io)).toBe(0);
    expect(err).toEqual([]);
    expect(readdirSync(join(dir, "generated")).sort()).toEqual(["svc.client.ts", "svc.server.ts", "svc.ts"]);
  });

  it("prints model errors as path:line:col, writes nothing and exits 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "anvil-gen-bad-"));
    const file = join(dir, "bad.smithy");
    writeFileSync(file, `$version: "2.0"\nnamespace ex\n\nservice S { operations: [Op] }\noperation Op { input: Missing }\n`);
    const { io, err } = capture();
    expect(generateCommand(parseArgs(["generate", "--model", file, "--out", join(dir, "gen")]), io)).toBe(1);
    expect(err.join("\n")).toMatch(/bad\.smithy:5:\d+: error: .*ex#Missing/);
    expect(existsSync(join(dir, "gen"))).toBe(false);
  });

  it("reports progress through io.progress (the CLI shows it on a terminal) and clears it at the end", () => {
    const progress: (string | undefined)[] = [];
    const { io } = capture();
    const out = join(mkdtempSync(join(tmpdir(), "anvil-progress-")), "gen");
    expect(generateCommand(parseArgs(["generate", "--model", weatherModel, "--out", out]), { ...io, progress: (t) => progress.push(t) })).toBe(0);
    expect(progress[0]).toMatch(/^anvil: loading /);
    expect(progress).toContain("anvil: generated example.weather#Weather (1/1)");
    expect(progress.at(-1)).toBeUndefined();
  });

  it("says what is missing from the settings", () => {
    const { io, err } = capture();
    expect(generateCommand(parseArgs(["generate", "--model", weatherModel]), io)).toBe(2);
    expect(err.join("\n")).toContain("no output folder given");
  });
});
