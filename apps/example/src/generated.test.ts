/**
 * The generated code is committed: regenerating it from the model
 * (`anvil generate`, settings in anvil.config.json) must change nothing.
 * When this fails, run `pnpm --filter @anvil/example generate` and commit.
 * And it declares each shape once, whichever of the three services use it.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const app = join(import.meta.dirname, "..");
const cli = join(app, "node_modules", "@anvil", "codegen", "dist", "cli.js");

function anvil(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: app, encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe("generated code", () => {
  it("is what `anvil generate` makes of the model today", () => {
    const { status, output } = anvil("generate", "--check");
    expect(output).toContain("15 generated files are up to date");
    expect(status).toBe(0);
  });

  it("fails the check when a generated file is edited or missing", () => {
    const copy = mkdtempSync(join(tmpdir(), "anvil-example-generated-"));
    try {
      cpSync(join(app, "src", "generated"), copy, { recursive: true });
      appendFileSync(join(copy, "weather.ts"), "// edited by hand\n");
      unlinkSync(join(copy, "simple-weather.client.ts"));
      const { status, output } = anvil("generate", "--check", "--out", copy);
      expect(status).toBe(1);
      expect(output).toContain("weather.ts is out of date");
      expect(output).toContain("simple-weather.client.ts is out of date");
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe("the generated shapes", () => {
  const dir = join(app, "src", "generated");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort();
  /** The names each file declares and exports. */
  const exported = new Map(
    files.map((f) => [f, [...readFileSync(join(dir, f), "utf8").matchAll(/^export (?:const|type|interface|class) (\w+)/gm)].map((m) => m[1]!)]),
  );

  it("are declared once: no other file exports a name a shapes file exports", () => {
    const shapesFiles = files.filter((f) => f.endsWith(".shapes.ts"));
    expect(shapesFiles).toEqual(["example.weather.shapes.ts", "smithy.framework.shapes.ts"]);
    const owners = new Map<string, string[]>();
    for (const [file, names] of exported) for (const name of new Set(names)) owners.set(name, [...(owners.get(name) ?? []), file]);
    for (const file of shapesFiles) {
      for (const name of exported.get(file)!) expect({ name, files: owners.get(name) }).toEqual({ name, files: [file] });
    }
  });

  it("are one schema and at most one error class per shape id, across every generated module", async () => {
    const schemas = new Map<string, string[]>();
    const classes = new Map<string, string[]>();
    const add = (map: Map<string, string[]>, id: string, at: string) => map.set(id, [...(map.get(id) ?? []), at]);
    for (const file of files) {
      const module = (await import(join(dir, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        const at = `${file} ${name}`;
        const schemaOfClass = typeof value === "function" ? (value as { schema?: unknown }).schema : undefined;
        if (isSchema(schemaOfClass)) add(classes, schemaOfClass.id, at);
        // Operations and services are per service; every other schema is a shape's.
        else if (isSchema(value) && value.kind !== "operation" && value.kind !== "service") add(schemas, value.id, at);
      }
    }
    expect(schemas.size).toBeGreaterThan(40);
    expect(classes.size).toBeGreaterThan(3);
    for (const [id, at] of schemas) expect({ id, at }).toEqual({ id, at: [expect.stringMatching(/\.shapes\.ts /)] });
    for (const [id, at] of classes) expect({ id, at }).toEqual({ id, at: [expect.stringMatching(/\.shapes\.ts /)] });
  });
});

function isSchema(value: unknown): value is { kind: string; id: string } {
  return (
    typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "string" && typeof (value as { id?: unknown }).id === "string"
  );
}
