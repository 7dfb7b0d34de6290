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

  describe("the REST JSON protocol rules", () => {
    /** Validates one model file from its own folder, so locations print relative to it. */
    const validate = (text: string) => {
      const dir = mkdtempSync(join(tmpdir(), "anvil-cli-rest-"));
      writeFileSync(join(dir, "svc.smithy"), `$version: "2.0"\nnamespace ex\n${text}`);
      const { io, out } = capture();
      const prev = process.cwd();
      process.chdir(dir);
      try {
        return { code: validateCommand(parseArgs(["validate", "--model", "svc.smithy"]), io), out };
      } finally {
        process.chdir(prev);
      }
    };

    it("shows an alloy JSON trait a restJson1-only service ignores as a warning, and exits 0", () => {
      const { code, out } = validate(
        `use aws.protocols#restJson1\nuse alloy#discriminated\n@restJson1\nservice Api { operations: [Draw] }\n` +
          `@http(method: "POST", uri: "/draw")\noperation Draw { input := { shape: Shape } }\n@discriminated("kind")\nunion Shape { circle: Circle }\nstructure Circle {}\n`,
      );
      expect(code).toBe(0);
      expect(out[1]).toMatch(
        /^svc\.smithy:10:1: warning: `ex#Shape` has @alloy#discriminated, which only alloy#simpleRestJson honours: service `ex#Api`, which uses it, declares restJson1 and not simpleRestJson, .*Declare @simpleRestJson on the service .* \(ex#Shape\) \[AnvilRestJson1\.IgnoredAlloyTrait\]$/,
      );
      expect(out[2]).toBe("   10 | union Shape { circle: Circle }\n      | ^");
      expect(out.at(-1)).toBe("✓ valid: 0 errors, 1 warning");
    });

    it("prints a @streaming member of a simpleRestJson service as an error at file:line:col, and exits 1", () => {
      const { code, out } = validate(
        `use alloy#simpleRestJson\n@simpleRestJson\nservice Api { operations: [Upload] }\n` +
          `@http(method: "PUT", uri: "/upload")\noperation Upload {\n    input := {\n        @httpPayload\n        body: Body\n    }\n}\n@streaming\nblob Body\n`,
      );
      expect(code).toBe(1);
      expect(out[1]).toMatch(
        /^svc\.smithy:10:9: error: Operation `ex#Upload` streams: its input member `body` targets the @streaming blob `ex#Body`, but service `ex#Api` declares alloy#simpleRestJson, which defines no streaming: .* \[AnvilSimpleRestJson\.Streaming\]$/,
      );
      expect(out.at(-1)).toBe("✗ invalid: 1 error, 0 warnings");
    });
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

  it("prints one warning line per operation without @examples, at its file:line:col, with --fakes, and still writes", () => {
    const dir = mkdtempSync(join(tmpdir(), "anvil-gen-fakes-"));
    const ops = Array.from({ length: 30 }, (_, i) => `Op${i}`);
    writeFileSync(
      join(dir, "svc.smithy"),
      `$version: "2.0"\nnamespace ex\nuse aws.protocols#restJson1\n@restJson1\nservice Svc { operations: [${ops.join(", ")}] }\n` +
        ops.map((op, i) => `@readonly @http(method: "GET", uri: "/${i}")\noperation ${op} { output := { n: Integer } }\n`).join(""),
    );
    const { io, err, out } = capture();
    const prev = process.cwd();
    process.chdir(dir);
    try {
      expect(generateCommand(parseArgs(["generate", "--model", "svc.smithy", "--out", "gen", "--fakes"]), io)).toBe(0);
    } finally {
      process.chdir(prev);
    }
    // Operation i is declared on line 7 + 2i; every warning is one line, none summarizes.
    expect(err).toEqual(
      ops.map(
        (op, i) =>
          `svc.smithy:${7 + 2 * i}:1: warning: operation \`ex#${op}\` has no @examples: its fake answers a synthesized output (add @examples for realistic answers) (ex#${op}) [CodegenFakes.NoExamples]`,
      ),
    );
    expect(out.at(-1)).toMatch(/^✓ generated \d+ files for 1 service/);
    expect(readdirSync(join(dir, "gen"))).toContain("svc.fakes.ts");
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
