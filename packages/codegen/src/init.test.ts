import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadModel, serviceProtocols } from "@anvil/model";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { initCommand, validateCommand } from "./commands.js";
import { anvilVersions, INIT_ANVIL_PACKAGES, pascalCase, planInit, type InitFile } from "./init.js";

const REPO = resolve(import.meta.dirname, "..", "..", "..");
const OWN = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
};

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

const scratch = () => mkdtempSync(join(tmpdir(), "anvil-init-"));

function plan(dir: string, options: { name?: string; anvilFrom?: string } = {}): readonly InitFile[] {
  const result = planInit({ dir, ...options });
  if (!result.ok) throw new Error(result.error);
  return result.files;
}

const fileOf = (files: readonly InitFile[], path: string) => files.find((f) => f.path === path)!.text;

describe("planInit", () => {
  const files = plan("/somewhere/my-tasks");

  it("writes a complete project", () => {
    expect(files.map((f) => f.path)).toEqual([
      ".gitignore",
      "README.md",
      "anvil.config.json",
      "model/service.smithy",
      "package.json",
      "src/handlers.ts",
      "src/main.ts",
      "src/server.ts",
      "src/service.test.ts",
      "tsconfig.build.json",
      "tsconfig.json",
      "vitest.config.ts",
    ]);
  });

  it("fills in every placeholder", () => {
    for (const f of files) expect(f.text, f.path).not.toMatch(/\{\{[^{}]*\}\}/);
    expect(fileOf(files, "model/service.smithy")).toContain("service MyTasks {");
    expect(fileOf(files, "model/service.smithy")).toContain("namespace example.mytasks");
    expect(fileOf(files, "src/handlers.ts")).toContain('from "./generated/my-tasks.server.js"');
    expect(fileOf(files, "src/main.ts")).toContain("x-amz-target: MyTasks.GetTask");
  });

  it("writes a package.json with the scripts and registry versions of the @anvil packages", () => {
    const pkg = JSON.parse(fileOf(files, "package.json")) as Record<string, Record<string, string>>;
    expect(pkg.name).toBe("my-tasks");
    expect(Object.keys(pkg.scripts!)).toEqual(["generate", "build", "start", "test"]);
    const all = { ...pkg.dependencies, ...pkg.devDependencies };
    // Each package at its own version, as installed beside this anvil.
    for (const p of INIT_ANVIL_PACKAGES) {
      const own = JSON.parse(readFileSync(join(REPO, "packages", p, "package.json"), "utf8")) as { version: string };
      expect(all[`@anvil/${p}`]).toBe(`^${own.version}`);
    }
    expect(pkg.devDependencies!["@anvil/codegen"]).toBeDefined();
    // Tool versions follow this package's own pins.
    for (const tool of ["typescript", "vitest", "@types/node"]) expect(pkg.devDependencies![tool]).toBe(OWN.devDependencies[tool]);
  });

  it("writes a strict NodeNext tsconfig", () => {
    const { compilerOptions } = JSON.parse(fileOf(files, "tsconfig.json")) as { compilerOptions: Record<string, unknown> };
    expect(compilerOptions).toMatchObject({
      strict: true,
      exactOptionalPropertyTypes: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noImplicitReturns: true,
      module: "NodeNext",
      moduleResolution: "NodeNext",
    });
    // The build compiles the same sources, emitting, without the tests.
    expect(JSON.parse(fileOf(files, "tsconfig.build.json"))).toEqual({
      extends: "./tsconfig.json",
      compilerOptions: { noEmit: false },
      exclude: ["src/**/*.test.ts"],
    });
  });

  it("takes each package's version from its own manifest, not codegen's", () => {
    const versions = anvilVersions();
    expect([...versions.keys()]).toEqual([...INIT_ANVIL_PACKAGES]);
    expect(versions.get("codegen")).toBe(OWN.version);
    for (const v of versions.values()) expect(v).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("points the @anvil packages at a local checkout with --anvil-from", () => {
    const pkg = JSON.parse(fileOf(plan("/somewhere/x", { anvilFrom: REPO }), "package.json")) as Record<string, Record<string, string>>;
    const all = { ...pkg.dependencies, ...pkg.devDependencies };
    for (const p of INIT_ANVIL_PACKAGES) expect(all[`@anvil/${p}`]).toBe(`file:${join(REPO, "packages", p)}`);
  });

  it("refuses an --anvil-from that is not an Anvil checkout", () => {
    const result = planInit({ dir: "/somewhere/x", anvilFrom: tmpdir() });
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/^--anvil-from .*: not an Anvil checkout \(no @anvil\/client-core in /) });
  });

  it("takes the service name from --name, else from the folder", () => {
    expect(fileOf(plan("/somewhere/x", { name: "Inventory" }), "model/service.smithy")).toContain("service Inventory {");
    expect(planInit({ dir: "/somewhere/x", name: "inventory" })).toEqual({ ok: false, error: expect.stringContaining("PascalCase") });
    expect(planInit({ dir: "/somewhere/42" })).toEqual({ ok: false, error: expect.stringContaining("pass --name") });
  });

  it.each([
    ["my-tasks", "MyTasks"],
    ["todo_api.v2", "TodoApiV2"],
    ["Orders", "Orders"],
    ["9lives", undefined],
    ["---", undefined],
  ])("pascalCase(%j) is %j", (text, expected) => {
    expect(pascalCase(text)).toBe(expected);
  });

  it("writes a model that validates without warnings", () => {
    const dir = scratch();
    mkdirSync(join(dir, "model"));
    writeFileSync(join(dir, "model", "service.smithy"), fileOf(files, "model/service.smithy"));
    const { io, out } = capture();
    expect(validateCommand(parseArgs(["validate", "--model", join(dir, "model")]), io)).toBe(0);
    expect(out.at(-1)).toBe("✓ valid: 0 errors, 0 warnings");
  });

  it("declares restJson1 first, and names it the recommended protocol in the model and the README", () => {
    const { model, events } = loadModel({ sources: [{ file: "service.smithy", text: fileOf(files, "model/service.smithy") }] });
    expect(events.filter((e) => e.severity === "ERROR")).toEqual([]);
    expect(serviceProtocols(model, model.getShape("example.mytasks#MyTasks")!)[0]).toBe("aws.protocols#restJson1");
    expect(fileOf(files, "model/service.smithy")).toMatch(/restJson1 comes first: it is the recommended protocol for new services/);
    expect(fileOf(files, "README.md")).toMatch(/restJson1 is declared first: it is the recommended protocol for new\s+services/);
  });
});

describe("anvil init", () => {
  it("writes the project and prints the next steps", () => {
    const dir = join(scratch(), "orders");
    const { io, out, err } = capture();
    expect(initCommand(parseArgs(["init", dir]), io)).toBe(0);
    expect(err).toEqual([]);
    expect(existsSync(join(dir, "src", "handlers.ts"))).toBe(true);
    const text = out.join("\n");
    expect(text).toContain("✓ created the Orders service in");
    expect(text).toContain(`cd ${dir}\n  npm install\n  npm start`);
  });

  it("quotes a folder with spaces in the next steps, and skips `cd .`", () => {
    const dir = join(scratch(), "my tasks");
    const quoted = capture();
    expect(initCommand(parseArgs(["init", dir]), quoted.io)).toBe(0);
    expect(quoted.out.join("\n")).toContain(`cd '${dir}'\n`);

    const here = join(scratch(), "here");
    mkdirSync(here);
    const cwd = process.cwd();
    process.chdir(here);
    try {
      const local = capture();
      expect(initCommand(parseArgs(["init", "."]), local.io)).toBe(0);
      expect(local.out.join("\n")).toContain("✓ created the Here service in .:");
      expect(local.out.join("\n")).toContain("Next steps:\n  npm install\n");
    } finally {
      process.chdir(cwd);
    }
  });

  it("suggests plain npm with --anvil-from too", () => {
    const { io, out } = capture();
    expect(initCommand(parseArgs(["init", join(scratch(), "linked"), "--anvil-from", REPO]), io)).toBe(0);
    expect(out.join("\n")).toContain("npm install      # the @anvil packages link to the checkout (file: specs)");
  });

  it("refuses a folder that is not empty, and writes into it with --force", () => {
    const dir = scratch();
    writeFileSync(join(dir, "notes.txt"), "mine");
    writeFileSync(join(dir, "README.md"), "old");
    const refused = capture();
    expect(initCommand(parseArgs(["init", dir, "--name", "Orders"]), refused.io)).toBe(2);
    expect(refused.err).toEqual([
      `error: ${dir} is not empty (README.md, notes.txt); pick a new folder, or pass --force to write the project's files into it (files of the same name are overwritten)`,
    ]);
    expect(existsSync(join(dir, "package.json"))).toBe(false);

    const forced = capture();
    expect(initCommand(parseArgs(["init", dir, "--name", "Orders", "--force"]), forced.io)).toBe(0);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine");
    expect(readFileSync(join(dir, "README.md"), "utf8")).toContain("The `Orders` service");
  });

  it.each([
    [["init"], "error: no folder given; usage: anvil init <dir> [--name <Service>] [--force] [--anvil-from <checkout>]"],
    [["init", "a", "b"], "error: one folder only, not a, b; usage: anvil init <dir> [--name <Service>] [--force] [--anvil-from <checkout>]"],
  ])("refuses %j", (argv, message) => {
    const { io, err } = capture();
    expect(initCommand(parseArgs(argv), io)).toBe(2);
    expect(err).toEqual([message]);
  });

  it("refuses a file as the folder", () => {
    const file = join(scratch(), "file");
    writeFileSync(file, "");
    const { io, err } = capture();
    expect(initCommand(parseArgs(["init", file]), io)).toBe(2);
    expect(err).toEqual([`error: ${file} is a file, not a folder`]);
  });
});
